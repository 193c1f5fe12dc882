package ui

import "fyne.io/fyne/v2"

// The window opens at 1400×900, or smaller on a smaller screen: at
// 1024×700 it opened 1400×900 anyway, its decision bar and the right side
// of the diff off the screen, where no click reaches them.

// windowSize is the size the window opens at: want, within the screen's
// work area (size units; zero when unknown) less room for the window's
// frame and title bar.
func windowSize(want, work fyne.Size) fyne.Size {
	if work.Width <= 0 || work.Height <= 0 {
		return want
	}
	const frameW, frameH = 16, 48
	return fyne.NewSize(min(want.Width, max(work.Width-frameW, 400)), min(want.Height, max(work.Height-frameH, 300)))
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
