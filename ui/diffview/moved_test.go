package diffview

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

func TestMovedBlockJumpsToItsOtherEnd(t *testing.T) {
	v, w := newTestView(t, 900, 400)
	block := "func moved() {\n\tstep(1)\n\tstep(2)\n\treturn\n}\n"
	filler := numbered(60, nil)
	old := "package p\n" + block + filler
	new := "package p\n" + filler + strings.ReplaceAll(block, "\t", "\t\t")
	v.SetTexts("a.go", old, new)
	if len(v.Marks().Moves()) != 1 {
		t.Fatalf("Moves = %+v; want one block", v.Marks().Moves())
	}
	mv := v.Marks().Moves()[0]
	if !mv.Reindented || mv.A0 != 1 || mv.B0 != 61 {
		t.Fatalf("move %+v; want lines 1 and 61, re-indented", mv)
	}
	v.Nav().NextHunk() // the removed block
	if !v.JumpMoved() {
		t.Fatal("JumpMoved from the removed block: false")
	}
	if r := v.model.Row(v.nav.cur); r.b != mv.B0 {
		t.Errorf("JumpMoved went to %+v; want line %d of the right side", r, mv.B0)
	}
	if !v.JumpMoved() {
		t.Fatal("JumpMoved back: false")
	}
	if r := v.model.Row(v.nav.cur); r.a != mv.A0 {
		t.Errorf("JumpMoved back went to %+v; want line %d of the left side", r, mv.A0)
	}
	// A tap on the number of a moved line jumps too.
	row := v.model.RowOfA(mv.A0 + 1)
	test.TapCanvas(w.Canvas(), fyne.NewPos(v.metric.numW/2, v.wr.rowY(row)-v.list.GetScrollOffset()+v.metric.line/2))
	if r := v.model.Row(v.nav.cur); r.b != mv.B0+1 {
		t.Errorf("tap on moved line %d's number went to %+v; want line %d", mv.A0+1, r, mv.B0+1)
	}
}

// TestTwoMovedBlocksSideBySide: blocks swapped across unchanged lines put
// a moved line of one beside a moved line of the other. Both sides are
// drawn as moved, with no word emphasis set one against the other, and a
// tap on either number jumps to that line's own other end (real window:
// the right side was green, its words emphasised against the unrelated
// block beside it, as if one had been edited into the other).
func TestTwoMovedBlocksSideBySide(t *testing.T) {
	v, w := newTestView(t, 900, 400)
	x := "func x() {\n\tstepX(1)\n\tstepX(2)\n\treturn 1\n}\n"
	y := "func y() {\n\tstepY(10)\n\tstepY(20)\n\treturn 2\n}\n"
	filler := numbered(30, nil)
	v.SetTexts("a.go", "package p\n"+x+filler+y, "package p\n"+y+filler+x)
	if len(v.Marks().Moves()) != 2 {
		t.Fatalf("Moves = %+v; want two blocks", v.Marks().Moves())
	}
	row := v.model.RowOfA(2) // stepX(1) on the left, stepY(10) beside it
	rw := v.model.Row(row)
	if rw.kind != rowChanged || rw.b != 2 {
		t.Fatalf("row of line 3 = %+v; want it changed beside line 3 of the right side", rw)
	}
	r := newDiffRow(&v.parts)
	r.id = row
	r.build()
	mt := v.metric
	c := coloursFor(v.rows.dark)
	xNumR := mt.leftW + mt.gutW
	var movedL, movedR, marksL, marksR, words int
	for _, o := range r.rects[:r.nRect] {
		x := o.Position().X
		switch o.FillColor {
		case c.moved:
			if x < xNumR {
				movedL++
			} else {
				movedR++
			}
		case c.movedMark:
			if x < xNumR {
				marksL++
			} else {
				marksR++
			}
		case c.delWord, c.insWord:
			words++
		}
	}
	if movedL != 1 || movedR != 1 || marksL != 1 || marksR != 1 {
		t.Errorf("moved backgrounds %d left, %d right, number bars %d, %d; want one of each on both sides", movedL, movedR, marksL, marksR)
	}
	if words != 0 {
		t.Errorf("%d word emphases between two unrelated moved lines; want none", words)
	}
	// A tap on the right number jumps to the right line's other end: y's
	// line 3 on the left (line 33 of the file).
	test.TapCanvas(w.Canvas(), fyne.NewPos(xNumR+mt.numW/2, v.wr.rowY(row)-v.list.GetScrollOffset()+mt.line/2))
	mvY := v.Marks().Moves()[v.marks.movedAt(1, 2)]
	if got := v.model.Row(v.nav.cur); got.a != mvY.A0+1 {
		t.Errorf("tap on the right number went to %+v; want line %d of the left side", got, mvY.A0+2)
	}
}
