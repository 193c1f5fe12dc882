//go:build ci

package ui

import "fyne.io/fyne/v2"

// screenWorkArea: the headless test driver has no screen.
func screenWorkArea(float32) fyne.Size { return fyne.Size{} }
