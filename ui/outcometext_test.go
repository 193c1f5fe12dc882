package ui

import (
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/journal"
)

// TestOutcomeTextEndsTheReason: the reason on the status line ends as a
// sentence before the count of comments (real window: "Reason sent to the
// agent: wrong func 2 comment(s) sent with it."), and a reason of several
// lines shows its first, not a status line lines high.
func TestOutcomeTextEndsTheReason(t *testing.T) {
	cs := []journal.Comment{{Text: "x"}, {Text: "y"}}
	for _, c := range []struct {
		o    review.Outcome
		want string
	}{
		{review.Outcome{Status: journal.Rejected, Feedback: "wrong func", Comments: cs},
			"Rejected; nothing was written. Reason sent to the agent: wrong func. 2 comment(s) sent with it."},
		{review.Outcome{Status: journal.Rejected, Feedback: "Why this?"},
			"Rejected; nothing was written. Reason sent to the agent: Why this?"},
		{review.Outcome{Status: journal.Rejected, Feedback: "too broad\nsplit it into two steps"},
			"Rejected; nothing was written. Reason sent to the agent: too broad …"},
		// A withdrawal's reason is the desk's, sent to no one (real window:
		// "Reason sent to the agent: the agent disconnected").
		{review.Outcome{Status: journal.Withdrawn, Feedback: "the agent disconnected"},
			"The agent withdrew this proposal. Why: the agent disconnected."},
		// A reviewer's overwrite over the protocol is said as what it was,
		// not as the raw status.
		{review.Outcome{Status: journal.Overwritten, Checkpoint: 4},
			"Approved over the change made on disk, as the reviewer chose, and written; what it replaced can be restored (checkpoint 4)."},
	} {
		if got := outcomeText(review.Proposal{}, c.o); got != c.want {
			t.Errorf("outcomeText = %q; want %q", got, c.want)
		}
	}
}

// TestWithdrawnWhileEditingSaysTheEditWasNotWritten: the agent withdraws
// the proposal the person is editing; the status line says the edit was
// not written (real window: it went without a word).
func TestWithdrawnWhileEditingSaysTheEditWasNotWritten(t *testing.T) {
	h := newHarness(t)
	h.write("x.txt", "x\n")
	p := h.propose("a", "s", engine.FormatWrite, "x.txt", "X\n")
	h.win.Select(p.ID)
	d := h.win.detail
	h.press('e')
	ed := d.view.Editor()
	if ed == nil {
		t.Fatal("e opened no editor")
	}
	ed.SetCursor(0, 1)
	h.typed(ed, " mine")
	if err := h.desk.Withdraw(t.Context(), p.ID, "the agent disconnected"); err != nil {
		t.Fatal(err)
	}
	h.until("the window has the outcome", func() bool { return d.outcome != nil })
	if !strings.Contains(d.status.Text, "withdrew") || !strings.Contains(d.status.Text, "Your edit of it was not written.") {
		t.Errorf("status %q; want the withdrawal and that the edit was not written", d.status.Text)
	}
	if h.read("x.txt") != "x\n" {
		t.Errorf("x.txt = %q; want it untouched", h.read("x.txt"))
	}
}
