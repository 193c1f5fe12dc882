package diffview

import (
	"image/color"
	"unicode/utf8"

	"fyne.io/fyne/v2"

	"github.com/diffdesk/diffdesk/ui/diffview/textbuf"
)

// Read-only selection: outside edit mode a double click on either side's
// text selects the word under the pointer, as it does everywhere else,
// drawn as the editor draws its selection; Ctrl+C copies it
// (Selection.Copy). It never makes the view an editor nor changes a byte:
// the window only learns where the double click was (OnEditAt), so that e
// puts the cursor there. A single click elsewhere, other texts or edit
// mode clear it.

// readSel is the word selected in the read-only view: bytes from:to of
// line (0-based) of one side's shown text, and that line as it was, so a
// selection never names text that is no longer there.
type readSel struct {
	side     int // 0 the left text, 1 the right (the proposal)
	line     int
	from, to int
	text     string
}

// doubleTapText answers a double tap outside edit mode at p (relative to
// row r's top left): the word under the pointer is selected, and a tap on
// the proposal's text also says where (OnEditAt).
func (r *diffRow) doubleTapText(p fyne.Position) {
	v := r.p
	rw := v.shown().Row(r.id)
	if rw.kind == rowFold {
		return
	}
	side, line, x := r.textAt(rw, p.X)
	if side < 0 {
		v.sel.Clear()
		return
	}
	get, n := v.lineGetter(side)
	if line >= n {
		return
	}
	s := get(line)
	from, to := textbuf.WordAt(s, r.byteAt(s, x, p))
	v.sel.word = &readSel{side: side, line: line, from: from, to: to, text: s}
	v.refreshChangedRows()
	if side == 1 && !v.streaming() && !v.readOnly() {
		at := r.posAt(r.id, p)
		v.editAt(at.Line, at.Col)
	}
}

// textAt returns the side, line and text's left edge of the text at x on
// row rw, side -1 for a number, the gutter or no line there.
func (r *diffRow) textAt(rw row, x float32) (side, line int, x0 float32) {
	mt := r.p.metric
	xGut := mt.leftW
	if r.p.shown().shape.inline {
		xText := xGut + mt.gutW
		switch {
		case x < xText:
			return -1, 0, 0
		case rw.b >= 0:
			return 1, rw.b, xText
		case rw.a >= 0:
			return 0, rw.a, xText
		}
		return -1, 0, 0
	}
	xTextR := xGut + mt.gutW + mt.numW
	switch {
	case x >= mt.numW && x < xGut && rw.a >= 0:
		return 0, rw.a, mt.numW
	case x >= xTextR && rw.b >= 0:
		return 1, rw.b, xTextR
	}
	return -1, 0, 0
}

// byteAt returns the byte of line s (drawn from x0 on this row) under the
// pointer at p: the cell it is in, not the nearest boundary.
func (r *diffRow) byteAt(s string, x0 float32, p fyne.Position) int {
	mt := r.p.metric
	cell := max(int((p.X-x0-padText)/mt.cell), 0)
	r.colBuf = columns(s, r.colBuf)
	wins := r.windows(s, r.colBuf)
	k := min(max(int(p.Y/mt.line), 0), len(wins)-1)
	cell += wins[k][0]
	for i := len(s) - 1; i >= 0; i-- {
		if int(r.colBuf[i]) <= cell {
			for i > 0 && !utf8.RuneStart(s[i]) { // a letter's bytes share its column: its first
				i--
			}
			return i
		}
	}
	return 0
}

// readSelection draws the read-only selection where this row shows its
// line (xL, xR: the left and right texts' edges).
func (r *diffRow) readSelection(rw row, xL, xR float32, inline bool, c color.Color) {
	sel := r.p.sel.current()
	if sel == nil {
		return
	}
	x := xR
	switch {
	case sel.side == 1 && rw.b == sel.line:
	case sel.side == 0 && rw.a == sel.line && (!inline || rw.b < 0):
		x = xL
	default:
		return
	}
	mt := r.p.metric
	s := sel.text
	r.colBuf = columns(s, r.colBuf)
	c0, c1 := int(r.colBuf[sel.from]), int(r.colBuf[sel.to]) // columns ends with the line end's
	for k, w := range r.windows(s, r.colBuf) {
		if lo, hi := max(c0, w[0]), min(c1, w[1]); lo < hi {
			r.rect(c, x+padText+float32(lo-w[0])*mt.cell, float32(k)*mt.line, float32(hi-lo)*mt.cell, mt.line)
		}
	}
}

// Selection is the word selected outside edit mode (DiffView.Selection).
// It reaches the view only through selHost.
type Selection struct {
	host selHost
	word *readSel // nil for none
}

// selHost is what the selection needs of its view: the lines shown,
// whether the editor shows (it has a selection of its own), and the rows
// whose drawing changed drawn again.
type selHost interface {
	lineGetter(side int) (func(int) string, int)
	Editor() *Editor
	refreshChangedRows()
}

// Selection is the word selected outside edit mode.
func (v *DiffView) Selection() *Selection { return &v.sel }

// current returns the read-only selection while its line still holds
// the text it was made on, else nil.
func (s *Selection) current() *readSel {
	sel := s.word
	if sel == nil || s.host.Editor() != nil {
		return nil
	}
	get, n := s.host.lineGetter(sel.side)
	if sel.line >= n || get(sel.line) != sel.text {
		return nil
	}
	return sel
}

// Text returns the text selected outside edit mode (a word
// double-clicked), "" for none.
func (s *Selection) Text() string {
	sel := s.current()
	if sel == nil {
		return ""
	}
	return sel.text[sel.from:sel.to]
}

// Copy puts the text selected outside edit mode on cb (nil: the app's
// clipboard); false when nothing is selected.
func (s *Selection) Copy(cb fyne.Clipboard) bool {
	t := s.Text()
	if t == "" {
		return false
	}
	if cb = clipboardOf(cb); cb != nil {
		cb.SetContent(t)
	}
	return true
}

// Clear forgets the read-only selection.
func (s *Selection) Clear() {
	if s.word != nil {
		s.word = nil
		s.host.refreshChangedRows()
	}
}
