package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/journal"
)

// benchWindow is newHarness for benchmarks: a real desk and the real window.
func benchWindow(b *testing.B) *harness {
	b.Helper()
	a := test.NewTempApp(b)
	a.Settings().SetTheme(NewVariantTheme(theme.VariantLight))
	h := &harness{root: b.TempDir(), sched: make(chan func(), 1<<16), now: baseTime}
	j, err := journal.Open(context.Background(), filepath.Join(b.TempDir(), "journal.db"))
	if err != nil {
		b.Fatal(err)
	}
	if h.desk, err = review.NewDesk(review.Options{FailureText: agenttext.Failure, Roots: []string{h.root}, Journal: j}); err != nil {
		b.Fatal(err)
	}
	h.win = NewWindow(a, h.desk, WindowOptions{Do: func(f func()) { h.sched <- f }, NotifyDelay: -1, AgeTick: -1, ArmDelay: -1})
	h.win.Win.Resize(fyne.NewSize(1400, 900))
	h.win.View().SetSynchronous(true)
	b.Cleanup(func() { h.win.Close(); h.desk.Close(); j.Close() })
	return h
}

// BenchmarkWindowStreamChunk is the UI work of one streaming chunk when
// every chunk gets its own refresh (the worst case: the pump coalesces
// bursts, so a fast agent costs less): the desk applies the chunk, then the
// window re-reads the proposal, refreshes the queue and title, and feeds the
// preview to the DiffView. ns/op is per chunk; budget ≤ 1 ms.
func BenchmarkWindowStreamChunk(b *testing.B) {
	h := benchWindow(b)
	p, err := h.desk.Propose(context.Background(), review.Request{Agent: "bench", Format: engine.FormatWrite, Path: "big.go", Stream: true})
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
	b.ResetTimer()
	var ru0, ru1 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	n := 0
	for i := 0; b.Loop(); i++ {
		h.desk.Feed(p.ID, fmt.Sprintf("\tx%d := compute(%d) // line %d of the stream\n", i, i, i))
		drain()
		n++
	}
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
	cpu := ru1.Utime.Nano() + ru1.Stime.Nano() - ru0.Utime.Nano() - ru0.Stime.Nano()
	b.ReportMetric(float64(cpu)/1e6/float64(n), "cpu-ms/chunk")
}

// BenchmarkWindowStream2000 streams a 2,000-line file in 2,000 chunks
// arriving in bursts of 100 (one coalesced refresh per burst, as the pump
// does for a fast agent) and reports the UI goroutine's time per chunk.
// Budget: ≤ 1 ms per chunk.
func BenchmarkWindowStream2000(b *testing.B) {
	h := benchWindow(b)
	var ui time.Duration
	chunks := 0
	for b.Loop() {
		p, err := h.desk.Propose(context.Background(), review.Request{Agent: "bench", Format: engine.FormatWrite, Path: fmt.Sprintf("f%d.go", chunks), Stream: true})
		if err != nil {
			b.Fatal(err)
		}
		for len(h.sched) > 0 {
			(<-h.sched)()
		}
		h.win.Select(p.ID)
		for burst := range 20 {
			for i := range 100 {
				n := burst*100 + i
				h.desk.Feed(p.ID, fmt.Sprintf("\tx%d := compute(%d) // line %d of the stream\n", n, n, n))
			}
			t0 := time.Now()
			for len(h.sched) > 0 {
				(<-h.sched)()
			}
			ui += time.Since(t0)
		}
		chunks += 2000
		h.desk.Withdraw(context.Background(), p.ID, "done")
	}
	b.ReportMetric(float64(ui.Nanoseconds())/float64(chunks)/1e3, "ui-µs/chunk")
}

// BenchmarkWindowMemory1M reports the heap the whole desk and window hold
// for a 1,000,000-line proposal on show, per byte of the proposed file: the
// file's base, the proposal, the journal's record of it, the view and the
// trivial hunks, measured after a GC (issue 15: within 10 bytes a byte;
// what the process takes from the system at its peak, in the README, is
// more). Each round has a desk and window of its own.
func BenchmarkWindowMemory1M(b *testing.B) {
	var old, prop strings.Builder
	for i := range 1_000_000 {
		fmt.Fprintf(&old, "\tx%d := compute(%d) // line %d of the file\n", i, i, i)
		if i%20 == 0 {
			fmt.Fprintf(&prop, "\ty%d := compute(%d) // line %d, changed\n", i, i, i)
		} else {
			fmt.Fprintf(&prop, "\tx%d := compute(%d) // line %d of the file\n", i, i, i)
		}
	}
	var perByte float64
	for b.Loop() {
		b.StopTimer()
		h := benchWindow(b)
		if err := os.WriteFile(filepath.Join(h.root, "big.go"), []byte(old.String()), 0o644); err != nil {
			b.Fatal(err)
		}
		drain := func() {
			for len(h.sched) > 0 {
				(<-h.sched)()
			}
		}
		drain()
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		b.StartTimer()
		p, err := h.desk.Propose(context.Background(), review.Request{Agent: "bench", Format: engine.FormatWrite, Path: "big.go", Payload: prop.String()})
		if err != nil {
			b.Fatal(err)
		}
		h.win.Select(p.ID)
		for h.win.View().Opening() || len(h.sched) > 0 {
			drain()
			time.Sleep(time.Millisecond)
		}
		h.WaitClassified()
		drain()
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&after)
		perByte = (float64(after.HeapAlloc) - float64(before.HeapAlloc)) / float64(prop.Len())
		b.StartTimer()
	}
	b.ReportMetric(perByte, "bytes/file-byte")
}
