package ui

import (
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/ui/present"
)

// TestDecidedStaleShowsWhatWasWritten: a stale proposal approved merged
// while the person looked at "What changed on disk" shows, once decided,
// what the write did to the disk (the disk the person reviewed → the
// final content), not the disk's own change it showed before (real
// window: "Approved and written" under a diff adding only the person's
// line, as if the agent's change had not been written).
func TestDecidedStaleShowsWhatWasWritten(t *testing.T) {
	h := newHarness(t)
	base := letters40()
	h.write("list.txt", base)
	p := h.propose("claude-code", "s1", engine.FormatSearchReplace, "list.txt", srBlock("line b\n", "line B\n"))
	h.win.Select(p.ID)
	h.write("list.txt", strings.Replace(base, "line z\n", "line Z by hand\n", 1))
	h.until("the proposal turns stale", func() bool { pp, _ := h.desk.Get(p.ID); return pp.State == review.StateStale })
	h.settle()
	h.Diff().Show(present.StaleDisk)
	if got := h.Diff().Showing(); got != present.StaleDisk {
		t.Fatalf("stale view %q; want %q", got, present.StaleDisk)
	}
	h.press('a')
	o := h.outcome(p.ID)
	if o.Status != decision.Approved || !strings.Contains(h.read("list.txt"), "line B\n") {
		t.Fatalf("a: %s, list.txt %q; want the merge approved and written", o.Status, h.read("list.txt"))
	}
	h.settle()
	hs := h.win.View().Hunks()
	if len(hs) != 1 || hs[0].Change.A0 != 1 || hs[0].Change.B0 != 1 {
		t.Errorf("decided view's hunks %+v; want the one change the write made, line b → line B (line 2)", hs)
	}
	if h.Diff().Showing() != "" {
		t.Error("the stale views' choice still shows on the decided proposal")
	}
}
