package hub_test

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/config"
	"github.com/diffdesk/diffdesk/review/hub"
	"github.com/diffdesk/diffdesk/review/hub/hubserver"
	"github.com/diffdesk/diffdesk/review/journal"
	"github.com/fsnotify/fsnotify"
	"github.com/nats-io/nats.go/jetstream"
)

// freePort is a loopback port nothing listens on now.
func freePort(t testing.TB) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startCluster runs three clustered hubs sharing one users file; the
// testHub's url names all three.
func startCluster(t testing.TB, desks, reviewers []string) (*testHub, []*hubserver.Hub) {
	t.Helper()
	h := newHubDir(t, desks, reviewers)
	var client, route [3]int
	for i := range 3 {
		client[i], route[i] = freePort(t), freePort(t)
	}
	nodes := make([]*hubserver.Hub, 3)
	errs := make([]error, 3)
	var wg sync.WaitGroup
	for i := range 3 {
		var routes []string
		for j := range 3 {
			if j != i {
				routes = append(routes, fmt.Sprintf("127.0.0.1:%d", route[j]))
			}
		}
		wg.Go(func() {
			nodes[i], errs[i] = hubserver.Start(hubserver.Options{Dir: h.dir, Port: client[i], ServerName: fmt.Sprint("n", i),
				Log: os.Getenv("HUBLOG") != "", StoreDir: filepath.Join(t.TempDir(), "js"), Cluster: hubserver.Cluster{Name: "fleet", Port: route[i], Routes: routes}})
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("node %d: %v", i, err)
		}
		t.Cleanup(nodes[i].Shutdown)
	}
	var urls []string
	for _, n := range nodes {
		urls = append(urls, n.ClientURL())
	}
	h.url = strings.Join(urls, ",")
	return h, nodes
}

// proxy forwards loopback connections to a hub node until cut: then it
// drops every connection and refuses new ones until healed (a partition).
type proxy struct {
	l      net.Listener
	target string
	mu     sync.Mutex
	conns  []net.Conn
	down   bool
	frozen bool   // what the hub sends is dropped, not forwarded
	lost   []byte // what was dropped
}

func newProxy(t testing.TB, target string) *proxy {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{l: l, target: target}
	t.Cleanup(func() { l.Close(); p.cut() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			p.mu.Lock()
			down := p.down
			p.mu.Unlock()
			if down {
				c.Close()
				continue
			}
			s, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, s)
			p.mu.Unlock()
			go func() { io.Copy(s, c); s.Close() }()
			go func() { p.toClient(c, s); c.Close() }()
		}
	}()
	return p
}

// toClient forwards what the hub sends, or drops it while frozen (the
// hub has sent it: for all it knows it was delivered).
func (p *proxy) toClient(c, s net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := s.Read(buf)
		if n > 0 {
			p.mu.Lock()
			frozen := p.frozen
			if frozen {
				p.lost = append(p.lost, buf[:n]...)
			}
			p.mu.Unlock()
			if !frozen {
				if _, err := c.Write(buf[:n]); err != nil {
					return
				}
			}
		}
		if err != nil {
			return
		}
	}
}

// freeze drops what the hub sends from now on: the connections stay
// open, their messages lost on the way (a network that died before
// either end noticed).
func (p *proxy) freeze() {
	p.mu.Lock()
	p.frozen = true
	p.mu.Unlock()
}

// dropped reports whether what was dropped holds s.
func (p *proxy) dropped(s string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Contains(string(p.lost), s)
}

func (p *proxy) url() string { return "nats://" + p.l.Addr().String() }

