package deskrpc

import (
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestDecideChangeset: status names each proposal's changeset; an agent
// cannot decide one, a reviewer of the same session cannot either, and a
// reviewer's reject answers every agent call of it with the one reason.
func TestDecideChangeset(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	agent := dialTestDesk(t, d.Desk)
	ctx := reviewtest.Context(t)
	if err := agent.Call(ctx, "hello", map[string]any{"protocol": 1, "agent": "claude-code", "session": "s1"}, nil); err != nil {
		t.Fatal(err)
	}
	var ra, rb struct {
		ID        string `json:"id"`
		Changeset string `json:"changeset"`
	}
	if err := agent.Call(ctx, "propose", map[string]any{"format": "write", "path": "a.txt", "payload": "a\n"}, &ra); err != nil {
		t.Fatal(err)
	}
	if err := agent.Call(ctx, "propose", map[string]any{"format": "write", "path": "b.txt", "payload": "b\n"}, &rb); err != nil {
		t.Fatal(err)
	}
	if ra.Changeset == "" || ra.Changeset != rb.Changeset {
		t.Fatalf("propose answered changesets %q and %q; want one for the session", ra.Changeset, rb.Changeset)
	}
	other, err := d.Propose(ctx, reviewRequest("claude-code", "s2", "other.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Proposals []struct {
			ID        string `json:"id"`
			Changeset string `json:"changeset"`
		} `json:"proposals"`
	}
	if err := agent.Call(ctx, "status", map[string]any{}, &st); err != nil {
		t.Fatal(err)
	}
	keys := map[string]string{}
	for _, p := range st.Proposals {
		keys[p.ID] = p.Changeset
	}
	if keys[ra.ID] != ra.Changeset || keys[rb.ID] != ra.Changeset || keys[other.ID] == ra.Changeset || keys[other.ID] == "" {
		t.Errorf("status changesets %v; want a and b in %s, other apart", keys, ra.Changeset)
	}
	params := map[string]any{"changeset": ra.Changeset, "decision": "reject", "feedback": "one reason",
		"comments": map[string]any{rb.ID: []map[string]any{{"path": "b.txt", "side": "new", "line": 1, "text": "why b?", "quote": "forged"}}}}
	if code, err := callCode(t, agent, "decideChangeset", params); code != codeForbidden {
		t.Errorf("decideChangeset on the agent's connection: %v; want code %d", err, codeForbidden)
	}
	same := dialTestDesk(t, d.Desk)
	if err := same.Call(ctx, "hello", map[string]any{"protocol": 1, "agent": "claude-code", "session": "s1", "role": "reviewer"}, nil); err != nil {
		t.Fatal(err)
	}
	if code, err := callCode(t, same, "decideChangeset", params); code != codeForbidden || !strings.Contains(err.Error(), "own agent session") {
		t.Errorf("decideChangeset of the reviewer's own session: %v; want code %d", err, codeForbidden)
	}
	rev := dialTestDesk(t, d.Desk)
	if err := rev.Call(ctx, "hello", map[string]any{"protocol": 1, "agent": "deskctl", "role": "reviewer"}, nil); err != nil {
		t.Fatal(err)
	}
	if code, err := callCode(t, rev, "decideChangeset", map[string]any{"changeset": ra.Changeset, "decision": "partial"}); code != codeInvalidParams {
		t.Errorf("decideChangeset partial: %v; want code %d", err, codeInvalidParams)
	}
	if code, err := callCode(t, rev, "decideChangeset", map[string]any{"changeset": "cs-000000000000", "decision": "approve"}); code != codeInvalidParams || !strings.Contains(err.Error(), "unknown changeset") {
		t.Errorf("decideChangeset of an unknown key: %v; want code %d", err, codeInvalidParams)
	}
	var res review.ChangesetResult
	if err := rev.Call(ctx, "decideChangeset", params, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Decided) != 2 || len(res.Skipped) != 0 {
		t.Errorf("decideChangeset: %+v; want a and b decided", res)
	}
	for _, id := range []string{ra.ID, rb.ID} {
		if o := reviewtest.WaitOutcome(t, d.Desk, id); o.Status != decision.Rejected || o.Feedback != "one reason" {
			t.Errorf("%s: %s %q; want rejected with the one reason", id, o.Status, o.Feedback)
		}
	}
	// Each proposal's comments go with its own outcome, quoted by the desk.
	if o := reviewtest.WaitOutcome(t, d.Desk, rb.ID); len(o.Comments) != 1 || o.Comments[0].Text != "why b?" || o.Comments[0].Quote != "b\n" {
		t.Errorf("b's comments %+v; want \"why b?\" on its line 1, quoted by the desk", o.Comments)
	}
	if o := reviewtest.WaitOutcome(t, d.Desk, ra.ID); len(o.Comments) != 0 {
		t.Errorf("a's comments %+v; want none", o.Comments)
	}
	if p, _ := d.Get(other.ID); p.State != review.StatePending {
		t.Errorf("the other session's proposal is %s; want pending", p.State)
	}
}
