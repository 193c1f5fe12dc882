package diffview

import (
	"sort"

	"github.com/diffdesk/diffdesk/engine"
)

// The place the person reads at, kept across a change of what the view
// shows (entering edit mode rebuilds the rows and unfolds them): a line of
// the right side and how far below the top of the view it was.

// PlaceLine returns the right side's line (0-based) the person reads at:
// the first changed line of the change j/k last went to while it is on
// screen, else the first line of the right side on screen; -1 when the
// view shows no lines.
func (v *DiffView) PlaceLine() int {
	m := v.model
	if m == nil || m.Len() == 0 {
		return -1
	}
	top := v.topRow()
	from := top
	if v.nav.cur >= top && v.nav.cur < top+v.visibleRows() {
		from = v.nav.cur
	}
	for r := from; r < m.Len() && r < from+10000; r++ {
		if b := m.Row(r).b; b >= 0 {
			return b
		}
	}
	return max(m.b.Len()-1, -1)
}

// LineY returns how far below the top of the view the row of line i of
// the right side is (negative above it), and whether it is on screen.
func (v *DiffView) LineY(i int) (float32, bool) {
	if i < 0 || i >= v.model.b.Len() {
		return 0, false
	}
	y := v.wr.rowY(v.model.RowOfB(i)) - v.list.GetScrollOffset()
	return y, y >= 0 && y < v.list.Size().Height
}

// ShowLineAt scrolls so that line i of the right side (opened from a fold
// if need be) is y below the top of the view, or as near as the rows allow.
// When line i starts a change (the place PlaceLine gave while j/k's change
// was on screen), that change is the current one again: the counter names
// it and j/k go on from it.
func (v *DiffView) ShowLineAt(i int, y float32) {
	if i < 0 || i >= v.model.b.Len() {
		return
	}
	r := v.folds.reveal(1, i)
	v.list.ScrollToOffset(max(v.wr.rowY(r)-y, 0))
	rows := v.changeRows()
	if k := sort.SearchInts(rows, r); k < len(rows) && rows[k] == r {
		v.nav.cur = r
	}
	v.redrawRows()
}

// editAt tells the host the person double-tapped line and col of the
// proposal outside edit mode (OnEditAt).
func (v *DiffView) editAt(line, col int) {
	if v.OnEditAt != nil {
		v.OnEditAt(line, col)
	}
}

// Path returns the path of the file whose diff is on show.
func (v *DiffView) Path() string { return v.doc.path }

// Cursor returns the editor's cursor: its line and byte column (0-based).
func (e *Editor) Cursor() (line, col int) {
	p := e.buf.Cursor()
	return p.Line, p.Col
}

// HasKeyboard reports whether the editor has the keyboard. While it loses
// it (FocusLost, OnEditorFocus(false)) the canvas still names it as the
// focused object; this already says false.
func (e *Editor) HasKeyboard() bool { return e.focused }

// CurrentOnScreen reports whether a row of the change j/k last went to is
// on screen: measured in pixels, since with wrap a row may be many lines
// tall and the rows on screen far fewer than visibleRows.
func (v *DiffView) CurrentOnScreen() bool {
	m := v.model
	if v.nav.cur < 0 || v.nav.cur >= m.Len() {
		return false
	}
	off, h := v.list.GetScrollOffset(), v.list.Size().Height
	k := m.Row(v.nav.cur).hunk
	y := v.wr.rowY(v.nav.cur)
	for r := v.nav.cur; r < m.Len() && m.Row(r).hunk == k && y < off+h; r++ {
		if y+v.wr.rowHeight(r) > off {
			return true
		}
		y += v.wr.rowHeight(r)
	}
	return false
}

// LineAcross returns the line of the other side that line i of side (0 the
// original, 1 the right side) faces: the same unchanged line, or where a
// change starts on the other side. Lines past the end face the other
// side's end.
func (v *DiffView) LineAcross(side, i int) int {
	m := v.model
	span := func(op engine.Op, s int) (int, int) {
		if s == 0 {
			return op.A0, op.A1
		}
		return op.B0, op.B1
	}
	k := sort.Search(len(m.segs), func(k int) bool { _, end := span(m.segs[k].op, side); return end > i })
	if k == len(m.segs) {
		if side == 0 {
			return m.b.Len()
		}
		return m.a.Len()
	}
	op := m.segs[k].op
	start, _ := span(op, side)
	other, otherEnd := span(op, 1-side)
	if op.Kind == engine.OpEqual {
		return min(other+max(i-start, 0), max(otherEnd-1, other))
	}
	return other
}
