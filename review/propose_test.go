package review_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/journal"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestProposalIsJournaledBeforeItIsAnnounced: a proposal is journaled
// before anyone can see it, so a decision taken the instant it is announced
// (a fast reviewer, a remote window, a script) has a proposal to decide on.
func TestProposalIsJournaledBeforeItIsAnnounced(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	reviewtest.WriteFile(t, filepath.Join(d.Root, "a.txt"), "old\n")
	journaled := make(chan error, 1)
	cancel := d.Subscribe(func(ev review.Event) {
		if ev.Kind == review.EventAdded {
			_, _, err := d.Journal.ProposalStatus(context.Background(), ev.ID)
			journaled <- err
		}
	})
	defer cancel()
	p := d.MustPropose(t, engine.FormatWrite, "a.txt", "new\n")
	if err := <-journaled; err != nil {
		t.Fatalf("the journal when the proposal was announced: %v; want it recorded first", err)
	}
	if o := d.MustDecide(t, p.ID, review.Decision{Verdict: journal.Approved}); o.Status != journal.Approved {
		t.Errorf("outcome %s; want approved", o.Status)
	}
}
