package ui

import (
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
)

// TestApprovalWithNewProblemsSaysSo: a proposal with a checker's error is
// approved; the status line says the checkers found it in what was written
// and that the agent was told (real window: "Approved and written
// (checkpoint 9)." alone, the marks gone with the proposal, while the
// agent read "New problems detected after saving the file").
func TestApprovalWithNewProblemsSaysSo(t *testing.T) {
	h := newHarnessWithConfig(t, "[[checker]]\nname = \"badcheck\"\nglob = \"*.txt\"\nformat = \"lines\"\nseverity = \"error\"\n"+
		"command = [\"sh\", \"-c\", \"grep -n BAD \\\"$0\\\" | sed 's|^|'\\\"$0\\\"':|; s|$|: BAD is not allowed|'; exit 0\", \"{file}\"]\n")
	h.write("c.txt", "c1\nc2\n")
	p := h.propose("deskctl", "s", engine.FormatWrite, "c.txt", "c1\nBAD line\nc2\n")
	h.until("the check's result is shown", func() bool { return h.Shown() == p.ID && h.Checks() == "1 new problem" })
	h.press('a')
	o := h.outcome(p.ID)
	if len(o.Files) != 1 || len(o.Files[0].NewProblems) != 1 {
		t.Fatalf("outcome files %+v; want one new problem", o.Files)
	}
	want := " The checkers found 1 new problem(s) in what was written (line 2, badcheck: BAD line: BAD is not allowed); the agent was told."
	if got := h.Status(); !strings.HasSuffix(got, want) {
		t.Errorf("status %q; want it to end %q", got, want)
	}
}
