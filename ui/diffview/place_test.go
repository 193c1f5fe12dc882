package diffview

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
)

// TestDoubleTapOnTheProposalAsksToEditThere: outside edit mode a double tap
// on the right side's text reports its line and column (OnEditAt); on the
// left side, a number or the gutter it reports nothing.
func TestDoubleTapOnTheProposalAsksToEditThere(t *testing.T) {
	v, _ := newTestView(t, 900, 200)
	v.SetTexts("f.go", editOld, "func f() {\n\treturn 2\n}\n")
	var got []string
	v.OnEditAt = func(line, col int) { got = append(got, fmt.Sprintf("%d:%d", line, col)) }
	mt := v.metric
	xTextR := 2*mt.numW + mt.sideW + mt.gutW + padText
	// Row 1 is the change (side by side: old and new on one row); the
	// cursor goes before the cell tapped ("\treturn 2": the tab is cells
	// 0–3, "r" is cell 4, so cell 6 is byte 3).
	rowWidget(t, v, 1).DoubleTapped(&fyne.PointEvent{Position: fyne.NewPos(xTextR+6*mt.cell+1, mt.line/2)})
	rowWidget(t, v, 1).DoubleTapped(&fyne.PointEvent{Position: fyne.NewPos(mt.numW+2*mt.cell, mt.line/2)})  // the left side
	rowWidget(t, v, 1).DoubleTapped(&fyne.PointEvent{Position: fyne.NewPos(mt.leftW+mt.gutW/2, mt.line/2)}) // the gutter
	if want := "1:3"; strings.Join(got, ",") != want {
		t.Errorf("OnEditAt calls = %v; want [%s] (the right side's text only)", got, want)
	}
	v.SetEditable(true)
	got = nil
	rowWidget(t, v, 1).DoubleTapped(&fyne.PointEvent{Position: fyne.NewPos(xTextR+6*mt.cell+1, mt.line/2)})
	if len(got) != 0 || v.Editor().buf.Selected() != "return" {
		t.Errorf("in edit mode: OnEditAt calls %v, selected %q; want none, the word selected", got, v.Editor().buf.Selected())
	}
}

// TestPlaceLineAndShowLineAt: PlaceLine is the change j went to while on
// screen; ShowLineAt puts a line at a given height, opening its fold.
func TestPlaceLineAndShowLineAt(t *testing.T) {
	v, _ := newTestView(t, 900, 200)
	var old, prop strings.Builder
	for i := range 300 {
		fmt.Fprintf(&old, "line %d\n", i)
		if i == 150 {
			prop.WriteString("changed\n")
		} else {
			fmt.Fprintf(&prop, "line %d\n", i)
		}
	}
	v.SetTexts("f.txt", old.String(), prop.String())
	if !v.Nav().NextHunk() {
		t.Fatal("no hunk")
	}
	if got := v.PlaceLine(); got != 150 {
		t.Errorf("PlaceLine after j = %d; want 150 (the change)", got)
	}
	y := 2 * v.metric.line
	v.ShowLineAt(40, y) // folded away
	got, on := v.LineY(40)
	if !on || got != y {
		t.Errorf("after ShowLineAt(40, %v): line 40 at y %v (on screen %v)", y, got, on)
	}
}

// TestCurrentOneLineChangeShowsInTheGutter: the change j went to is marked
// in the gutter even when it is one row, whose tick covers the bar the
// other rows of a change show (real window: a one-line change j went to
// looked like any other).
func TestCurrentOneLineChangeShowsInTheGutter(t *testing.T) {
	v, _ := newTestView(t, 900, 200)
	v.SetTexts("f.go", editOld, "func f() {\n\treturn 2\n}\n")
	mt := v.metric
	primaryInGutter := func() bool {
		r := rowWidget(t, v, 1)
		r.build()
		for _, o := range r.objs {
			rc, ok := o.(*canvas.Rectangle)
			if !ok || rc.FillColor != theme.Color(theme.ColorNamePrimary) {
				continue
			}
			// Visible: not all under the box the tick is drawn on
			// (leftW+padText to leftW+gutW-padText, drawn after the bar).
			x0, x1 := rc.Position().X, rc.Position().X+rc.Size().Width
			if x1 > mt.leftW && x0 < mt.leftW+mt.gutW && (x0 < mt.leftW+padText || x1 > mt.leftW+mt.gutW-padText) {
				return true
			}
		}
		return false
	}
	if primaryInGutter() {
		t.Fatal("the change is marked current before j went to it")
	}
	if !v.Nav().NextHunk() {
		t.Fatal("no hunk")
	}
	if !primaryInGutter() {
		t.Error("the one-row change j went to has no mark of the primary colour in its gutter")
	}
}

// TestLineAcross: an unchanged line faces itself shifted by the changes
// above; a changed line faces where the change is on the other side.
func TestLineAcross(t *testing.T) {
	v, _ := newTestView(t, 900, 200)
	v.SetTexts("f.txt", "a\nb\nc\nd\n", "a\nx\ny\nc\nd\n") // b → x y
	for _, tt := range []struct{ side, i, want int }{
		{0, 0, 0}, {0, 1, 1}, {0, 2, 3}, {0, 3, 4},
		{1, 0, 0}, {1, 1, 1}, {1, 2, 1}, {1, 3, 2}, {1, 4, 3},
	} {
		if got := v.LineAcross(tt.side, tt.i); got != tt.want {
			t.Errorf("LineAcross(%d, %d) = %d; want %d", tt.side, tt.i, got, tt.want)
		}
	}
}

// TestCurrentOnScreenWithTallWrappedRows: with wrap, a change a few rows
// below the top but thousands of pixels down is not on screen (Space
// must not tick it unseen); the rows counted by lines said it was.
func TestCurrentOnScreenWithTallWrappedRows(t *testing.T) {
	v, _ := newTestView(t, 800, 300)
	long := strings.Repeat("word ", 2000)
	old := "a\n" + long + "\n" + long + "\nx\n"
	v.SetTexts("a.txt", old, strings.Replace(old, "\nx\n", "\ny\n", 1))
	v.SetWrap(true)
	v.Nav().NextHunk()
	if !v.CurrentOnScreen() {
		t.Fatal("the change j went to is not on screen")
	}
	v.ShowLineAt(0, 0) // the top: the long lines fill the view
	if y, _ := v.LineY(3); y < v.list.Size().Height {
		t.Fatalf("the change is at y %v, inside the view; the test wants it below", y)
	}
	if v.CurrentOnScreen() {
		t.Error("CurrentOnScreen with the change far below the view; want false")
	}
}
