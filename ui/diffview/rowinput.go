package diffview

// A row's pointer input: taps on the gutter, numbers and text, double
// taps, drags that select, the wheel.

import (
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"github.com/diffdesk/diffdesk/ui/diffview/textbuf"
)

// Tapped toggles a hunk in the gutter, or places the editor's cursor.
func (r *diffRow) Tapped(ev *fyne.PointEvent) {
	v := r.p
	if r.id < 0 || r.id >= v.shown().Len() {
		return
	}
	v.sel.Clear() // a click elsewhere ends a word's selection (textsel.go)
	mt := v.metric
	xGut := mt.leftW
	rw := v.shown().Row(r.id)
	if rw.kind == rowFold {
		if k := r.foldLabelAt(v.shown().segs[rw.seg], ev.Position.X); k > 0 {
			v.folds.openAt(rw.seg, k-1)
		}
		return
	}
	if ev.Position.X >= xGut && ev.Position.X < xGut+mt.gutW {
		if rw.hunk >= 0 {
			v.ToggleHunk(rw.hunk)
		}
		return
	}
	if k, side := r.onNumber(rw, ev.Position.X); k >= 0 {
		v.jumpFromSide(rw, k, side)
		return
	}
	if ed := v.Editor(); ed != nil {
		ed.focus()
		ed.move(r.posAt(r.id, ev.Position), ed.shiftHeld())
	}
}

// onNumber returns the move and side of the moved line whose number x
// is on in row rw, or -1.
func (r *diffRow) onNumber(rw row, x float32) (int, int) {
	v := r.p
	mt := v.metric
	for side := range 2 {
		k := v.marks.movedOn(rw, side)
		if k < 0 {
			continue
		}
		x0 := float32(0)
		if side == 1 {
			x0 = mt.leftW + mt.gutW
			if v.shown().shape.inline {
				x0 = mt.numW
			}
		}
		if x >= x0 && x < x0+mt.numW {
			return k, side
		}
	}
	return -1, 0
}

// posAt returns the editor position at p (relative to row id's top left).
func (r *diffRow) posAt(id int, p fyne.Position) textbuf.Pos {
	v := r.p
	ed := v.Editor()
	mt := v.metric
	m := v.shown()
	if id < 0 {
		return textbuf.Pos{}
	}
	end := func() textbuf.Pos {
		if ed != nil {
			return ed.buf.End()
		}
		return textbuf.Pos{Line: max(m.b.Len()-1, 0)}
	}
	if id >= m.Len() {
		return end()
	}
	rw := m.Row(id)
	line := rw.b
	if line < 0 {
		// A filler cell: the next line of the right side.
		for k := id + 1; k < m.Len() && k < id+10000; k++ {
			if b := m.Row(k).b; b >= 0 {
				return textbuf.Pos{Line: b}
			}
		}
		return end()
	}
	xTextR := mt.leftW + mt.gutW + mt.numW + padText
	if m.shape.inline {
		xTextR = mt.leftW + mt.gutW + padText
	}
	cell := max(int((p.X-xTextR+mt.cell/2)/mt.cell), 0)
	var s string
	if ed != nil {
		s = ed.buf.Lines()[line]
	} else {
		s = m.b.Line(line) // not editing yet: the proposal's line (a double tap starts the editor here)
	}
	r.colBuf = columns(s, r.colBuf)
	if v.wr.on {
		wins := r.windows(s, r.colBuf)
		k := min(max(int(p.Y/mt.line), 0), len(wins)-1)
		cell += wins[k][0]
		if k < len(wins)-1 {
			cell = min(cell, wins[k][1]-1) // past a visual line's end: its last cell
		}
	} else {
		cell += v.hbar.off
	}
	col := len(s)
	for i := 0; i < len(s); i++ {
		if int(r.colBuf[i]) >= cell {
			col = i
			break
		}
	}
	for col > 0 && col < len(s) && !utf8.RuneStart(s[col]) {
		col--
	}
	return textbuf.Pos{Line: line, Col: col}
}

// DoubleTapped selects the word under the pointer: in the editor, or
// read-only outside edit mode (textsel.go), which never edits.
func (r *diffRow) DoubleTapped(ev *fyne.PointEvent) {
	v := r.p
	if r.id < 0 || r.id >= v.shown().Len() {
		return
	}
	if ed := v.Editor(); ed != nil {
		ed.selectWord(r.posAt(r.id, ev.Position))
		return
	}
	r.doubleTapText(ev.Position)
}

// Dragged selects text in the editor.
func (r *diffRow) Dragged(ev *fyne.DragEvent) {
	v, ed := r.p, r.p.Editor()
	if ed == nil || r.id < 0 {
		return
	}
	if !r.drag {
		r.drag, r.dragRow = true, r.id
		start := ev.Position.Subtract(ev.Dragged)
		ed.focus()
		ed.move(r.posAt(r.id, start), false)
	}
	// The row where the drag started keeps the events; find the row under
	// the pointer from its offset.
	y := v.wr.rowY(r.dragRow) + ev.Position.Y
	id := v.wr.rowAtY(y)
	ed.move(r.posAt(id, fyne.NewPos(ev.Position.X, y-v.wr.rowY(id))), true)
}

// DragEnd is part of fyne.Draggable.
func (r *diffRow) DragEnd() { r.drag = false }

// Scrolled scrolls the rows: vertically, or horizontally with Shift or a
// horizontal wheel.
func (r *diffRow) Scrolled(ev *fyne.ScrollEvent) {
	v := r.p
	dx, dy := ev.Scrolled.DX, ev.Scrolled.DY
	if d, ok := fyne.CurrentApp().Driver().(desktop.Driver); ok && d.CurrentKeyModifiers()&fyne.KeyModifierShift != 0 && dx == 0 {
		dx, dy = dy, 0
	}
	if dx != 0 && !v.wr.on {
		// Three cells per wheel notch's worth of pixels; fractions add up.
		v.hbar.acc -= 3 * dx / v.metric.cell
		step := int(v.hbar.acc)
		v.hbar.acc -= float32(step)
		v.setHOffset(v.hbar.off + step)
	}
	if dy != 0 {
		v.scrollBy(dy)
	}
}

var (
	_ fyne.Tappable       = (*diffRow)(nil)
	_ fyne.DoubleTappable = (*diffRow)(nil)
	_ fyne.Draggable      = (*diffRow)(nil)
	_ fyne.Scrollable     = (*diffRow)(nil)
)
