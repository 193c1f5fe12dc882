package diffview

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// twoChanges is 400 numbered lines, lines 100 and 300 changed.
func twoChanges() (old, new string) {
	return numbered(400, nil), numbered(400, func(k int) string {
		if k == 100 || k == 300 {
			return "changed\n"
		}
		return ""
	})
}

func setTwoChanges(v *DiffView) {
	old, new := twoChanges()
	v.SetTexts("a.txt", old, new)
}

// foldRows returns the rows that are folds.
func foldRows(v *DiffView) []int {
	var out []int
	for i := range v.model.Len() {
		if v.model.Row(i).kind == rowFold {
			out = append(out, i)
		}
	}
	return out
}

func TestCollapseFoldsUnchangedRegions(t *testing.T) {
	v, _ := newTestView(t, 800, 300)
	v.Folds().Collapse(true)
	setTwoChanges(v)
	// Fold, 3 context, change, 3 context, fold, 3 context, change, 3, fold.
	if got, want := v.model.Len(), 3+2*(3+1+3); got != want {
		t.Fatalf("rows = %d; want %d", got, want)
	}
	if got := foldRows(v); len(got) != 3 || v.Folds().Count() != 3 {
		t.Fatalf("fold rows %v (Folds %d); want 3", got, v.Folds().Count())
	}
	if r := v.model.Row(4); r.kind != rowChanged || r.a != 100 {
		t.Errorf("row 4 = %+v; want the change at line 100", r)
	}
	if len(v.Hunks()) != 2 {
		t.Errorf("Hunks = %d; want 2: folds change no hunk", len(v.Hunks()))
	}
	v.Folds().Collapse(false)
	if v.model.Len() != 400 || v.Folds().Count() != 0 {
		t.Errorf("collapse off: %d rows, %d folds; want 400, 0", v.model.Len(), v.Folds().Count())
	}
}

func TestJKCrossFolds(t *testing.T) {
	v, _ := newTestView(t, 800, 300)
	v.Folds().Collapse(true)
	setTwoChanges(v)
	for _, want := range []int{100, 300} {
		if !v.Nav().NextHunk() {
			t.Fatalf("NextHunk to line %d: false", want)
		}
		if r := v.model.Row(v.nav.cur); r.a != want {
			t.Errorf("NextHunk went to %+v; want line %d", r, want)
		}
	}
	if !v.Nav().PrevHunk() || v.Nav().CurrentHunk() != 0 {
		t.Errorf("PrevHunk: current hunk %d; want 0", v.Nav().CurrentHunk())
	}
}

func TestExpandFoldByKeyKeepsTheCurrentHunk(t *testing.T) {
	v, _ := newTestView(t, 800, 300)
	v.Folds().Collapse(true)
	setTwoChanges(v)
	v.Nav().NextHunk()
	v.Nav().NextHunk() // line 300
	rows := v.model.Len()
	if !v.Folds().ExpandAbove() {
		t.Fatal("ExpandAbove: false")
	}
	if got := v.model.Len(); got != rows+foldStep {
		t.Errorf("rows after ExpandAbove = %d; want %d", got, rows+foldStep)
	}
	if r := v.model.Row(v.nav.cur); r.a != 300 || v.Nav().CurrentHunk() != 1 {
		t.Errorf("current row after expanding = %+v (hunk %d); want line 300, hunk 1", r, v.Nav().CurrentHunk())
	}
	// The 20 lines shown are the ones right above the change's context.
	if r := v.model.Row(v.nav.cur - foldContext - foldStep); r.a != 300-foldContext-foldStep {
		t.Errorf("first line opened above = %+v; want line %d", r, 300-foldContext-foldStep)
	}
	v.Folds().ExpandBelow()
	if got := v.model.Len(); got != rows+2*foldStep {
		t.Errorf("rows after ExpandBelow = %d; want %d", got, rows+2*foldStep)
	}
}

