package deskrpc

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestApproveTrivialNotOfItsOwnSession: approveTrivial decides, so a
// reviewer's connection that said hello with an agent session cannot have
// the desk approve that session's changeset, trivial or not: it is
// refused as decideChangeset is, and the file is left as it was.
func TestApproveTrivialNotOfItsOwnSession(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path := filepath.Join(d.Root, "ws.go")
	reviewtest.WriteFile(t, path, "package x\n\nfunc a() int {\n\treturn 1\n}\n")
	p, err := d.Propose(context.Background(), review.Request{Agent: "claude-code", Session: "s1", Format: engine.FormatSearchReplace, Path: "ws.go", Payload: reviewtest.SR("\treturn 1\n", "\treturn 1   \n")})
	if err != nil {
		t.Fatal(err)
	}
	rev := dialTestDesk(t, d.Desk)
	if code, err := callCode(t, rev, "hello", map[string]any{"protocol": 1, "agent": "claude-code", "session": "s1", "role": "reviewer"}); code != 0 {
		t.Fatalf("hello as reviewer: %v", err)
	}
	code, err := callCode(t, rev, "approveTrivial", map[string]any{"changeset": review.ChangesetKey(p)})
	if code != codeForbidden || !strings.Contains(err.Error(), "own agent session") {
		t.Errorf("approveTrivial of the reviewer's own session's changeset: %v (code %d); want %d, own agent session", err, code, codeForbidden)
	}
	if q, _ := d.Get(p.ID); q.State != review.StatePending {
		t.Errorf("the proposal is %s; want pending", q.State)
	}
	if got := reviewtest.ReadFile(t, path); strings.Contains(got, "1   \n") {
		t.Errorf("ws.go holds the agent's edit: %q", got)
	}
}
