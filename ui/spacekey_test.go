package ui

import (
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
)

// TestSpaceLeavesAnOffScreenHunkAlone: Space ticks or unticks the current
// hunk only while it is on screen; scrolled away (the wheel, the overview
// strip) it says so and changes nothing (real window: Space unticked a
// hunk thousands of lines above the rows shown, and the next a approved
// without it).
func TestSpaceLeavesAnOffScreenHunkAlone(t *testing.T) {
	h := newHarness(t)
	old, prop := bigPair()
	h.write("big.txt", old)
	p := h.propose("claude-code", "s", engine.FormatWrite, "big.txt", prop)
	h.win.Select(p.ID)
	v := h.win.View()
	if v.Nav().CurrentHunk() != 0 || !v.CurrentOnScreen() {
		t.Fatalf("the view opens at hunk %d (on screen %v); want 0, on screen", v.Nav().CurrentHunk(), v.CurrentOnScreen())
	}
	v.ShowLineAt(1200, 0) // the wheel: far below the first change, the current hunk unchanged
	if v.CurrentOnScreen() {
		t.Fatal("hunk 0 still on screen after scrolling to line 1201")
	}
	h.press(' ')
	if n := len(v.AcceptedHunks()); n != 3 {
		t.Errorf("Space with the current hunk off screen left %d of 3 hunks ticked; want all 3", n)
	}
	if !strings.Contains(h.Message(), "off screen") {
		t.Errorf("message %q; want it to say the current hunk is off screen", h.Message())
	}
	h.press('j') // the next hunk, on screen now
	h.press(' ')
	if got := v.AcceptedHunks(); len(got) != 2 {
		t.Errorf("Space on the hunk j went to: %d of 3 ticked; want 2", len(got))
	}
}
