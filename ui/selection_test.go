package ui

import (
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
)

// TestDecisionMovesOnToTheNextProposal: after a decision the pane shows
// the next proposal waiting (the oldest), and the status line still says
// what happened to the one decided.
func TestDecisionMovesOnToTheNextProposal(t *testing.T) {
	h := newHarness(t)
	first := h.propose("a", "s", engine.FormatWrite, "1.txt", "1\n")
	second := h.propose("a", "s", engine.FormatWrite, "2.txt", "2\n")
	third := h.propose("a", "s", engine.FormatWrite, "3.txt", "3\n")
	h.win.Select(second.ID) // the person's choice
	h.win.Approve()
	h.outcome(second.ID)
	if h.win.Selected() != first.ID {
		t.Fatalf("after deciding %s the pane shows %q; want the oldest waiting, %s", second.ID, h.win.Selected(), first.ID)
	}
	if st := h.Status(); !strings.HasPrefix(st, "2.txt: ") || !h.SaysOutcome(second.ID) {
		t.Errorf("status %q; want what happened to 2.txt", st)
	}
	h.win.Reject("")
	h.outcome(first.ID)
	if h.win.Selected() != third.ID {
		t.Errorf("after deciding %s the pane shows %q; want %s", first.ID, h.win.Selected(), third.ID)
	}
}

// TestNewProposalTakesThePaneFromADecidedOne: with the shown proposal
// decided (and nothing else waiting), a new proposal takes the pane.
func TestNewProposalTakesThePaneFromADecidedOne(t *testing.T) {
	h := newHarness(t)
	p := h.propose("a", "s", engine.FormatWrite, "1.txt", "1\n")
	h.win.Approve()
	h.outcome(p.ID)
	if h.win.Selected() != p.ID {
		t.Fatalf("with nothing else waiting the pane shows %q; want the decided %s", h.win.Selected(), p.ID)
	}
	next := h.propose("a", "s", engine.FormatWrite, "2.txt", "2\n")
	if h.win.Selected() != next.ID {
		t.Errorf("a new proposal left the pane on the decided one (%q); want %s", h.win.Selected(), next.ID)
	}
}

// TestFirstSelectionIsTheOldestActionable: a window opening on a desk
// that holds a failed proposal and a stale one, both older, and two
// pending ones, shows the oldest pending one first (NewWindow shows what
// pickProposal picks from the desk's list).
func TestFirstSelectionIsTheOldestActionable(t *testing.T) {
	h := newHarnessWithConfig(t, holdOff) // a failure answered at once, as with nobody at the desk
	h.write("a.txt", "one\n")
	h.propose("agent", "s", engine.FormatSearchReplace, "a.txt", srBlock("missing\n", "x\n")) // failed
	h.staleProposal("c.go", "a\nb\n", srBlock("b\n", "B\n"), "A\nb\n")
	old := h.propose("agent", "s", engine.FormatWrite, "b.txt", "b\n")
	h.propose("agent", "s", engine.FormatWrite, "d.txt", "d\n")
	if got := pickProposal(h.desk.List(), nil); got != old.ID {
		t.Errorf("a new window would show %q first; want the oldest pending, %s", got, old.ID)
	}
}

// TestWrapAndLayoutSurviveARestart: the Wrap box and the queue's width are
// kept in the app's preferences and restored by the next window.
func TestWrapAndLayoutSurviveARestart(t *testing.T) {
	h := newHarness(t)
	h.Tap(h.Bar().WrapBox())
	h.SetSplitOffset(0.4)
	h.CloseWindow()
	w := h.Reopen(nil)
	if !w.Bar().Option("Wrap") || w.SplitOffset() != 0.4 {
		t.Errorf("after a restart: wrap %v, queue width %v; want wrap on and 0.4", w.Bar().Option("Wrap"), w.SplitOffset())
	}
}
