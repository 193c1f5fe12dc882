// Command fleetbench measures a fleet of real desks on a real hub: every
// desk a `deskctl serve --hub` process of its own (its own workspace,
// journal and socket), the hub three `deskctl hub serve` processes in a
// cluster, agents proposing over each desk's socket one file after
// another, reviewers deciding at random and racing over their own hub
// connections. Midway a hub node is killed (by default the one leading the
// decisions bucket's stream, the worst case), a desk is cut off from the hub
// and let back, and every desk is restarted at once with proposals pending
// (each at least one: agent0's wait until then). It counts
// every write (inotify renames into the workspaces) and checks each
// approved file was written exactly once, each rejected one never, no
// round had two winners and no proposal two outcomes; it reports
// proposals decided per second, the time from a reviewer's winning
// decision to the desk's write (p50, p99; and split by phase: steady, and
// each fault until 20 s after it, phases.go), and the memory 1,000 pending
// proposals take in a desk process and in the window (over the hub and
// over --connect). scripts/fleet-bench builds deskctl and runs it.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/deskrpc"
	"github.com/diffdesk/diffdesk/review/hub"
	"github.com/nats-io/nats.go/jetstream"
)

// Config sizes a run.
type Config struct {
	Deskctl   string // the deskctl binary
	Dir       string // work directory ("": a temporary one, removed after)
	Desks     int
	Agents    int // per desk
	Per       int // proposals per agent, one after another
	Reviewers int
	Faults    bool // kill a hub node, partition a desk, restart every desk
	Memory    int  // pending proposals for the memory figures (0: none)
	// KillLeader kills the node leading the decisions bucket's stream
	// (where every desk's decision consumer reads) instead of n2.
	KillLeader bool
	Log        io.Writer
}

// Report is what a run measured and checked.
type Report struct {
	Desks, Agents, Per, Reviewers int
	Proposals, Approved, Rejected int
	Withdrawn                     int // by the restart, proposed again
	Elapsed                       time.Duration
	PerSecond                     float64
	P50, P99                      time.Duration // a winning decision → the desk's write
	Latencies                     int
	// Phases splits the latency by phase: steady, and each fault from its
	// start until 20 s after it (phases.go).
	Phases []PhaseLatency
	Slow   []string // desks with writes over 5 s after their decision, and how many
	Rounds int
	Faults []string
	// Memory per 1,000 pending proposals of 1 KiB: the desk process's
	// resident memory, and the window's heap over the hub (hub.View) and
	// over the desk's socket (remote.Desk, as --connect).
	DeskMBPer1000, HubWindowMBPer1000, ConnectWindowMBPer1000 float64
	Problems                                                  []string
}

func (r *Report) problem(f string, a ...any) { r.Problems = append(r.Problems, fmt.Sprintf(f, a...)) }

func main() {
	var c Config
	flag.StringVar(&c.Deskctl, "deskctl", "bin/deskctl", "the deskctl binary")
	flag.StringVar(&c.Dir, "dir", "", "work directory (default: a temporary one)")
	flag.IntVar(&c.Desks, "desks", 50, "desks, each a deskctl serve process")
	flag.IntVar(&c.Agents, "agents", 20, "agents per desk")
	flag.IntVar(&c.Per, "per", 3, "proposals per agent, one after another")
	flag.IntVar(&c.Reviewers, "reviewers", 10, "reviewers deciding at random, racing")
	flag.BoolVar(&c.Faults, "faults", true, "kill a hub node, partition a desk, restart every desk with proposals pending")
	flag.IntVar(&c.Memory, "memory", 1000, "pending proposals for the memory figures (0: skip)")
	flag.BoolVar(&c.KillLeader, "kill-leader", true, "kill the node leading the decisions bucket's stream (false: n2, whatever it leads)")
	asJSON := flag.Bool("json", false, "print the report as JSON")
	flag.Parse()
	c.Log = os.Stderr
	r, err := Run(c)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fleetbench:", err)
		os.Exit(1)
	}
	if *asJSON {
		json.NewEncoder(os.Stdout).Encode(r)
	} else {
		fmt.Print(r.Text())
	}
	if len(r.Problems) > 0 {
		os.Exit(1)
	}
}

