package hub_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/hub"
	"github.com/diffdesk/diffdesk/review/hub/hubserver"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// cluster is three clustered hub nodes that can be stopped and started
// again on the same ports and stores.
type cluster struct {
	t     *testing.T
	h     *testHub
	opts  [3]hubserver.Options
	mu    sync.Mutex
	nodes [3]*hubserver.Hub
}

func newCluster(t *testing.T, desks, reviewers []string) *cluster {
	c := &cluster{t: t, h: newHubDir(t, desks, reviewers)}
	var client, route [3]int
	for i := range 3 {
		client[i], route[i] = freePort(t), freePort(t)
	}
	var urls []string
	for i := range 3 {
		var routes []string
		for j := range 3 {
			if j != i {
				routes = append(routes, fmt.Sprintf("127.0.0.1:%d", route[j]))
			}
		}
		c.opts[i] = hubserver.Options{Dir: c.h.dir, Port: client[i], ServerName: fmt.Sprint("n", i), Log: os.Getenv("HUBLOG") != "",
			StoreDir: filepath.Join(t.TempDir(), "js"), Cluster: hubserver.Cluster{Name: "fleet", Port: route[i], Routes: routes}}
		urls = append(urls, fmt.Sprintf("nats://127.0.0.1:%d", client[i]))
	}
	c.h.url = strings.Join(urls, ",")
	t.Cleanup(c.stop)
	c.start()
	return c
}

// start starts every node (together: a cluster's stream needs a quorum).
func (c *cluster) start() {
	c.t.Helper()
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Go(func() { c.startNode(i) })
	}
	wg.Wait()
}

// startNode starts node i again, on its port and store.
func (c *cluster) startNode(i int) {
	n, err := hubserver.Start(c.opts[i])
	if err != nil {
		c.t.Errorf("node n%d: %v", i, err)
		return
	}
	c.mu.Lock()
	c.nodes[i] = n
	c.mu.Unlock()
}

// stopNode kills node i: its connections drop, the others carry on.
func (c *cluster) stopNode(i int) {
	c.mu.Lock()
	n := c.nodes[i]
	c.nodes[i] = nil
	c.mu.Unlock()
	if n != nil {
		n.Shutdown()
	}
}

func (c *cluster) stop() {
	for i := range 3 {
		c.stopNode(i)
	}
}

// TestConsumersRebuiltAfterTheirNodeDies: each of the hub's three nodes
// is killed in turn (and started again on its store before the next), so
// whichever node the desk's decision consumer and the window's queue
// consumer are on — and wherever they moved — dies under them. After each
// kill, with nothing but events and outcomes awaited (no sleeps), the
// window shows a proposal made after the kill, and a decision on one made
// before it is carried out by the desk: its file written once, its agent
// told. Then every node dies and one comes back alone, so that the desk's
// consumer cannot be made again until the others are back (the link's
// log line says it tried, waited for instead of a time); once they are
// back, the same holds.
func TestConsumersRebuiltAfterTheirNodeDies(t *testing.T) {
	limit(t, 6*time.Minute)
	c := newCluster(t, []string{"d1"}, []string{"r1"})
	d := reviewtest.NewDesk(t, "", "")
	logs := make(chan string, 10000)
	l, err := hub.Connect(ctx(t), d.Desk, c.h.dial(t, "d1"), hub.LinkOptions{Name: "d1", Logf: func(format string, args ...any) {
		s := fmt.Sprintf(format, args...)
		t.Log("desk: " + s)
		select {
		case logs <- s:
		default:
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close(time.Second) })
	v, events, _ := openView(t, c.h, "r1", hub.ViewLimits{})
	reach := make(chan error, 100)
	v.OnReach(func(err error) {
		t.Logf("view r1 reaches the hub: %v", err)
		select {
		case reach <- err:
		default:
		}
	})
	pending := map[string]<-chan review.Outcome{}
	_, pending["f0.txt"] = propose(t, d.Desk, "f0.txt", "f0\n")
	decideAfter := func(before, after, what string) {
		t.Helper()
		_, pending[after] = propose(t, d.Desk, after, strings.TrimSuffix(after, ".txt")+"\n")
		waitEvent(t, events, after+", proposed after "+what+", in the window", func() bool { return inView(v, after) })
		p := viewed(v, before)
		o, err := v.Decide(deadline(t), p.ID, review.Decision{Verdict: decision.Approved, Shown: review.ShownVersion(p)})
		if err != nil || o.Status != decision.Approved {
			t.Fatalf("the decision on %s after %s: %+v, %v", before, what, o, err)
		}
		if recv(t, pending[before], before+"'s agent's outcome").Status != decision.Approved {
			t.Errorf("%s's agent was not told approved", before)
		}
		if got := reviewtest.ReadFile(t, filepath.Join(d.Root, before)); got != strings.TrimSuffix(before, ".txt")+"\n" {
			t.Errorf("%s is %q", before, got)
		}
	}
	for kill := range 3 {
		before := fmt.Sprintf("f%d.txt", kill)
		waitEvent(t, events, before+" in the window", func() bool { return inView(v, before) })
		c.stopNode(kill)
		decideAfter(before, fmt.Sprintf("f%d.txt", kill+1), fmt.Sprintf("node n%d died", kill))
		c.startNode(kill)
	}

	// Every node dies; one comes back alone, which cannot elect a stream
	// leader: the desk's consumer is gone with the hub, and making a new
	// one fails while the node is alone — the link says so (it follows
	// the decisions again, or its try failed), and only then do the
	// other two nodes come back.
	waitEvent(t, events, "f3.txt in the window", func() bool { return inView(v, "f3.txt") })
	c.stop()
	for len(logs) > 0 {
		<-logs
	}
	var wg sync.WaitGroup
	wg.Go(func() { c.startNode(0) }) // returns once the cluster has its stream again
	for rebuilding := false; !rebuilding; {
		s := recv(t, logs, "the desk to give up the consumer on the node that died (its log line)")
		rebuilding = strings.HasPrefix(s, "hub: following the decisions")
	}
	wg.Go(func() { c.startNode(1) })
	wg.Go(func() { c.startNode(2) })
	wg.Wait()
	decideAfter("f3.txt", "f4.txt", "the whole hub restarted")
	// The window said the hub was unreachable while its reader could not
	// make a consumer (if it could not for long), and says it is back.
	var last error
	for len(reach) > 0 {
		last = <-reach
	}
	if last != nil {
		t.Errorf("the view shows the whole hub restarted and follows it, and still says it cannot reach it: %v", last)
	}
}

// inView reports whether the window's view holds an open proposal of rel.
func inView(v *hub.View, rel string) bool {
	_, ok := viewedOK(v, rel)
	return ok
}

func viewed(v *hub.View, rel string) review.Proposal {
	p, _ := viewedOK(v, rel)
	return p
}

func viewedOK(v *hub.View, rel string) (review.Proposal, bool) {
	for _, p := range v.List() {
		if p.Files[0].Rel == rel {
			return p, true
		}
	}
	return review.Proposal{}, false
}

// waitEvent waits, event by event, until cond holds, until the test's
// deadline (polling too: an event the view sent while the channel was
// full was dropped).
func waitEvent(t *testing.T, events chan review.Event, what string, cond func() bool) {
	t.Helper()
	for !cond() {
		select {
		case <-events:
		case <-time.After(100 * time.Millisecond):
		case <-deadline(t).Done():
			stalled(t, what)
		}
	}
}
