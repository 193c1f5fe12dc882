package ui

import (
	"image/color"
	"math"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/engine"
)

// luminance is the WCAG 2 relative luminance of c.
func luminance(c color.Color) float64 {
	r, g, b, _ := color.NRGBAModel.Convert(c).(color.NRGBA).RGBA()
	lin := func(v uint32) float64 {
		s := float64(v) / 0xffff
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// contrast is the WCAG 2 contrast ratio of fg over bg (fg blended onto bg
// when translucent).
func contrast(fg, bg color.Color) float64 {
	f, b := color.NRGBAModel.Convert(fg).(color.NRGBA), color.NRGBAModel.Convert(bg).(color.NRGBA)
	if f.A < 0xff {
		mix := func(x, y uint8) uint8 { return uint8((int(x)*int(f.A) + int(y)*(0xff-int(f.A))) / 0xff) }
		f = color.NRGBA{R: mix(f.R, b.R), G: mix(f.G, b.G), B: mix(f.B, b.B), A: 0xff}
	}
	l1, l2 := luminance(f), luminance(b)
	return (max(l1, l2) + 0.05) / (min(l1, l2) + 0.05)
}

// textColour returns the colour a label draws its text in.
func textColour(t *testing.T, l *widget.Label) color.Color {
	t.Helper()
	for _, o := range test.WidgetRenderer(l).Objects() {
		if rt, ok := o.(*widget.RichText); ok {
			for _, o := range test.WidgetRenderer(rt).Objects() {
				if txt, ok := o.(*canvas.Text); ok {
					return txt.Color
				}
			}
		}
	}
	t.Fatalf("label %q draws no text", l.Text)
	return nil
}

// findLabel returns the label in o whose text starts with prefix.
func findLabel(o fyne.CanvasObject, prefix string) *widget.Label {
	if l, ok := o.(*widget.Label); ok && strings.HasPrefix(l.Text, prefix) {
		return l
	}
	var kids []fyne.CanvasObject
	switch c := o.(type) {
	case *fyne.Container:
		kids = c.Objects
	case fyne.Widget:
		kids = test.WidgetRenderer(c).Objects()
	}
	for _, k := range kids {
		if l := findLabel(k, prefix); l != nil {
			return l
		}
	}
	return nil
}

func TestSecondaryTextMeetsWCAGAA(t *testing.T) {
	names := map[fyne.ThemeVariant]string{theme.VariantLight: "light", theme.VariantDark: "dark"}
	for _, variant := range []fyne.ThemeVariant{theme.VariantLight, theme.VariantDark} {
		h := newHarness(t)
		fyne.CurrentApp().Settings().SetTheme(NewVariantTheme(variant))
		h.write("a.txt", "one\n")
		h.propose("claude-code", "s", engine.FormatWrite, "a.txt", "two\n")
		h.settle()
		state := h.PaneLabel("waiting")
		if !strings.HasPrefix(state.Text, "waiting") {
			t.Fatalf("state text = %q; want the waiting state", state.Text)
		}
		bg := theme.Color(theme.ColorNameBackground)
		if r := contrast(textColour(t, state), bg); r < 4.5 {
			t.Errorf("%s theme: state text %q has contrast %.2f:1 on the background; want at least 4.5:1 (WCAG AA)", names[variant], state.Text, r)
		}
		h.win.ShowKeys()
		var note *widget.Label
		for _, o := range h.win.Win.Canvas().Overlays().List() {
			if note = findLabel(o, "The keys act"); note != nil {
				break
			}
		}
		if note == nil {
			t.Fatal("the keys dialog has no note at its foot")
		}
		if r := contrast(textColour(t, note), theme.Color(theme.ColorNameOverlayBackground)); r < 4.5 {
			t.Errorf("%s theme: the keys dialog's note has contrast %.2f:1 on the dialog; want at least 4.5:1 (WCAG AA)", names[variant], r)
		}
	}
}

// TestLooseMatchWarningsReadable: the note above a loosely matched edit
// and the loose-match card's title are read in full, so their text meets
// WCAG AA in both variants (an icon says they warn, not amber text).
func TestLooseMatchWarningsReadable(t *testing.T) {
	names := map[fyne.ThemeVariant]string{theme.VariantLight: "light", theme.VariantDark: "dark"}
	for _, variant := range []fyne.ThemeVariant{theme.VariantLight, theme.VariantDark} {
		h := newHarness(t)
		fyne.CurrentApp().Settings().SetTheme(NewVariantTheme(variant))
		h.write("a.py", "def f():\n    s = 0\n    s += it.price\n    return s\n")
		h.propose("agent", "s", engine.FormatSearchReplace, "a.py", srBlock("def f():\n    s = 0\n    s += it.cost\n    return s\n", "def f():\n    s = 0\n    s += it.price * 2\n    return s\n"))
		h.settle()
		bg := theme.Color(theme.ColorNameBackground)
		loose := h.PaneLabels("loose")
		if len(loose) != 2 {
			t.Fatalf("%s theme: %d labels tell of the loose match; want the note and the card's title", names[variant], len(loose))
		}
		for _, l := range loose {
			if !strings.Contains(l.Text, "loose") {
				t.Fatalf("%s theme: label %q; want the loose match told", names[variant], l.Text)
			}
			if r := contrast(textColour(t, l), bg); r < 4.5 {
				t.Errorf("%s theme: %q has contrast %.2f:1 on the background; want at least 4.5:1 (WCAG AA)", names[variant], l.Text, r)
			}
		}
	}
}
