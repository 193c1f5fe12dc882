package diffview

import (
	"bytes"
	"fmt"
	"io"
	"log"
	"sync"
	"unicode"

	"github.com/go-text/typesetting/font"
	"github.com/go-text/typesetting/fontscan"

	"fyne.io/fyne/v2/theme"
)

// fontFallbackPackage is the Debian package whose font covers CJK text
// (scripts/lib.sh installs it); the warning names it.
const fontFallbackPackage = "fonts-droid-fallback"

// fonts answers whether some font can draw a rune: Fyne's bundled
// monospace font, or an installed one, which Fyne looks up for runes its
// own fonts lack. The installed fonts are scanned once, on the first rune
// the bundled font lacks (fontscan keeps an index in the user's cache).
var fonts struct {
	once    sync.Once
	mono    *font.Face
	system  *fontscan.FontMap
	mu      sync.Mutex
	covered map[rune]bool
}

// fontCovers reports whether an installed or bundled font has a glyph
// for r.
func fontCovers(r rune) bool {
	fonts.once.Do(func() {
		fonts.mono, _ = font.ParseTTF(bytes.NewReader(theme.DefaultTextMonospaceFont().Content()))
		fonts.covered = map[rune]bool{}
	})
	if fonts.mono != nil {
		if _, ok := fonts.mono.NominalGlyph(r); ok {
			return true
		}
	}
	fonts.mu.Lock()
	defer fonts.mu.Unlock()
	if ok, seen := fonts.covered[r]; seen {
		return ok
	}
	if fonts.system == nil {
		fonts.system = fontscan.NewFontMap(log.New(io.Discard, "", 0))
		if err := fonts.system.UseSystemFonts(""); err != nil {
			fonts.system = nil
		}
	}
	ok := false
	if fonts.system != nil {
		if f := fonts.system.ResolveFace(r); f != nil {
			_, ok = f.NominalGlyph(r)
		}
	}
	fonts.covered[r] = ok
	return ok
}

// missingScript returns the name of the first script in r's lines that
// covers says no font draws (such text draws as boxes), or "" (at once
// for plain ASCII texts).
func missingScript(covers func(r rune) bool, r opened) string {
	if covers == nil || r.ascii {
		return ""
	}
	for _, s := range []*lineSet{&r.m.a, &r.m.b} {
		for i := 0; i < s.Len(); i++ {
			l := s.Line(i)
			if plainASCII(l) {
				continue
			}
			for _, r := range l {
				if r < 0x80 || unicode.IsSpace(r) || !unicode.IsGraphic(r) || covers(r) {
					continue
				}
				return scriptOf(r)
			}
		}
	}
	return ""
}

// plainASCII reports whether s is all ASCII.
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// scriptOf names the script of r for the warning.
func scriptOf(r rune) string {
	for _, s := range []struct {
		name  string
		table *unicode.RangeTable
	}{
		{"Chinese, Japanese or Korean (Han)", unicode.Han},
		{"Japanese (Hiragana)", unicode.Hiragana},
		{"Japanese (Katakana)", unicode.Katakana},
		{"Korean (Hangul)", unicode.Hangul},
		{"Arabic", unicode.Arabic},
		{"Hebrew", unicode.Hebrew},
		{"Devanagari", unicode.Devanagari},
		{"Thai", unicode.Thai},
	} {
		if unicode.Is(s.table, r) {
			return s.name
		}
	}
	return fmt.Sprintf("U+%04X", r)
}
