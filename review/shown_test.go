package review_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"path/filepath"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestDecisionOnAVersionNoLongerHeldIsRefused: a decision names the
// version of the proposal on screen (Decision.Shown); once the proposal
// holds other texts (here the disk's, as it went stale) a decision that
// writes on the old version is refused, nothing written, the proposal
// waiting on; a rejection still goes through, and the current version
// is taken.
func TestDecisionOnAVersionNoLongerHeldIsRefused(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path := filepath.Join(d.Root, "x.txt")
	reviewtest.WriteFile(t, path, "one\n")
	p := d.MustPropose(t, engine.FormatWrite, "x.txt", "two\n")
	shown := review.ShownVersion(p)
	if again, _ := d.Get(p.ID); review.ShownVersion(again) != shown {
		t.Fatal("the same proposal read twice has two versions")
	}
	reviewtest.WriteFile(t, path, "disk\n")
	// Refused as stale, or — the desk's watcher having marked it stale
	// first — as changed since shown; either way it is stale now.
	var se *review.StaleError
	var ce *review.ChangedError
	if _, err := d.Decide(context.Background(), p.ID, review.Decision{Verdict: decision.Approved, Shown: shown}); !errors.As(err, &se) && !errors.As(err, &ce) {
		t.Fatalf("approving a file changed on disk: %v; want StaleError or ChangedError", err)
	}
	now, _ := d.Get(p.ID)
	if now.State != review.StateStale || review.ShownVersion(now) == shown {
		t.Fatal("the stale proposal has the version it had before the disk changed")
	}
	sum := sha256.Sum256([]byte("disk\n"))
	over := map[string]string{path: hex.EncodeToString(sum[:])}
	_, err := d.Decide(context.Background(), p.ID, review.Decision{Verdict: decision.Overwritten, Overwrite: over, Shown: shown})
	if !errors.As(err, &ce) || ce.ID != p.ID {
		t.Fatalf("a decision on the version before: %v; want ChangedError", err)
	}
	if got := reviewtest.ReadFile(t, path); got != "disk\n" {
		t.Fatalf("x.txt is %q after a refused decision", got)
	}
	if now, _ := d.Get(p.ID); !now.State.Open() {
		t.Fatalf("the proposal is %s after a refused decision; want it waiting", now.State)
	}
	o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Overwritten, Overwrite: over, Shown: review.ShownVersion(now)})
	if o.Status != decision.Overwritten || reviewtest.ReadFile(t, path) != "two\n" {
		t.Fatalf("the decision on the version shown: %s, file %q", o.Status, reviewtest.ReadFile(t, path))
	}
}

// TestChangesetApprovalLeavesOutWhatJoinedAfter: a changeset approved as
// shown does not approve a proposal that joined it after it was shown.
func TestChangesetApprovalLeavesOutWhatJoinedAfter(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	propose := func(rel string) review.Proposal {
		p, err := d.Propose(context.Background(), review.Request{Agent: "a", Session: "s", Format: engine.FormatWrite, Path: rel, Payload: rel + "\n"})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	first := propose("a.txt")
	cs, ok := d.ChangesetOf(first.ID)
	if !ok {
		t.Fatal("no changeset")
	}
	shown := map[string]string{}
	for _, p := range cs.Proposals {
		shown[p.ID] = review.ShownVersion(p)
	}
	late := propose("b.txt")
	res, err := d.DecideChangeset(context.Background(), cs.Key, review.ChangesetDecision{Verdict: decision.Approved, Shown: shown})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Decided) != 1 || res.Decided[0].ID != first.ID || len(res.Skipped) != 1 || res.Skipped[0].ID != late.ID {
		t.Fatalf("decided %+v, skipped %+v; want %s decided and %s left", res.Decided, res.Skipped, first.ID, late.ID)
	}
	if p, _ := d.Get(late.ID); p.State != review.StatePending {
		t.Errorf("the proposal that joined later is %s", p.State)
	}
}
