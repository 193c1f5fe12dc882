package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
)

// TestReasonSentAfterAWithdrawalSaysSo: the reject box of the proposal on
// show, still open when its agent withdraws it (the pane has nothing else
// to move to); Ctrl+Enter then sends nothing, and says so rather than
// closing the box without a word (QA in the real window).
func TestReasonSentAfterAWithdrawalSaysSo(t *testing.T) {
	h := newHarness(t)
	a := h.propose("agentA", "", engine.FormatWrite, "A.go", "package a\n")
	h.win.Select(a.ID)
	h.settle()
	h.Keys("r")
	h.Keys("reason for A")
	if err := h.desk.Withdraw(context.Background(), a.ID, "the agent disconnected"); err != nil {
		t.Fatal(err)
	}
	h.settle()
	if !h.RejectBox().Open() {
		t.Fatal("the reject box closed with the withdrawal: this test needs it left open, as the real window leaves it")
	}
	h.CtrlEnter()
	if m := h.Message(); !strings.Contains(m, "not sent") {
		t.Fatalf("Ctrl+Enter after the withdrawal: message %q, status %q; want it said the reason was not sent", m, h.Status())
	}
	if h.read("A.go") != "" {
		t.Fatal("A.go was written")
	}
}
