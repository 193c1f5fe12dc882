package diffview

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/engine"
)

// overview is the strip beside a DiffView that shows the whole file's
// changes as coloured ticks (red removed, green added, orange replaced,
// blue still being written, purple the person's own edits) and the
// visible part as a frame; tapping it jumps there. The ticks are one
// raster, painted again only when the changes do (build): a scroll moves
// the frame alone, and a frame of the window draws the strip as two
// objects, not one per change. It reaches the view only through
// stripHost.
type overview struct {
	widget.BaseWidget
	host   stripHost
	ticks  []stripTick
	raster *canvas.Raster
	frame  *canvas.Rectangle
	objs   []fyne.CanvasObject
}

// stripTick is one tick on the strip: y0 to y1 (the strip's units) in col.
type stripTick struct {
	y0, y1 float32
	col    color.Color
}

// stripHost is what the strip needs of its view: the rows, the theme's
// variant, the editor (its person's own rows), which changes are faded,
// the row on top and how many rows the view holds (false before it is
// measured), and going to a change's row (as j does) or to a row.
type stripHost interface {
	shown() *rowModel
	Dark() bool
	Editor() *Editor
	whitespaceOnly(k int) bool
	topRow() int
	viewRows() (float32, bool)
	jumpTo(r int)
	centreOn(r int)
}

func newOverview(host stripHost) *overview {
	o := &overview{host: host, frame: canvas.NewRectangle(color.Transparent)}
	o.raster = canvas.NewRaster(o.paint)
	o.raster.ScaleMode = canvas.ImageScalePixels // drawn at its own size: no filtering
	o.frame.StrokeWidth = 1
	o.objs = []fyne.CanvasObject{o.raster, o.frame}
	o.ExtendBaseWidget(o)
	return o
}

// CreateRenderer is part of fyne.Widget.
func (o *overview) CreateRenderer() fyne.WidgetRenderer { return &overviewRenderer{o: o} }

type overviewRenderer struct{ o *overview }

func (r *overviewRenderer) Destroy()                     {}
func (r *overviewRenderer) MinSize() fyne.Size           { return fyne.NewSize(stripW, 10) }
func (r *overviewRenderer) Objects() []fyne.CanvasObject { return r.o.objs }
func (r *overviewRenderer) Layout(fyne.Size)             { r.o.build() }
func (r *overviewRenderer) Refresh() {
	r.o.build()
	r.o.raster.Refresh()
	canvas.Refresh(r.o.frame)
}

// build lists one tick per change (touching changes of one colour share
// it, so its cost follows the number of changes) and places the frame.
func (o *overview) build() {
	h := o.host
	size := o.Size()
	c := coloursFor(h.Dark())
	o.raster.Resize(size)
	o.ticks = o.ticks[:0]
	m := h.shown()
	if n := m.Len(); n > 0 && size.Height > 0 {
		scale := o.scale()
		merge := true
		tick := func(y0, y1 float32, col color.Color) {
			y1 = max(y1, y0+2)
			if k := len(o.ticks) - 1; merge && k >= 0 && o.ticks[k].col == col && y0 <= o.ticks[k].y1+1 {
				// Touching the tick before in its colour: one longer tick.
				o.ticks[k].y1 = max(o.ticks[k].y1, y1)
				return
			}
			merge = true
			o.ticks = append(o.ticks, stripTick{y0, y1, col})
		}
		for _, s := range m.segs {
			if s.hunk < 0 || h.whitespaceOnly(s.hunk) {
				continue
			}
			col := c.insWord
			switch s.op.Kind {
			case engine.OpDelete:
				col = c.delWord
			case engine.OpReplace:
				col = color.NRGBA{R: 0xe0, G: 0x90, B: 0x20, A: 0xd0}
			}
			tick(float32(s.row0)*scale, float32(s.row0+s.rows)*scale, col)
		}
		if ed := h.Editor(); ed != nil {
			// The person's own edits over the agent's, purple as in the text.
			merge = false
			ed.ownRows(m, func(r0, r1 int) { tick(float32(r0)*scale, float32(r1)*scale, c.mineMark) })
		}
		if g := m.growing; g[1] > g[0] {
			r0, r1 := m.RowOfB(g[0]), m.RowOfB(g[1]-1)+1
			merge = false
			tick(float32(r0)*scale, float32(r1)*scale, theme.Color(theme.ColorNamePrimary))
		}
	}
	o.placeFrame()
}

