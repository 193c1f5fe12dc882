package ui

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/software"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
)

// frameClean stands in for the real driver's per-frame cache clean
// (software canvases run Fyne's cache.Clean on Capture; the test driver
// never does): renderers not drawn for a minute are destroyed, as in the
// real window.
var frameClean = software.NewCanvas()

// liveHeapMB is the live heap after a GC, in MiB.
func liveHeapMB() float64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return float64(ms.HeapAlloc) / (1 << 20)
}

// proposeRound proposes round i's edit of one of 40 files (lines long):
// one line in 50 changed.
func proposeRound(tb testing.TB, h *harness, i, lines int) review.Proposal {
	var old, prop strings.Builder
	for k := range lines {
		fmt.Fprintf(&old, "\tx%d := compute(%d, %d) // file %d\n", k, k, i, i%40)
		if k%50 == i%50 {
			fmt.Fprintf(&prop, "\ty%d := compute(%d, %d) // changed in round %d\n", k, k, i, i)
		} else {
			fmt.Fprintf(&prop, "\tx%d := compute(%d, %d) // file %d\n", k, k, i, i%40)
		}
	}
	rel := fmt.Sprintf("pkg%d/f%d.go", i%7, i%40)
	os.MkdirAll(filepath.Join(h.root, filepath.Dir(rel)), 0o755)
	if err := os.WriteFile(filepath.Join(h.root, rel), []byte(old.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	p, err := h.desk.Propose(context.Background(), review.Request{Agent: fmt.Sprintf("agent%d", i%5), Format: engine.FormatWrite, Path: rel, Payload: prop.String()})
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// reviewOne proposes round i's edit of one of 40 files (lines long), shows
// it, pages and steps (Page Down, j), and decides it (approved and
// rejected in turn).
func reviewOne(tb testing.TB, h *harness, i, lines int) {
	p := proposeRound(tb, h, i, lines)
	h.settle()
	h.win.Select(p.ID)
	h.settle()
	h.pressKey(fyne.KeyPageDown)
	h.settle()
	h.press('j')
	h.settle()
	v := decision.Approved
	if i%2 == 1 {
		v = decision.Rejected
	}
	if _, err := h.desk.Decide(context.Background(), p.ID, review.Decision{Verdict: v, Feedback: "reviewed"}); err != nil {
		tb.Fatal(err)
	}
	h.settle()
	if _, ok := h.desk.Outcome(p.ID); !ok { // its agent collects the outcome
		tb.Fatalf("no outcome for decided proposal %s", p.ID)
	}
	frameClean.Capture()
}

// TestSessionMemoryIsBounded reviews 900 proposals in one window and
// desk (each shown, paged, stepped and decided) and checks the live heap
// after them stays within a fixed budget of what it was after the first
// 300, once the desk's own bound on decided proposals is full (issue 28:
// a real session grew 237 → 484 MB: the diff view kept every row widget
// the list had made, each with the file it last showed, and Fyne's
// theme-override cache every row's raster). Fyne keeps a renderer it no
// longer draws for $FYNE_CACHE (a minute), read once at start: the test
// runs again in a process of its own with one second, and lets it pass
// before each measure, so that what is measured is what stays.
func TestSessionMemoryIsBounded(t *testing.T) {
	if testing.Short() || raceOn {
		t.Skip("900 proposals, memory measured: not with -short or the race detector")
	}
	if os.Getenv("FYNE_CACHE") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestSessionMemoryIsBounded$", "-test.v")
		cmd.Env = append(os.Environ(), "FYNE_CACHE=1s")
		out, err := cmd.CombinedOutput()
		t.Logf("in a process of its own, with FYNE_CACHE=1s:\n%s", out)
		if err != nil {
			t.Fatalf("the session's memory test failed: %v", err)
		}
		return
	}
	h := newHarness(t)
	h.win.View().SetSynchronous(true)
	n, warm, budgetMB := 900, 300, 16.0               // before the fix: 178 KiB a proposal, 104 MiB over these 600
	if s := os.Getenv("SESSION_PROPOSALS"); s != "" { // a shorter run: how fast it grows
		fmt.Sscan(s, &n)
		warm = n / 4
	}
	measure := func() float64 {
		time.Sleep(11 * time.Second) // Fyne cleans at most every 10 s
		frameClean.Capture()
		return liveHeapMB()
	}
	var base float64
	for i := range n {
		reviewOne(t, h, i, 100+(i%4)*150) // 100 to 550 lines: 4 to 25 KB
		if i == warm-1 {
			base = measure()
			heapProfile(t, ".warm")
		}
	}
	end := measure()
	heapProfile(t, "")
	t.Logf("live heap after %d proposals %.1f MiB, after %d %.1f MiB: %.2f KiB a proposal", warm, base, n, end, (end-base)*1024/float64(n-warm))
	if end-base > budgetMB {
		t.Errorf("the live heap grew %.1f MiB from proposal %d to %d (%.1f → %.1f MiB); want at most %.0f MiB: something keeps decided proposals", end-base, warm, n, base, end, budgetMB)
	}
}
