package diffview

import (
	"fmt"
	"image/color"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
)

const editOld = "func f() {\n\treturn 1\n}\n"

// newTestEditor returns an editable view of editOld → text.
func newTestEditor(t *testing.T, text string) (*DiffView, *Editor, fyne.Window) {
	t.Helper()
	v, w := newTestView(t, 900, 200)
	v.SetTexts("f.go", editOld, text)
	v.SetEditable(true)
	ed := v.Editor()
	if ed == nil {
		t.Fatal("Editor() = nil after SetEditable(true)")
	}
	return v, ed, w
}

func key(ed *Editor, n fyne.KeyName) { ed.TypedKey(&fyne.KeyEvent{Name: n}) }

func shiftKey(ed *Editor, n fyne.KeyName) {
	ed.KeyDown(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	ed.TypedKey(&fyne.KeyEvent{Name: n})
	ed.KeyUp(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
}

// cursorOf returns the line and byte column of the editor's cursor.
func cursorOf(ed *Editor) (line, col int) {
	p := ed.buf.Cursor()
	return p.Line, p.Col
}

func typeText(ed *Editor, s string) {
	for _, r := range s {
		ed.TypedRune(r)
	}
}

func TestEditorEdits(t *testing.T) {
	tests := []struct {
		name      string
		line, col int
		do        func(ed *Editor)
		want      string
	}{
		{"types and backspaces", 1, 8, func(ed *Editor) {
			typeText(ed, "4")
			key(ed, fyne.KeyBackspace)
			typeText(ed, "2")
		}, "func f() {\n\treturn 21\n}\n"},
		{"newline keeps the indent", 1, 10, func(ed *Editor) {
			key(ed, fyne.KeyReturn)
			typeText(ed, "x")
		}, "func f() {\n\treturn 1\n\tx\n}\n"},
		{"backspace joins lines", 2, 0, func(ed *Editor) { key(ed, fyne.KeyBackspace) },
			"func f() {\n\treturn 1}\n"},
		{"delete joins lines", 0, 10, func(ed *Editor) { key(ed, fyne.KeyDelete) },
			"func f() {\treturn 1\n}\n"},
		{"typing replaces the selection", 0, 5, func(ed *Editor) {
			ed.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyRight, Modifier: fyne.KeyModifierControl | fyne.KeyModifierShift})
			typeText(ed, "g")
		}, "func g() {\n\treturn 1\n}\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, ed, _ := newTestEditor(t, editOld)
			ed.SetCursor(tc.line, tc.col)
			tc.do(ed)
			if got := v.EditedText(); got != tc.want {
				t.Errorf("EditedText = %q; want %q", got, tc.want)
			}
		})
	}
}

func TestEditorShiftArrowsSelect(t *testing.T) {
	_, ed, _ := newTestEditor(t, editOld)
	ed.SetCursor(0, 5)
	shiftKey(ed, fyne.KeyRight)
	shiftKey(ed, fyne.KeyDown)
	if got, want := ed.buf.Selected(), "f() {\n\tre"; got != want {
		t.Errorf("Selected = %q; want %q", got, want)
	}
}

func TestEditorUndoGroupsTypedRun(t *testing.T) {
	v, ed, _ := newTestEditor(t, editOld)
	ed.SetCursor(1, 10)
	typeText(ed, "234")
	ed.TypedShortcut(&fyne.ShortcutUndo{})
	if got := v.EditedText(); got != editOld {
		t.Fatalf("after undo EditedText = %q; want %q", got, editOld)
	}
	ed.TypedShortcut(&fyne.ShortcutRedo{})
	if got, want := v.EditedText(), "func f() {\n\treturn 1234\n}\n"; got != want {
		t.Errorf("after redo EditedText = %q; want %q", got, want)
	}
}

