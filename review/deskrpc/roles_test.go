package deskrpc

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// callCode makes a call and returns the JSON-RPC error code it got (0 for
// none) and the error.
func callCode(t *testing.T, cl *Client, method string, params any) (int, error) {
	t.Helper()
	err := cl.Call(reviewtest.Context(t), method, params, nil)
	var re *RemoteError
	if errors.As(err, &re) {
		return re.Code, err
	}
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	return 0, nil
}

// TestAgentCannotDecideItsOwnProposal: the connection that proposed an
// edit — here to a protected path — cannot approve it; the file stays.
func TestAgentCannotDecideItsOwnProposal(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	cl := dialTestDesk(t, d.Desk)
	path := filepath.Join(d.Root, ".env")
	reviewtest.WriteFile(t, path, "KEY=old\n")
	var res wireResult
	if err := cl.Call(reviewtest.Context(t), "propose", map[string]any{"format": "write", "path": ".env", "payload": "KEY=new\n"}, &res); err != nil {
		t.Fatal(err)
	}
	code, err := callCode(t, cl, "decide", map[string]any{"id": res.ID, "decision": "approve"})
	if code != codeForbidden || !strings.Contains(err.Error(), "only a reviewer decides") {
		t.Errorf("decide on the proposing connection: %v (code %d); want %d, only a reviewer decides", err, code, codeForbidden)
	}
	if got := reviewtest.ReadFile(t, path); got != "KEY=old\n" {
		t.Errorf(".env holds %q after the agent's own decide; want it untouched", got)
	}
	if code, _ := callCode(t, cl, "hello", map[string]any{"protocol": 1, "role": "reviewer"}); code != codeForbidden {
		t.Errorf("hello as reviewer after proposing: code %d; want %d", code, codeForbidden)
	}
}

// TestReviewerRole: a reviewer decides but does not propose, and does not
// decide a proposal of its own agent session.
func TestReviewerRole(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	rev := dialTestDesk(t, d.Desk)
	if code, err := callCode(t, rev, "hello", map[string]any{"protocol": 1, "agent": "claude-code", "session": "s1", "role": "reviewer"}); code != 0 {
		t.Fatalf("hello as reviewer: %v", err)
	}
	if code, _ := callCode(t, rev, "propose", map[string]any{"format": "write", "path": "r.txt", "payload": "r\n"}); code != codeForbidden {
		t.Errorf("propose on a reviewer's connection: code %d; want %d", code, codeForbidden)
	}
	own, err := d.Propose(reviewtest.Context(t), reviewRequest("claude-code", "s1", "own.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if code, err := callCode(t, rev, "decide", map[string]any{"id": own.ID, "decision": "approve"}); code != codeForbidden || !strings.Contains(err.Error(), "own agent session") {
		t.Errorf("decide on the reviewer's own session's proposal: %v; want code %d, own agent session", err, codeForbidden)
	}
	other, err := d.Propose(reviewtest.Context(t), reviewRequest("claude-code", "s2", "other.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if code, err := callCode(t, rev, "decide", map[string]any{"id": other.ID, "decision": "approve"}); code != 0 {
		t.Errorf("a reviewer's decide of another session's proposal: %v", err)
	}
	if code, _ := callCode(t, rev, "hello", map[string]any{"protocol": 1, "role": "admin"}); code != codeInvalidParams {
		t.Errorf("hello with an unknown role: code %d; want %d", code, codeInvalidParams)
	}
}

func reviewRequest(agent, session, rel string) review.Request {
	return review.Request{Agent: agent, Session: session, Format: engine.FormatWrite, Path: rel, Payload: "x\n"}
}
