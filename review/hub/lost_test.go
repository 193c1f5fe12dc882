package hub_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review/hub"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestDecisionSentAsTheConnectionDied: a decision the hub sent to a desk
// as the desk's connection died — sent, never received, and counted
// delivered by the hub (the desk's consumer takes no acks) — is read
// again once the desk is back: after a reconnect its follower makes its
// consumer again from the first message it did not read. The decision is
// the last message there is, so no later one shows the gap: before, the
// desk waited for ever, and its agent with it.
func TestDecisionSentAsTheConnectionDied(t *testing.T) {
	limit(t, time.Minute)
	h := startHub(t, []string{"d1"}, []string{"r1"})
	p := newProxy(t, strings.TrimPrefix(h.url, "nats://"))
	d := reviewtest.NewDesk(t, "", "")
	nc, err := hub.Dial(hub.DialOptions{URL: p.url(), Creds: hub.Credentials{Name: "d1", Seed: h.seeds["d1"]}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	l, err := hub.Connect(ctx(t), d.Desk, nc, hub.LinkOptions{Name: "d1", Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close(time.Second) })
	r := h.reviewer(t, "r1")
	id, agent := propose(t, d.Desk, "x.txt", "x\n")
	prop := waitOpen(t, r, "d1", id, 1)

	p.freeze()
	if res, err := r.Decide(ctx(t), prop, hub.Decision{Verdict: "approve"}); err != nil || !res.Won {
		t.Fatalf("decide: %+v %v", res, err)
	}
	until(t, "the hub to send the decision to the desk (dropped on the way)", func() bool { return p.dropped(prop.Key()) })
	p.cut() // the desk notices its connection is gone, and reconnects
	p.heal()
	if o := recv(t, agent, "the agent's outcome: the desk reading the decision again once reconnected"); o.Status != "approved" {
		t.Fatalf("the agent's outcome: %+v", o)
	}
	if got := reviewtest.ReadFile(t, filepath.Join(d.Root, "x.txt")); got != "x\n" {
		t.Errorf("x.txt is %q", got)
	}
}