func TestTapFoldLabelsOpenIt(t *testing.T) {
	v, w := newTestView(t, 900, 400)
	v.Folds().Collapse(true)
	setTwoChanges(v)
	mt := v.metric
	// x is the middle of label k of the fold on row, as the row lays its
	// labels out (the ones it leaves out take no room).
	x := func(row, k int) float32 {
		labels := v.folds.labels(v.model.segs[v.model.Row(row).seg])
		if labels[k] == "" {
			t.Fatalf("the fold on row %d has no label %d: %q", row, k, labels)
		}
		at := mt.numW + padText
		for _, l := range labels[:k] {
			if l != "" {
				at += float32(len([]rune(l))+foldGap) * mt.cell
			}
		}
		return at + float32(len([]rune(labels[k])))*mt.cell/2
	}
	folds := foldRows(v)
	if len(folds) != 3 {
		t.Fatalf("folds %v; want the top, the middle and the end", folds)
	}
	top, mid, end := v.folds.labels(v.model.segs[v.model.Row(folds[0]).seg]), v.folds.labels(v.model.segs[v.model.Row(folds[1]).seg]), v.folds.labels(v.model.segs[v.model.Row(folds[2]).seg])
	if top[1] != "" || top[2] == "" || end[2] != "" || end[1] == "" || mid[1] == "" || mid[2] == "" {
		t.Errorf("fold labels: top %q, middle %q, end %q; want no ↓ at the top, no ↑ at the end, both between", top, mid, end)
	}
	rows := v.model.Len()
	test.TapCanvas(w.Canvas(), fyne.NewPos(x(folds[1], 1), v.wr.rowY(folds[1])+mt.line/2)) // ↓ 20 more on the middle fold
	if got := v.model.Len(); got != rows+foldStep {
		t.Fatalf("rows after tapping ↓ = %d; want %d", got, rows+foldStep)
	}
	if r := v.model.Row(folds[1]); r.kind != rowEqual {
		t.Errorf("row %d after tapping ↓ = %+v; want an unchanged line where the fold began", folds[1], r)
	}
	first := foldRows(v)[0]
	test.TapCanvas(w.Canvas(), fyne.NewPos(x(first, 3), v.wr.rowY(first)+mt.line/2)) // show all
	if got := foldRows(v); len(got) != 2 {
		t.Errorf("folds after tapping show all = %v; want 2 left", got)
	}
}

func TestGoToLineOpensItsFold(t *testing.T) {
	v, _ := newTestView(t, 800, 300)
	v.Folds().Collapse(true)
	setTwoChanges(v)
	if !v.Nav().GoToLine(201) {
		t.Fatal("GoToLine(201): false")
	}
	r := v.model.Row(v.nav.cur)
	if r.b != 200 {
		t.Errorf("GoToLine(201) went to %+v; want line 200 shown", r)
	}
	if top := v.topRow(); v.nav.cur < top || v.nav.cur >= top+v.visibleRows() {
		t.Errorf("row %d not on screen (top %d)", v.nav.cur, top)
	}
}

func TestNoFoldWithoutChanges(t *testing.T) {
	v, _ := newTestView(t, 800, 300)
	v.Folds().Collapse(true)
	v.SetTexts("a.txt", numbered(100, nil), numbered(100, nil))
	if v.model.Len() != 100 {
		t.Errorf("rows = %d; want all 100 lines of a file without changes", v.model.Len())
	}
}

func TestInlineShowsRemovedThenAdded(t *testing.T) {
	v, _ := newTestView(t, 800, 300)
	old := "a\nold one\nold two\nz\n"
	new := "a\nnew one\nnew two\nz\n"
	v.SetTexts("a.txt", old, new)
	v.SetInline(true)
	var kinds []string
	for i := range v.model.Len() {
		r := v.model.Row(i)
		kinds = append(kinds, [...]string{"=", "-", "+", "~", "…"}[r.kind])
		if r.kind == rowDeleted && r.paired {
			if w := v.model.Words(r); len(w.del) == 0 {
				t.Errorf("row %d: no word spans for a paired removed line", i)
			}
		}
	}
	if got := strings.Join(kinds, ""); got != "=--++=" {
		t.Errorf("inline rows = %s; want =--++=", got)
	}
	if v.metric.leftW != 2*v.metric.numW {
		t.Errorf("inline gutter at %v; want after both number columns (%v)", v.metric.leftW, 2*v.metric.numW)
	}
	v.ToggleHunk(0)
	if len(v.AcceptedHunks()) != 0 {
		t.Errorf("ToggleHunk inline: accepted %v; want none", v.AcceptedHunks())
	}
	v.SetInline(false)
	if v.model.Len() != 4 {
		t.Errorf("side by side again: %d rows; want 4", v.model.Len())
	}
}

