package diffview

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// hscroll is the horizontal scrollbar under a DiffView's rows: both sides
// share its offset (in cells). Drag the thumb, or tap the track to move a
// page.
type hscroll struct {
	widget.BaseWidget
	v     *DiffView
	max   int     // largest offset, in cells
	value int     // offset, in cells
	drag  float32 // cells dragged but not yet scrolled
	track *canvas.Rectangle
	thumb *canvas.Rectangle
}

func newHScroll(v *DiffView) *hscroll {
	h := &hscroll{v: v, track: canvas.NewRectangle(nil), thumb: canvas.NewRectangle(nil)}
	h.thumb.CornerRadius = 3
	h.ExtendBaseWidget(h)
	return h
}

// CreateRenderer is part of fyne.Widget.
func (h *hscroll) CreateRenderer() fyne.WidgetRenderer { return &hscrollRenderer{h: h} }

type hscrollRenderer struct{ h *hscroll }

func (r *hscrollRenderer) Destroy()           {}
func (r *hscrollRenderer) MinSize() fyne.Size { return fyne.NewSize(40, theme.ScrollBarSize()+2) }
func (r *hscrollRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.h.track, r.h.thumb}
}
func (r *hscrollRenderer) Refresh() {
	r.Layout(r.h.Size())
	canvas.Refresh(r.h)
}

func (r *hscrollRenderer) Layout(size fyne.Size) {
	h := r.h
	h.track.FillColor = theme.Color(theme.ColorNameInputBackground)
	h.thumb.FillColor = theme.Color(theme.ColorNameScrollBar)
	h.track.Resize(size)
	w, x := h.thumbGeometry(size.Width)
	h.thumb.Move(fyne.NewPos(x, 1))
	h.thumb.Resize(fyne.NewSize(w, size.Height-2))
}

// thumbGeometry returns the thumb's width and x in a track of width tw.
func (h *hscroll) thumbGeometry(tw float32) (w, x float32) {
	cols := float32(max(h.v.metric.cols, 1))
	total := cols + float32(h.max)
	w = max(tw*cols/total, 24)
	if h.max > 0 {
		x = (tw - w) * float32(h.value) / float32(h.max)
	}
	return w, x
}

// set moves the bar to offset c and the range to 0..m.
func (h *hscroll) set(c, m int) {
	if h.value == c && h.max == m {
		return
	}
	h.value, h.max = c, m
	h.Refresh()
}

// Dragged moves the offset with the thumb.
func (h *hscroll) Dragged(ev *fyne.DragEvent) {
	w, _ := h.thumbGeometry(h.Size().Width)
	if span := h.Size().Width - w; span > 0 {
		h.drag += ev.Dragged.DX * float32(h.max) / span
		step := int(h.drag)
		h.drag -= float32(step)
		h.v.setHOffset(h.value + step)
	}
}

// DragEnd is part of fyne.Draggable.
func (h *hscroll) DragEnd() { h.drag = 0 }

// Tapped moves a page towards the tap.
func (h *hscroll) Tapped(ev *fyne.PointEvent) {
	w, x := h.thumbGeometry(h.Size().Width)
	page := max(h.v.metric.cols-4, 1)
	switch {
	case ev.Position.X < x:
		h.v.setHOffset(h.value - page)
	case ev.Position.X > x+w:
		h.v.setHOffset(h.value + page)
	}
}
