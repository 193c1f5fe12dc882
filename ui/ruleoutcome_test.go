package ui

import (
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/ui/present"
)

// TestRuleApprovalSaysNoPersonDecided: a proposal an auto-approve rule
// approved says so on the status line (real window: "docs/d.txt: Approved
// and written (checkpoint 11)." as though the person had approved it, under
// the next proposal of the same file waiting for them).
func TestRuleApprovalSaysNoPersonDecided(t *testing.T) {
	h := newHarnessWithConfig(t, "[[auto_approve]]\npath = \"docs/**\"\n")
	p, err := h.desk.Propose(t.Context(), review.Request{Agent: "a", Format: engine.FormatWrite, Path: "docs/guide.md", Payload: "x\n"})
	if err != nil {
		t.Fatal(err)
	}
	o := h.outcome(p.ID)
	if o.DecidedBy != review.DecidedByRule {
		t.Fatalf("decided by %q; want the rule", o.DecidedBy)
	}
	got := present.Outcome(p, o)
	if !strings.HasPrefix(got, "Approved without you by the auto_approve rule at ") || !strings.Contains(got, "line 1, and written") {
		t.Errorf("status %q; want it to say the rule, not the person, approved", got)
	}
	person := present.Outcome(p, review.Outcome{Status: decision.Approved, DecidedBy: review.DecidedByPerson})
	if person != "Approved and written." {
		t.Errorf("a person's approval reads %q; want %q", person, "Approved and written.")
	}
}