func TestEditorCtrlShiftZRedoes(t *testing.T) {
	v, ed, _ := newTestEditor(t, editOld)
	ed.SetCursor(0, 0)
	key(ed, fyne.KeyDelete)
	ed.TypedShortcut(&fyne.ShortcutUndo{})
	ed.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyZ, Modifier: fyne.KeyModifierControl | fyne.KeyModifierShift})
	if got, want := v.EditedText(), editOld[1:]; got != want {
		t.Errorf("EditedText = %q; want %q", got, want)
	}
}

func TestEditorCutAndPaste(t *testing.T) {
	v, ed, _ := newTestEditor(t, editOld)
	cb := fyne.CurrentApp().Clipboard()
	ed.SetCursor(1, 1)
	ed.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEnd})
	ed.KeyDown(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	ed.TypedKey(&fyne.KeyEvent{Name: fyne.KeyHome})
	ed.KeyUp(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	ed.TypedShortcut(&fyne.ShortcutCut{Clipboard: cb})
	ed.SetCursor(0, 0)
	ed.TypedShortcut(&fyne.ShortcutPaste{Clipboard: cb})
	if got, want := v.EditedText(), "return 1func f() {\n\t\n}\n"; got != want {
		t.Errorf("EditedText = %q; want %q", got, want)
	}
}

func TestEditorTabIndentsSelection(t *testing.T) {
	v, ed, _ := newTestEditor(t, editOld)
	ed.SelectAll()
	key(ed, fyne.KeyTab)
	if got, want := v.EditedText(), "\tfunc f() {\n\t\treturn 1\n\t}\n"; got != want {
		t.Errorf("EditedText = %q; want %q", got, want)
	}
}

func TestEditorWordJumps(t *testing.T) {
	_, ed, _ := newTestEditor(t, "alpha beta.gamma\n")
	ed.SetCursor(0, 0)
	right := &desktop.CustomShortcut{KeyName: fyne.KeyRight, Modifier: fyne.KeyModifierControl}
	var stops []int
	for range 3 {
		ed.TypedShortcut(right)
		_, c := cursorOf(ed)
		stops = append(stops, c)
	}
	if want := []int{5, 10, 16}; !equalInts(stops, want) {
		t.Errorf("Ctrl+Right stops at %v; want %v", stops, want)
	}
	ed.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyLeft, Modifier: fyne.KeyModifierControl})
	if _, c := cursorOf(ed); c != 11 {
		t.Errorf("Ctrl+Left from 16 stops at %d; want 11", c)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestEditorRediffCallsOnEdited(t *testing.T) {
	v, ed, _ := newTestEditor(t, editOld)
	calls := 0
	v.OnEdited = func() { calls++ }
	ed.SetCursor(1, 10)
	typeText(ed, "0")
	ed.flush()
	if calls != 1 {
		t.Errorf("OnEdited called %d times after a flush; want 1", calls)
	}
	if got := len(v.Hunks()); got != 1 {
		t.Errorf("Hunks after editing one line = %d; want 1", got)
	}
}

func TestEditorPatchedDiffMarksEditAtOnce(t *testing.T) {
	v, ed, _ := newTestEditor(t, editOld)
	ed.SetCursor(1, 10)
	typeText(ed, "0")
	r := v.model.Row(v.model.RowOfB(1))
	if r.kind != rowChanged {
		t.Errorf("edited row kind = %v before the re-diff; want changed", r.kind)
	}
}

func TestEditorRendersSelection(t *testing.T) {
	_, ed, w := newTestEditor(t, strings.Replace(editOld, "1", "2", 1))
	ed.SetCursor(1, 1)
	ed.KeyDown(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	key(ed, fyne.KeyEnd)
	ed.KeyUp(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	typeText(ed, "return 3")
	shiftKey(ed, fyne.KeyLeft)
	ed.flush()
	test.AssertRendersToMarkup(t, "editor/typed_selection.xml", w.Canvas())
	test.AssertImageMatches(t, "editor/typed_selection.png", w.Canvas().Capture())
}

func TestEditorCtrlHomeEnd(t *testing.T) {
	_, ed, _ := newTestEditor(t, editOld)
	ed.SetCursor(1, 3)
	ed.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyEnd, Modifier: fyne.KeyModifierControl})
	if l, c := cursorOf(ed); l != 3 || c != 0 {
		t.Errorf("Ctrl+End cursor = %d,%d; want 3,0 (the empty last line)", l, c)
	}
	ed.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyHome, Modifier: fyne.KeyModifierControl})
	if l, c := cursorOf(ed); l != 0 || c != 0 {
		t.Errorf("Ctrl+Home cursor = %d,%d; want 0,0", l, c)
	}
}

