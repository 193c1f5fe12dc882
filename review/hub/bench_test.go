package hub_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/hub"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

var nonceInBy = regexp.MustCompile(`\(hub decision ([0-9a-f]{12})\)$`)

// BenchmarkFleet: desks on three clustered hubs, each with agents
// proposing one file after another, reviewers deciding at random and
// racing. Reports proposals decided per second and the time from a
// reviewer's winning decision to the agent holding the outcome of the
// write (p50, p99). Sizes from HUB_BENCH_DESKS, _AGENTS, _REVIEWERS,
// _PER (proposals per agent); the README has the full run's figures.
func BenchmarkFleet(b *testing.B) {
	desks, agents := envInt("HUB_BENCH_DESKS", 5), envInt("HUB_BENCH_AGENTS", 4)
	reviewers, per := envInt("HUB_BENCH_REVIEWERS", 3), envInt("HUB_BENCH_PER", 3)
	var deskNames, revNames []string
	for i := range desks {
		deskNames = append(deskNames, fmt.Sprint("desk", i))
	}
	for i := range reviewers {
		revNames = append(revNames, fmt.Sprint("rev", i))
	}
	h, _ := startCluster(b, deskNames, revNames)
	for b.Loop() {
		var mu sync.Mutex
		decidedAt := map[string]time.Time{}
		var lat []time.Duration
		ctx, stop := context.WithCancel(context.Background())
		var rwg sync.WaitGroup
		for i := range reviewers {
			r := h.reviewer(b, revNames[i])
			var omu sync.Mutex
			open := map[string]hub.Proposal{}
			rwg.Go(func() {
				r.Follow(ctx, func(p *hub.Proposal, o *hub.Outcome) {
					omu.Lock()
					defer omu.Unlock()
					if p != nil {
						open[p.Desk+"/"+p.Hub] = *p
					}
					if o != nil {
						delete(open, o.Desk+"/"+o.Hub)
					}
				}, nil)
			})
			rwg.Go(func() {
				rng := rand.New(rand.NewPCG(uint64(i), 7))
				for ctx.Err() == nil {
					omu.Lock()
					var pick []hub.Proposal
					for _, p := range open {
						pick = append(pick, p)
					}
					omu.Unlock()
					if len(pick) == 0 {
						time.Sleep(2 * time.Millisecond)
						continue
					}
					p := pick[rng.IntN(len(pick))]
					verdict := "approve"
					if rng.IntN(4) == 0 {
						verdict = "reject"
					}
					res, err := r.Decide(ctx, p, hub.Decision{Verdict: verdict})
					if err != nil {
						continue // tried again: the round may still be open
					}
					if res.Won {
						mu.Lock()
						decidedAt[res.Winner.Nonce[:12]] = time.Now()
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
		start := time.Now()
		var awg sync.WaitGroup
		for _, name := range deskNames {
			d, _ := h.link(b, name)
			for a := range agents {
				os.Mkdir(filepath.Join(d.Root, fmt.Sprint("a", a)), 0o755)
				awg.Go(func() {
					for f := range per {
						p, err := d.Propose(context.Background(), review.Request{Agent: fmt.Sprint("a", a), Format: engine.FormatWrite,
							Path: filepath.Join(d.Root, fmt.Sprint("a", a), fmt.Sprint(f, ".txt")), Payload: fmt.Sprintf("%s %d %d\n", name, a, f)})
						if err != nil {
							b.Error(err)
							return
						}
						o, err := d.Wait(context.Background(), p.ID)
						now := time.Now()
						if err != nil {
							b.Error(err)
							return
						}
						if m := nonceInBy.FindStringSubmatch(o.By); m != nil {
							mu.Lock()
							if at, ok := decidedAt[m[1]]; ok {
								lat = append(lat, now.Sub(at))
							}
							mu.Unlock()
						}
					}
				})
			}
		}
		awg.Wait()
		elapsed := time.Since(start)
		stop()
		rwg.Wait()
		total := desks * agents * per
		b.ReportMetric(float64(total)/elapsed.Seconds(), "proposals/s")
		slices.Sort(lat)
		if len(lat) > 0 {
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
		}
		b.Logf("%d desks × %d agents × %d proposals, %d reviewers: %d decided in %v, %d latencies", desks, agents, per, reviewers, total, elapsed, len(lat))
	}
}

func heap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkPendingMemory: the heap 1,000 pending proposals (a 1 KiB
// file each) take in a desk alone (no hub), in a desk linked to a hub
// (the hub, in this process, included), and in a reviewer's Queue of
// them.
func BenchmarkPendingMemory(b *testing.B) {
	const n = 1000
	line := strings.Repeat("x", 63) + "\n"
	payload := func(i int) string { return fmt.Sprintf("%04d\n", i) + strings.Repeat(line, 16)[5:] }
	pending := func(d *reviewtest.Desk) {
		for i := range n {
			if _, err := d.Propose(context.Background(), review.Request{Agent: "a", Format: engine.FormatWrite,
				Path: filepath.Join(d.Root, fmt.Sprint(i, ".txt")), Payload: payload(i)}); err != nil {
				b.Fatal(err)
			}
		}
	}
	for b.Loop() {
		d := reviewtest.NewDesk(b, "", "")
		m0 := heap()
		pending(d)
		alone := heap() - m0

		h := startHub(b, []string{"d1"}, []string{"r1"})
		r := h.reviewer(b, "r1")
		m0 = heap()
		d2, _ := h.link(b, "d1")
		pending(d2)
		for {
			q, err := r.Queue(ctx(b), nil)
			if err != nil {
				b.Fatal(err)
			}
			if len(q) == n {
				break
			}
			b.Logf("%d of %d on the hub", len(q), n)
			time.Sleep(50 * time.Millisecond)
		}
		linked := heap() - m0
		m0 = heap()
		q, err := r.Queue(ctx(b), nil)
		if err != nil || len(q) != n {
			b.Fatal(len(q), err)
		}
		inQueue := heap() - m0
		runtime.KeepAlive(q)
		b.ReportMetric(float64(alone)/1e6, "MB-desk-alone/1000")
		b.ReportMetric(float64(linked)/1e6, "MB-desk+hub/1000")
		b.ReportMetric(float64(inQueue)/1e6, "MB-reviewer/1000")
	}
}
