//go:build !ci

package ui

import (
	"runtime"

	"fyne.io/fyne/v2"
	"github.com/go-gl/glfw/v3.4/glfw"
)

// screenWorkArea returns the primary monitor's work area (the screen less
// the desktop's panels) in Fyne's size units for a canvas of scale, or a
// zero size when it cannot tell. Only on the main thread once the driver
// runs (Lifecycle's OnStarted).
func screenWorkArea(scale float32) (s fyne.Size) {
	defer func() {
		if recover() != nil { // go-gl's glfw panics on any pending GLFW error
			s = fyne.Size{}
		}
	}()
	m := glfw.GetPrimaryMonitor()
	if m == nil {
		return fyne.Size{}
	}
	_, _, wd, ht := m.GetWorkarea()
	if runtime.GOOS != "darwin" && scale > 0 { // screen coordinates are pixels there, points on macOS
		return fyne.NewSize(float32(wd)/scale, float32(ht)/scale)
	}
	return fyne.NewSize(float32(wd), float32(ht))
}
