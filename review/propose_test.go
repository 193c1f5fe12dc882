package review_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

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

// TestStaleViewFollowsEveryDiskChange: a stale file whose disk content
// changes again (an editor that truncates, then writes) is announced
// again, with the new disk content, so the stale view never shows a state
// the disk has left.
func TestStaleViewFollowsEveryDiskChange(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path := filepath.Join(d.Root, "a.txt")
	reviewtest.WriteFile(t, path, "one\ntwo\nthree\nfour\n")
	p := d.MustPropose(t, engine.FormatWrite, "a.txt", "ONE\ntwo\nthree\nfour\n")
	events := make(chan review.Event, 16)
	cancel := d.Subscribe(func(ev review.Event) {
		if ev.ID == p.ID {
			events <- ev
		}
	})
	defer cancel()
	disk := func(want string) {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for {
			select {
			case <-events:
				if got, _ := d.Get(p.ID); got.State == review.StateStale && string(got.Files[0].Disk.Content) == want {
					return
				}
			case <-deadline:
				got, _ := d.Get(p.ID)
				t.Fatalf("the desk shows the disk as %q (%s); want %q announced", got.Files[0].Disk.Content, got.State, want)
			}
		}
	}
	reviewtest.WriteFile(t, path, "") // the editor truncates…
	disk("")
	reviewtest.WriteFile(t, path, "one\ntwo\nthree\nfour\nfive\n") // …then writes
	disk("one\ntwo\nthree\nfour\nfive\n")
	if m, _ := d.Merge(p.ID, path); m.Text != "ONE\ntwo\nthree\nfour\nfive\n" || len(m.Conflicts) != 0 {
		t.Errorf("merge after the real write = %q (%d conflicts); want a clean merge", m.Text, len(m.Conflicts))
	}
}
