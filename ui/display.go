package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// CheckDisplay reports, before the GUI starts, a display the window cannot
// open on (GLFW would otherwise panic deep inside its start-up): no
// DISPLAY or WAYLAND_DISPLAY at all, or a local X display whose socket is
// not there. It checks nothing on macOS and Windows.
func CheckDisplay(getenv func(string) string) error {
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		return nil
	}
	x, wl := getenv("DISPLAY"), getenv("WAYLAND_DISPLAY")
	if x == "" && wl == "" {
		return fmt.Errorf("no display: neither DISPLAY nor WAYLAND_DISPLAY is set; run diffdesk in a desktop session, or use `deskctl serve` headless")
	}
	if wl != "" || !strings.HasPrefix(x, ":") {
		return nil // Wayland, or a remote X display: let the toolkit try
	}
	n, _, _ := strings.Cut(x[1:], ".")
	sock := filepath.Join("/tmp/.X11-unix", "X"+n)
	if _, err := os.Stat(sock); err != nil {
		return fmt.Errorf("no X server answers on DISPLAY=%s (%s is missing); start one, or use `deskctl serve` headless", x, sock)
	}
	return nil
}
