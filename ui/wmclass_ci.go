//go:build ci

package ui

// setWMClass: the headless test driver has no X11 windows.
func setWMClass(string, string) {}
