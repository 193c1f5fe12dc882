package ui

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// bigGoFile is a Go file of n lines in functions of 10, each line saying
// its number: over 1 MiB from about 15,000 lines.
func bigGoFile(n int) string {
	var b strings.Builder
	b.WriteString("package big\n\n")
	for k := 2; k < n; k++ {
		switch k % 10 {
		case 2:
			fmt.Fprintf(&b, "func f%d(a, b int) int {\n", k)
		case 9:
			b.WriteString("}\n")
		default:
			fmt.Fprintf(&b, "\tv%d := compute(a, \"name %d\") + b // line %d\n", k, k, k)
		}
	}
	return b.String()
}

// holdTrivial makes the window's hunk classifications wait until the
// test releases their proposal (release(id)); the test drains sched
// itself meanwhile (settle would wait for them).
func holdTrivial(h *harness) (release func(id string)) {
	var mu sync.Mutex
	gates := map[string]chan struct{}{}
	gate := func(id string) chan struct{} {
		mu.Lock()
		defer mu.Unlock()
		if gates[id] == nil {
			gates[id] = make(chan struct{})
		}
		return gates[id]
	}
	h.HoldClassification(func(id string) { <-gate(id) })
	return func(id string) { close(gate(id)) }
}

// drain runs the UI work already scheduled, without waiting for the
// classifications under way (settle does).
func (h *harness) drain() {
	for len(h.sched) > 0 {
		(<-h.sched)()
	}
}

// scheduled waits, without running it, until some UI work is scheduled,
// failing after 20 s.
func (h *harness) scheduled(what string) {
	h.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for len(h.sched) == 0 {
		if time.Now().After(deadline) {
			h.t.Fatalf("timed out waiting until %s", what)
		}
		<-time.After(time.Millisecond) // poll: the classification's goroutine posts
	}
}

// TestTrivialLabelsOnABigFile: a 20,000-line file (base and proposal over
// 1 MiB, where classification used to be skipped) gets its labels once
// classified off the UI goroutine, the counter counts them, and t
// approves them, leaving the real change.
func TestTrivialLabelsOnABigFile(t *testing.T) {
	h := newHarness(t)
	base := bigGoFile(20_000)
	proposed := strings.Replace(base, "\tv5003 := compute(a, \"name 5003\") + b // line 5003\n", "        v5003 := compute(a, \"name 5003\") + b // line 5003\n", 1)
	proposed = strings.Replace(proposed, "// line 12004\n", "// the line numbered 12004\n", 1)
	proposed = strings.Replace(proposed, "compute(a, \"name 18005\")", "compute(a+1, \"name 18005\")", 1)
	if len(base)+len(proposed) <= 1<<20 {
		t.Fatalf("base and proposal are %d bytes; want over 1 MiB", len(base)+len(proposed))
	}
	h.write("big.go", base)
	p := h.propose("claude", "s", engine.FormatWrite, "big.go", proposed)
	h.win.Select(p.ID)
	h.settle()
	hs := h.win.View().Hunks()
	if len(hs) != 3 {
		t.Fatalf("%d hunks; want 3", len(hs))
	}
	if got := []string{h.win.View().Marks().Note(hs[0].ID).Text, h.win.View().Marks().Note(hs[1].ID).Text, h.win.View().Marks().Note(hs[2].ID).Text}; got[0] != "whitespace only" || got[1] != "comment only" || got[2] != "" {
		t.Fatalf("labels %q; want whitespace only, comment only, none", got)
	}
	if !strings.HasSuffix(h.Diff().Counter(), " · 2 trivial (t approves)") {
		t.Errorf("counter %q; want the trivial count", h.Diff().Counter())
	}
	h.win.View().ToggleHunk(0) // unticked: t ticks it again
	h.press('t')
	h.settle()
	if !strings.Contains(h.Message(), "Approved 2 trivial hunks (1 whitespace only, 1 comment only); 1 left to review") {
		t.Errorf("message %q", h.Message())
	}
	if n := h.win.View().Marks().Note(hs[1].ID); !n.Done || len(h.win.View().AcceptedHunks()) != 3 || strings.Contains(h.Diff().Counter(), "trivial") {
		t.Errorf("after t: label %+v, accepted %v, counter %q; want approved, all ticked, none left", n, h.win.View().AcceptedHunks(), h.Diff().Counter())
	}
	if o, ok := h.desk.Get(p.ID); !ok || !o.State.Open() {
		t.Errorf("t with a real change left decided the proposal: %v", o.State)
	}
}

