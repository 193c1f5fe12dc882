package ui

import (
	"testing"

	"github.com/diffdesk/diffdesk/engine"
)

// TestCounterSaysWhereGoToLineAndSearchLeftYou: after go-to-line or a
// search match away from every change, the counter says which hunks the
// place lies between (it kept naming the hunk j last went to), and j goes
// on from there.
func TestCounterSaysWhereGoToLineAndSearchLeftYou(t *testing.T) {
	h := newHarness(t)
	old, prop := bigPair() // changes at lines 101, 1501 and 2901
	h.write("big.txt", old)
	p := h.propose("claude-code", "s", engine.FormatWrite, "big.txt", prop)
	h.win.Select(p.ID)
	h.settle()
	if got := h.Diff().Counter(); got != "hunk 1 of 3" {
		t.Fatalf("counter %q on opening; want hunk 1 of 3", got)
	}
	h.Keys("jj") // hunk 3
	h.Keys("g800")
	h.Enter()
	if got := h.Diff().Counter(); got != "between hunks 1 and 2 of 3" {
		t.Errorf("after g 800: counter %q; want between hunks 1 and 2 of 3", got)
	}
	h.Keys("j")
	if got := h.Diff().Counter(); got != "hunk 2 of 3" {
		t.Errorf("j after g 800: counter %q; want hunk 2 of 3", got)
	}
	h.Keys("/line 2000")
	h.Enter()
	if got := h.Diff().Counter(); got != "between hunks 2 and 3 of 3" {
		t.Errorf("after searching line 2000: counter %q; want between hunks 2 and 3 of 3", got)
	}
	h.Esc()
	h.Keys("g3000")
	h.Enter()
	if got := h.Diff().Counter(); got != "below hunk 3 of 3" {
		t.Errorf("after g 3000: counter %q; want below hunk 3 of 3", got)
	}
	h.Keys("g1")
	h.Enter()
	if got := h.Diff().Counter(); got != "above hunk 1 of 3" {
		t.Errorf("after g 1: counter %q; want above hunk 1 of 3", got)
	}
}
