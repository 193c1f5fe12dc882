package ui

import (
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
)

// TestRejectThroughAnIDEDoorSaysTheReasonWasNotSent: a proposal from a door
// that tells the agent only the verdict (Claude Code's and Gemini's IDE
// doors) is rejected with a reason; the reject box and the status line say
// the reason stays in the history (real window, with the real claude and
// gemini: "Reason sent to the agent: use the word planet instead." while
// the model got a bare "The user doesn't want to proceed … STOP").
func TestRejectThroughAnIDEDoorSaysTheReasonWasNotSent(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "hello\n")
	p := h.doorProposal("claude-code", "a.txt", "hello there\n")
	h.press('r')
	if !h.RejectBox().Open() {
		t.Fatal("r opened no reject dialog")
	}
	if ph := h.RejectBox().Placeholder(); strings.Contains(ph, "The agent reads this") || !strings.Contains(ph, "claude-code's IDE door tells the agent no reason") {
		t.Errorf("reject box hint %q; want it to say the IDE door carries no reason", ph)
	}
	h.RejectBox().SetReason("use the word planet instead")
	h.RejectBox().Send()
	if o := h.outcome(p.ID); o.Status != decision.Rejected || o.Feedback != "use the word planet instead" {
		t.Fatalf("outcome %s %q; want rejected with the reason kept", o.Status, o.Feedback)
	}
	got := h.Status()
	if strings.Contains(got, "sent to the agent") {
		t.Errorf("status %q claims the reason reached the agent", got)
	}
	for _, want := range []string{"claude-code was told only the verdict", "kept in the history: use the word planet instead."} {
		if !strings.Contains(got, want) {
			t.Errorf("status %q; want %q", got, want)
		}
	}
}

// TestApprovalTheAgentWritesSaysSo: approving a proposal the agent writes
// itself (an IDE door, a hook) says the text went to the agent, not that
// the desk wrote it (real window: "Approved and written (checkpoint 16)."
// while claude, killed as the person approved, wrote nothing); a proposal
// the desk writes still says written.
func TestApprovalTheAgentWritesSaysSo(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "hello\n")
	p := h.doorProposal("claude-code", "a.txt", "hello there\n")
	h.press('a')
	h.outcome(p.ID)
	if got := h.Status(); !strings.HasPrefix(got, "Approved and sent to claude-code, which writes the file itself.") {
		t.Errorf("status %q; want it to say claude-code writes the file", got)
	}
	if got := h.read("a.txt"); got != "hello\n" {
		t.Errorf("a.txt = %q; the desk wrote a file the agent writes", got)
	}
	q := h.propose("deskctl", "s", engine.FormatWrite, "b.txt", "b\n")
	h.win.Select(q.ID)
	h.press('a')
	h.outcome(q.ID)
	if got := h.Status(); !strings.HasPrefix(got, "Approved and written (checkpoint ") {
		t.Errorf("status %q; want written, by the desk", got)
	}
}

// TestCommentsThroughAnIDEDoorSayTheyStayInTheHistory: c on a proposal
// from an IDE door; the dialog, the message line and the list under the
// diff say the comment stays in the history, not that the agent reads it
// (real window: "Comments for the agent (1), sent with your decision").
func TestCommentsThroughAnIDEDoorSayTheyStayInTheHistory(t *testing.T) {
	h := newHarness(t)
	h.write("a.go", "package a\n\nconst N = 1\n")
	p := h.doorProposal("gemini-cli", "a.go", "package a\n\nconst N = 2\n")
	c := h.Comments()
	h.press('c')
	if !c.Open() {
		t.Fatal("c opened no comment dialog")
	}
	for _, r := range "why 2" {
		h.press(r)
	}
	h.ctrlEnter()
	if len(c.Kept(p.ID)) != 1 {
		t.Fatalf("comments %+v; want one kept", c.Kept(p.ID))
	}
	got := c.Listed() + h.Message()
	if strings.Contains(got, "sent with your decision") || strings.Contains(got, "goes to the agent") {
		t.Errorf("the window says the comment reaches the agent:\n%s", got)
	}
	if !strings.Contains(got, "gemini-cli's IDE door cannot send them to the agent") || !strings.Contains(got, "gemini-cli's IDE door cannot send it to the agent") {
		t.Errorf("the window does not say the comment stays in the history:\n%s", got)
	}
}

// doorProposal is a write proposed as an IDE door proposes it (the agent
// writes the file and hears only the verdict), shown in the window.
func (h *harness) doorProposal(agent, rel, payload string) review.Proposal {
	h.t.Helper()
	p, err := h.desk.Propose(h.t.Context(), review.Request{Agent: agent, Session: "s", Format: engine.FormatWrite,
		Path: rel, Payload: payload, AgentWrites: true, VerdictOnly: true})
	if err != nil {
		h.t.Fatal(err)
	}
	h.until("the window shows the proposal", func() bool { return h.InQueue(p.ID) })
	h.win.Select(p.ID)
	return p
}
