package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// steadyWidth lays out one object at the widest it has been since reset:
// the hunk counter's text grows and shrinks by a few pixels at every j,
// which moved the keyboard label beside it, and Fyne draws another whole
// frame when it finds a widget moved while it lays out a frame (under the
// software renderer each frame is the window's whole cost).
type steadyWidth struct{ w float32 }

func (s *steadyWidth) MinSize(objs []fyne.CanvasObject) fyne.Size {
	m := objs[0].MinSize()
	s.w = max(s.w, m.Width)
	return fyne.NewSize(s.w, m.Height)
}

func (s *steadyWidth) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	objs[0].Move(fyne.Position{})
	objs[0].Resize(size)
}

// widest makes the slot at least as wide as a label of text needs.
func (s *steadyWidth) widest(text string, style fyne.TextStyle) {
	if text != "" {
		s.w = max(s.w, fyne.MeasureText(text, theme.TextSize(), style).Width+2*theme.InnerPadding())
	}
}

// reset lets the width shrink to the object's own at the next layout.
func (s *steadyWidth) reset() { s.w = 0 }