// Text is the report as the README quotes it.
func (r Report) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d desks (deskctl serve processes) × %d agents × %d proposals, %d reviewers, hub of 3 clustered deskctl hub serve processes\n", r.Desks, r.Agents, r.Per, r.Reviewers)
	fmt.Fprintf(&b, "decided: %d (%d approved, %d rejected; %d withdrawn by the restart and proposed again) in %v: %.1f proposals/s\n",
		r.Proposals, r.Approved, r.Rejected, r.Withdrawn, r.Elapsed.Round(time.Millisecond), r.PerSecond)
	fmt.Fprintf(&b, "winning decision → write: p50 %v, p99 %v (%d writes timed); %d rounds won, each by one reviewer\n", r.P50.Round(time.Millisecond), r.P99.Round(time.Millisecond), r.Latencies, r.Rounds)
	for _, p := range r.Phases {
		fmt.Fprintf(&b, "  %s\n", p)
	}
	if len(r.Slow) > 0 {
		fmt.Fprintf(&b, "writes over 5 s after their decision, per desk: %s\n", strings.Join(r.Slow, ", "))
	}
	for _, f := range r.Faults {
		fmt.Fprintf(&b, "fault: %s\n", f)
	}
	if r.DeskMBPer1000 > 0 {
		fmt.Fprintf(&b, "memory per 1,000 pending (1 KiB files): desk process %.1f MB RSS; window over the hub %.1f MB heap; window over --connect %.1f MB heap\n",
			r.DeskMBPer1000, r.HubWindowMBPer1000, r.ConnectWindowMBPer1000)
	}
	if len(r.Problems) == 0 {
		b.WriteString("checked: every approved file written exactly once, every rejected one never; one winner per round; one outcome per proposal; nothing left open on the hub\n")
	}
	for _, p := range r.Problems {
		fmt.Fprintf(&b, "PROBLEM: %s\n", p)
	}
	return b.String()
}

// fleet is a run's processes and state.
type fleet struct {
	c      Config
	dir    string
	hubDir string
	nodes  []*exec.Cmd
	urls   []string
	desks  []*desk
	proxy  *proxy
	logf   func(string, ...any)
	ctx    context.Context
	cancel context.CancelFunc
}

// desk is one deskctl serve process and its workspace.
type desk struct {
	name, root, state, sock, url string
	mu                           sync.Mutex
	cmd                          *exec.Cmd
	started                      time.Time // when its process last started
	restarting                   atomic.Bool
}

