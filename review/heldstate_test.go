package review_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestStatePredicates: a held failure is a state of its own: its agent
// waits on the desk (Waiting), its edit did not apply (DidNotApply), and
// it waits for no decision (Open).
func TestStatePredicates(t *testing.T) {
	for _, c := range []struct {
		s                          review.State
		open, waiting, didNotApply bool
	}{
		{review.StateStreaming, true, true, false},
		{review.StatePending, true, true, false},
		{review.StateStale, true, true, false},
		{review.StateHeld, false, true, true},
		{review.StateFailed, false, false, true},
		{review.StateDecided, false, false, false},
		{review.StateReported, false, false, false},
		{review.StateWithdrawn, false, false, false},
	} {
		if c.s.Open() != c.open || c.s.Waiting() != c.waiting || c.s.DidNotApply() != c.didNotApply {
			t.Errorf("%s: Open %v Waiting %v DidNotApply %v; want %v %v %v", c.s, c.s.Open(), c.s.Waiting(), c.s.DidNotApply(), c.open, c.waiting, c.didNotApply)
		}
	}
}

// TestHeldTransitions: failed → held when a person attends; held →
// pending (Place), held → withdrawn (Withdraw), held → failed, its failure sent
// (Dismiss, and the last reviewer leaving); the journal records a held
// failure as failed, as it recorded it before held was a state.
func TestHeldTransitions(t *testing.T) {
	ctx := context.Background()
	held := func(t *testing.T) (*reviewtest.Desk, review.Proposal, func()) {
		d := reviewtest.NewDesk(t, "", "")
		leave := d.Attend()
		t.Cleanup(leave)
		reviewtest.WriteFile(t, filepath.Join(d.Root, "a.txt"), "one\ntwo\nthree\n")
		p := d.MustPropose(t, engine.FormatEdit, "a.txt", `{"old_string":"tow","new_string":"2"}`)
		if p.State != review.StateHeld {
			t.Fatalf("a mismatch with a person at the desk: %s; want held", p.State)
		}
		if status, _, err := d.Journal.ProposalStatus(ctx, p.ID); err != nil || status != string(review.StateFailed) {
			t.Errorf("the journal records a held failure as %q (%v); want failed", status, err)
		}
		return d, p, leave
	}
	t.Run("place", func(t *testing.T) {
		d, p, _ := held(t)
		q, err := d.Place(ctx, p.ID, "", 1, engine.Region{StartLine: 2, EndLine: 2})
		if err != nil || q.State != review.StatePending {
			t.Fatalf("Place: %s, %v; want pending", q.State, err)
		}
	})
	t.Run("place one block, another still held", func(t *testing.T) {
		d := reviewtest.NewDesk(t, "", "")
		d.PersonAtDesk(t)
		reviewtest.WriteFile(t, filepath.Join(d.Root, "a.go"), placeFile)
		p := d.MustPropose(t, engine.FormatSearchReplace, "a.go", reviewtest.SR("func AA() {\n", "func B() {\n")+reviewtest.SR("\ty := 22\n", "\ty := 3\n"))
		q, err := d.Place(ctx, p.ID, "", 1, engine.Region{StartLine: 3, EndLine: 3})
		if err != nil || q.State != review.StateHeld {
			t.Fatalf("Place of block 1 of 2: %s, %v; want held on block 2", q.State, err)
		}
		if status, _, err := d.Journal.ProposalStatus(ctx, q.ID); err != nil || status != string(review.StateFailed) {
			t.Errorf("the journal records the placed, still held failure as %q (%v); want failed", status, err)
		}
	})
	t.Run("withdraw", func(t *testing.T) {
		d, p, _ := held(t)
		if err := d.Withdraw(ctx, p.ID, "gone"); err != nil {
			t.Fatal(err)
		}
		if q, _ := d.Get(p.ID); q.State != review.StateWithdrawn {
			t.Errorf("after Withdraw: %s; want withdrawn", q.State)
		}
	})
	for name, end := range map[string]func(d *reviewtest.Desk, id string, leave func()){
		"dismiss": func(d *reviewtest.Desk, id string, _ func()) { d.Dismiss(ctx, id) },
		"leave":   func(_ *reviewtest.Desk, _ string, leave func()) { leave() },
	} {
		t.Run(name, func(t *testing.T) {
			d, p, leave := held(t)
			end(d, p.ID, leave)
			o := reviewtest.WaitOutcome(t, d.Desk, p.ID)
			if q, _ := d.Get(p.ID); q.State != review.StateFailed || o.Status != decision.Failed {
				t.Errorf("after %s: %s, outcome %s; want failed, its failure sent", name, q.State, o.Status)
			}
		})
	}
}
