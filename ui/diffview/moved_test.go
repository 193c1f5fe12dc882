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
	if len(v.Moves()) != 1 {
		t.Fatalf("Moves = %+v; want one block", v.Moves())
	}
	mv := v.Moves()[0]
	if !mv.Reindented || mv.A0 != 1 || mv.B0 != 61 {
		t.Fatalf("move %+v; want lines 1 and 61, re-indented", mv)
	}
	v.NextHunk() // the removed block
	if !v.JumpMoved() {
		t.Fatal("JumpMoved from the removed block: false")
	}
	if r := v.model.Row(v.curRow); r.b != mv.B0 {
		t.Errorf("JumpMoved went to %+v; want line %d of the right side", r, mv.B0)
	}
	if !v.JumpMoved() {
		t.Fatal("JumpMoved back: false")
	}
	if r := v.model.Row(v.curRow); r.a != mv.A0 {
		t.Errorf("JumpMoved back went to %+v; want line %d of the left side", r, mv.A0)
	}
	// A tap on the number of a moved line jumps too.
	row := v.model.RowOfA(mv.A0 + 1)
	test.TapCanvas(w.Canvas(), fyne.NewPos(v.metric.numW/2, v.rowY(row)-v.list.GetScrollOffset()+v.metric.line/2))
	if r := v.model.Row(v.curRow); r.b != mv.B0+1 {
		t.Errorf("tap on moved line %d's number went to %+v; want line %d", mv.A0+1, r, mv.B0+1)
	}
}
