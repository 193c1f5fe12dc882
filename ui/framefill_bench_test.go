package ui

import (
	"context"
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
)

// frameFill is what Fyne's GL painter draws in one frame of a window:
// it draws every visible object that meets its clip, on every frame
// (internal/driver/glfw's repaintWindow clears the window and walks the
// whole tree), so under the software renderer each drawn pixel is a
// fragment shaded on every frame.
type frameFill struct {
	walked  int     // visible objects the painter visits (widgets, containers, primitives)
	hidden  int     // hidden objects it skips, with what they hold
	objects int     // primitives drawn
	pixels  float64 // pixels they cover, clipped (a text: its texture)
	view    float64 // of which the diff view's row pictures (rasters)
	window  float64 // the window's pixels
}

// measureFrameFill walks c the way the painter does: a hidden object and
// what it holds are skipped, a scroller (or a renderer that clips) clips
// what it holds, a rectangle with neither fill nor stroke and an empty
// text are not drawn; view is the object whose rasters are counted apart.
func measureFrameFill(c fyne.Canvas, view fyne.CanvasObject) frameFill {
	type rect struct{ x0, y0, x1, y1 float32 }
	and := func(a, b rect) rect {
		return rect{max(a.x0, b.x0), max(a.y0, b.y0), min(a.x1, b.x1), min(a.y1, b.y1)}
	}
	area := func(r rect) float64 {
		if r.x1 <= r.x0 || r.y1 <= r.y0 {
			return 0
		}
		return float64(r.x1-r.x0) * float64(r.y1-r.y0)
	}
	opaque := func(c color.Color) bool {
		if c == nil {
			return false
		}
		_, _, _, a := c.RGBA()
		return a > 0
	}
	sz := c.Size()
	win := rect{0, 0, sz.Width, sz.Height}
	f := frameFill{window: area(win)}
	var walk func(o fyne.CanvasObject, off fyne.Position, clip rect, inView bool)
	walk = func(o fyne.CanvasObject, off fyne.Position, clip rect, inView bool) {
		if o == nil {
			return
		}
		if !o.Visible() {
			f.hidden++
			return
		}
		f.walked++
		inView = inView || o == view
		pos, s := o.Position().Add(off), o.Size()
		r := rect{pos.X, pos.Y, pos.X + s.Width, pos.Y + s.Height}
		if _, ok := o.(fyne.Scrollable); ok {
			clip = and(clip, r)
		}
		switch co := o.(type) {
		case *fyne.Container:
			for _, ch := range co.Objects {
				walk(ch, pos, clip, inView)
			}
			return
		case fyne.Widget:
			rd := test.WidgetRenderer(co)
			if _, ok := rd.(interface{ IsClip() }); ok {
				clip = and(clip, r)
			}
			for _, ch := range rd.Objects() {
				walk(ch, pos, clip, inView)
			}
			return
		case *canvas.Rectangle:
			if !opaque(co.FillColor) && (co.StrokeWidth == 0 || !opaque(co.StrokeColor)) {
				return
			}
		case *canvas.Text:
			if co.Text == "" {
				return
			}
			m := fyne.MeasureText(co.Text, co.TextSize, co.TextStyle)
			r = rect{pos.X, pos.Y, pos.X + m.Width, pos.Y + m.Height}
		}
		px := area(and(r, clip))
		if px == 0 {
			return
		}
		f.objects++
		f.pixels += px
		if _, ok := o.(*canvas.Raster); ok && inView {
			f.view += px
		}
	}
	walk(c.Content(), fyne.Position{}, win, false)
	for _, o := range c.Overlays().List() {
		walk(o, fyne.Position{}, win, false)
	}
	return f
}

// BenchmarkWindowFrameFill reports what one frame of the window draws
// with a 100,000-line proposal on show (the 22-byte lines and 3-line
// changes every 200 of test/windowbench), at 1400×900, after each Page
// Down: the objects the painter visits and skips hidden, those drawn, the pixels they cover as a fraction of the
// window, and the diff rows' pictures' share. Each drawn pixel is shaded
// on every frame under llvmpipe (Fyne redraws the whole window), so this
// is the part of a frame's cost the window's layout decides; ns/op is the
// Page Down and the walk, headless.
func BenchmarkWindowFrameFill(b *testing.B) {
	h := benchWindow(b)
	var old, prop strings.Builder
	for k := range 100_000 {
		l := fmt.Sprintf("\tx%07d := f(a, %d)", k, k%10)
		switch {
		case k%25 == 0:
			l = fmt.Sprintf("func f%07d() int {", k)
		case k%25 == 24:
			l = "\treturn 0 // end   }"
		}
		m := l
		if k%200 >= 10 && k%200 < 13 {
			m = fmt.Sprintf("\tx%07d := g(b, %d)", k, k%10)
		}
		old.WriteString(l[:min(len(l), 21)] + "\n")
		prop.WriteString(m[:min(len(m), 21)] + "\n")
	}
	if err := os.WriteFile(filepath.Join(h.root, "big.go"), []byte(old.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	drain := func() {
		for len(h.sched) > 0 {
			(<-h.sched)()
		}
	}
	p, err := h.desk.Propose(context.Background(), review.Request{Agent: "bench", Format: engine.FormatWrite, Path: "big.go", Payload: prop.String()})
	if err != nil {
		b.Fatal(err)
	}
	drain()
	h.win.Select(p.ID)
	h.WaitClassified()
	drain()
	v, c := h.win.View(), h.win.Win.Canvas()
	var f frameFill
	for b.Loop() {
		if !v.Nav().PageDown() {
			v.Nav().Home()
		}
		drain()
		f = measureFrameFill(c, v)
	}
	if f.view == 0 {
		b.Fatalf("no diff rows drawn in the window (%d objects, %.0f pixels): the walk does not see the view", f.objects, f.pixels)
	}
	b.ReportMetric(float64(f.walked), "walked/frame")
	b.ReportMetric(float64(f.hidden), "hidden/frame")
	b.ReportMetric(float64(f.objects), "objects/frame")
	b.ReportMetric(f.pixels/f.window, "window-fills/frame")
	b.ReportMetric(f.view/f.pixels, "rows-share")
}
