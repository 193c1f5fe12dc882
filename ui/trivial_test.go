package ui

import (
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/decision"
)

// trivialBase is a Go file with code far apart, so folded hunks stay
// apart.
const trivialBase = "package app\n\n// Run runs.\nfunc Run() {\n\tx := 1\n\t_ = x\n}\n" +
	"\n\n\n\n\n\n\n\nfunc Stop() {\n\ty := 2\n\t_ = y\n}\n" +
	"\n\n\n\n\n\n\n\nfunc Wait() {\n\tz := 3\n\t_ = z\n}\n"

// TestTrivialHunksLabelledAndApprovedByT: a comment reworded and a line
// re-indented are labelled at their hunks, the counter says 2 trivial; t
// approves them (ticking again one the person unticked; the labels say
// approved) and leaves the real change, the only one a asks about when
// nothing was on screen.
func TestTrivialHunksLabelledAndApprovedByT(t *testing.T) {
	h := newHarness(t)
	h.write("app.go", trivialBase)
	proposed := strings.Replace(trivialBase, "// Run runs.", "// Run starts the app.", 1)
	proposed = strings.Replace(proposed, "\ty := 2", "        y := 2", 1)
	proposed = strings.Replace(proposed, "z := 3", "z := 4", 1)
	p := h.propose("claude", "s", engine.FormatWrite, "app.go", proposed)
	h.win.Select(p.ID)
	h.settle()
	hs := h.win.View().Hunks()
	if len(hs) != 3 {
		t.Fatalf("%d hunks; want 3", len(hs))
	}
	if got := []string{h.win.View().Marks().Note(hs[0].ID).Text, h.win.View().Marks().Note(hs[1].ID).Text, h.win.View().Marks().Note(hs[2].ID).Text}; got[0] != "comment only" || got[1] != "whitespace only" || got[2] != "" {
		t.Fatalf("labels %q; want comment only, whitespace only, none", got)
	}
	if !strings.Contains(h.Diff().Counter(), "· 2 trivial (t approves)") {
		t.Errorf("counter %q; want the trivial count", h.Diff().Counter())
	}
	h.win.View().ToggleHunk(1) // untick the re-indent: t ticks it again
	h.press('t')
	h.settle()
	if o, ok := h.desk.Get(p.ID); !ok || !o.State.Open() {
		t.Fatalf("t with a real change left decided the proposal: %v", o.State)
	}
	if got := h.win.View().AcceptedHunks(); len(got) != 3 {
		t.Errorf("after t: accepted %v; want all three (the re-indent ticked again)", got)
	}
	if n := h.win.View().Marks().Note(hs[0].ID); n.Text != "comment only" || !n.Done || strings.Contains(h.Diff().Counter(), "trivial") {
		t.Errorf("after t: label %+v, counter %q; want it done, no trivial left", n, h.Diff().Counter())
	}
	if !strings.Contains(h.Message(), "Approved 2 trivial hunks (1 whitespace only, 1 comment only); 1 left to review") {
		t.Errorf("message %q", h.Message())
	}
	// Had nothing been on screen, only the real change would be unseen.
	h.win.View().Seen().Forget()
	h.win.View().Showing = func() bool { return false }
	h.press('a')
	h.settle()
	if q := h.Unseen(); !strings.Contains(q, "1 of 3 hunks was never on screen") {
		t.Fatalf("a: question %q; want one hunk unseen", q)
	}
	h.Esc() // Show the first: the real change
	if got := h.Diff().Counter(); !strings.HasPrefix(got, "hunk 3 of 3") {
		t.Errorf("the first hunk never on screen is at %q; want the real change, hunk 3 of 3", got)
	}
	h.press('a')
	h.ApproveAnyway()
	if o := h.outcome(p.ID); o.Status != decision.Approved || h.read("app.go") != proposed {
		t.Errorf("after Approve anyway: %s", o.Status)
	}
}

// TestTApprovesAProposalOfTrivialHunksOnly: when every hunk is trivial, t
// approves the proposal.
func TestTApprovesAProposalOfTrivialHunksOnly(t *testing.T) {
	h := newHarness(t)
	h.write("app.go", trivialBase)
	proposed := strings.Replace(trivialBase, "// Run runs.", "// Run starts the app.", 1)
	p := h.propose("claude", "s", engine.FormatWrite, "app.go", proposed)
	h.win.Select(p.ID)
	h.settle()
	h.press('t')
	if o := h.outcome(p.ID); o.Status != decision.Approved || h.read("app.go") != proposed {
		t.Errorf("t on a comment-only proposal: %s", o.Status)
	}
}