// paint draws the strip's background and ticks at w×h pixels.
func (o *overview) paint(w, h int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	size := o.Size()
	if size.Width <= 0 || w <= 0 {
		return img
	}
	scale := float32(w) / size.Width
	px := func(x float32) int { return int(math.Round(float64(x * scale))) }
	draw.Draw(img, img.Rect, image.NewUniform(theme.Color(theme.ColorNameInputBackground)), image.Point{}, draw.Src)
	src := image.NewUniform(color.Transparent)
	for _, t := range o.ticks {
		src.C = t.col
		y0, y1 := int(math.Floor(float64(t.y0*scale))), int(math.Ceil(float64(t.y1*scale)))
		draw.Draw(img, image.Rect(px(2), y0, px(size.Width-2), y1), src, image.Point{}, draw.Over)
	}
	return img
}

// placeFrame moves the frame that marks the visible rows.
func (o *overview) placeFrame() {
	size := o.Size()
	n := o.host.shown().Len()
	o.frame.StrokeColor = theme.Color(theme.ColorNameForeground)
	rows, ok := o.host.viewRows()
	if n == 0 || !ok {
		o.frame.Resize(fyne.NewSize(0, 0))
		return
	}
	scale := o.scale()
	y := min(float32(o.host.topRow())*scale, max(size.Height-3, 0))
	h := min(max(rows*scale, 3), size.Height-y)
	o.frame.Move(fyne.NewPos(0, y))
	o.frame.Resize(fyne.NewSize(size.Width, h))
}

// tapSlop is how far from a change's tick, in pixels, a tap still goes to
// that change: ticks are drawn at least 2 pixels high, too thin to hit.
const tapSlop = 4

// changeAt returns the first row of the change whose tick is nearest to y
// on the strip, if one is within tapSlop pixels (the ticks build draws).
func (o *overview) changeAt(y float32) (int, bool) {
	scale := o.scale()
	best, bestD := -1, float32(tapSlop)+0.5
	for _, s := range o.host.shown().segs {
		if s.hunk < 0 || o.host.whitespaceOnly(s.hunk) {
			continue
		}
		y0 := float32(s.row0) * scale
		y1 := y0 + max(float32(s.rows)*scale, 2)
		d := max(y0-y, y-y1, 0)
		if d < bestD {
			best, bestD = s.row0, d
		}
		if y0 > y+tapSlop {
			break // the segments run down the file
		}
	}
	return best, best >= 0
}

// scale returns the strip's pixels per row: the whole file fits the strip,
// and a file shorter than the view keeps its rows' own spacing, so the
// frame never reaches past the strip.
func (o *overview) scale() float32 {
	rows := float32(o.host.shown().Len())
	if vr, ok := o.host.viewRows(); ok {
		rows = max(rows, vr)
	}
	return o.Size().Height / max(rows, 1)
}

// viewportMoved follows a scroll of the rows.
func (o *overview) viewportMoved() {
	o.placeFrame()
	canvas.Refresh(o.frame)
}

// Tapped scrolls the view so the tapped place is in the middle. A tap on
// a change's tick (or within a few pixels of one) goes to that change, as
// j and k do: it becomes the current change, which Space ticks and the
// counter names, and OnJumped is called.
func (o *overview) Tapped(ev *fyne.PointEvent) {
	n := o.host.shown().Len()
	if n == 0 || o.Size().Height <= 0 {
		return
	}
	if r, ok := o.changeAt(ev.Position.Y); ok {
		o.host.jumpTo(r)
	} else {
		o.host.centreOn(min(int(ev.Position.Y/o.scale()), n-1))
	}
	o.viewportMoved()
}

// viewRows is how many rows the list's height holds; false before the
// view is measured.
func (v *DiffView) viewRows() (float32, bool) {
	if v.metric.line <= 0 {
		return 0, false
	}
	return v.list.Size().Height / v.metric.line, true
}

// jumpTo goes to the change starting at row r as j does, and says so
// (OnJumped).
func (v *DiffView) jumpTo(r int) {
	v.nav.toRow(r)
	v.jumped()
}

// jumped tells the host the current change moved without j or k (OnJumped).
func (v *DiffView) jumped() {
	if v.OnJumped != nil {
		v.OnJumped()
	}
}

// centreOn scrolls row r to the middle of the view, away from a stream's
// edge.
func (v *DiffView) centreOn(r int) {
	v.list.ScrollToOffset(max(v.wr.rowY(r)-v.list.Size().Height/2, 0))
	v.userScrolled(1)
}
