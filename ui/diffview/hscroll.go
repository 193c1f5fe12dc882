package diffview

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/diffdesk/diffdesk/engine/words"
)

// hscroll is the horizontal scrollbar under a DiffView's rows: both sides
// share its offset (in cells). Drag the thumb, or tap the track to move a
// page. It reaches the view only through hscrollHost.
type hscroll struct {
	widget.BaseWidget
	host   hscrollHost
	mt     *metrics // how many cells a side shows
	max    int      // largest offset, in cells
	value  int      // offset, in cells
	drag   float32  // cells dragged but not yet scrolled
	off    int      // the rows' offset in cells (no wrap)
	acc    float32  // wheel movement not yet a whole cell
	maxW   int      // widest line in cells, both sides
	colBuf []int32
	track  *canvas.Rectangle
	thumb  *canvas.Rectangle
}

// hscrollHost is what the bar needs of its view: both sides scrolled to a
// cell.
type hscrollHost interface {
	setHOffset(c int)
}

func newHScroll(host hscrollHost, mt *metrics) *hscroll {
	h := &hscroll{host: host, mt: mt, track: canvas.NewRectangle(nil), thumb: canvas.NewRectangle(nil)}
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
	cols := float32(max(h.mt.cols, 1))
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
		h.host.setHOffset(h.value + step)
	}
}

// DragEnd is part of fyne.Draggable.
func (h *hscroll) DragEnd() { h.drag = 0 }

// Tapped moves a page towards the tap.
func (h *hscroll) Tapped(ev *fyne.PointEvent) {
	w, x := h.thumbGeometry(h.Size().Width)
	page := max(h.mt.cols-4, 1)
	switch {
	case ev.Position.X < x:
		h.host.setHOffset(h.value - page)
	case ev.Position.X > x+w:
		h.host.setHOffset(h.value + page)
	}
}

// revealChange scrolls horizontally (without wrap) so that the word spans
// of the change starting at row r are in view: from the lines' start when
// the spans begin in the first three quarters of the pane, else where they
// begin, with a little context before them, unless they are in view
// already. A change
// without word spans (whole lines added or removed) shows from the lines'
// start. Only the rows on screen are looked at.
func (v *DiffView) revealChange(r int) {
	if v.wr.on {
		return
	}
	m := v.model
	seg := m.segs[m.segAt(r)]
	c0, c1 := -1, -1
	for i := r; i < min(seg.row0+seg.rows, r+v.visibleRows()); i++ {
		rw := m.Row(i)
		w := m.Words(rw)
		span := func(s string, sps []words.Span) {
			if len(sps) == 0 {
				return
			}
			v.hbar.colBuf = columns(s, v.hbar.colBuf)
			lo, hi := int(v.hbar.colBuf[sps[0].Start]), int(v.hbar.colBuf[sps[len(sps)-1].End])
			if c0 < 0 || lo < c0 {
				c0 = lo
			}
			c1 = max(c1, hi)
		}
		if rw.a >= 0 {
			span(m.a.Line(rw.a), w.del)
		}
		if rw.b >= 0 {
			span(m.b.Line(rw.b), w.ins)
		}
	}
	cols := v.metric.cols
	switch {
	case c0 < 0 || c1 <= cols || c0 < cols*3/4:
		// Nothing to show, or its start fits with the lines' start: a
		// reader keeps the left margin rather than the change's end.
		v.setHOffset(0)
	case c0 >= v.hbar.off && min(c1, c0+cols) <= v.hbar.off+cols:
		// in view already
	default:
		v.setHOffset(c0 - min(8, cols/4))
	}
}

// setHOffset scrolls both sides horizontally to cell c.
func (v *DiffView) setHOffset(c int) {
	c = min(max(c, 0), max(v.hbar.maxW-v.metric.cols+1, 0))
	if c == v.hbar.off {
		return
	}
	v.hbar.off = c
	v.hbar.set(c, v.hbar.max)
	v.redrawRows()
}

// updateHBar shows the horizontal scrollbar when lines overflow.
func (v *DiffView) updateHBar() {
	over := v.hbar.maxW - v.metric.cols + 1
	if v.wr.on || over <= 0 {
		if v.hbar.Visible() {
			v.hbar.Hide()
		}
		return
	}
	v.hbar.set(min(v.hbar.off, over), over)
	if !v.hbar.Visible() {
		v.hbar.Show()
	}
}
