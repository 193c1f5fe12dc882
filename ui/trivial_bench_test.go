package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
)

// BenchmarkTrivial1M classifies the hunks of a shown 1,000,000-line Go
// proposal with a re-indented line every 200 lines (5,000 whitespace-only
// hunks) and a real change, then presses t. It reports what the UI
// goroutine spends: starting the classification (start-ms), taking its
// result and labelling the hunks (arrive-ms), and t (t-ms); ns/op counts
// the classification's goroutine too.
func BenchmarkTrivial1M(b *testing.B) {
	h := benchWindow(b)
	var base, proposed strings.Builder
	base.WriteString("package big\n\n")
	proposed.WriteString("package big\n\n")
	for k := 2; k < 1_000_000; k++ {
		line := fmt.Sprintf("\tv%d := compute(a, \"name %d\") + b // line %d\n", k, k, k)
		base.WriteString(line)
		switch {
		case k == 500_001:
			proposed.WriteString(strings.Replace(line, "compute(a,", "compute(a+1,", 1))
		case k%200 == 100:
			proposed.WriteString("    " + line[1:])
		default:
			proposed.WriteString(line)
		}
	}
	if err := os.WriteFile(filepath.Join(h.root, "big.go"), []byte(base.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	p, err := h.desk.Propose(context.Background(), review.Request{Agent: "bench", Format: engine.FormatWrite, Path: "big.go", Payload: proposed.String()})
	if err != nil {
		b.Fatal(err)
	}
	drain := func() {
		for len(h.sched) > 0 {
			(<-h.sched)()
		}
	}
	drain()
	h.win.Select(p.ID)
	h.WaitClassified()
	drain()
	var start, arrive, press time.Duration
	for b.Loop() {
		h.ForgetClassification()
		t0 := time.Now()
		h.StartClassification()
		start += time.Since(t0)
		h.WaitClassified()
		t0 = time.Now()
		drain()
		arrive += time.Since(t0)
		if !strings.Contains(h.Diff().Counter(), "5000 trivial") {
			b.Fatalf("counter %q; want 5000 trivial", h.Diff().Counter())
		}
		t0 = time.Now()
		h.press('t')
		press += time.Since(t0)
		if !strings.HasPrefix(h.Message(), "Approved 5000 trivial hunks") {
			b.Fatalf("t: %q", h.Message())
		}
	}
	n := float64(b.N)
	b.ReportMetric(float64(start.Microseconds())/1e3/n, "start-ms")
	b.ReportMetric(float64(arrive.Microseconds())/1e3/n, "arrive-ms")
	b.ReportMetric(float64(press.Microseconds())/1e3/n, "t-ms")
}
