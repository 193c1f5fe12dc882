package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"github.com/diffdesk/diffdesk/engine"
)

// TestCounterFollowsPageKeys (QA in the real window): after End the counter says
// where the view is, not the hunk it was at before.
func TestCounterFollowsPageKeys(t *testing.T) {
	h := newHarness(t)
	_, long := longProposal(h)
	p := h.propose("claude", "s", engine.FormatWrite, "long.txt", long)
	h.win.Select(p.ID)
	h.settle()
	before := h.Diff().Counter()
	h.pressKey(fyne.KeyEnd)
	h.settle()
	if got := h.Diff().Counter(); got == before || strings.HasPrefix(got, "hunk 1 of") {
		t.Errorf("counter after End: %q (before: %q); want it to name where the view is (the last hunks)", got, before)
	}
}
