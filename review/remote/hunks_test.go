package remote

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/deskrpc"
	"github.com/diffdesk/diffdesk/review/internal/diffcount"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// shownHunks reads id as the window does while it shows it and a person
// decides (the view, the navigator, the ticks, the seen hunks, the
// decision bar each ask the proposal for its file's hunks) and returns the
// hunks.
func shownHunks(t *testing.T, d interface {
	Get(id string) (review.Proposal, bool)
}, id string) []engine.Hunk {
	t.Helper()
	var hs []engine.Hunk
	for range 6 {
		p, ok := d.Get(id)
		if !ok || len(p.Files) != 1 {
			t.Fatalf("Get(%s): %+v, %v", id, p, ok)
		}
		hs = p.Files[0].Hunks()
	}
	return hs
}

// TestFarProposalDiffsOnce: a far desk's proposal shown in the window and
// partially approved there is diffed once on the window's side, however
// often the window asks for its hunks and however often it is read again
// with the same texts (and the desk once, when proposed); the hunks are
// the desk's own (a partial approval by their ids writes what was ticked).
func TestFarProposalDiffsOnce(t *testing.T) {
	local := reviewtest.NewDesk(t, "", "")
	rd, events := open(t, serve(t, local.Desk), "me@laptop")
	base, proposed := reviewtest.ThreeChanges()
	path := filepath.Join(local.Root, "a.txt")
	reviewtest.WriteFile(t, path, base)
	diffs := diffcount.Count(t) // the desk's one diff when proposed, and the window's
	p := local.MustPropose(t, engine.FormatWrite, "a.txt", proposed)
	await(t, events, p.ID, review.EventPending)
	desk, _ := local.Get(p.ID)

	shownHunks(t, rd, p.ID)
	if err := rd.fetch(reviewtest.Context(t), p.ID); err != nil { // read again, as an update (its checks came) has it
		t.Fatal(err)
	}
	hs := shownHunks(t, rd, p.ID)
	if want := desk.Files[0].Hunks(); len(hs) != 3 || hs[0].ID != want[0].ID || hs[2].ID != want[2].ID {
		t.Fatalf("hunks here %+v; want the desk's %+v", hs, want)
	}
	dec := review.Decision{
		Verdict: decision.Partial,
		Hunks:   map[string][]string{path: {hs[0].ID, hs[2].ID}},
		Seen:    map[string][]string{path: {hs[0].ID, hs[1].ID, hs[2].ID}},
		Shown:   review.ShownVersion(desk),
	}
	if o, err := rd.Decide(reviewtest.Context(t), p.ID, dec); err != nil || o.Status != decision.Partial {
		t.Fatalf("Decide: %+v, %v; want partial", o, err)
	}
	lines := strings.SplitAfter(proposed, "\n")
	lines[14] = strings.SplitAfter(base, "\n")[14] // line 15 unticked
	if got, want := reviewtest.ReadFile(t, path), strings.Join(lines, ""); got != want {
		t.Errorf("a.txt on the desk's machine = %q; want the first and third change only, %q", got, want)
	}
	if n := diffs.Load(); n != 2 {
		t.Errorf("a far proposal shown and decided was diffed %d times; want twice: once by the desk when proposed, once by the window (each keeps its own)", n)
	}
}

// TestAFarDesksHunksAreTheTexts: a far desk's file has the hunks of the
// texts the window shows, whatever else the desk says of them: the only
// ones a partial approval made here can name.
func TestAFarDesksHunksAreTheTexts(t *testing.T) {
	base, proposed := reviewtest.ThreeChanges()
	det := deskrpc.Detail{ID: "p1", Created: "2026-11-29T06:00:00Z", State: review.StatePending,
		Files: []deskrpc.DetailFile{{Path: "/w/a.txt", Rel: "a.txt", Root: "/w", Exists: true, Base: &base, Proposed: &proposed, Added: 1, Removed: 0}}}
	p, err := proposal(det)
	if err != nil {
		t.Fatal(err)
	}
	a, b := engine.SplitLines(base), engine.SplitLines(proposed)
	want := engine.Hunks(a, b, engine.DiffLines(a, b), 3)
	if got := p.Files[0].Hunks(); len(got) != len(want) || got[1].ID != want[1].ID {
		t.Errorf("hunks %+v; want the texts' %+v", got, want)
	}
}
