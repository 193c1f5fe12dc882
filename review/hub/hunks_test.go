package hub_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/hub"
	"github.com/diffdesk/diffdesk/review/internal/diffcount"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestViewProposalDiffsOnce: a desk's proposal shown in a window over the
// hub and partially approved there is diffed once on the window's side,
// however often the window asks for its hunks; the hunks are the desk's
// own (a partial approval by their ids writes what was ticked).
func TestViewProposalDiffsOnce(t *testing.T) {
	limit(t, 2*time.Minute)
	h := startHub(t, []string{"d1"}, []string{"r1"})
	d1, _ := h.link(t, "d1")
	base, proposed := reviewtest.ThreeChanges()
	path := filepath.Join(d1.Root, "a.txt")
	reviewtest.WriteFile(t, path, base)
	deskID, outcome := propose(t, d1.Desk, "a.txt", proposed)
	v, _, _ := openView(t, h, "r1", hub.ViewLimits{})
	until(t, "the proposal in the view", func() bool { return len(v.List()) == 1 })
	id := v.List()[0].ID
	desk, _ := d1.Get(deskID)
	diffs := diffcount.Count(t)

	var hs []engine.Hunk
	var shown review.Proposal
	for range 6 { // the view, the navigator, the ticks, the seen hunks, the decision bar
		p, ok := v.Get(id)
		if !ok || len(p.Files) != 1 {
			t.Fatalf("Get(%s): %+v, %v", id, p, ok)
		}
		shown, hs = p, p.Files[0].Hunks()
	}
	if want := desk.Files[0].Hunks(); len(hs) != 3 || hs[0].ID != want[0].ID || hs[2].ID != want[2].ID {
		t.Fatalf("hunks in the view %+v; want the desk's %+v", hs, want)
	}
	dec := review.Decision{
		Verdict: decision.Partial,
		Hunks:   map[string][]string{path: {hs[0].ID, hs[2].ID}},
		Seen:    map[string][]string{path: {hs[0].ID, hs[1].ID, hs[2].ID}},
		Shown:   review.ShownVersion(shown),
	}
	if o, err := v.Decide(ctx(t), id, dec); err != nil || o.Status != decision.Partial {
		t.Fatalf("Decide: %+v, %v; want partial", o, err)
	}
	if recv(t, outcome, "the agent's outcome").Status != decision.Partial {
		t.Error("the desk's agent was not told partial")
	}
	lines := strings.SplitAfter(proposed, "\n")
	lines[14] = strings.SplitAfter(base, "\n")[14] // line 15 unticked
	if got, want := reviewtest.ReadFile(t, path), strings.Join(lines, ""); got != want {
		t.Errorf("a.txt on the desk = %q; want the first and third change only, %q", got, want)
	}
	if n := diffs.Load(); n != 1 {
		t.Errorf("a proposal shown and decided over the hub was diffed %d times; want once (in the view; the desk keeps its own)", n)
	}
}
