package ui

import "fyne.io/fyne/v2"

// WMClass is the X11 WM_CLASS class of every DiffDesk window, the desktop
// entry's StartupWMClass (assets/diffdesk.desktop.in): it is how a desktop
// on X11 ties a window to its entry (the icon in the dock, one group for
// the app). WMInstance is its instance part.
const (
	WMClass    = "DiffDesk"
	WMInstance = "diffdesk"
)

// newAppWindow is a.NewWindow(title) whose X11 window class is WMClass:
// GLFW otherwise names the class after the title the window has when it is
// first shown, which names the workspace or the files compared. (Under
// Wayland Fyne gives the app ID, which names the desktop entry.)
func newAppWindow(a fyne.App, title string) fyne.Window {
	w := a.NewWindow(title) // GLFW is initialised by now
	setWMClass(WMInstance, WMClass)
	return w
}