func (p *proxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = true
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

func (p *proxy) heal() {
	p.mu.Lock()
	p.down, p.frozen, p.lost = false, false, nil
	p.mu.Unlock()
}

// writeCounter counts the files renamed into place under dirs: each is
// one write of the desk (atomic save: temp file, rename).
type writeCounter struct {
	w  *fsnotify.Watcher
	mu sync.Mutex
	n  map[string]int
}

func countWrites(t testing.TB, dirs []string) *writeCounter {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		t.Fatal(err)
	}
	c := &writeCounter{w: w, n: map[string]int{}}
	for _, d := range dirs {
		if err := w.Add(d); err != nil {
			t.Fatal(err)
		}
	}
	go func() {
		for {
			select {
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				if ev.Has(fsnotify.Create) && strings.HasSuffix(ev.Name, ".txt") {
					c.mu.Lock()
					c.n[ev.Name]++
					c.mu.Unlock()
				}
			case err, ok := <-w.Errors:
				if !ok {
					return
				}
				t.Errorf("counting writes: %v", err)
			}
		}
	}()
	t.Cleanup(func() { w.Close() })
	return c
}

func (c *writeCounter) get(path string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[path]
}

// journalOf is what the journal of the desk holding path says of it, for
// a failure's message.
func journalOf(t testing.TB, fleet []*fleetDesk, path string) string {
	for _, fd := range fleet {
		if !strings.HasPrefix(path, fd.root+string(filepath.Separator)) {
			continue
		}
		page, err := fd.current().History(ctx(t), journal.Filter{File: path})
		if err != nil {
			return err.Error()
		}
		var b strings.Builder
		for _, e := range page.Entries {
			fmt.Fprintf(&b, "\n\t%s %s %s %s %s %q", e.Time.Format("15:04:05.000"), e.Kind, e.ProposalID, e.Decision, e.State, e.Feedback)
		}
		return b.String()
	}
	return "no desk holds it"
}

// onHub is what the hub holds of desk's proposal id, for a failure's
// message.
func onHub(t testing.TB, h *testHub, desk, id string) string {
	q, err := h.reviewer(t, "rev0").Queue(ctx(t), nil)
	if err != nil {
		return err.Error()
	}
	var found []hub.Item
	for _, it := range q {
		if it.Desk == desk && it.Proposal != nil && it.Proposal.ID == id {
			found = append(found, it)
		}
	}
	s := describe(found)
	js, err := jetstream.New(h.dial(t, "rev0"))
	if err != nil {
		return s
	}
	kv, err := js.KeyValue(ctx(t), hub.Bucket)
	if err != nil {
		return s
	}
	for _, it := range found {
		e, err := kv.Get(ctx(t), it.Proposal.Key())
		if err != nil {
			s += fmt.Sprintf("; round %d's decision: %v", it.Proposal.Round, err)
		} else {
			s += fmt.Sprintf("; round %d's decision (#%d): %s", it.Proposal.Round, e.Revision(), e.Value())
		}
	}
	return s
}

// done is closed once wg's goroutines are done.
func done(wg *sync.WaitGroup) <-chan struct{} {
	ch := make(chan struct{})
	go func() { wg.Wait(); close(ch) }()
	return ch
}

// fleetDesk is one desk of the fleet: a workspace, its current run (desk
// and link), and its agents' directories.
type fleetDesk struct {
	name       string
	root       string
	state      string // its journal
	url        string
	restarting atomic.Bool
	mu         sync.Mutex
	desk       *review.Desk
	link       *hub.Link
	close      func()
}

func (fd *fleetDesk) current() *review.Desk {
	fd.mu.Lock()
	defer fd.mu.Unlock()
	return fd.desk
}

