package ui

import (
	"testing"

	"github.com/diffdesk/diffdesk/engine"
)

// TestReviewKeysActWithTheViewOptionsOpen: the View pop-up is no dialog: a
// review key pressed while it is open (after a click on one of its boxes)
// closes it and acts (real window: j did nothing until a click elsewhere
// or Esc closed it, while the line under the buttons said the review keys
// had the keyboard).
func TestReviewKeysActWithTheViewOptionsOpen(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", lines(80, func(int) string { return "" }))
	h.propose("agent", "s", engine.FormatWrite, "a.txt", lines(80, func(k int) string {
		if k == 10 || k == 60 {
			return "changed\n"
		}
		return ""
	}))
	h.settle()
	b, v := h.Bar(), h.win.View()
	if k := v.Nav().CurrentHunk(); k != 0 {
		t.Fatalf("the view opens at hunk %d; want 0", k)
	}
	b.OpenViewOptions()
	b.TapOption("Ignore whitespace")
	if !b.ViewOptionsOpen() {
		t.Fatal("the view options closed on a click on a box")
	}
	h.press('j')
	if b.ViewOptionsOpen() {
		t.Error("j left the view options open")
	}
	if k := v.Nav().CurrentHunk(); k != 1 {
		t.Errorf("j with the view options open went to hunk %d; want 1", k)
	}
}
