//go:build !ci

package ui

import "github.com/go-gl/glfw/v3.4/glfw"

// setWMClass sets the X11 WM_CLASS of the windows GLFW creates from now on
// (a hint, kept until changed; on the main thread, after GLFW's start).
func setWMClass(instance, class string) {
	defer func() { recover() }() // go-gl's glfw panics on any pending GLFW error
	glfw.WindowHintString(glfw.X11InstanceName, instance)
	glfw.WindowHintString(glfw.X11ClassName, class)
}
