package ui

import (
	"os"
	"runtime"
	"strings"
	"testing"
)

func TestCheckDisplay(t *testing.T) {
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		t.Skip("no display check on " + runtime.GOOS)
	}
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if err := CheckDisplay(env(nil)); err == nil || !strings.Contains(err.Error(), "deskctl serve") {
		t.Errorf("no display: %v; want an error pointing to deskctl serve", err)
	}
	if err := CheckDisplay(env(map[string]string{"DISPLAY": ":4242"})); err == nil || !strings.Contains(err.Error(), ":4242") {
		t.Errorf("missing X socket: %v; want an error naming the display", err)
	}
	if err := CheckDisplay(env(map[string]string{"WAYLAND_DISPLAY": "wayland-0"})); err != nil {
		t.Errorf("Wayland: %v", err)
	}
	if err := CheckDisplay(env(map[string]string{"DISPLAY": "remote:0"})); err != nil {
		t.Errorf("remote X: %v", err)
	}
	if _, err := os.Stat("/tmp/.X11-unix/X0"); err == nil {
		if err := CheckDisplay(env(map[string]string{"DISPLAY": ":0.0"})); err != nil {
			t.Errorf("local X with a socket: %v", err)
		}
	}
}
