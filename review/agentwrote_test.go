package review_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/journal"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// historyVerdict is the history's verdict and feedback for proposal id.
func historyVerdict(t *testing.T, d *reviewtest.Desk, id string) (decision.Verdict, string) {
	t.Helper()
	page, err := d.Journal.History(context.Background(), journal.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range page.Entries {
		if e.ProposalID == id {
			return e.Decision, e.Feedback
		}
	}
	t.Fatalf("no history entry for %s: %+v", id, page.Entries)
	return "", ""
}

// An approval the agent was to write itself, which its tool did not write
// (the tool blocked or cancelled after the approval), is recorded as
// failed, not approved; one it wrote stands; and a claim about an approval
// the file holds changes nothing, whatever the agent says.
func TestAgentWroteRecordsTheTrueVerdict(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path := filepath.Join(d.Root, "a.txt")
	reviewtest.WriteFile(t, path, "one\n")
	propose := func() review.Proposal {
		p, err := d.Propose(context.Background(), review.Request{Agent: "cline", Session: "t1", Format: engine.FormatWrite, Path: "a.txt", Payload: "ONE\n", AgentWrites: true})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}

	t.Run("not written", func(t *testing.T) {
		p := propose()
		d.MustDecide(t, p.ID, review.Decision{Verdict: decision.ApprovedEdited, Edited: map[string]string{path: "ONE!\n"}, Feedback: "louder"})
		o, err := d.AgentWrote(context.Background(), p.ID, "✖ Invalid input: expected string")
		if err != nil {
			t.Fatal(err)
		}
		if o.Status != decision.Failed || !strings.Contains(agenttext.Outcome(o), "not written") {
			t.Errorf("outcome %s %q; want failed, not written", o.Status, agenttext.Outcome(o))
		}
		v, fb := historyVerdict(t, d, p.ID)
		for _, want := range []string{"Approved (approved-edited), but not written", path, "The agent said: ✖ Invalid input", "The person's note: louder"} {
			if !strings.Contains(fb, want) {
				t.Errorf("history feedback %q lacks %q", fb, want)
			}
		}
		if v != decision.Failed {
			t.Errorf("history says %s; want failed", v)
		}
		if got, _ := d.Outcome(p.ID); got.Status != decision.Failed {
			t.Errorf("the desk's outcome is %s; want failed", got.Status)
		}
		if _, err := d.AgentWrote(context.Background(), p.ID, ""); !errors.Is(err, review.ErrNotAgentWrite) {
			t.Errorf("a second report: %v; want ErrNotAgentWrite", err)
		}
	})

	t.Run("written", func(t *testing.T) {
		p := propose()
		d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Approved})
		reviewtest.WriteFile(t, path, "ONE\n") // the agent's tool writes it
		o, err := d.AgentWrote(context.Background(), p.ID, "the tool said it failed")
		if err != nil {
			t.Fatal(err)
		}
		if o.Status != decision.Approved {
			t.Errorf("outcome %s; want the approval to stand: the file holds it", o.Status)
		}
		if v, _ := historyVerdict(t, d, p.ID); v != decision.Approved {
			t.Errorf("history says %s; want approved", v)
		}
	})

	t.Run("rejected or desk-written", func(t *testing.T) {
		p := propose()
		d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Rejected, Feedback: "no"})
		if _, err := d.AgentWrote(context.Background(), p.ID, ""); !errors.Is(err, review.ErrNotAgentWrite) {
			t.Errorf("a rejected proposal: %v; want ErrNotAgentWrite", err)
		}
		q := d.MustPropose(t, engine.FormatWrite, "a.txt", "two\n")
		d.MustDecide(t, q.ID, review.Decision{Verdict: decision.Approved})
		reviewtest.WriteFile(t, path, "someone else\n")
		if _, err := d.AgentWrote(context.Background(), q.ID, ""); !errors.Is(err, review.ErrNotAgentWrite) {
			t.Errorf("an approval the desk wrote: %v; want ErrNotAgentWrite", err)
		}
		if v, _ := historyVerdict(t, d, q.ID); v != decision.Approved {
			t.Errorf("history says %s for the desk's write; want approved", v)
		}
	})
}
