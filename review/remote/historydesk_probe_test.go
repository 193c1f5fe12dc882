package remote

import (
	"path/filepath"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/journal"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestFleetRestoresOnTheDeskThatPlannedIt: the History tab plans a
// restore on the desk it shows (a dry run the person reads), and the
// person may choose another desk before the plan is shown or confirmed
// (over ssh a dry run takes a while). Carried out, the restore goes to the
// desk whose files the plan listed; it was sent to the desk shown by then,
// where checkpoint 1 is another edit of other files.
func TestFleetRestoresOnTheDeskThatPlannedIt(t *testing.T) {
	a, b := newFarDesk(t), newFarDesk(t)
	for _, d := range []*farDesk{a, b} {
		reviewtest.WriteFile(t, filepath.Join(d.Root, "x.txt"), "old\n")
		p := d.MustPropose(t, engine.FormatWrite, "x.txt", "new\n")
		d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Approved})
	}
	f, _ := newTestFleet(t, newFakeClock(), a.spec("a"), b.spec("b"))
	ctx := reviewtest.Context(t)
	plan, _, err := f.Restore(ctx, journal.RestoreRequest{Checkpoint: 1}, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.SetHistoryDesk(1); err != nil { // the person chose desk b meanwhile
		t.Fatal(err)
	}
	if _, _, err := f.Restore(ctx, plan.Request, true); err != nil {
		t.Fatal(err)
	}
	if got := reviewtest.ReadFile(t, filepath.Join(a.Root, "x.txt")); got != "old\n" {
		t.Errorf("desk a's x.txt = %q; want the restore planned there carried out (old)", got)
	}
	if got := reviewtest.ReadFile(t, filepath.Join(b.Root, "x.txt")); got != "new\n" {
		t.Errorf("desk b's x.txt = %q; want it untouched: the plan confirmed was desk a's", got)
	}
}
