package deskrpc

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// attendingReviewer connects a reviewer to the desk at sock that says it
// attends: failures are held for it while it is connected.
func attendingReviewer(t *testing.T, sock string) *Client {
	t.Helper()
	rev, err := Dial(sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rev.Close() })
	if err := rev.Call(reviewtest.Context(t), "hello", map[string]any{"protocol": 1, "role": "reviewer", "attend": true}, nil); err != nil {
		t.Fatal(err)
	}
	return rev
}

// heldOnSocket serves a desk with a.txt, connects an attending reviewer
// and an agent, and proposes on the agent's connection, with wait, an edit
// that matches nowhere. It returns the reviewer, the held proposal's id
// and the agent's answer, which arrives once the hold ends.
func heldOnSocket(t *testing.T) (d *reviewtest.Desk, rev *Client, id string, answer <-chan wireResult) {
	t.Helper()
	d = reviewtest.NewDesk(t, "", "")
	reviewtest.WriteFile(t, filepath.Join(d.Root, "a.txt"), "one\ntwo\nthree\n")
	sock := serveTestDesk(t, d.Desk)
	rev = attendingReviewer(t, sock)
	if !d.Attended() {
		t.Fatal("a reviewer said hello with attend, yet nobody attends the desk")
	}
	agent, err := Dial(sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { agent.Close() })
	added := make(chan string, 1)
	cancel := d.Subscribe(func(ev review.Event) {
		if ev.Kind == review.EventAdded {
			added <- ev.ID
		}
	})
	defer cancel()
	out := make(chan wireResult, 1)
	// Ends when the desk answers the waiting propose.
	go func() {
		var res wireResult
		if err := agent.Call(reviewtest.Context(t), "propose", map[string]any{"format": "edit", "path": "a.txt", "payload": `{"old_string":"tow","new_string":"2"}`, "wait": true}, &res); err != nil {
			t.Error(err)
		}
		out <- res
	}()
	id = <-added
	if p, _ := d.Get(id); p.State != review.StateHeld {
		t.Fatalf("proposal %s: %s; want a held failure", id, p.State)
	}
	var st statusResult
	if err := rev.Call(reviewtest.Context(t), "status", nil, &st); err != nil {
		t.Fatal(err)
	}
	if len(st.Proposals) != 1 || st.Proposals[0].State != review.StateHeld || st.Proposals[0].Mismatch == nil || st.Proposals[0].Mismatch.Block != 1 || st.Proposals[0].Failure == "" {
		t.Errorf("status = %+v; want the one proposal, held, with its failure and mismatch", st.Proposals)
	}
	return d, rev, id, out
}

// A held failure on the native door: the agent's waiting propose stays
// open; dismiss answers it with the failure.
func TestNativeHeldDismissed(t *testing.T) {
	d, rev, id, answer := heldOnSocket(t)
	var res wireResult
	if err := rev.Call(reviewtest.Context(t), "dismiss", map[string]any{"id": id}, &res); err != nil {
		t.Fatal(err)
	}
	got := <-answer
	if got.Outcome == nil || got.Outcome.Status != decision.Failed || !strings.Contains(got.Text, "tow") {
		t.Errorf("agent's answer %+v; want the failure", got)
	}
	if p, _ := d.Get(id); got.Outcome != nil && got.Outcome.Error != agenttext.Failure(p.Failure) {
		t.Errorf("agent read %q; want the failure text %q", got.Outcome.Error, agenttext.Failure(p.Failure))
	}
}

// A pick on the native door: place makes it pending, decide writes it, and
// the agent's one answer says which lines the person chose.
func TestNativeHeldPlaced(t *testing.T) {
	d, rev, id, answer := heldOnSocket(t)
	var placed placeAnswer
	if err := rev.Call(reviewtest.Context(t), "place", map[string]any{"id": id, "block": 1, "startLine": 2, "endLine": 2}, &placed); err != nil {
		t.Fatal(err)
	}
	if placed.State != review.StatePending {
		t.Fatalf("place = %+v; want pending", placed)
	}
	if err := rev.Call(reviewtest.Context(t), "decide", map[string]any{"id": id, "decision": "approve"}, nil); err != nil {
		t.Fatal(err)
	}
	got := <-answer
	if got.Outcome == nil || got.Outcome.Status != decision.Approved || !strings.Contains(got.Text, "the person chose line 2 of") {
		t.Errorf("agent's answer %+v; want approved at the person's line 2", got)
	}
	if s := reviewtest.ReadFile(t, filepath.Join(d.Root, "a.txt")); s != "one\n2\nthree\n" {
		t.Errorf("file = %q; want line 2 replaced", s)
	}
}

// The attending reviewer disconnects: nobody is at the desk, and the held
// failure is sent.
func TestNativeHeldReviewerLeaves(t *testing.T) {
	d, rev, _, answer := heldOnSocket(t)
	rev.Close()
	if got := <-answer; got.Outcome == nil || got.Outcome.Status != decision.Failed {
		t.Errorf("agent's answer %+v; want the failure once the reviewer left", got)
	}
	if d.Attended() {
		t.Error("the desk is attended after its one reviewer left")
	}
}

// The agent disconnects: the held failure is withdrawn, as a pending
// proposal is.
func TestNativeHeldAgentDisconnects(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	reviewtest.WriteFile(t, filepath.Join(d.Root, "a.txt"), "one\ntwo\n")
	sock := serveTestDesk(t, d.Desk)
	attendingReviewer(t, sock)
	agent, err := Dial(sock)
	if err != nil {
		t.Fatal(err)
	}
	var res wireResult
	if err := agent.Call(reviewtest.Context(t), "propose", map[string]any{"format": "edit", "path": "a.txt", "payload": `{"old_string":"tow","new_string":"2"}`}, &res); err != nil {
		t.Fatal(err)
	}
	if res.State != review.StateHeld || res.Outcome != nil {
		t.Fatalf("propose without wait = %+v; want state held, no outcome yet", res)
	}
	agent.Close()
	if o := reviewtest.WaitOutcome(t, d.Desk, res.ID); o.Status != decision.Withdrawn {
		t.Errorf("outcome %s; want withdrawn when the agent disconnected", o.Status)
	}
}

// Nobody attends (deskctl serve alone): the failure is the answer at once.
func TestNativeFailureAtOnceUnattended(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	reviewtest.WriteFile(t, filepath.Join(d.Root, "a.txt"), "one\ntwo\n")
	agent := dialTestDesk(t, d.Desk)
	var res wireResult
	if err := agent.Call(reviewtest.Context(t), "propose", map[string]any{"format": "edit", "path": "a.txt", "payload": `{"old_string":"tow","new_string":"2"}`}, &res); err != nil {
		t.Fatal(err)
	}
	if res.Outcome == nil || res.Outcome.Status != decision.Failed {
		t.Errorf("propose = %+v; want the failure at once", res)
	}
	if code, err := callCode(t, agent, "hello", map[string]any{"protocol": 1, "attend": true}); code != codeInvalidParams {
		t.Errorf("hello attend as an agent: %v (code %d); want %d", err, code, codeInvalidParams)
	}
	if code, err := callCode(t, agent, "dismiss", map[string]any{"id": res.ID}); code != codeForbidden {
		t.Errorf("dismiss from an agent: %v (code %d); want %d", err, code, codeForbidden)
	}
}
