package hub_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review/hub"
)

// Five reviewers decide one proposal at once: exactly one wins, the desk
// writes once, and every reviewer is shown the same outcome.
func TestRacingReviewersWriteOnce(t *testing.T) {
	limit(t, 2*time.Minute)
	h := startHub(t, []string{"d1"}, []string{"r1", "r2", "r3", "r4", "r5"})
	d, _ := h.link(t, "d1")
	var rs []*hub.Reviewer
	for _, n := range []string{"r1", "r2", "r3", "r4", "r5"} {
		rs = append(rs, h.reviewer(t, n))
	}
	id, agent := propose(t, d.Desk, "a.txt", "hello\n")
	p := waitOpen(t, rs[0], "d1", id, 1)
	if p.Agent != "agent" || len(p.Files) != 1 || p.Files[0].Rel != "a.txt" {
		t.Fatalf("proposal on the hub: %+v", p)
	}
	if got, err := rs[1].Text(ctx(t), p, 0, hub.TextProposed); err != nil || got != "hello\n" {
		t.Fatalf("proposed text from the hub: %q, %v", got, err)
	}
	results := race(t, rs, p, "approve")
	won := 0
	var winner hub.Decision
	for _, r := range results {
		if r.Won {
			won++
			winner = r.Winner
		}
	}
	if won != 1 {
		t.Fatalf("%d reviewers won the round, want exactly 1: %+v", won, results)
	}
	for _, r := range results {
		if r.Winner.Nonce != winner.Nonce {
			t.Errorf("a reviewer was shown another winner: %+v, want %+v", r.Winner, winner)
		}
	}
	o := recv(t, agent, "the agent's outcome")
	if o.Status != "approved" {
		t.Fatalf("the agent's outcome: %+v", o)
	}
	if got, _ := os.ReadFile(filepath.Join(d.Root, "a.txt")); string(got) != "hello\n" {
		t.Fatalf("a.txt holds %q", got)
	}
	for _, r := range rs {
		out, next, err := r.Await(ctx(t), p)
		if err != nil || next != nil || out == nil {
			t.Fatalf("Await: %+v %+v %v", out, next, err)
		}
		if out.Status != "approved" || out.Nonce != winner.Nonce || len(out.Files) != 1 || !out.Files[0].Written {
			t.Fatalf("outcome on the hub: %+v (winner %s)", out, winner.Nonce)
		}
	}
}
