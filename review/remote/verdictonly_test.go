package remote

import (
	"path/filepath"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestRemoteKeepsVerdictOnly: a window on another machine knows a proposal
// came through a door that tells the agent only the verdict (an IDE door),
// as the local window does, so it too does not say a reason was sent.
func TestRemoteKeepsVerdictOnly(t *testing.T) {
	local := reviewtest.NewDesk(t, "", "")
	reviewtest.WriteFile(t, filepath.Join(local.Root, "a.txt"), "a\n")
	rd, events := open(t, serve(t, local.Desk), "me@laptop")
	ide, err := local.Propose(reviewtest.Context(t), review.Request{Agent: "claude-code", Format: engine.FormatWrite,
		Path: "a.txt", Payload: "A\n", AgentWrites: true, VerdictOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	await(t, events, ide.ID, review.EventPending)
	if p, ok := rd.Get(ide.ID); !ok || !p.VerdictOnly || !p.AgentWrites {
		t.Errorf("the remote proposal: VerdictOnly %v, AgentWrites %v (found %v); want both as the desk has them", p.VerdictOnly, p.AgentWrites, ok)
	}
	other := local.MustPropose(t, engine.FormatWrite, "b.txt", "b\n")
	await(t, events, other.ID, review.EventPending)
	if p, _ := rd.Get(other.ID); p.VerdictOnly {
		t.Error("a native proposal arrived VerdictOnly")
	}
}
