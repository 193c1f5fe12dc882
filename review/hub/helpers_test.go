package hub_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/hub"
	"github.com/diffdesk/diffdesk/review/hub/hubserver"
	"github.com/diffdesk/diffdesk/review/reviewtest"
	"github.com/nats-io/nats.go"
)

// testHub is a hub directory with users, and its server.
type testHub struct {
	dir   string
	seeds map[string]string // user name → seed file
	hub   *hubserver.Hub
	url   string
}

// startHub runs a hub on a free loopback port with the desks and
// reviewers named, until the test ends.
func startHub(t testing.TB, desks, reviewers []string) *testHub {
	t.Helper()
	h := newHubDir(t, desks, reviewers)
	srv, err := hubserver.Start(hubserver.Options{Dir: h.dir, Port: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	h.hub, h.url = srv, srv.ClientURL()
	return h
}

func newHubDir(t testing.TB, desks, reviewers []string) *testHub {
	t.Helper()
	h := &testHub{dir: filepath.Join(t.TempDir(), "hub"), seeds: map[string]string{}}
	if err := hubserver.Init(h.dir); err != nil {
		t.Fatal(err)
	}
	add := func(names []string, role string) {
		for _, n := range names {
			seed, err := hubserver.AddUser(h.dir, n, role)
			if err != nil {
				t.Fatal(err)
			}
			h.seeds[n] = seed
		}
	}
	add(desks, hubserver.RoleDesk)
	add(reviewers, hubserver.RoleReviewer)
	return h
}

// dial connects as name until the test ends.
func (h *testHub) dial(t testing.TB, name string) *nats.Conn {
	t.Helper()
	nc, err := hub.Dial(hub.DialOptions{URL: h.url, Creds: hub.Credentials{Name: name, Seed: h.seeds[name]}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// link links a fresh desk to the hub as name.
func (h *testHub) link(t testing.TB, name string) (*reviewtest.Desk, *hub.Link) {
	t.Helper()
	d := reviewtest.NewDesk(t, "", "")
	l, err := hub.Connect(ctx(t), d.Desk, h.dial(t, name), hub.LinkOptions{Name: name, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close(time.Second) })
	return d, l
}

func (h *testHub) reviewer(t testing.TB, name string) *hub.Reviewer {
	t.Helper()
	r, err := hub.NewReviewer(ctx(t), h.dial(t, name), name+"@test")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// ctx bounds one call to the hub: 30 s, within the test's deadline.
func ctx(t testing.TB) context.Context {
	c, cancel := context.WithTimeout(deadline(t), 30*time.Second)
	t.Cleanup(cancel)
	return c
}

// propose has an agent propose writing rel in the background; the
// returned channel gets its outcome.
func propose(t testing.TB, d *review.Desk, rel, content string) (string, <-chan review.Outcome) {
	t.Helper()
	p, err := d.Propose(context.Background(), review.Request{Agent: "agent", Session: "s", Format: engine.FormatWrite, Path: rel, Payload: content})
	if err != nil {
		t.Fatal(err)
	}
	ch := make(chan review.Outcome, 1)
	wctx := deadline(t)
	go func() {
		o, err := d.Wait(wctx, p.ID)
		if err == nil {
			ch <- o
		}
		close(ch)
	}()
	return p.ID, ch
}

// waitOpen waits until the reviewer sees the desk's proposal id open at
// round (or later).
func waitOpen(t testing.TB, r *hub.Reviewer, desk, id string, round int) hub.Proposal {
	t.Helper()
	what := fmt.Sprintf("proposal %s of desk %s open on the hub at round %d", id, desk, round)
	for {
		q, err := r.Queue(ctx(t), nil)
		if err != nil {
			t.Fatalf("waiting for %s: %v", what, err)
		}
		for _, it := range q {
			if it.Open() && it.Proposal.Desk == desk && it.Proposal.ID == id && it.Proposal.Round >= round {
				return *it.Proposal
			}
		}
		select {
		case <-deadline(t).Done():
			stalled(t, what+"; the reviewer's last queue: "+describe(q))
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// describe is a queue as a reviewer read it, for a failure's message.
func describe(q []hub.Item) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d items", len(q))
	for _, it := range q {
		fmt.Fprintf(&b, "; %s/%s", it.Desk, it.Hub)
		if it.Proposal != nil {
			fmt.Fprintf(&b, " %s round %d", it.Proposal.ID, it.Proposal.Round)
		}
		if it.Outcome != nil {
			fmt.Fprintf(&b, " %s", it.Outcome.Status)
		}
	}
	return b.String()
}

// race has every reviewer decide p at once; it returns each one's result.
func race(t testing.TB, rs []*hub.Reviewer, p hub.Proposal, verdict string) []hub.Result {
	t.Helper()
	out := make([]hub.Result, len(rs))
	var wg sync.WaitGroup
	for i, r := range rs {
		wg.Go(func() {
			res, err := r.Decide(ctx(t), p, hub.Decision{Verdict: verdict, Feedback: fmt.Sprint("reviewer ", i)})
			if err != nil {
				t.Error(err)
			}
			out[i] = res
		})
	}
	wg.Wait()
	return out
}