// TestTWhileClassifyingSaysSo: while the shown file's hunks are being
// classified, t says so and approves nothing, and a big file's counter
// says it; once the result arrives the labels show and t approves.
func TestTWhileClassifyingSaysSo(t *testing.T) {
	h := newHarness(t)
	release := holdTrivial(h)
	base := bigGoFile(20_000)
	proposed := strings.Replace(base, "// line 12004\n", "// the line numbered 12004\n", 1)
	h.write("big.go", base)
	p := h.propose("claude", "s", engine.FormatWrite, "big.go", proposed)
	h.win.Select(p.ID)
	h.drain()
	hs := h.win.View().Hunks()
	if len(hs) != 1 || h.win.View().Marks().Note(hs[0].ID).Text != "" {
		t.Fatalf("%d hunks, note %+v while classifying; want one, no label yet", len(hs), h.win.View().Marks().Note(hs[0].ID))
	}
	if !strings.HasSuffix(h.Diff().Counter(), " · classifying hunks…") {
		t.Errorf("counter %q while classifying; want it to say so", h.Diff().Counter())
	}
	h.press('t')
	h.drain()
	if h.Message() != "Still classifying hunks… t approves the trivial ones once their labels show." {
		t.Errorf("t while classifying: message %q", h.Message())
	}
	if o, _ := h.desk.Get(p.ID); !o.State.Open() || h.TrivialTicked() != 0 {
		t.Fatalf("t while classifying: state %s, approved by label in %d files; want nothing done", o.State, h.TrivialTicked())
	}
	release(p.ID)
	h.until("the label shows", func() bool { return h.win.View().Marks().Note(hs[0].ID).Text == "comment only" })
	if strings.Contains(h.Diff().Counter(), "classifying") || !strings.Contains(h.Diff().Counter(), "1 trivial (t approves)") {
		t.Errorf("counter %q once classified", h.Diff().Counter())
	}
	h.press('t') // the one hunk is trivial: t approves the proposal
	if o := h.outcome(p.ID); o.Status != decision.Approved || h.read("big.go") != proposed {
		t.Errorf("t once classified: %s", o.Status)
	}
}

// TestStaleTrivialResultIsDropped: the classification of a proposal left
// behind arrives while the next proposal of the same file is shown; it is
// not taken for the shown one's (whose hunks include the same change),
// which waits for its own: no label, and t still says it is classifying.
func TestStaleTrivialResultIsDropped(t *testing.T) {
	h := newHarness(t)
	h.write("app.go", trivialBase)
	release := holdTrivial(h)
	reindent := strings.Replace(trivialBase, "\ty := 2", "        y := 2", 1)
	first := h.propose("claude", "s1", engine.FormatWrite, "app.go", reindent)
	second := h.propose("codex", "s2", engine.FormatWrite, "app.go", strings.Replace(reindent, "z := 3", "z := 4", 1))
	h.win.Select(first.ID)
	h.drain()
	h.win.Select(second.ID) // first's classification is still held
	h.drain()
	hs := h.win.View().Hunks()
	if h.Shown() != second.ID || len(hs) != 2 {
		t.Fatalf("showing %s with %d hunks; want the second proposal's 2", h.Shown(), len(hs))
	}
	release(first.ID)
	h.scheduled("the first proposal's classification reports")
	h.drain()
	if n := h.win.View().Marks().Note(hs[0].ID); n.Text != "" {
		t.Errorf("the first proposal's result labelled the second's re-indent %q", n.Text)
	}
	h.press('t')
	h.drain()
	if !strings.HasPrefix(h.Message(), "Still classifying hunks") || h.TrivialTicked() != 0 {
		t.Errorf("t after the first proposal's result: %q, approved in %d files; want still classifying, nothing approved", h.Message(), h.TrivialTicked())
	}
	release(second.ID)
	h.settle()
	if got := h.win.View().Marks().Note(hs[0].ID).Text; got != "whitespace only" || h.win.View().Marks().Note(hs[1].ID).Text != "" {
		t.Errorf("once its own classification arrived: labels %q, %q; want whitespace only, none", got, h.win.View().Marks().Note(hs[1].ID).Text)
	}
	h.press('t')
	if !strings.HasPrefix(h.Message(), "Approved 1 trivial hunk (1 whitespace only); 1 left") {
		t.Errorf("t once classified: %q", h.Message())
	}
}

// TestClassifyingUsesTheFilesHunks: a file too big to diff on the UI
// goroutine is classified at once from its own hunks (File.Hunks: the
// desk's one diff), while the view still diffs it to draw it: the window
// makes no diff of its own, and t says it is still at it until the view's
// diff has arrived too.
func TestClassifyingUsesTheFilesHunks(t *testing.T) {
	h := newHarness(t)
	posted := make(chan func(), 4)
	h.win.View().SetOpenPoster(func(f func()) { posted <- f })
	base := bigGoFile(60_000) // base and proposal over the view's 4 MiB
	proposed := strings.Replace(base, "// line 30004\n", "// the line numbered 30004\n", 1)
	h.write("big.go", base)
	p := h.propose("claude", "s", engine.FormatWrite, "big.go", proposed)
	diffs := reviewtest.CountDiffs(t)
	h.win.Select(p.ID)
	if !h.win.View().Opening() {
		t.Fatal("the view diffed the file on the UI goroutine")
	}
	if queued, started := h.ClassificationStarted(); !queued || !started {
		t.Fatalf("while the view diffs: classification queued %v, started %v; want it started at once, from the file's hunks", queued, started)
	}
	h.press('t')
	if !strings.HasPrefix(h.Message(), "Still classifying") {
		t.Errorf("t while the view diffs: %q", h.Message())
	}
	select {
	case f := <-posted:
		f()
	case <-time.After(2 * time.Minute):
		t.Fatal("the diff's goroutine posted nothing in 2 minutes")
	}
	h.settle()
	if hs := h.win.View().Hunks(); len(hs) != 1 || h.win.View().Marks().Note(hs[0].ID).Text != "comment only" {
		t.Errorf("once classified: %d hunks, label %q; want the comment only one", len(hs), h.win.View().Marks().Note(hs[0].ID).Text)
	}
	if n := diffs.Load(); n != 0 {
		t.Errorf("the window diffed the file's texts %d times; want none (its hunks are the desk's)", n)
	}
}
