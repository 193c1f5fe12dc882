package diffview

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"math"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"github.com/fyne-io/oksvg"
	"github.com/srwiley/rasterx"
	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"

	"github.com/diffdesk/diffdesk/ui/diffview/textbuf"
)

// A row is drawn as two pictures, one a side. Fyne's GL painter draws
// every canvas object of the window on every frame, one draw call and one
// texture each (a text's texture is made again whenever its string is
// new): under the software renderer a page of rows as rectangles and
// coloured runs was several hundred draws a frame and a page down several
// hundred new textures. A row paints its display list (r.objs:
// backgrounds, word spans, bars, its monospace texts) into its rasters
// itself, from glyphs rasterised once per font size; a raster is drawn
// again only when the row is (a new binding, a change of what it shows),
// and spans only what its side draws (rowRaster), so a frame draws two
// objects per row and blends a fraction of the pixels a row is wide. What
// the rasters do not draw stays a Fyne object above them: icons, italic
// and bold texts (notes, labels), and runes the monospace font has no
// glyph for or that take other than one cell (CJK, combining marks: Fyne's
// fallback fonts and shaping draw those).

// glyphPhases is how many horizontal sub-pixel positions a glyph is
// rasterised at: a cell is rarely a whole number of pixels, and text
// drawn at whole pixels only would space its letters unevenly.
const glyphPhases = 4

type glyphKey struct {
	r     rune
	phase uint8
}

// glyph is one rune's coverage at one phase: off is its top left relative
// to the pen on the baseline.
type glyph struct {
	mask *image.Alpha
	off  image.Point
}

// glyphFace is the monospace font at one pixel size, its glyphs cached.
type glyphFace struct {
	face   font.Face
	font   *sfnt.Font
	buf    sfnt.Buffer
	adv    float32 // advance of a cell in pixels
	glyphs map[glyphKey]*glyph
	have   map[rune]bool
}

type faceKey struct {
	res string
	px  float32
}

var glyphFaces struct {
	mu     sync.Mutex
	parsed map[string]*sfnt.Font
	faces  map[faceKey]*glyphFace
}

// faceFor returns the monospace face of the current theme at px pixels
// per em, or nil when the font cannot be read (then texts stay Fyne's).
func faceFor(px float32) *glyphFace {
	th := fyne.CurrentApp().Settings().Theme()
	res := th.Font(monospace)
	if res == nil {
		return nil
	}
	k := faceKey{res.Name(), px}
	if f, ok := glyphFaces.faces[k]; ok {
		return f
	}
	if glyphFaces.faces == nil {
		glyphFaces.faces, glyphFaces.parsed = map[faceKey]*glyphFace{}, map[string]*sfnt.Font{}
	}
	fnt, ok := glyphFaces.parsed[res.Name()]
	if !ok {
		fnt, _ = opentype.Parse(res.Content())
		glyphFaces.parsed[res.Name()] = fnt
	}
	var gf *glyphFace
	if fnt != nil {
		if face, err := opentype.NewFace(fnt, &opentype.FaceOptions{Size: float64(px), DPI: 72, Hinting: font.HintingNone}); err == nil {
			adv, _ := face.GlyphAdvance('M')
			gf = &glyphFace{face: face, font: fnt, adv: fixedToFloat(adv), glyphs: map[glyphKey]*glyph{}, have: map[rune]bool{}}
		}
	}
	glyphFaces.faces[k] = gf
	return gf
}

func fixedToFloat(x fixed.Int26_6) float32 { return float32(x) / 64 }

// covers reports whether the face draws r in one cell itself.
func (f *glyphFace) covers(r rune) bool {
	if r < 0x80 {
		return r >= ' ' && r != 0x7f
	}
	if ok, seen := f.have[r]; seen {
		return ok
	}
	ok := false
	if textbuf.RuneWidth(r) == 1 {
		if i, err := f.font.GlyphIndex(&f.buf, r); err == nil && i != 0 {
			ok = true
		}
	}
	f.have[r] = ok
	return ok
}

// glyph returns r rasterised with the pen phase/glyphPhases of a pixel
// right of a whole pixel.
func (f *glyphFace) glyph(r rune, phase uint8) *glyph {
	k := glyphKey{r, phase}
	if g, ok := f.glyphs[k]; ok {
		return g
	}
	dot := fixed.Point26_6{X: fixed.Int26_6(int(phase) * 64 / glyphPhases)}
	dr, mask, mp, _, ok := f.face.Glyph(dot, r)
	g := &glyph{}
	if ok && !dr.Empty() {
		// The face reuses its mask on the next call: keep a copy.
		a := image.NewAlpha(image.Rect(0, 0, dr.Dx(), dr.Dy()))
		draw.Draw(a, a.Bounds(), mask, mp, draw.Src)
		g.mask, g.off = a, dr.Min
	}
	f.glyphs[k] = g
	return g
}

