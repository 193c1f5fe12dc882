package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// isDark reports whether the app shows the dark variant: the system's
// preference, or FYNE_THEME=light|dark, which Fyne applies itself.
func isDark(a fyne.App) bool {
	if t, ok := a.Settings().Theme().(*VariantTheme); ok {
		return t.Variant == theme.VariantDark
	}
	return a.Settings().ThemeVariant() == theme.VariantDark
}

// watchTheme passes the theme variant to the diff view now and whenever the
// system (or the settings) change it.
func (w *Window) watchTheme() {
	w.detail.view.SetDark(isDark(w.app))
	w.app.Settings().AddListener(func(fyne.Settings) {
		w.do(func() {
			w.detail.view.SetDark(isDark(w.app))
			w.queue.list.Refresh()
		})
	})
}

// VariantTheme is Fyne's default theme fixed to one variant, whatever the
// system prefers: for screenshots and tests (people use FYNE_THEME).
type VariantTheme struct {
	fyne.Theme
	Variant fyne.ThemeVariant
}

// NewVariantTheme returns the default theme fixed to variant.
func NewVariantTheme(variant fyne.ThemeVariant) *VariantTheme {
	return &VariantTheme{Theme: theme.DefaultTheme(), Variant: variant}
}

// Color is part of fyne.Theme.
func (t *VariantTheme) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return t.Theme.Color(n, t.Variant)
}
