package ui

import (
	"testing"

	"fyne.io/fyne/v2"
)

// TestHistoryCompareKeepsTheWindowNarrow: marking an entry to compare with
// does not widen the History tab past a small screen's window (real window
// at 1024×700: the long "Comparing with checkpoint 7: select another
// entry" button pushed the diff, its strip and Restore this file… past the
// window's right edge).
func TestHistoryCompareKeepsTheWindowNarrow(t *testing.T) {
	h := newHistoryHarness(t)
	threeDecisions(h)
	hist := h.History()
	hist.Open(4)
	h.win.Win.Resize(fyne.NewSize(1008, 652))
	before := h.win.Win.Content().MinSize().Width
	hist.Select(3)
	hist.Click("Compare with…")
	after := h.win.Win.Content().MinSize().Width
	t.Logf("min width %v → %v", before, after)
	if after > 1008 {
		t.Errorf("marking for compare widened the window's content from %v to %v (window 1008)", before, after)
	}
}
