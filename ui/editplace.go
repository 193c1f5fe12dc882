package ui

import (
	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
)

// Entering edit mode (e, or a double click on the proposal's text) keeps
// what the person decided and where they were: the editor starts from the
// proposal with only the hunks left ticked (an unticked hunk does not come
// back behind their back), its cursor at the line they were reading (the
// change j/k went to, or the line double-clicked) and that line where it
// was on screen, not at the top of the file.

// startEdit enters edit mode with the editor's cursor at line and col of
// the proposal as the view shows it (0-based).
func (d *detail) startEdit(line, col int) {
	if d.editing || !d.canDecide() {
		return
	}
	y, on := d.view.LineY(line)
	if !on {
		y = d.view.Size().Height / 3
	}
	d.saveFileState() // the ticks of the file shown, which the edit starts from
	f := d.cur()
	l, moved := d.tickedLine(f, line)
	if moved {
		col = 0
	}
	line = l
	d.editing = true
	d.shownKey = ""
	d.render()
	if ed := d.view.Editor(); ed != nil && line >= 0 {
		ed.SetCursor(line, col)
		d.view.ShowLineAt(line, y)
	}
}

// editStart is the text editing f starts from: the person's edit of it so
// far, else its proposal with only the hunks left ticked.
func (d *detail) editStart(f review.File) string {
	if t, ok := d.edited[f.Path]; ok {
		return t
	}
	return d.tickedText(f)
}

// tickedText is f's proposal with only the hunks left ticked.
func (d *detail) tickedText(f review.File) string {
	if acc, some := d.tickedOnly(f); some {
		return engine.ApplyHunks(f.BaseText(), f.Proposed, func(id string) bool { return acc[id] })
	}
	return f.Proposed
}

// tickedLine maps line b of f's proposal to its line in editStart's text
// (the proposal without its unticked hunks); moved reports a line inside
// an unticked hunk's added lines, which maps to where that hunk was.
func (d *detail) tickedLine(f review.File, b int) (line int, moved bool) {
	if _, ok := d.edited[f.Path]; ok {
		return b, false
	}
	acc, some := d.tickedOnly(f)
	if !some {
		return b, false
	}
	delta := 0
	for _, h := range d.fileHunks(f) {
		c := h.Change
		if acc[h.ID] || c.B0 > b {
			continue
		}
		if b < c.B1 {
			return c.B0 + delta, true
		}
		delta += (c.A1 - c.A0) - (c.B1 - c.B0)
	}
	return b + delta, false
}

// origPlace returns the line of the original the person reads at (the
// editor's cursor while on screen, else the view's PlaceLine, mapped
// across) and how far below the top of the view it is.
func (d *detail) origPlace() (a int, y float32, ok bool) {
	b := d.view.PlaceLine()
	if ed := d.view.Editor(); ed != nil {
		if l, _ := ed.Cursor(); func() bool { _, on := d.view.LineY(l); return on }() {
			b = l
		}
	}
	if b < 0 {
		return 0, 0, false
	}
	y, on := d.view.LineY(b)
	if !on {
		y = d.view.Size().Height / 3
	}
	return d.view.LineAcross(1, b), y, true
}

// showOrigPlace scrolls the view so the right side's line facing line a of
// the original is y below its top.
func (d *detail) showOrigPlace(a int, y float32) {
	d.view.ShowLineAt(d.view.LineAcross(0, a), y)
}
