package ui

import (
	"testing"

	"fyne.io/fyne/v2"
)

// TestStaleProposalFitsBesideTheQueue: on a 1024×700 screen the pane of a
// stale proposal leaves the queue its share of the window (real window:
// the three long names of the stale views, side by side, took so much
// width that the queue shrank to a sliver, its "stale" and "+1 −1"
// drawn over each other).
func TestStaleProposalFitsBesideTheQueue(t *testing.T) {
	h := newHarness(t)
	h.win.Win.Resize(fyne.NewSize(1008, 652))
	h.staleProposal("a.txt", "one\ntwo\n", srBlock("one\n", "ONE\n"), "one\ntwo\nthree\n")
	if h.Diff().Showing() == "" {
		t.Fatal("the stale views' choice is not on show")
	}
	room := float32(1008) * (1 - 0.27) // the queue's share by default
	if w := h.Pane().MinSize().Width; w > room {
		t.Errorf("the stale proposal's pane needs %v wide; want at most %v, leaving the queue its 27%%", w, room)
	}
}