func TestEditorPageDownMovesAPage(t *testing.T) {
	v, w := newTestView(t, 900, 200)
	v.SetTexts("a.txt", numbered(500, nil), numbered(500, nil))
	v.SetEditable(true)
	ed := v.Editor()
	key(ed, fyne.KeyPageDown)
	l, _ := cursorOf(ed)
	if want := ed.page(); l != want || l < 5 {
		t.Errorf("PageDown cursor line = %d; want %d (a page)", l, want)
	}
	if v.topRow() == 0 && l > v.visibleRows() {
		t.Error("view did not follow the cursor")
	}
	_ = w
}

func TestEditorClickPlacesCursor(t *testing.T) {
	v, ed, w := newTestEditor(t, editOld)
	mt := v.metric
	xTextR := 2*mt.numW + mt.sideW + mt.gutW + padText
	// Line 2 ("\treturn 1"), cell 6: the tab spans cells 0-3, so byte 3.
	test.TapCanvas(w.Canvas(), fyne.NewPos(xTextR+6*mt.cell+1, v.wr.rowY(1)+mt.line/2))
	if l, c := cursorOf(ed); l != 1 || c != 3 {
		t.Errorf("cursor after click = %d,%d; want 1,3", l, c)
	}
}

// rowWidget returns the row widget showing row id.
func rowWidget(t *testing.T, v *DiffView, id int) *diffRow {
	t.Helper()
	for _, o := range test.LaidOutObjects(v.list) {
		if r, ok := o.(*diffRow); ok && r.id == id {
			return r
		}
	}
	t.Fatalf("no row widget shows row %d", id)
	return nil
}

func TestEditorDragSelects(t *testing.T) {
	v, ed, _ := newTestEditor(t, editOld)
	mt := v.metric
	xTextR := 2*mt.numW + mt.sideW + mt.gutW + padText
	r := rowWidget(t, v, 0)
	// As the desktop driver sends them: the pointer's position now and
	// the move since the last event.
	start := fyne.NewPos(xTextR+1, mt.line/2)
	step := fyne.NewDelta(2*mt.cell, mt.line/2)
	p := start
	for range 2 {
		p = p.AddXY(step.DX, step.DY)
		r.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: p}, Dragged: step})
	}
	r.DragEnd()
	if got, want := ed.buf.Selected(), "func f() {\n\t"; got != want {
		t.Errorf("Selected after drag = %q; want %q", got, want)
	}
}

func TestEditorKeepsWrappedRowsAfterEdits(t *testing.T) {
	v, w := newTestView(t, 600, 300)
	long := "x := " + strings.Repeat("word ", 30) + "\n"
	text := "a\n" + long + "b\n" + long + "c\n"
	v.SetTexts("a.go", text, text)
	v.SetWrap(true)
	v.SetEditable(true)
	ed := v.Editor()
	ed.SetCursor(0, 1)
	key(ed, fyne.KeyReturn)
	typeText(ed, "new line")
	key(ed, fyne.KeyReturn)
	ed.SetCursor(4, 0)
	key(ed, fyne.KeyBackspace)
	got := fmt.Sprint(v.wr.rows)
	v.wr.apply()
	if want := fmt.Sprint(v.wr.rows); got != want || len(v.wr.rows) != 2 {
		t.Errorf("wrapped rows after edits = %s; want %s (2 rows)", got, want)
	}
	_ = w
}

