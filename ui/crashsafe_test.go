package ui

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"github.com/diffdesk/diffdesk/engine"
)

// TestInlineOnANewFileKeepsTheDesk: i on a new file's proposal ended the
// window's process, and the desk in it, so every waiting agent read "the
// desk closed the connection: EOF". The view draws every row inline.
func TestInlineOnANewFileKeepsTheDesk(t *testing.T) {
	h := newHarness(t)
	h.propose("claude-code", "s1", engine.FormatWrite, "new.go", "package main\n\nfunc main() {}\n")
	h.settle()
	h.press('i')
	h.settle()
	if !h.win.View().Inline() {
		t.Fatal("i did not turn the inline layout on")
	}
	if h.win.View().UnavailableRows() != 0 {
		t.Errorf("%d rows of the new file could not be drawn inline", h.win.View().UnavailableRows())
	}
}

// TestAViewSettingInForceAtACrashIsNotRestored: inline is remembered, so
// after a crash in the inline layout the first proposal crashed the window
// again, with no key pressed. A window that ended without closing leaves
// its pid in the preferences; the next one starts with wrap and inline off
// and says why.
func TestAViewSettingInForceAtACrashIsNotRestored(t *testing.T) {
	h := newHarness(t)
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Skip("no true(1) to get a dead pid from:", err)
	}
	p := fyne.CurrentApp().Preferences()
	for _, tt := range []struct {
		pid     int
		restore bool
	}{
		{dead.Process.Pid, false}, // it crashed: not restored
		{0, true},                 // it closed: restored
	} {
		p.SetBool(prefInline, true)
		p.SetBool(prefWrap, true)
		p.SetInt(prefOpenBy, tt.pid)
		var log bytes.Buffer
		w := h.Reopen(&log)
		if inline, wrap := w.Bar().Option("Inline"), w.Bar().Option("Wrap"); inline != tt.restore || wrap != tt.restore {
			t.Errorf("last window pid %d: inline %v, wrap %v; want %v", tt.pid, inline, wrap, tt.restore)
		}
		if said := strings.Contains(log.String(), "ended without closing"); said == tt.restore {
			t.Errorf("last window pid %d: log %q", tt.pid, log.String())
		}
		w.CloseWindow()
		if got := p.Int(prefOpenBy); got != 0 {
			t.Errorf("a window that closed left pid %d as still open", got)
		}
	}
}

// TestAQuitIsNotACrash: the app's last write of the preferences comes
// after its stopped hook, before the window's Close; the window marks
// itself closed (and keeps its layout) in that hook, or every quit read
// as a crash at the next start and wrap and inline were never kept.
func TestAQuitIsNotACrash(t *testing.T) {
	h := newHarness(t)
	stopper, ok := fyne.CurrentApp().Lifecycle().(interface{ OnStopped() func() })
	if !ok || stopper.OnStopped() == nil {
		t.Fatal("the app's lifecycle has no stopped hook: the window does not keep its preferences when the app stops")
	}
	p := fyne.CurrentApp().Preferences()
	if p.Int(prefOpenBy) == 0 {
		t.Fatal("an open window is not marked open")
	}
	h.SetSplitOffset(0.31)
	stopper.OnStopped()() // as the driver runs it when the app stops, before its last write of the preferences
	if got := p.Int(prefOpenBy); got != 0 {
		t.Errorf("after the app stopped the window is still marked open (pid %d): the next start reads a crash", got)
	}
	if got := p.Float(prefQueueWidth); got != 0.31 {
		t.Errorf("the queue's width kept at the stop: %v; want 0.31", got)
	}
}
