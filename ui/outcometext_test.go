package ui

import (
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
)

// TestWithdrawnWhileEditingSaysTheEditWasNotWritten: the agent withdraws
// the proposal the person is editing; the status line says the edit was
// not written (real window: it went without a word).
func TestWithdrawnWhileEditingSaysTheEditWasNotWritten(t *testing.T) {
	h := newHarness(t)
	h.write("x.txt", "x\n")
	p := h.propose("a", "s", engine.FormatWrite, "x.txt", "X\n")
	h.win.Select(p.ID)
	h.press('e')
	ed := h.win.View().Editor()
	if ed == nil {
		t.Fatal("e opened no editor")
	}
	ed.SetCursor(0, 1)
	h.typed(ed, " mine")
	if err := h.desk.Withdraw(t.Context(), p.ID, "the agent disconnected"); err != nil {
		t.Fatal(err)
	}
	h.until("the window has the outcome", func() bool { return h.Decided() })
	if !strings.Contains(h.Status(), "withdrew") || !strings.Contains(h.Status(), "Your edit of it was not written.") {
		t.Errorf("status %q; want the withdrawal and that the edit was not written", h.Status())
	}
	if h.read("x.txt") != "x\n" {
		t.Errorf("x.txt = %q; want it untouched", h.read("x.txt"))
	}
}
