package ui

import (
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
)

// TestANeverDoesNothingSilently: a on a proposal that streams, or on a
// held failure, says why it did not approve (real window: a during a
// stream did nothing, and nothing said why), and approves nothing.
func TestANeverDoesNothingSilently(t *testing.T) {
	h := newHarness(t)
	p, err := h.desk.Propose(t.Context(), review.Request{Agent: "a", Format: engine.FormatWrite, Path: "s.txt", Stream: true})
	if err != nil {
		t.Fatal(err)
	}
	h.desk.Feed(p.ID, "x\n")
	h.until("the stream shows", func() bool { return h.win.detail.id == p.ID && h.win.detail.p.State == review.StateStreaming })
	d := h.win.detail
	h.press('a')
	if !strings.Contains(d.message.Text, "Still streaming") {
		t.Errorf("a while streaming: message %q; want it to say the proposal still streams", d.message.Text)
	}
	if _, ok := h.desk.Outcome(p.ID); ok {
		t.Fatal("a while streaming decided the proposal")
	}

	h.write("a.go", pickBase)
	q := h.propose("agent", "s", engine.FormatSearchReplace, "a.go", srBlock("\tx := 1\n\ty := 3\n", "\tx := 10\n"))
	h.win.Select(q.ID)
	h.press('a')
	if !strings.Contains(d.message.Text, "did not apply") {
		t.Errorf("a on a held failure: message %q; want it to say the edit did not apply and what to do", d.message.Text)
	}
	if _, ok := h.desk.Outcome(q.ID); ok {
		t.Fatal("a on a held failure sent it")
	}
}
