package ui

import (
	"slices"
	"testing"
)

// TestRestoreDialogKeys: the restore dialog says its Esc and honours it,
// and Enter (no button of it answers Enter) restores nothing: a restore
// rewrites files, so only a click on Restore does it.
func TestRestoreDialogKeys(t *testing.T) {
	h := newHistoryHarness(t)
	threeDecisions(h)
	hist := h.History()
	hist.Open(4)
	hist.Restore("Restore…")
	if b := h.Dialog().Buttons(); !slices.Contains(b, "Cancel (Esc)") {
		t.Errorf("restore dialog buttons %q; want Cancel (Esc)", b)
	}
	h.Enter()
	if !h.Dialog().Open() {
		t.Fatal("Enter closed the restore dialog")
	}
	h.Esc()
	if h.Dialog().Open() {
		t.Fatal("Esc left the restore dialog open")
	}
	if got := h.read("a.txt"); got != "one\nII\n" {
		t.Errorf("Enter or Esc in the restore dialog wrote a.txt: %q", got)
	}
	hist.WaitEntries("no restore entry", 4)
}
