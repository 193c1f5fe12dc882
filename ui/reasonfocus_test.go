package ui

import (
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/decision"
)

// TestReasonBoxKeepsTheKeysAfterAClickOnItsDialog: a click on the reject
// dialog's own text takes the keyboard off the reason box (Fyne unfocuses
// on a click that hits nothing focusable). The keyboard line said "typing
// in the reject box" while the letters went nowhere (QA in the real
// window); they go on into the box, never acting as review keys, and the
// line stays true.
func TestReasonBoxKeepsTheKeysAfterAClickOnItsDialog(t *testing.T) {
	h := newHarness(t)
	h.write("a.go", "package a\n\nfunc A() {}\n")
	p := h.propose("claude-code", "s", engine.FormatWrite, "a.go", "package a\n\nfunc A() { panic(1) }\n")
	h.win.Select(p.ID)
	h.settle()

	h.Keys("r")
	h.Keys("no ")
	h.win.Win.Canvas().Unfocus() // the click on the dialog's text
	h.settle()
	h.Keys("panics, a")
	if got := h.RejectBox().Reason(); got != "no panics, a" {
		t.Fatalf("after a click on the dialog the reason reads %q; want the letters typed on into it", got)
	}
	if !strings.Contains(h.Keyboard(), "reject") {
		t.Errorf("keyboard line %q; want the reject box named", h.Keyboard())
	}
	h.CtrlEnter()
	if o := h.outcome(p.ID); o.Status != decision.Rejected || o.Feedback != "no panics, a" {
		t.Fatalf("outcome %s, feedback %q; want rejected with the reason typed", o.Status, o.Feedback)
	}
}
