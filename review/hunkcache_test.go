package review_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestPartialApprovalDiffsOnce: a partial approval as the window makes it
// (the proposal read, its hunks shown, the hunks seen and a comment
// checked, the decision carried out) diffs the file's two texts once, when
// the text is proposed, and plans the file once.
func TestPartialApprovalDiffsOnce(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	base, proposed := reviewtest.ThreeChanges()
	path := filepath.Join(d.Root, "a.txt")
	reviewtest.WriteFile(t, path, base)
	diffs, plans := review.CountDiffs(t), review.CountPlans(t)

	p := d.MustPropose(t, engine.FormatWrite, "a.txt", proposed)
	got, _ := d.Get(p.ID)
	hs := got.Files[0].Hunks()
	if len(hs) != 3 {
		t.Fatalf("%d hunks; want 3", len(hs))
	}
	dec := review.Decision{
		Verdict:   decision.Partial,
		Hunks:     map[string][]string{path: {hs[0].ID, hs[2].ID}},
		Seen:      map[string][]string{path: {hs[0].ID, hs[2].ID}},
		SeenLines: map[string]map[string]int{path: {hs[1].ID: 1}},
		Comments:  []decision.Comment{{Path: path, Side: decision.SideNew, Line: 15, Text: "not this one"}},
	}
	o := d.MustDecide(t, p.ID, dec)
	if o.Status != decision.Partial {
		t.Fatalf("outcome %s; want partial", o.Status)
	}
	lines := strings.SplitAfter(proposed, "\n")
	lines[14] = strings.SplitAfter(base, "\n")[14] // line 15 unticked
	want := strings.Join(lines, "")
	if got := reviewtest.ReadFile(t, path); got != want {
		t.Errorf("file = %q; want the first and third change only, %q", got, want)
	}
	if n := diffs.Load(); n != 1 {
		t.Errorf("a partial approval diffed the file's texts %d times; want once (when proposed)", n)
	}
	if n := plans.Load(); n != 1 {
		t.Errorf("a partial approval planned the file %d times; want once", n)
	}
}

// TestHunksFollowTheText: a file whose proposed text changed after its
// diff was made (here: changed in place, as a text classified and then
// changed) has the hunks of the text it holds, and a partial approval
// writes from them, never from the diff of the text it held before.
func TestHunksFollowTheText(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	base, proposed := reviewtest.ThreeChanges()
	path := filepath.Join(d.Root, "a.txt")
	reviewtest.WriteFile(t, path, base)
	p := d.MustPropose(t, engine.FormatWrite, "a.txt", proposed)
	diffs := review.CountDiffs(t)

	changed := strings.Replace(base, "line xxx\n", "other\n", 1) // one change, at line 3
	d.ChangeProposedText(p.ID, changed)
	got, _ := d.Get(p.ID)
	hs := got.Files[0].Hunks()
	a, b := engine.SplitLines(base), engine.SplitLines(changed)
	want := engine.Hunks(a, b, engine.DiffLines(a, b), 3)
	if len(hs) != 1 || hs[0].ID != want[0].ID {
		t.Fatalf("hunks after the text changed: %+v; want those of the new text, %+v", hs, want)
	}
	if diffs.Load() == 0 {
		t.Error("the changed text's hunks were given without a diff of it")
	}
	d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Partial, Hunks: map[string][]string{path: {hs[0].ID}}})
	if got := reviewtest.ReadFile(t, path); got != changed {
		t.Errorf("file = %q; want the changed text's one hunk, %q", got, changed)
	}
}
