package ui

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
)

// BenchmarkWindowSessionMemory replays a long review session in one window
// and desk: proposals of 500 to 20,000 lines over 40 files, each opened,
// paged through (Page Down ×4), stepped (j ×4) and decided (approved or
// rejected in turn), and reports the live heap after a GC once the first
// 50 are done and at the end, their ratio, and the process's resident
// memory at the end (issue 28: a real session grew 237 → 484 MB; what the
// window keeps must not grow with the proposals reviewed), and what stays
// per proposal decided after the first 50 (heap KiB and objects). Fyne's
// renderer cache is cleaned after each as the real driver does each frame
// (frameClean). Proposals per op: $SESSION_PROPOSALS (default 300, about
// an hour of reviewing); $SESSION_HEAPPROFILE=FILE writes the live heap
// after 50 (FILE.50) and at the end (go tool pprof -diff_base FILE.50 FILE).
func BenchmarkWindowSessionMemory(b *testing.B) {
	n := 300
	if s := os.Getenv("SESSION_PROPOSALS"); s != "" {
		fmt.Sscan(s, &n)
	}
	var first, last, rss, objs0, objs1 float64
	for b.Loop() {
		h := benchWindow(b)
		heap := func(objs *float64) float64 {
			runtime.GC()
			debug.FreeOSMemory()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			*objs = float64(ms.HeapObjects)
			return float64(ms.HeapAlloc) / (1 << 20)
		}
		for i := range n {
			lines := []int{500, 2000, 5000, 20000}[i%4]
			p := proposeRound(b, h, i, lines)
			h.settle()
			h.win.Select(p.ID)
			h.settle()
			for range 4 {
				h.pressKey(fyne.KeyPageDown)
				h.settle()
			}
			for range 4 {
				h.press('j')
				h.settle()
			}
			v := decision.Approved
			if i%2 == 1 {
				v = decision.Rejected
			}
			if _, err := h.desk.Decide(context.Background(), p.ID, review.Decision{Verdict: v, Feedback: "bench"}); err != nil {
				b.Fatal(err)
			}
			h.settle()
			h.desk.Outcome(p.ID) // its agent collects the outcome
			frameClean.Capture()
			if i == 49 {
				first = heap(&objs0)
				heapProfile(b, ".50")
			}
		}
		last = heap(&objs1)
		heapProfile(b, "")
		if st, err := os.ReadFile("/proc/self/status"); err == nil {
			for _, l := range strings.Split(string(st), "\n") {
				if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
					var kb float64
					fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), &kb)
					rss = kb / 1024
				}
			}
		}
	}
	b.ReportMetric(first, "heap-MB-after-50")
	b.ReportMetric(last, "heap-MB-at-end")
	b.ReportMetric(last/first, "growth")
	b.ReportMetric(rss, "rss-MB-at-end")
	b.ReportMetric(float64(n), "proposals")
	b.ReportMetric((last-first)*1024/float64(n-50), "heap-KiB/proposal")
	b.ReportMetric((objs1-objs0)/float64(n-50), "objects/proposal")
}

// heapProfile writes the live heap to $SESSION_HEAPPROFILE with suffix
// added, when that is set.
func heapProfile(b testing.TB, suffix string) {
	name := os.Getenv("SESSION_HEAPPROFILE")
	if name == "" {
		return
	}
	out, err := os.Create(name + suffix)
	if err != nil {
		b.Fatal(err)
	}
	defer out.Close()
	if err := pprof.Lookup("heap").WriteTo(out, 0); err != nil {
		b.Fatal(err)
	}
}
