package deskrpc

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestPlaceMethod: only a reviewer places a block; bad lines are invalid
// params; a placed failed proposal is pending, and decide then writes it.
func TestPlaceMethod(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	d.PersonAtDesk(t)
	path := filepath.Join(d.Root, "a.txt")
	reviewtest.WriteFile(t, path, "one\ntwo\nthree\n")
	p, err := d.Propose(reviewtest.Context(t), review.Request{Agent: "a", Session: "s", Format: engine.FormatEdit, Path: "a.txt", Payload: `{"old_string":"tow","new_string":"2"}`})
	if err != nil || p.State != review.StateHeld {
		t.Fatalf("propose: %s, %v; want held", p.State, err)
	}
	agent := dialTestDesk(t, d.Desk)
	place := map[string]any{"id": p.ID, "block": 1, "startLine": 2, "endLine": 2}
	if code, err := callCode(t, agent, "place", place); code != codeForbidden || !strings.Contains(err.Error(), "only a reviewer") {
		t.Errorf("place on an agent's connection: %v (code %d); want %d", err, code, codeForbidden)
	}
	rev := dialTestDesk(t, d.Desk)
	if code, err := callCode(t, rev, "hello", map[string]any{"protocol": 1, "role": "reviewer"}); code != 0 {
		t.Fatal(err)
	}
	bad := map[string]any{"id": p.ID, "block": 1, "startLine": 2, "endLine": 9}
	if code, err := callCode(t, rev, "place", bad); code != codeInvalidParams || !strings.Contains(err.Error(), "past the end of the file") {
		t.Errorf("place past the end: %v (code %d); want %d", err, code, codeInvalidParams)
	}
	var res placeAnswer
	if err := rev.Call(reviewtest.Context(t), "place", place, &res); err != nil {
		t.Fatal(err)
	}
	if res.State != review.StatePending || len(res.Matches) != 1 || res.Matches[0].Strategy != engine.StrategyPersonChosen {
		t.Fatalf("place = %+v; want pending with a person-chosen match", res)
	}
	var out wireResult
	if err := rev.Call(reviewtest.Context(t), "decide", map[string]any{"id": p.ID, "decision": "approve"}, &out); err != nil {
		t.Fatal(err)
	}
	if got := reviewtest.ReadFile(t, path); got != "one\n2\nthree\n" {
		t.Errorf("file = %q; want line 2 replaced", got)
	}
	if !strings.Contains(out.Text, "the person chose line 2 of ") {
		t.Errorf("agent text:\n%s", out.Text)
	}
}