// rowPicture is the image rows paint into: one for the whole view, since
// Fyne turns a raster into a texture (or, headless, a painted image) as
// soon as it asks for it.
type rowPicture struct {
	img *image.RGBA
}

func (p *rowPicture) sized(w, h int) *image.RGBA {
	if p.img == nil || cap(p.img.Pix) < 4*w*h {
		p.img = image.NewRGBA(image.Rect(0, 0, w, h))
		return p.img
	}
	p.img.Pix = p.img.Pix[:4*w*h]
	p.img.Stride, p.img.Rect = 4*w, image.Rect(0, 0, w, h)
	clear(p.img.Pix)
	return p.img
}

// painted reports whether the row's rasters draw o (else o is a Fyne
// object of its own above them).
func (r *diffRow) painted(o fyne.CanvasObject, f *glyphFace) bool {
	switch o := o.(type) {
	case *canvas.Rectangle:
		return o.CornerRadius == 0 && o.StrokeWidth == 0
	case *canvas.Image:
		// The hunk toggle's icons: an image new to the canvas (a row
		// showing its first toggle) is refreshed while the frame is laid
		// out, which draws a second frame.
		return o.Resource != nil && (o == r.ok || o == r.no)
	case *canvas.Text:
		if f == nil || o.TextStyle != monospace || o.TextSize != r.p.metric.size {
			return false
		}
		for _, ch := range o.Text {
			if !f.covers(ch) {
				return false
			}
		}
		return true
	}
	return false
}

// rowRaster is the picture of one side of a row: only as wide as what it
// draws there. Fyne makes a texture of a raster each time its row is
// drawn, and under the software renderer blends every pixel of it on
// every frame: a line of code is a fraction of its side's width.
type rowRaster struct {
	raster *canvas.Raster
	x0, x1 float32             // the part of the row it covers
	objs   []fyne.CanvasObject // what it draws, in order
}

// place sizes the raster to its part of a row h high; an empty part hides it.
func (s *rowRaster) place(h float32) {
	if s.raster == nil {
		return // laid out before its objects were asked for
	}
	if s.x1 <= s.x0 {
		if s.raster.Visible() {
			s.raster.Hide() // (a raster's Hide repaints the window, hidden or not)
		}
		return
	}
	s.raster.Move(fyne.NewPos(s.x0, 0))
	s.raster.Resize(fyne.NewSize(s.x1-s.x0, h))
	if !s.raster.Visible() {
		s.raster.Show()
	}
}

// glyphSlop is how far, in pixels, a glyph may reach past its cells (a
// negative bearing, a wide letter): a raster spans that much more.
const glyphSlop = 2

// layer sorts the display list into the two sides' rasters (at the gutter)
// and the objects above them (rr.objs: the rasters first).
func (rr *diffRowRenderer) layer() {
	r := rr.r
	for k := range rr.sides {
		if s := &rr.sides[k]; s.raster == nil {
			s.raster = canvas.NewRaster(rr.paint(s))
			s.raster.ScaleMode = canvas.ImageScalePixels // drawn at its own size: no filtering
		}
	}
	f, scale := rr.face()
	split := r.p.metric.leftW
	rr.objs = append(rr.objs[:0], rr.sides[0].raster, rr.sides[1].raster)
	lo, hi := [2]float32{math.MaxFloat32, math.MaxFloat32}, [2]float32{-1, -1}
	for k := range rr.sides {
		rr.sides[k].objs = rr.sides[k].objs[:0]
	}
	for _, o := range r.objs {
		if !r.painted(o, f) {
			rr.objs = append(rr.objs, o)
			continue
		}
		x, w := o.Position().X, o.Size().Width
		k := 0
		if x >= split {
			k = 1
		}
		rr.sides[k].objs = append(rr.sides[k].objs, o)
		lo[k], hi[k] = min(lo[k], x), max(hi[k], x+w)
	}
	// Whole pixels, so the rasters' glyphs sit where one raster's did.
	width := r.Size().Width
	for k := range rr.sides {
		s := &rr.sides[k]
		s.x0, s.x1 = 0, 0
		if len(s.objs) > 0 {
			s.x0 = max(float32(math.Floor(float64(lo[k]*scale)))-glyphSlop, 0) / scale
			s.x1 = min(float32(math.Ceil(float64(hi[k]*scale)))+glyphSlop, float32(math.Ceil(float64(width*scale)))) / scale
		}
		s.place(r.Size().Height)
	}
}

// face returns the glyphs for the view's text size at the canvas's scale,
// and the scale.
func (rr *diffRowRenderer) face() (*glyphFace, float32) {
	scale := float32(1)
	if c := fyne.CurrentApp().Driver().CanvasForObject(rr.r); c != nil {
		scale = c.Scale()
	}
	return rr.faceAt(scale), scale
}

