package diffview

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// selRects returns where row id draws the selection colour: [x, width].
func selRects(t *testing.T, v *DiffView, id int) [][2]float32 {
	t.Helper()
	r := newDiffRow(&v.parts)
	r.id = id
	r.build()
	var out [][2]float32
	for _, o := range r.rects[:r.nRect] {
		if o.FillColor == coloursFor(v.rows.dark).sel {
			out = append(out, [2]float32{o.Position().X, o.Size().Width})
		}
	}
	return out
}

// TestDoubleClickSelectsAWordReadOnly: outside edit mode a double click on
// the proposal's text selects the word under the pointer, drawn under it,
// and Ctrl+C (CopySelection) copies it; the view never becomes an editor
// and the text stays as it was. The left side's words select too; a
// click elsewhere, and other texts, end the selection.
func TestDoubleClickSelectsAWordReadOnly(t *testing.T) {
	v, _ := newTestView(t, 900, 200)
	prop := "func f() {\n\treturn 2\n}\n"
	v.SetTexts("f.go", editOld, prop)
	var at [][2]int
	v.OnEditAt = func(line, col int) { at = append(at, [2]int{line, col}) }
	mt := v.metric
	xTextR := mt.leftW + mt.gutW + mt.numW
	// "\treturn 2": the tab is cells 0–3, "return" cells 4–9; cell 6 is
	// inside it.
	rowWidget(t, v, 1).DoubleTapped(&fyne.PointEvent{Position: fyne.NewPos(xTextR+padText+6*mt.cell+1, mt.line/2)})
	if got := v.Selection().Text(); got != "return" {
		t.Fatalf("selected %q after a double click on \"return\"; want \"return\"", got)
	}
	if v.Editor() != nil {
		t.Fatal("a double click made the view an editor")
	}
	if len(at) != 1 || at[0] != [2]int{1, 3} {
		t.Errorf("OnEditAt calls %v; want one, line 1 byte 3 (where e puts the cursor)", at)
	}
	want := [2]float32{xTextR + padText + 4*mt.cell, 6 * mt.cell}
	if got := selRects(t, v, 1); len(got) != 1 || got[0] != want {
		t.Errorf("selection drawn at %v; want one rect at x=%v width %v, under \"return\"", got, want[0], want[1])
	}
	if got := selRects(t, v, 0); len(got) != 0 {
		t.Errorf("row 0 draws a selection %v; want none", got)
	}
	cb := fyne.CurrentApp().Clipboard()
	cb.SetContent("before")
	if !v.Selection().Copy(nil) || cb.Content() != "return" {
		t.Errorf("clipboard %q after Ctrl+C; want \"return\"", cb.Content())
	}
	if v.doc.texts[1] != prop || v.model.b.Line(1) != "\treturn 2" {
		t.Errorf("the proposal changed: %q", v.doc.texts[1])
	}

	// The left side: its word, drawn on the left.
	rowWidget(t, v, 1).DoubleTapped(&fyne.PointEvent{Position: fyne.NewPos(mt.numW+padText+11*mt.cell+1, mt.line/2)})
	if got := v.Selection().Text(); got != "1" {
		t.Errorf("selected %q after a double click on the left's \"1\"; want \"1\"", got)
	}
	if got := selRects(t, v, 1); len(got) != 1 || got[0][0] != mt.numW+padText+11*mt.cell {
		t.Errorf("left selection drawn at %v; want x=%v", got, mt.numW+padText+11*mt.cell)
	}
	if len(at) != 1 {
		t.Errorf("a double click on the left side said where to edit: %v", at)
	}

	// A click elsewhere ends it.
	test.Tap(rowWidget(t, v, 0))
	if got := v.Selection().Text(); got != "" || v.Selection().Copy(nil) {
		t.Errorf("selected %q after a click elsewhere; want nothing", got)
	}

	// Other texts end it too.
	rowWidget(t, v, 1).DoubleTapped(&fyne.PointEvent{Position: fyne.NewPos(xTextR+padText+6*mt.cell+1, mt.line/2)})
	v.SetTexts("g.go", editOld, prop)
	if got := v.Selection().Text(); got != "" {
		t.Errorf("selected %q in another file's diff; want nothing", got)
	}
}

// TestDoubleClickSelectsInlineAndReadOnly: in the inline layout a removed
// line's word selects from the left text, and a read-only view (History)
// selects too.
func TestDoubleClickSelectsInlineAndReadOnly(t *testing.T) {
	v, _ := newTestView(t, 900, 200)
	v.ReadOnly = true
	v.SetInline(true)
	v.SetTexts("f.go", editOld, "func f() {\n\tfetch 2\n}\n")
	mt := v.metric
	xText := mt.leftW + mt.gutW
	del := v.model.RowOfA(1)
	rowWidget(t, v, del).DoubleTapped(&fyne.PointEvent{Position: fyne.NewPos(xText+padText+5*mt.cell+1, mt.line/2)})
	if got := v.Selection().Text(); got != "return" {
		t.Errorf("inline, removed line: selected %q; want \"return\"", got)
	}
	if got := selRects(t, v, v.model.RowOfB(1)); len(got) != 0 {
		t.Errorf("the added line draws the removed line's selection: %v", got)
	}
	if got := selRects(t, v, del); len(got) != 1 {
		t.Errorf("the removed line draws %v; want its selection", got)
	}
}