func (d *desk) restarted() time.Time {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.started
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func (f *fleet) deskctl(args ...string) error {
	out, err := exec.Command(f.c.Deskctl, args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("deskctl %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return nil
}

// start runs a process whose output goes to a log file in the work dir.
func (f *fleet) start(name string, args ...string) (*exec.Cmd, error) {
	logFile, err := os.OpenFile(filepath.Join(f.dir, name+".log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(f.c.Deskctl, args...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, err
	}
	go func() { cmd.Wait(); logFile.Close() }()
	return cmd, nil
}

func waitTCP(ctx context.Context, addr string) error {
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s never listened: %w", addr, err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// startHub makes the hub's users and runs its three clustered nodes.
func (f *fleet) startHub(names []string, reviewers []string) error {
	f.hubDir = filepath.Join(f.dir, "hub")
	if err := f.deskctl("hub", "init", "--dir", f.hubDir); err != nil {
		return err
	}
	for _, n := range names {
		if err := f.deskctl("hub", "add", "--dir", f.hubDir, "--role", "desk", n); err != nil {
			return err
		}
	}
	for _, n := range reviewers {
		if err := f.deskctl("hub", "add", "--dir", f.hubDir, "--role", "reviewer", n); err != nil {
			return err
		}
	}
	var client, route [3]int
	for i := range 3 {
		var err error
		if client[i], err = freePort(); err != nil {
			return err
		}
		if route[i], err = freePort(); err != nil {
			return err
		}
	}
	for i := range 3 {
		args := []string{"hub", "serve", "--dir", f.hubDir, "--listen", fmt.Sprint("127.0.0.1:", client[i]), "--name", fmt.Sprint("n", i),
			"--store", filepath.Join(f.dir, fmt.Sprint("store", i)), "--cluster", "fleet", "--cluster-listen", fmt.Sprint("127.0.0.1:", route[i])}
		for j := range 3 {
			if j != i {
				args = append(args, "--route", fmt.Sprint("127.0.0.1:", route[j]))
			}
		}
		cmd, err := f.start(fmt.Sprint("node", i), args...)
		if err != nil {
			return err
		}
		f.nodes = append(f.nodes, cmd)
		f.urls = append(f.urls, fmt.Sprint("nats://127.0.0.1:", client[i]))
	}
	for i := range 3 {
		if err := waitTCP(f.ctx, fmt.Sprint("127.0.0.1:", client[i])); err != nil {
			return err
		}
	}
	return nil
}

func (f *fleet) creds(name string) string { return filepath.Join(f.hubDir, "creds", name+".nk") }

// run starts (or restarts) d's deskctl serve and waits for its socket.
func (f *fleet) run(d *desk) error {
	cmd, err := f.start(d.name, "serve", "--workspace", d.root, "--socket", d.sock, "--journal", filepath.Join(d.state, "journal.db"),
		"--config", filepath.Join(d.state, "config.toml"), "--hub", d.url, "--hub-creds", f.creds(d.name))
	if err != nil {
		return err
	}
	d.mu.Lock()
	d.cmd, d.started = cmd, time.Now()
	d.mu.Unlock()
	for {
		if c, err := deskrpc.Dial(d.sock); err == nil {
			c.Close()
			return nil
		}
		select {
		case <-f.ctx.Done():
			return fmt.Errorf("desk %s never listened on %s (see %s.log)", d.name, d.sock, d.name)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// stop ends d's process as a person would (SIGTERM) and waits for it.
func (d *desk) stop() {
	d.mu.Lock()
	cmd := d.cmd
	d.mu.Unlock()
	stopProcess(cmd)
}

// stopProcess ends cmd's process with SIGTERM and waits until it is gone
// (SIGKILL after ten seconds), so that nothing it runs still writes into
// the test's directories when they are removed.
func stopProcess(cmd *exec.Cmd) {
	if cmd == nil || cmd.Process == nil {
		return
	}
	cmd.Process.Signal(syscall.SIGTERM)
	deadline := time.Now().Add(10 * time.Second)
	for processAlive(cmd.Process.Pid) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// noDoors writes a desk's config: the socket only, no IDE doors (their
// lock files would land in the user's own ~/.claude and $TMPDIR/gemini).
func noDoors(state string) error {
	return os.WriteFile(filepath.Join(state, "config.toml"), []byte("[doors]\nclaude = false\ngemini = false\n"), 0o600)
}

func processAlive(pid int) bool { return syscall.Kill(pid, 0) == nil }

func (f *fleet) close() {
	for _, d := range f.desks {
		d.stop()
	}
	for _, n := range f.nodes {
		stopProcess(n)
	}
	if f.proxy != nil {
		f.proxy.close()
	}
	f.cancel()
}

// Run runs the fleet c describes and reports.
func Run(c Config) (rep Report, err error) {
	rep = Report{Desks: c.Desks, Agents: c.Agents, Per: c.Per, Reviewers: c.Reviewers}
	if c.Log == nil {
		c.Log = io.Discard
	}
	f := &fleet{c: c, logf: func(s string, a ...any) { fmt.Fprintf(c.Log, "fleetbench: "+s+"\n", a...) }}
	f.ctx, f.cancel = context.WithTimeout(context.Background(), 30*time.Minute)
	if f.dir = c.Dir; f.dir == "" {
		if f.dir, err = os.MkdirTemp("", "fleetbench-"); err != nil {
			return rep, err
		}
		defer func() { // kept when something went wrong: its logs say what
			if err == nil && len(rep.Problems) == 0 {
				os.RemoveAll(f.dir)
			} else {
				f.logf("the run's files and logs are in %s", f.dir)
			}
		}()
	}
	defer f.close()
	var deskNames, revNames []string
	for i := range c.Desks {
		deskNames = append(deskNames, fmt.Sprint("desk", i))
	}
	deskNames = append(deskNames, "memdesk")
	for i := range c.Reviewers {
		revNames = append(revNames, fmt.Sprint("rev", i))
	}
	if err := f.startHub(deskNames, revNames); err != nil {
		return rep, err
	}
	f.logf("hub: 3 nodes at %s", strings.Join(f.urls, ","))
	hubURL := strings.Join(f.urls, ",")
	if c.Faults {
		if f.proxy, err = newProxy(f.urls); err != nil {
			return rep, err
		}
	}
	var dirs []string
	for i := range c.Desks {
		d := &desk{name: deskNames[i], root: filepath.Join(f.dir, "ws", deskNames[i]), state: filepath.Join(f.dir, "state", deskNames[i]),
			sock: filepath.Join(f.dir, "run", deskNames[i], "desk.sock"), url: hubURL}
		if i == 0 && f.proxy != nil {
			d.url = f.proxy.url()
		}
		for a := range c.Agents {
			dir := filepath.Join(d.root, fmt.Sprint("agent", a))
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return rep, err
			}
			dirs = append(dirs, dir)
		}
		if err := os.MkdirAll(d.state, 0o700); err != nil {
			return rep, err
		}
		if err := noDoors(d.state); err != nil {
			return rep, err
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Dir(d.sock)), 0o700); err != nil {
			return rep, err
		}
		f.desks = append(f.desks, d)
	}
	var wg sync.WaitGroup
	errs := make([]error, len(f.desks))
	for i, d := range f.desks {
		wg.Go(func() { errs[i] = f.run(d) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return rep, err
	}
	f.logf("%d desks serving", len(f.desks))
	writes, err := countWrites(dirs)
	if err != nil {
		return rep, err
	}
	defer writes.close()
	if err := f.load(&rep, revNames, writes); err != nil {
		return rep, err
	}
	if c.Memory > 0 {
		if err := f.memory(&rep, hubURL); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

// agentResult is what one agent was told of one file, and how often it
// had to propose it again (the desk restarted).
type agentResult struct {
	status    string
	nonce     string
	withdrawn int
}

// heldAgent is the agent whose proposals wait on every desk until all
// desks are restarted.
const heldAgent = "agent0"

// load runs the agents and reviewers, with the faults, and checks.
func (f *fleet) load(rep *Report, revNames []string, writes *writeCounter) error {
	c := f.c
	rctx, stopReviewers := context.WithCancel(f.ctx)
	defer stopReviewers()
	type roundKey struct {
		desk, h string
		round   int
	}
	var mu sync.Mutex
	wins := map[roundKey]int{}
	wonAt := map[string]time.Time{}   // nonce (12 hex) → when its reviewer won
	wonPath := map[string]string{}    // nonce → the file it approves
	outcomes := map[string][]string{} // desk/H → statuses seen on the hub
	// While holding, the reviewers leave agent0's proposals waiting on
	// every desk: each desk then has one pending when all are restarted.
	var holding atomic.Bool
	var rwg sync.WaitGroup
	for i, name := range revNames {
		nc, err := hub.Dial(hub.DialOptions{URL: strings.Join(f.urls, ","), Creds: hub.Credentials{Name: name, Seed: f.creds(name)}})
		if err != nil {
			return err
		}
		defer nc.Close()
		r, err := hub.NewReviewer(f.ctx, nc, name+"@fleetbench")
		if err != nil {
			return err
		}
		var omu sync.Mutex
		open := map[string]hub.Proposal{}
		rwg.Go(func() {
			r.Follow(rctx, func(p *hub.Proposal, o *hub.Outcome) {
				omu.Lock()
				defer omu.Unlock()
				if p != nil {
					open[p.Desk+"/"+p.Hub] = *p
				}
				if o != nil {
					delete(open, o.Desk+"/"+o.Hub)
					if i == 0 {
						mu.Lock()
						outcomes[o.Desk+"/"+o.Hub] = append(outcomes[o.Desk+"/"+o.Hub], o.Status)
						mu.Unlock()
					}
				}
			}, func(s string, err error) { f.logf("reviewer %s: %s: %v", name, s, err) })
		})
		rwg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(i), 29))
			for rctx.Err() == nil {
				omu.Lock()
				var pick []hub.Proposal
				for _, p := range open {
					if !holding.Load() || p.Agent != heldAgent {
						pick = append(pick, p)
					}
				}
				omu.Unlock()
				if len(pick) == 0 {
					time.Sleep(5 * time.Millisecond)
					continue
				}
				p := pick[rng.IntN(len(pick))]
				verdict := "approve"
				if rng.IntN(4) == 0 {
					verdict = "reject"
				}
				dctx, cancel := context.WithTimeout(rctx, 10*time.Second)
				res, err := r.Decide(dctx, p, hub.Decision{Verdict: verdict})
				now := time.Now()
				cancel()
				if err == nil && res.Won {
					mu.Lock()
					wins[roundKey{p.Desk, p.Hub, p.Round}]++
					wonAt[res.Winner.Nonce[:12]] = now
					if verdict == "approve" {
						wonPath[res.Winner.Nonce[:12]] = p.Files[0].Path
					}
					mu.Unlock()
				}
				omu.Lock()
				if q, ok := open[p.Desk+"/"+p.Hub]; ok && q.Round == p.Round {
					delete(open, p.Desk+"/"+p.Hub)
				}
				omu.Unlock()
			}
		})
	}

	total := c.Desks * c.Agents * c.Per
	var decided, withdrawn atomic.Int64
	final := make(map[string]agentResult, total)
	var finalMu sync.Mutex
	var awg sync.WaitGroup
	var agentErr atomic.Value
	var withdrawnMu sync.Mutex
	withdrawnAt := map[string]int{} // desk → proposals its agents had to make again
	faults := c.Faults && c.Desks >= 2 && c.Agents >= 2
	if c.Faults && !faults {
		return errors.New("the faults need at least 2 desks and 2 agents per desk")
	}
	if faults {
		// agent0's first proposal waits on every desk from the start, for
		// the restart of every desk below: held only once some decisions
		// are counted, a loaded machine's reviewers could decide a desk's
		// every proposal before the agents counted any outcome.
		holding.Store(true)
	}
	start := time.Now()
	phases := &phaseLog{start: start}
	for _, d := range f.desks {
		for a := range c.Agents {
			awg.Go(func() {
				if err := f.agent(d, a, &decided, &withdrawn, func(path string, r agentResult) {
					if r.withdrawn > 0 {
						withdrawnMu.Lock()
						withdrawnAt[d.name] += r.withdrawn
						withdrawnMu.Unlock()
					}
					finalMu.Lock()
					final[path] = r
					finalMu.Unlock()
				}); err != nil {
					agentErr.CompareAndSwap(nil, err)
				}
			})
		}
	}
	waitFor := func(n int64) {
		for decided.Load() < n && agentErr.Load() == nil && f.ctx.Err() == nil {
			time.Sleep(10 * time.Millisecond)
		}
	}
	var leftOpen []string // desk/H of the proposals pending on the hub when every desk restarted
	if faults {
		waitFor(int64(total / 4))
		leaders := f.leaders()
		victim := 2
		if c.KillLeader {
			fmt.Sscanf(leaders["KV_"+hub.Bucket], "n%d", &victim)
		}
		f.nodes[victim].Process.Kill()
		phases.add(phaseKill, time.Now(), time.Now(), "")
		rep.Faults = append(rep.Faults, fmt.Sprintf("hub node n%d killed (SIGKILL) after %d decisions; it led %s", victim, decided.Load(), ledBy(leaders, fmt.Sprint("n", victim))))
		f.logf("%s", rep.Faults[len(rep.Faults)-1])
		waitFor(int64(total / 2))
		f.proxy.cut()
		cutAt, cutTime := decided.Load(), time.Now()
		time.Sleep(3 * time.Second)
		f.proxy.heal()
		phases.add(phasePartition, cutTime, time.Now(), f.desks[0].name)
		rep.Faults = append(rep.Faults, fmt.Sprintf("desk0 cut off from the hub for 3 s after %d decisions (its connections dropped, new ones refused)", cutAt))
		f.logf("%s", rep.Faults[len(rep.Faults)-1])
		open, err := f.waitEveryDeskPending()
		if err != nil {
			return err
		}
		leftOpen = open
		restartAt := time.Now()
		if err := f.restartAll(); err != nil {
			return err
		}
		phases.add(phaseRestart, restartAt, time.Now(), "")
		holding.Store(false)
		rep.Faults = append(rep.Faults, fmt.Sprintf("every desk (%d) restarted at once (SIGTERM, then deskctl serve again) after %d decisions, with %d proposals pending on the hub, at least one on each",
			len(f.desks), decided.Load(), len(open)))
		f.logf("%s", rep.Faults[len(rep.Faults)-1])
	}
	awg.Wait()
	rep.Elapsed = time.Since(start)
	if err, _ := agentErr.Load().(error); err != nil {
		return err
	}
	// The hub settles: nothing left open.
	nc, err := hub.Dial(hub.DialOptions{URL: strings.Join(f.urls, ","), Creds: hub.Credentials{Name: revNames[0], Seed: f.creds(revNames[0])}})
	if err != nil {
		return err
	}
	defer nc.Close()
	r, err := hub.NewReviewer(f.ctx, nc, "check")
	if err != nil {
		return err
	}
	var q []hub.Item
	for range 400 {
		if q, err = r.Queue(f.ctx, nil); err != nil {
			return err
		}
		if !slices.ContainsFunc(q, func(it hub.Item) bool { return it.Open() && it.Desk != "memdesk" }) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	stopReviewers()
	rwg.Wait()
	for _, it := range q {
		if it.Open() {
			rep.problem("%s/%s (%s) has no outcome on the hub", it.Desk, it.Hub, it.Proposal.ID)
		}
	}
	time.Sleep(300 * time.Millisecond) // the last renames reach the counter
	if faults {
		for _, d := range f.desks {
			if withdrawnAt[d.name] == 0 {
				rep.problem("%s: no agent had to propose again after every desk restarted: its pending proposals were not withdrawn", d.name)
			}
		}
		// The hub's own record decides: a reviewer's consumer made again
		// after a node died can still be behind, and the reviewers stop as
		// soon as the hub holds nothing open.
		onHub := map[string]bool{}
		for _, it := range q {
			if it.Outcome != nil {
				onHub[it.Desk+"/"+it.Hub] = true
			}
		}
		mu.Lock()
		for _, k := range leftOpen {
			if len(outcomes[k]) == 0 && onHub[k] {
				f.logf("%s: its outcome is on the hub, not yet seen by a reviewer (its consumer behind)", k)
			}
			if len(outcomes[k]) == 0 && !onHub[k] {
				rep.problem("%s, pending when every desk restarted, has no outcome on the hub", k)
			}
		}
		mu.Unlock()
	}
	var lat []time.Duration
	var samples []sample
	slowAt := map[string]int{} // desk → writes over 5 s
	for path, res := range final {
		want := 0
		switch res.status {
		case "approved":
			want = 1
			rep.Approved++
		case "rejected":
			rep.Rejected++
		default:
			rep.problem("%s: told %s", path, res.status)
		}
		if got := writes.count(path); got != want {
			rep.problem("%s: written %d times, its agent told %s", path, got, res.status)
		}
		mu.Lock()
		at, ok := wonAt[res.nonce]
		mu.Unlock()
		if w, wok := writes.first(path); ok && wok && res.status == "approved" {
			lat = append(lat, w.Sub(at))
			samples = append(samples, sample{won: at, wrote: w, desk: filepath.Base(filepath.Dir(filepath.Dir(path)))})
			if w.Sub(at) > 5*time.Second {
				slowAt[filepath.Base(filepath.Dir(filepath.Dir(path)))]++
			}
		}
	}
	rep.Proposals, rep.Withdrawn = len(final), int(withdrawn.Load())
	if len(final) != total {
		rep.problem("%d of %d files have a final outcome", len(final), total)
	}
	mu.Lock()
	for k, n := range wins {
		if n != 1 {
			rep.problem("round %d of %s/%s had %d winners", k.round, k.desk, k.h, n)
		}
	}
	rep.Rounds = len(wins)
	for k, st := range outcomes {
		if len(slices.Compact(slices.Clone(st))) != 1 {
			rep.problem("%s: outcomes %v (decided twice)", k, st)
		}
	}
	mu.Unlock()
	rep.PerSecond = float64(rep.Proposals) / rep.Elapsed.Seconds()
	slices.Sort(lat)
	for d, n := range slowAt {
		rep.Slow = append(rep.Slow, fmt.Sprintf("%s: %d", d, n))
	}
	slices.Sort(rep.Slow)
	if n := len(lat); n > 0 {
		rep.P50, rep.P99, rep.Latencies = lat[n/2], lat[min(n*99/100, n-1)], n
	}
	rep.Phases = phases.split(samples)
	f.logf("faults: %s", phases.faultsAt())
	for _, s := range phases.timeline(samples, 2*time.Second) {
		f.logf("timeline: %s", s)
	}
	for _, s := range phases.slowest(samples, 10) {
		f.logf("slow: %s", s)
	}
	return nil
}

// restartAll stops every desk at once (SIGTERM) and starts each again.
func (f *fleet) restartAll() error {
	var wg sync.WaitGroup
	for _, d := range f.desks {
		d.restarting.Store(true)
		wg.Go(d.stop)
	}
	wg.Wait()
	errs := make([]error, len(f.desks))
	for i, d := range f.desks {
		wg.Go(func() { errs[i] = f.run(d) })
	}
	wg.Wait()
	for _, d := range f.desks {
		d.restarting.Store(false)
	}
	return errors.Join(errs...)
}

// agent proposes its files over its own connection to d, one after
// another, each waiting for its outcome; a proposal the desk's restart
// withdrew (or left unanswered) is proposed again.
func (f *fleet) agent(d *desk, a int, decided, withdrawn *atomic.Int64, done func(string, agentResult)) error {
	var cl *deskrpc.Client
	defer func() {
		if cl != nil {
			cl.Close()
		}
	}()
	for i := range f.c.Per {
		path := filepath.Join(d.root, fmt.Sprint("agent", a), fmt.Sprint("f", i, ".txt"))
		again := 0
		for {
			if f.ctx.Err() != nil {
				return f.ctx.Err()
			}
			if cl == nil {
				var err error
				if cl, err = deskrpc.Dial(d.sock); err != nil {
					// The desk is restarting (or its socket is not there
					// yet): try for a minute after the restart.
					if d.restarting.Load() || time.Since(d.restarted()) < time.Minute {
						time.Sleep(50 * time.Millisecond)
						continue
					}
					return fmt.Errorf("agent %d of %s: %w", a, d.name, err)
				}
				if err := cl.Call(f.ctx, "hello", map[string]any{"protocol": deskrpc.ProtocolVersion, "agent": fmt.Sprint("agent", a), "session": "s"}, nil); err != nil {
					cl.Close()
					cl = nil
					continue
				}
			}
			var res struct {
				Outcome *review.Outcome `json:"outcome"`
			}
			err := cl.Call(f.ctx, "propose", map[string]any{"format": "write", "path": path, "wait": true,
				"payload": fmt.Sprintf("%s agent %d file %d\n%s", d.name, a, i, strings.Repeat("x", 200))}, &res)
			if err != nil || res.Outcome == nil {
				var re *deskrpc.RemoteError
				if errors.As(err, &re) && re.Code != -32006 {
					return fmt.Errorf("agent %d of %s: %s: %w", a, d.name, path, err)
				}
				// The desk closed (restarted) before deciding: nothing was
				// written; propose again on a new connection.
				cl.Close()
				cl = nil
				withdrawn.Add(1)
				again++
				continue
			}
			if res.Outcome.Status == "withdrawn" {
				withdrawn.Add(1)
				again++
				continue
			}
			nonce := ""
			if m := strings.LastIndex(res.Outcome.By, "(hub decision "); m >= 0 && len(res.Outcome.By) >= m+14+12 {
				nonce = res.Outcome.By[m+14 : m+14+12]
			}
			done(path, agentResult{status: string(res.Outcome.Status), nonce: nonce, withdrawn: again})
			decided.Add(1)
			break
		}
	}
	return nil
}

// waitEveryDeskPending waits until every desk has a proposal open on the
// hub, and returns the open ones (desk/H).
func (f *fleet) waitEveryDeskPending() ([]string, error) {
	nc, err := hub.Dial(hub.DialOptions{URL: strings.Join(f.urls[:2], ","), Creds: hub.Credentials{Name: "rev0", Seed: f.creds("rev0")}})
	if err != nil {
		return nil, err
	}
	defer nc.Close()
	r, err := hub.NewReviewer(f.ctx, nc, "watch")
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		q, err := r.Queue(f.ctx, nil)
		if err != nil {
			return nil, err
		}
		per := map[string]int{}
		var open []string
		for _, it := range q {
			if it.Open() {
				per[it.Desk]++
				open = append(open, it.Desk+"/"+it.Hub)
			}
		}
		var none []string
		for _, d := range f.desks {
			if per[d.name] == 0 {
				none = append(none, d.name)
			}
		}
		if len(none) == 0 {
			return open, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("before restarting every desk: %s never had a proposal pending on the hub", strings.Join(none, ", "))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitPending waits until desk has n proposals open on the hub.
func (f *fleet) waitPending(deskName string, n int) (int, error) {
	nc, err := hub.Dial(hub.DialOptions{URL: strings.Join(f.urls[:2], ","), Creds: hub.Credentials{Name: "rev0", Seed: f.creds("rev0")}})
	if err != nil {
		return 0, err
	}
	defer nc.Close()
	r, err := hub.NewReviewer(f.ctx, nc, "watch")
	if err != nil {
		return 0, err
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		q, err := r.Queue(f.ctx, nil)
		if err != nil {
			return 0, err
		}
		got := 0
		for _, it := range q {
			if it.Open() && it.Desk == deskName {
				got++
			}
		}
		if got >= n || time.Now().After(deadline) {
			return got, nil
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// leaders names the node leading each of the hub's streams (server
// names n0…n2), as a reviewer's connection sees them.
func (f *fleet) leaders() map[string]string {
	out := map[string]string{}
	nc, err := hub.Dial(hub.DialOptions{URL: strings.Join(f.urls, ","), Creds: hub.Credentials{Name: "rev0", Seed: f.creds("rev0")}})
	if err != nil {
		return out
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return out
	}
	for _, name := range []string{hub.Stream, "KV_" + hub.Bucket} {
		ctx, cancel := context.WithTimeout(f.ctx, 5*time.Second)
		if st, err := js.Stream(ctx, name); err == nil && st.CachedInfo().Cluster != nil {
			out[name] = st.CachedInfo().Cluster.Leader
		}
		cancel()
	}
	return out
}

// ledBy says which of the streams node led.
func ledBy(leaders map[string]string, node string) string {
	var led []string
	for _, name := range []string{hub.Stream, "KV_" + hub.Bucket} {
		if leaders[name] == node {
			led = append(led, name)
		}
	}
	if len(led) == 0 {
		return "no stream"
	}
	return strings.Join(led, " and ")
}

func heap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// rss is a process's resident memory in bytes.
func rss(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, errors.New("no VmRSS")
}
