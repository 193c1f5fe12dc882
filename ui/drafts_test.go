package ui

import (
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/decision"
)

// TestEscKeepsTheReasonAndTheComment: Esc in the reject box or the
// comment box keeps what was typed as the proposal's draft and says so;
// the box opens with it again, and the decision sends it (Esc threw it
// away without a word).
func TestEscKeepsTheReasonAndTheComment(t *testing.T) {
	h := newHarness(t)
	h.write("a.go", "package a\n\nfunc A() {}\n")
	p := h.propose("claude-code", "s", engine.FormatWrite, "a.go", "package a\n\nfunc A() { panic(1) }\n")
	h.win.Select(p.ID)
	h.settle()

	h.Keys("c")
	h.Keys("no panics here")
	h.Esc()
	if h.Dialog().Open() || !strings.Contains(h.Message(), "c opens it again") {
		t.Fatalf("after Esc in the comment box: dialog open %v, message %q; want it closed and the draft said kept", h.Dialog().Open(), h.Message())
	}
	h.Keys("c")
	if got := h.Dialog().Text(); !strings.Contains(got, "no panics here") {
		t.Fatalf("c again opens:\n%s\nwant the comment typed before", got)
	}
	h.Keys(", please") // goes on after the draft, not before it
	h.CtrlEnter()      // save the comment

	h.Keys("r")
	h.Keys("wrong func")
	h.Esc()
	if h.Dialog().Open() || !strings.Contains(h.Message(), "r opens it again") {
		t.Fatalf("after Esc in the reject box: dialog open %v, message %q", h.Dialog().Open(), h.Message())
	}
	h.Keys("n") // away and back: the draft is the proposal's
	h.Keys("r")
	if got := h.Dialog().Text(); !strings.Contains(got, "wrong func") {
		t.Fatalf("r again opens:\n%s\nwant the reason typed before", got)
	}
	h.Keys(" name") // QA in the real window: typed before the draft, the cursor at its start
	h.CtrlEnter()
	o := h.outcome(p.ID)
	if o.Status != decision.Rejected || o.Feedback != "wrong func name" || len(o.Comments) != 1 || o.Comments[0].Text != "no panics here, please" {
		t.Fatalf("outcome %s, feedback %q, comments %+v; want the draft reason and comment sent", o.Status, o.Feedback, o.Comments)
	}
}
