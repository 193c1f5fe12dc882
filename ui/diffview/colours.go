package diffview

// The diff's colours for a dark and a light theme, and which the view uses.

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// diffColours are the backgrounds of a diff for one theme variant. They are
// translucent so they sit on Fyne's own background.
type diffColours struct {
	del, delWord, ins, insWord, filler, grow, conflict, sel, accepted, rejected color.Color
	mine, mineMark                                                              color.Color // the person's own edits in the editor
	loose                                                                       color.Color // original lines a loose match replaced
	moved, movedMark                                                            color.Color // lines of a block moved elsewhere
	match, matchCur                                                             color.Color // search matches, the one on show
}

func coloursFor(dark bool) diffColours {
	a, w := uint8(0x2c), uint8(0x70)
	if dark {
		a, w = 0x38, 0xa0
	}
	return diffColours{
		del:       color.NRGBA{R: 0xf8, G: 0x51, B: 0x49, A: a},
		delWord:   color.NRGBA{R: 0xf8, G: 0x51, B: 0x49, A: w},
		ins:       color.NRGBA{R: 0x2e, G: 0xa0, B: 0x43, A: a},
		insWord:   color.NRGBA{R: 0x2e, G: 0xa0, B: 0x43, A: w},
		filler:    color.NRGBA{R: 0x80, G: 0x80, B: 0x80, A: 0x1c},
		grow:      color.NRGBA{R: 0x38, G: 0x8b, B: 0xfd, A: 0x22},
		conflict:  color.NRGBA{R: 0xff, G: 0x98, B: 0x00, A: 0x50},
		sel:       color.NRGBA{R: 0x38, G: 0x8b, B: 0xfd, A: 0x55},
		accepted:  color.NRGBA{R: 0x2e, G: 0xa0, B: 0x43, A: 0xff},
		rejected:  color.NRGBA{R: 0x90, G: 0x90, B: 0x90, A: 0xff},
		mine:      color.NRGBA{R: 0xa3, G: 0x71, B: 0xf7, A: a + 0x10},
		mineMark:  color.NRGBA{R: 0x8a, G: 0x4f, B: 0xf0, A: 0xff},
		loose:     color.NRGBA{R: 0xe0, G: 0x8a, B: 0x00, A: 0xff},
		moved:     color.NRGBA{R: 0x1f, G: 0xb5, B: 0xc4, A: a + 0x08},
		movedMark: color.NRGBA{R: 0x0e, G: 0x9c, B: 0xab, A: 0xff},
		match:     color.NRGBA{R: 0xff, G: 0xd0, B: 0x30, A: 0x90},
		matchCur:  color.NRGBA{R: 0xff, G: 0x8c, B: 0x00, A: 0xd0},
	}
}

// themeKey is what of the theme the rows are drawn with.
type themeKey struct {
	dark   bool
	size   float32
	fg, bg color.Color
}

func (v *DiffView) themeKey() themeKey {
	return themeKey{v.rows.dark, v.metric.size, theme.Color(theme.ColorNameForeground), theme.Color(theme.ColorNameBackground)}
}

// SetDark chooses the syntax and diff colours for a dark (or light) theme.
// Until it is called, the view follows the luminance of the theme's
// background colour.
func (v *DiffView) SetDark(dark bool) {
	v.rows.darkSet = true
	if v.rows.dark == dark {
		return
	}
	v.rows.dark = dark
	v.redraw()
}

// Dark reports whether the view uses its colours for a dark theme.
func (v *DiffView) Dark() bool { return v.rows.dark }

// darkBackground reports whether the current theme's background is dark.
func darkBackground() bool {
	if fyne.CurrentApp() == nil {
		return false
	}
	r, g, b, _ := theme.Color(theme.ColorNameBackground).RGBA()
	return 299*r+587*g+114*b < 500*0xffff
}
