package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
)

// The window driver's view of where the pane's parts are drawn: a person
// sees two parts drawn over one another, whatever each says.

// paneParts are the right pane's parts, top to bottom, by name.
func (h *harness) paneParts() []struct {
	name string
	o    fyne.CanvasObject
} {
	d := h.win.detail
	return []struct {
		name string
		o    fyne.CanvasObject
	}{
		{"title", d.head.row}, {"agent's words", d.head.intent}, {"files", d.files}, {"changeset tree", d.tree.box},
		{"note", d.head.noteBox}, {"loose match", d.loose.box}, {"view choice", d.stale.box}, {"pick again", d.pick.againBox},
		{"diff", d.center},
		{"problems", d.checks.problems}, {"comments", d.comments.box}, {"bar", d.bar.box}, {"keyboard line", d.line.row}, {"status", d.line.status},
	}
}

// PaneOverlaps names the pairs of the right pane's shown parts (the title,
// the note, a stale file's choice of views, the diff, the bar, …) drawn
// over one another, as the window laid them out last; none when the pane
// is right.
func (h *harness) PaneOverlaps() []string {
	type box struct {
		name           string
		x0, y0, x1, y1 float32
	}
	drv := fyne.CurrentApp().Driver()
	var shown []box
	for _, p := range h.paneParts() {
		if !shownIn(h.win.detail.content, p.o) {
			continue
		}
		at, s := drv.AbsolutePositionForObject(p.o), p.o.Size()
		if s.Width <= 0 || s.Height <= 0 {
			continue
		}
		shown = append(shown, box{p.name, at.X, at.Y, at.X + s.Width, at.Y + s.Height})
	}
	var out []string
	const slack = 0.5 // rounding in the layouts' arithmetic
	for i, a := range shown {
		for _, b := range shown[i+1:] {
			if a.x0 < b.x1-slack && b.x0 < a.x1-slack && a.y0 < b.y1-slack && b.y0 < a.y1-slack {
				out = append(out, fmt.Sprintf("%s (y %.0f–%.0f) over %s (y %.0f–%.0f)", a.name, a.y0, a.y1, b.name, b.y0, b.y1))
			}
		}
	}
	return out
}