// start runs the desk over its workspace, linked to the hub.
func (fd *fleetDesk) start(t testing.TB, h *testHub) {
	// The workspace and journal are the fleet desk's own, kept across runs.
	cfg, err := config.LoadTrusting("", []string{fd.root}, func(string, string) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	j, err := journal.Open(context.Background(), filepath.Join(fd.state, "journal.db"))
	if err != nil {
		t.Fatal(err)
	}
	desk, err := review.NewDesk(review.Options{FailureText: agenttext.Failure, Roots: []string{fd.root}, Journal: j, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	nc, err := hub.Dial(hub.DialOptions{URL: fd.url, Creds: hub.Credentials{Name: fd.name, Seed: h.seeds[fd.name]}})
	if err != nil {
		t.Fatal(err)
	}
	l, err := hub.Connect(ctx(t), desk, nc, hub.LinkOptions{Name: fd.name, Logf: func(format string, args ...any) {
		t.Logf("%s: %s", fd.name, fmt.Sprintf(format, args...))
	}})
	if err != nil {
		t.Fatal(err)
	}
	fd.mu.Lock()
	fd.desk, fd.link = desk, l
	fd.close = func() { l.Close(0); nc.Close(); desk.Close(); j.Close() }
	fd.mu.Unlock()
}

// TestFleet is the bounded scale test: desks on a cluster of three hubs,
// agents proposing, reviewers deciding at random and racing; one hub
// node killed mid-run, one desk partitioned away and back, then every
// desk restarted at once with proposals pending (agent0's, left waiting
// by the reviewers on each desk until then). Every file the agents were
// told was approved was written exactly once, every rejected one never;
// no round had two winners; every proposal that reached the hub has its
// outcome there (each pending at the restart withdrawn), and no proposal
// got two outcomes.
func TestFleet(t *testing.T) {
	limit(t, 4*time.Minute)
	const desks, agents, files, reviewers = 4, 4, 4, 4
	var deskNames, reviewerNames []string
	for i := range desks {
		deskNames = append(deskNames, fmt.Sprint("desk", i))
	}
	for i := range reviewers {
		reviewerNames = append(reviewerNames, fmt.Sprint("rev", i))
	}
	h, nodes := startCluster(t, deskNames, reviewerNames)

	// Desk 0 reaches the hub through proxies, to be partitioned.
	var proxies []*proxy
	var proxied []string
	for _, n := range nodes {
		p := newProxy(t, strings.TrimPrefix(n.ClientURL(), "nats://"))
		proxies, proxied = append(proxies, p), append(proxied, p.url())
	}
	fleet := make([]*fleetDesk, desks)
	var dirs []string
	for i := range desks {
		fd := &fleetDesk{name: deskNames[i], root: t.TempDir(), state: t.TempDir(), url: h.url}
		if i == 0 {
			fd.url = strings.Join(proxied, ",")
		}
		for a := range agents {
			dir := filepath.Join(fd.root, fmt.Sprint("agent", a))
			os.Mkdir(dir, 0o755)
			dirs = append(dirs, dir)
		}
		fd.start(t, h)
		fleet[i] = fd
	}
	t.Cleanup(func() {
		for _, fd := range fleet {
			fd.close()
		}
	})
	writes := countWrites(t, dirs)

	// Reviewers: follow the queue, decide open proposals at random, racing.
	rctx, stopReviewers := context.WithCancel(context.Background())
	defer stopReviewers()
	type roundKey struct {
		desk, h string
		round   int
	}
	var wonMu sync.Mutex
	wins := map[roundKey]int{}
	outcomes := map[string][]string{} // desk/H → statuses seen on the hub
	// While holding, the reviewers leave agent0's proposals waiting on
	// every desk: each desk then has one pending when all restart. Held
	// from the start: on a loaded machine the reviewers could otherwise
	// decide a desk's every proposal before it is restarted.
	var holding atomic.Bool
	holding.Store(true)
	var rwg sync.WaitGroup
	for i := range reviewers {
		r := h.reviewer(t, reviewerNames[i])
		r.Logf = func(format string, args ...any) { t.Logf("reviewer %d: %s", i, fmt.Sprintf(format, args...)) }
		var mu sync.Mutex
		open := map[string]hub.Proposal{}
		rwg.Go(func() {
			r.Follow(rctx, func(p *hub.Proposal, o *hub.Outcome) {
				mu.Lock()
				defer mu.Unlock()
				if p != nil {
					open[p.Desk+"/"+p.Hub] = *p
				}
				if o != nil {
					delete(open, o.Desk+"/"+o.Hub)
					if i == 0 {
						wonMu.Lock()
						outcomes[o.Desk+"/"+o.Hub] = append(outcomes[o.Desk+"/"+o.Hub], o.Status)
						wonMu.Unlock()
					}
				}
			}, func(s string, err error) { t.Errorf("reviewer %d: %s: %v", i, s, err) })
		})
		rwg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(i), 29))
			for rctx.Err() == nil {
				mu.Lock()
				var pick []hub.Proposal
				for _, p := range open {
					pick = append(pick, p)
				}
				mu.Unlock()
				if len(pick) == 0 {
					time.Sleep(5 * time.Millisecond)
					continue
				}
				p := pick[rng.IntN(len(pick))]
				if holding.Load() && p.Agent == "agent0" {
					time.Sleep(time.Millisecond)
					continue
				}
				verdict := "approve"
				if rng.IntN(4) == 0 {
					verdict = "reject"
				}
				dctx, cancel := context.WithTimeout(rctx, 5*time.Second)
				res, err := r.Decide(dctx, p, hub.Decision{Verdict: verdict})
				cancel()
				if err != nil {
					t.Logf("reviewer %d: deciding %s/%s (%s) round %d: %v", i, p.Desk, p.Hub, p.ID, p.Round, err)
				}
				if err == nil && res.Won {
					wonMu.Lock()
					wins[roundKey{p.Desk, p.Hub, p.Round}]++
					wonMu.Unlock()
				}
				if err != nil {
					continue // tried again: the round may still be open
				}
				mu.Lock()
				if q, ok := open[p.Desk+"/"+p.Hub]; ok && q.Round == p.Round {
					delete(open, p.Desk+"/"+p.Hub) // decided (by someone): wait for a new round or the outcome
				}
				mu.Unlock()
			}
		})
	}

	// Agents: each proposes its files one after another and waits; a
	// proposal withdrawn by a desk's restart is proposed again.
	total := desks * agents * files
	var decided atomic.Int64
	final := make(map[string]review.Outcome, total)
	var finalMu sync.Mutex
	var awg sync.WaitGroup
	for _, fd := range fleet {
		for a := range agents {
			awg.Go(func() {
				for f := range files {
					path := filepath.Join(fd.root, fmt.Sprint("agent", a), fmt.Sprint("f", f, ".txt"))
					for {
						d := fd.current()
						p, err := d.Propose(context.Background(), review.Request{Agent: fmt.Sprint("agent", a), Session: "s",
							Format: engine.FormatWrite, Path: path, Payload: fmt.Sprintf("%s agent %d file %d\n", fd.name, a, f)})
						if err != nil && (fd.restarting.Load() || fd.current() != d) {
							time.Sleep(10 * time.Millisecond) // the desk is restarting
							continue
						}
						if err != nil {
							t.Errorf("propose %s: %v", path, err)
							return
						}
						wctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
						o, err := d.Wait(wctx, p.ID)
						cancel()
						if err != nil {
							t.Errorf("%s (%s, proposed %s ago, on the desk's current run: %v): no outcome: %v; on the hub: %s", path, p.ID, time.Since(p.Created).Round(time.Millisecond), fd.current() == d, err, onHub(t, h, fd.name, p.ID))
							return
						}
						if o.Status == "withdrawn" {
							continue // the desk restarted: the agent proposes again
						}
						finalMu.Lock()
						final[path] = o
						finalMu.Unlock()
						decided.Add(1)
						break
					}
				}
			})
		}
	}

	waitFor := func(n int64) {
		t.Helper()
		until(t, fmt.Sprintf("%d proposals decided", n), func() bool { return decided.Load() >= n || t.Failed() })
	}
	// A hub node dies a quarter of the way in.
	waitFor(int64(total / 4))
	nodes[2].Shutdown()
	t.Logf("node n2 killed after %d decisions", decided.Load())
	// Desk 0 is cut off from the hub for a while, half way.
	waitFor(int64(total / 2))
	for _, p := range proxies {
		p.cut()
	}
	t.Logf("desk0 partitioned after %d decisions", decided.Load())
	time.Sleep(1500 * time.Millisecond)
	for _, p := range proxies {
		p.heal()
	}
	// Every desk restarts at once, each with proposals pending on the hub.
	watcher := h.reviewer(t, "rev0")
	pending := 0
	for deadline := time.Now().Add(time.Minute); ; {
		q, err := watcher.Queue(ctx(t), nil)
		if err != nil {
			t.Fatal(err)
		}
		per := map[string]int{} // agent0's, held: none is decided before the restart
		for _, it := range q {
			if it.Open() && it.Proposal.Agent == "agent0" {
				per[it.Desk]++
			}
		}
		if pending = 0; len(per) == desks {
			for _, n := range per {
				pending += n
			}
			break
		}
		if time.Now().After(deadline) || t.Failed() {
			t.Fatalf("not every desk had a proposal waiting on the hub: %v", per)
		}
		time.Sleep(20 * time.Millisecond)
	}
	for _, fd := range fleet {
		fd.restarting.Store(true)
		old := fd.current()
		fd.close()
		for _, p := range old.List() { // its agents' calls end with it
			old.Withdraw(context.Background(), p.ID, "the desk stopped")
		}
	}
	for _, fd := range fleet {
		fd.start(t, h)
		fd.restarting.Store(false)
	}
	holding.Store(false)
	t.Logf("every desk (%d) restarted after %d decisions, with %d proposals pending on the hub", desks, decided.Load(), pending)

	recv(t, done(&awg), "every agent's every file decided")
	if t.Failed() {
		return
	}
	// The hub settles: every proposal on it has its outcome.
	var q []hub.Item
	r := h.reviewer(t, "rev0")
	for i := 0; i < 200; i++ {
		var err error
		if q, err = r.Queue(ctx(t), nil); err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(q, hub.Item.Open) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The hub's record is the judge; a reviewer follows it and may lag
	// behind after a node kill (its follower makes its consumer again):
	// wait, bounded, for reviewer 0 to have seen every outcome the hub
	// holds — a follower that stalled for good still fails here.
	caughtUp := time.Now()
	for deadline := caughtUp.Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		wonMu.Lock()
		behind := 0
		for _, it := range q {
			if it.Outcome != nil && len(outcomes[it.Desk+"/"+it.Hub]) == 0 {
				behind++
			}
		}
		wonMu.Unlock()
		if behind == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Errorf("reviewer 0 has not seen %d outcomes the hub holds after 30 s (its follower stalled)", behind)
			break
		}
	}
	t.Logf("reviewer 0 saw the hub's last outcome %v after the hub held it", time.Since(caughtUp).Round(time.Millisecond))
	stopReviewers()
	recv(t, done(&rwg), "the reviewers to stop")
	for _, it := range q {
		if it.Open() {
			t.Errorf("lost: %s/%s (%s) has no outcome on the hub", it.Desk, it.Hub, it.Proposal.ID)
		}
	}
	until(t, "every approved file's write counted", func() bool { // the last renames reach the counter
		for path, o := range final {
			if o.Status == "approved" && writes.get(path) == 0 {
				return false
			}
		}
		return true
	})
	approved := 0
	for path, o := range final {
		want := 0
		if o.Status == "approved" {
			want, approved = 1, approved+1
		} else if o.Status != "rejected" {
			t.Errorf("%s: %s", path, o.Status)
		}
		if got := writes.get(path); got != want {
			t.Errorf("%s: written %d times, told %s (%s by %s); its desk's journal: %s", path, got, o.Status, o.ID, o.By, journalOf(t, fleet, path))
		}
	}
	wonMu.Lock()
	defer wonMu.Unlock()
	for k, n := range wins {
		if n != 1 {
			t.Errorf("round %d of %s/%s had %d winners", k.round, k.desk, k.h, n)
		}
	}
	withdrawn := 0
	for k, st := range outcomes {
		if len(slices.Compact(slices.Clone(st))) != 1 {
			t.Errorf("%s: outcomes %v (decided twice)", k, st)
		}
		if st[0] == "withdrawn" {
			withdrawn++
		}
	}
	if withdrawn < pending {
		t.Errorf("%d proposals were pending on the restarted desks, %d withdrawn on the hub", pending, withdrawn)
	}
	if len(final) != total {
		t.Errorf("%d of %d files have a final outcome", len(final), total)
	}
	t.Logf("%d proposals decided (%d approved, each written once), %d rounds won, %d outcomes on the hub (%d withdrawn by the restart)", len(final), approved, len(wins), len(outcomes), withdrawn)
}