func (rr *diffRowRenderer) faceAt(scale float32) *glyphFace {
	glyphFaces.mu.Lock()
	defer glyphFaces.mu.Unlock()
	return faceFor(rr.r.p.metric.size * scale)
}

// paint returns what draws s's part of the display list at w×h pixels.
func (rr *diffRowRenderer) paint(s *rowRaster) func(w, h int) image.Image {
	return func(w, h int) image.Image {
		r := rr.r
		v := r.p
		img := v.rows.picture.sized(w, h)
		sz := s.raster.Size()
		if sz.Width <= 0 || w <= 0 {
			return img
		}
		scale := float32(w) / sz.Width
		f := rr.faceAt(scale)
		px := func(x float32) int { return int(math.Round(float64(x * scale))) }
		var base float32 // the baseline below a text's top, in pixels
		if f != nil {
			_, b := fyne.CurrentApp().Driver().RenderedTextSize("M", v.metric.size, monospace, nil)
			base = float32(math.Ceil(float64(b * scale)))
		}
		src := image.NewUniform(color.Transparent)
		var drawn image.Rectangle // what the objects so far covered
		glyphFaces.mu.Lock()
		defer glyphFaces.mu.Unlock()
		for _, o := range s.objs {
			if !r.painted(o, f) {
				continue
			}
			switch o := o.(type) {
			case *canvas.Rectangle:
				if o.FillColor == nil {
					continue
				}
				p, sz := o.Position(), o.Size()
				src.C = o.FillColor
				rect := image.Rect(px(p.X-s.x0), px(p.Y), px(p.X-s.x0+sz.Width), px(p.Y+sz.Height))
				op := draw.Over
				if !rect.Overlaps(drawn) {
					op = draw.Src // on clear pixels the same, and a copy instead of a blend
				}
				draw.Draw(img, rect, src, image.Point{}, op)
				drawn = drawn.Union(rect)
			case *canvas.Image:
				p, sz := o.Position(), o.Size()
				at := image.Pt(px(p.X-s.x0), px(p.Y))
				if icon := iconAt(o.Resource, px(p.X-s.x0+sz.Width)-at.X, px(p.Y+sz.Height)-at.Y); icon != nil {
					draw.Draw(img, icon.Rect.Add(at), icon, image.Point{}, draw.Over)
					drawn = drawn.Union(icon.Rect.Add(at))
				}
			case *canvas.Text:
				if o.Color == nil || o.Text == "" {
					continue
				}
				src.C = o.Color
				p, sz := o.Position(), o.Size()
				n := 0
				for range o.Text {
					n++
				}
				tw := float32(n) * f.adv // pixels
				x := (p.X - s.x0) * scale
				switch o.Alignment {
				case fyne.TextAlignTrailing:
					x += sz.Width*scale - tw
				case fyne.TextAlignCenter:
					x += (sz.Width*scale - tw) / 2
				}
				y := px(p.Y) + int(base)
				if lh := v.metric.line; sz.Height > lh {
					y += px((sz.Height - lh) / 2)
				}
				for _, ch := range o.Text {
					if ch != ' ' {
						ix := math.Floor(float64(x))
						ph := int(math.Round((float64(x) - ix) * glyphPhases))
						if ph == glyphPhases {
							ix, ph = ix+1, 0
						}
						if g := f.glyph(ch, uint8(ph)); g.mask != nil {
							at := image.Pt(int(ix)+g.off.X, y+g.off.Y)
							gr := image.Rectangle{Min: at, Max: at.Add(g.mask.Rect.Size())}
							draw.DrawMask(img, gr, src, image.Point{}, g.mask, image.Point{}, draw.Over)
							drawn = drawn.Union(gr)
						}
					}
					x += f.adv
				}
			}
		}
		return img
	}
}

type iconKey struct {
	svg  string
	w, h int
}

// icons are the SVG icons rows paint, rasterised once per colour and size
// (glyphFaces.mu guards it).
var icons = map[iconKey]*image.RGBA{}

// iconAt returns res (an SVG) drawn at w×h pixels, nil if it cannot be.
func iconAt(res fyne.Resource, w, h int) *image.RGBA {
	if w <= 0 || h <= 0 {
		return nil
	}
	k := iconKey{string(res.Content()), w, h}
	if img, ok := icons[k]; ok {
		return img
	}
	var img *image.RGBA
	if icon, err := oksvg.ReadIconStream(bytes.NewReader(res.Content())); err == nil {
		icon.SetTarget(0, 0, float64(w), float64(h))
		img = image.NewRGBA(image.Rect(0, 0, w, h))
		func() {
			defer func() {
				if recover() != nil {
					img = nil // an icon the rasteriser chokes on is left out, not the row
				}
			}()
			icon.Draw(rasterx.NewDasher(w, h, rasterx.NewScannerGV(w, h, img, img.Bounds())), 1)
		}()
	}
	if len(icons) > 64 {
		clear(icons)
	}
	icons[k] = img
	return img
}
