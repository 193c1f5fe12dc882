package ui

import "fyne.io/fyne/v2"

// The window opens at 1400×900, or smaller on a smaller screen: at
// 1024×700 it opened 1400×900 anyway, its decision bar and the right side
// of the diff off the screen, where no click reaches them.

// windowSize is the size the window opens at: want where it fits the
// screen's work area (size units; zero when unknown), else the work area
// less room for the window's frame and title bar. A screen just as big
// keeps want (the screenshots are taken on a 1400×900 one).
func windowSize(want, work fyne.Size) fyne.Size {
	if work.Width <= 0 || work.Height <= 0 {
		return want
	}
	const frameW, frameH = 16, 48
	fit := func(want, work, frame, least float32) float32 {
		if want <= work {
			return want
		}
		return max(work-frame, least)
	}
	return fyne.NewSize(fit(want.Width, work.Width, frameW, 400), fit(want.Height, work.Height, frameH, 300))
}

// fitToScreen shrinks the window to the screen once the driver runs (only
// then does it know the screen; screenWorkArea says).
func (w *Window) fitToScreen(a fyne.App, want fyne.Size) {
	a.Lifecycle().SetOnStarted(func() {
		work := screenWorkArea(w.Win.Canvas().Scale())
		if s := windowSize(want, work); s != want {
			w.Win.Resize(s)
		}
	})
}