func TestEditorDoubleTapSelectsWord(t *testing.T) {
	v, ed, _ := newTestEditor(t, editOld)
	mt := v.metric
	xTextR := 2*mt.numW + mt.sideW + mt.gutW + padText
	rowWidget(t, v, 1).DoubleTapped(&fyne.PointEvent{Position: fyne.NewPos(xTextR+6*mt.cell+1, mt.line/2)})
	if got := ed.buf.Selected(); got != "return" {
		t.Errorf("Selected after double tap = %q; want %q", got, "return")
	}
}

func TestEditorEscapeGivesTheKeyboardBack(t *testing.T) {
	_, ed, w := newTestEditor(t, editOld)
	w.Canvas().Focus(ed)
	typeText(ed, "x")
	key(ed, fyne.KeyEscape)
	if w.Canvas().Focused() != nil {
		t.Errorf("after Esc the editor still has the keyboard")
	}
	if !strings.HasPrefix(ed.Text(), "x") {
		t.Errorf("Esc lost the typed text: %q", ed.Text())
	}
}

// TestEditorStopsTakingKeysWhenEditingEnds: approving (SetEditable(false))
// while the editor has the keyboard gives the keyboard back, and a key
// that still reaches the old editor is ignored, not a crash.
func TestEditorStopsTakingKeysWhenEditingEnds(t *testing.T) {
	v, ed, w := newTestEditor(t, editOld)
	w.Canvas().Focus(ed)
	typeText(ed, "x")
	v.SetEditable(false)
	if w.Canvas().Focused() == ed {
		t.Errorf("after SetEditable(false) the old editor still has the keyboard")
	}
	typeText(ed, "y")
	key(ed, fyne.KeyReturn)
	ed.TypedShortcut(&fyne.ShortcutSelectAll{})
	if v.EditedText() != "" {
		t.Errorf("EditedText after editing ended = %q; want none", v.EditedText())
	}
}

// rightBackground returns the colour behind the right side of row id.
func rightBackground(v *DiffView, id int) color.Color {
	r := newDiffRow(&v.parts)
	r.id = id
	r.build()
	mt := v.metric
	for _, o := range r.rects[:r.nRect] {
		if o.Position().X == mt.leftW+mt.gutW && o.Size().Width == mt.numW+mt.sideW {
			return o.FillColor
		}
	}
	return nil
}

func TestEditorShowsThePersonsEditsApart(t *testing.T) {
	const proposal = "func f() {\n\treturn 2\n}\nfunc g() {}\n"
	v, ed, _ := newTestEditor(t, proposal)
	c := coloursFor(v.rows.dark)
	agent := v.model.RowOfB(1) // the agent's change: 1 → 2
	if got := rightBackground(v, agent); got != c.ins {
		t.Fatalf("the agent's changed line has background %v; want %v (added)", got, c.ins)
	}
	ed.SetCursor(3, 0)
	typeText(ed, "// mine\n")
	for _, check := range []string{"patched", "re-diffed"} {
		mine := v.model.RowOfB(3)
		if got := rightBackground(v, mine); got != c.mine {
			t.Errorf("%s: the person's line has background %v; want %v, apart from the agent's", check, got, c.mine)
		}
		if got := rightBackground(v, agent); got != c.ins {
			t.Errorf("%s: the agent's line has background %v; want %v", check, got, c.ins)
		}
		ed.flush()
	}
}

func TestEditModeKeepsRowsStillOnScreen(t *testing.T) {
	v, w := newTestView(t, 900, 300)
	v.SetTexts("a.txt", numbered(300, nil), numbered(300, func(k int) string {
		if k == 150 {
			return "changed\n"
		}
		return ""
	}))
	v.Nav().NextHunk()
	// Where row 150 is on the window's canvas.
	screenY := func() float32 {
		return fyne.CurrentApp().Driver().AbsolutePositionForObject(v.list).Y + v.wr.rowY(150) - v.list.GetScrollOffset()
	}
	before := screenY()
	for _, on := range []bool{true, false} {
		v.SetEditable(on)
		w.Canvas().Refresh(v)
		v.layout(v.Size())
		if got := screenY(); got != before {
			t.Errorf("SetEditable(%v) moved the changed row from y %v to %v on screen; want it still", on, before, got)
		}
	}
}

