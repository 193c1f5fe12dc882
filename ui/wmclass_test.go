package ui

import (
	"os"
	"regexp"
	"testing"
)

// TestWMClassIsTheDesktopEntrys: the class every window is given is the
// one the desktop entry names (scripts/smoke reads it off the real window).
func TestWMClassIsTheDesktopEntrys(t *testing.T) {
	entry, err := os.ReadFile("../assets/diffdesk.desktop.in")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^StartupWMClass=(.*)$`).FindSubmatch(entry)
	if m == nil || string(m[1]) != WMClass {
		t.Errorf("the desktop entry's StartupWMClass is %q; the windows' class is %q", m, WMClass)
	}
}