// TestFoldToggleKeepsTheCurrentChangeOnScreen: z (SetCollapse) and i
// (SetInline) keep the change j went to where it was on screen (real
// window: with every fold fitting the view, z put line 1 on top and the
// current change, line 151, far below it, while the counter still named
// it).
func TestFoldToggleKeepsTheCurrentChangeOnScreen(t *testing.T) {
	v, _ := newTestView(t, 800, 300)
	v.Folds().Collapse(true)
	old := numbered(300, nil)
	new := numbered(300, func(k int) string {
		if k == 20 || k == 150 || k == 280 {
			return "changed\n"
		}
		return ""
	})
	v.SetTexts("a.txt", old, new)
	v.Nav().NextHunk()
	v.Nav().NextHunk() // line 150
	curY := func() float32 { return v.wr.rowY(v.nav.cur) - v.list.GetScrollOffset() }
	yBefore, on := curY(), v.CurrentOnScreen()
	if !on || v.Nav().CurrentHunk() != 1 {
		t.Fatalf("line 151 on screen %v, hunk %d after two NextHunk", on, v.Nav().CurrentHunk())
	}
	for _, step := range []struct {
		name string
		do   func()
	}{
		{"SetCollapse(false)", func() { v.Folds().Collapse(false) }},
		{"SetInline(true)", func() { v.SetInline(true) }},
		{"SetCollapse(true)", func() { v.Folds().Collapse(true) }},
		{"SetInline(false)", func() { v.SetInline(false) }},
	} {
		step.do()
		if y, on := curY(), v.CurrentOnScreen(); v.Nav().CurrentHunk() != 1 || !on || y != yBefore {
			t.Errorf("after %s: hunk %d at y %v (on screen %v); want hunk 1 at y %v", step.name, v.Nav().CurrentHunk(), y, on, yBefore)
		}
	}
}

// TestWrapKeepsTheCurrentChangeOnScreen: w keeps the change j went to
// where it was, though long lines above it grow into many rows (real
// window: 100,000-character lines, w put the change thousands of visual
// lines below the view).
func TestWrapKeepsTheCurrentChangeOnScreen(t *testing.T) {
	v, _ := newTestView(t, 800, 300)
	long := strings.Repeat("word ", 2000)
	old := "a\n" + long + "\n" + long + "\nx\n" + long + "\n"
	v.SetTexts("a.txt", old, strings.Replace(old, "\nx\n", "\ny\n", 1))
	v.Nav().NextHunk()
	curY := func() float32 { return v.wr.rowY(v.nav.cur) - v.list.GetScrollOffset() }
	yBefore := curY()
	if !v.CurrentOnScreen() {
		t.Fatal("the change is not on screen after NextHunk")
	}
	v.SetWrap(true)
	if y := curY(); !v.CurrentOnScreen() || y != yBefore {
		t.Errorf("after wrap the change is at y %v (on screen %v); want %v", y, v.CurrentOnScreen(), yBefore)
	}
	v.SetWrap(false)
	if y := curY(); !v.CurrentOnScreen() || y != yBefore {
		t.Errorf("after unwrap the change is at y %v (on screen %v); want %v", y, v.CurrentOnScreen(), yBefore)
	}
}

// TestFoldsOpenedStayOpenWhenTheTextsComeBack: the same texts shown again
// (leaving edit mode shows the proposal again) keep what the person
// opened; other texts start folded.
func TestFoldsOpenedStayOpenWhenTheTextsComeBack(t *testing.T) {
	v, _ := newTestView(t, 900, 300)
	v.Folds().Collapse(true)
	old, new := twoChanges()
	v.SetTexts("a.txt", old, new)
	v.Nav().NextHunk()
	closed := v.model.Len()
	if !v.Folds().ExpandBelow() || v.model.Len() <= closed {
		t.Fatalf("} opened nothing (%d rows, folded %d)", v.model.Len(), closed)
	}
	opened := v.model.Len()
	v.SetTexts("a.txt", old, new)
	if v.model.Len() != opened {
		t.Errorf("the same texts again: %d rows; want %d, the fold still open", v.model.Len(), opened)
	}
	v.SetTexts("a.txt", old, strings.Replace(new, "changed\n", "changed again\n", 1))
	if v.model.Len() != closed {
		t.Errorf("other texts: %d rows; want them folded, %d", v.model.Len(), closed)
	}
}