// TestEditorOwnBase: an editor made for text the person already changed
// (an external editor's save) draws their lines purple once told the text
// editing started from (SetOwnBase), not green as the agent's.
func TestEditorOwnBase(t *testing.T) {
	const proposal = "func f() {\n\treturn 2\n}\n"
	const edited = proposal + "// mine\n"
	v, ed, _ := newTestEditor(t, edited)
	c := coloursFor(v.rows.dark)
	mine := v.model.RowOfB(3)
	if ed.Own(3) {
		t.Fatal("before SetOwnBase the editor takes its whole text as the agent's, line 4 the person's")
	}
	ed.SetOwnBase(proposal)
	if !ed.Own(3) || ed.Own(1) {
		t.Errorf("Own(3) %v, Own(1) %v; want the added line the person's, the agent's change not", ed.Own(3), ed.Own(1))
	}
	if got := rightBackground(v, mine); got != c.mine {
		t.Errorf("the person's line has background %v; want %v", got, c.mine)
	}
	if got := rightBackground(v, v.model.RowOfB(1)); got != c.ins {
		t.Errorf("the agent's line has background %v; want %v", got, c.ins)
	}
}

// TestOwnEditsMarkedOnStripAndGutter: the person's own lines are purple in
// the overview strip and in the hunk gutter, as in the text, not green as
// the agent's (issue 25 d). Read off the rendered window.
func TestOwnEditsMarkedOnStripAndGutter(t *testing.T) {
	v, w := newTestView(t, 900, 600)
	w.SetPadded(false)
	v.SetTexts("a.txt", numbered(60, nil), numbered(60, func(k int) string {
		if k == 10 {
			return "the agent's line\n"
		}
		return ""
	}))
	v.SetEditable(true)
	ed := v.Editor()
	ed.SetCursor(20, 0)
	for _, r := range "mine" {
		ed.TypedRune(r)
	}
	ed.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	purple := func(c color.NRGBA) bool { return int(c.B) > int(c.G)+60 && c.R > c.G }
	agents := func(c color.NRGBA) bool { return int(c.R)+int(c.G) > 2*int(c.B)+100 } // green, orange
	for _, check := range []string{"patched", "re-diffed"} {
		img := w.Canvas().Capture()
		at := func(x, y int) color.NRGBA { return color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA) }
		scale := float32(img.Bounds().Dx()) / w.Canvas().Size().Width
		rowY := func(line int) int {
			y, ok := v.LineY(line)
			if !ok {
				t.Fatalf("%s: line %d is not on screen", check, line+1)
			}
			return int((y + 3) * scale)
		}
		// The strip: the rightmost pixels of the view.
		stripX := img.Bounds().Dx() - int(7*scale)
		var strip [2]int // purple, green
		for y := range img.Bounds().Dy() {
			if c := at(stripX, y); purple(c) {
				strip[0]++
			} else if agents(c) {
				strip[1]++
			}
		}
		if strip[0] == 0 || strip[1] == 0 {
			t.Errorf("%s: the strip has %d purple and %d green or orange pixels; want the person's line purple beside the agent's change", check, strip[0], strip[1])
		}
		// The gutter: where the agent's row has its green bar, the
		// person's row has a purple one.
		agent, mine := rowY(10), rowY(20)
		bars := 0
		for x := range img.Bounds().Dx() - int(20*scale) {
			if c := at(x, agent); c.A == 0xff && c.R == 0x2e && c.G == 0xa0 && c.B == 0x43 {
				bars++
				if got := at(x, mine); !purple(got) {
					t.Errorf("%s: the gutter of the person's line at x %d is %v; want purple, as the strip and the text", check, x, got)
					break
				}
			}
		}
		if bars == 0 {
			t.Fatalf("%s: no green gutter bar on the agent's row", check)
		}
		ed.flush() // the full re-diff after the typing pause
	}
}
