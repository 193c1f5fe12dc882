package deskrpc

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// A proposal belongs to the connection that made it: another agent's
// connection cannot chunk, finish, wait on or cancel it (the ids are in
// status), and the proposing agent's stream holds only its own text.
// status marks the asker's own proposals.
func TestAProposalBelongsToItsConnection(t *testing.T) {
	d := reviewtest.NewDesk(t, decision.Approved, "")
	sock := serveTestDesk(t, d.Desk)
	ctx := reviewtest.Context(t)
	owner, err := Dial(sock)
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close()
	other, err := Dial(sock)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	var res wireResult
	if err := owner.Call(ctx, "propose", map[string]any{"format": "write", "path": "s.txt", "stream": true}, &res); err != nil {
		t.Fatal(err)
	}
	if err := owner.Call(ctx, "chunk", map[string]any{"id": res.ID, "data": "mine\n"}, nil); err != nil {
		t.Fatal(err)
	}
	for _, m := range []struct {
		method string
		params map[string]any
	}{
		{"chunk", map[string]any{"id": res.ID, "data": "theirs\n"}},
		{"finish", map[string]any{"id": res.ID}},
		{"cancel", map[string]any{"id": res.ID}},
		{"wait", map[string]any{"id": res.ID}},
	} {
		code, err := callCode(t, other, m.method, m.params)
		if code != codeForbidden || !strings.Contains(err.Error(), "belongs to the connection that made it") {
			t.Errorf("%s of another connection's proposal: %v (code %d); want %d", m.method, err, code, codeForbidden)
		}
	}
	var st statusResult
	if err := other.Call(ctx, "status", map[string]any{}, &st); err != nil || len(st.Proposals) != 1 || st.Proposals[0].Own {
		t.Errorf("status on another connection: %+v, %v; want the proposal, not marked own", st.Proposals, err)
	}
	if err := owner.Call(ctx, "status", map[string]any{}, &st); err != nil || len(st.Proposals) != 1 || !st.Proposals[0].Own {
		t.Errorf("status on the proposing connection: %+v, %v; want the proposal marked own", st.Proposals, err)
	}
	if err := owner.Call(ctx, "finish", map[string]any{"id": res.ID, "wait": true}, &res); err != nil {
		t.Fatal(err)
	}
	if got := reviewtest.ReadFile(t, filepath.Join(d.Root, "s.txt")); res.Outcome == nil || res.Outcome.Status != decision.Approved || got != "mine\n" {
		t.Errorf("the owner's outcome %+v, file %q; want approved, exactly its own text", res.Outcome, got)
	}
	// The owner may ask again; a reviewer may wait on any proposal.
	if err := owner.Call(ctx, "wait", map[string]any{"id": res.ID}, &res); err != nil {
		t.Errorf("the owner's second wait: %v", err)
	}
}
