package diffview

import (
	"os"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
)

// cjkFont is the font file of the Debian package the scripts install
// (fontFallbackPackage).
const cjkFont = "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"

// cjkTheme is the default theme with a real CJK font as its monospace
// font: Fyne's test driver looks up no installed fonts, so without it CJK
// text would draw as boxes. Runes the font lacks (Latin) fall back to
// Fyne's bundled monospace font, as in the real window.
type cjkTheme struct {
	fyne.Theme
	mono fyne.Resource
}

func (t cjkTheme) Font(s fyne.TextStyle) fyne.Resource {
	if s.Monospace {
		return t.mono
	}
	return t.Theme.Font(s)
}

func TestCJKEmphasisLinesUpWithGlyphs(t *testing.T) {
	data, err := os.ReadFile(cjkFont)
	if err != nil {
		t.Fatalf("the CJK test needs a real font: %v (install %s; scripts/test does)", err, fontFallbackPackage)
	}
	v, _ := newTestView(t, 1000, 200)
	//lint:ignore SA1019 the golden is drawn in one fixed variant, whatever the desktop prefers
	fyne.CurrentApp().Settings().SetTheme(cjkTheme{Theme: theme.LightTheme(), mono: fyne.NewStaticResource("cjk.ttf", data)})
	old, new := "x := \"价格是十元，好吗\" // ok\n", "x := \"价格是百元，好吗\" // ok\n"
	v.SetTexts("a.go", old, new)
	row := v.model.RowOfB(0)
	r := newDiffRow(&v.parts)
	r.id = row
	r.build()
	mt := v.metric
	xR := mt.leftW + mt.gutW + mt.numW
	// The emphasis on the right side.
	var spans [][2]float32
	for _, o := range r.rects[:r.nRect] {
		if o.FillColor == coloursFor(v.rows.dark).insWord && o.Position().X >= xR {
			spans = append(spans, [2]float32{o.Position().X, o.Position().X + o.Size().Width})
		}
	}
	if len(spans) == 0 {
		t.Fatal("no word emphasis on the changed line")
	}
	// Where each rune of the right side is drawn, as the font measures it.
	type glyph struct{ x0, x1 float32 }
	at := map[rune]glyph{}
	for _, txt := range r.texts[:r.nText] {
		if txt.Position().X < xR {
			continue
		}
		x := txt.Position().X
		if txt.Alignment == fyne.TextAlignCenter {
			x += (txt.Size().Width - measure(txt, txt.Text)) / 2
		}
		for i, ch := range txt.Text {
			x0 := x + measure(txt, txt.Text[:i])
			at[ch] = glyph{x0, x0 + measure(txt, string(ch))}
		}
	}
	g, ok := at['百']
	if !ok {
		t.Fatal("the changed ideograph 百 is not drawn")
	}
	in := false
	for _, s := range spans {
		in = in || g.x0 >= s[0]-1 && g.x1 <= s[1]+1
	}
	if !in {
		t.Errorf("百 is drawn at x %.1f..%.1f; the emphasis covers %v: they do not line up", g.x0, g.x1, spans)
	}
	// Every ideograph sits inside its own two cells, so nothing overlaps.
	line := v.model.b.Line(0)
	cols := columns(line, nil)
	x0 := xR + padText - float32(v.hbar.off)*mt.cell
	for i, ch := range line {
		gl, ok := at[ch]
		if !ok || ch < 0x2e80 || strings.Count(line, string(ch)) > 1 {
			continue
		}
		c0, c1 := x0+float32(cols[i])*mt.cell, x0+float32(cols[i+len(string(ch))])*mt.cell
		if gl.x0 < c0-1 || gl.x1 > c1+1 {
			t.Errorf("%c is drawn at x %.1f..%.1f, outside its cells %.1f..%.1f", ch, gl.x0, gl.x1, c0, c1)
		}
	}
}

// measure returns the width of s drawn as txt is.
func measure(txt *canvas.Text, s string) float32 {
	return fyne.MeasureText(s, txt.TextSize, txt.TextStyle).Width
}

func TestMissingFontIsWarned(t *testing.T) {
	v, _ := newTestView(t, 800, 200)
	v.FontCovers = func(r rune) bool { return r < 0x2e80 } // no CJK font installed
	v.SetTexts("a.txt", "price\n", "価格\n")
	if !v.banner.Visible() || !strings.Contains(v.banner.Text, "Han") || !strings.Contains(v.banner.Text, fontFallbackPackage) {
		t.Errorf("banner visible = %v, %q; want a warning naming Han text and %s", v.banner.Visible(), v.banner.Text, fontFallbackPackage)
	}
	v.SetTexts("b.txt", "a\n", "b\n")
	if v.banner.Visible() {
		t.Errorf("the warning stayed for a file without such text: %q", v.banner.Text)
	}
}

func TestInstalledCJKFontCovers(t *testing.T) {
	if _, err := os.Stat(cjkFont); err != nil {
		t.Fatalf("needs %s: %v", fontFallbackPackage, err)
	}
	for _, r := range "価格かなカナ" { // Han and kana; Hangul needs fonts-noto-cjk
		if !fontCovers(r) {
			t.Errorf("fontCovers(%q) = false with %s installed", r, fontFallbackPackage)
		}
	}
	if fontCovers(0x10fffd) {
		t.Error("fontCovers(U+10FFFD) = true; a private-use rune has no glyph")
	}
}
