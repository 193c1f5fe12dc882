package review_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/config"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/journal"
	"github.com/diffdesk/diffdesk/review/reviewtest"
	"github.com/fsnotify/fsnotify"
)

// TestSettleWindowReportsAnExternalWriter plays a format-on-save editor: as
// soon as the desk writes the file, it rewrites it; the outcome reports that
// change as an automatic formatting edit and the final content is the
// editor's.
func TestSettleWindowReportsAnExternalWriter(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "[desk]\nsettle = \"2s\"\n")
	path := filepath.Join(d.Root, "a.txt")
	reviewtest.WriteFile(t, path, "old\n")
	p := d.MustPropose(t, engine.FormatWrite, "a.txt", "new\n")

	w, err := fsnotify.NewWatcher()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := w.Add(d.Root); err != nil {
		t.Fatal(err)
	}
	outcome := make(chan review.Outcome, 1)
	go func() {
		o, err := d.Decide(context.Background(), p.ID, review.Decision{Verdict: decision.Approved})
		if err != nil {
			t.Error(err)
		}
		outcome <- o
	}()
	ctx := reviewtest.Context(t)
	for written := false; !written; {
		select {
		case ev := <-w.Events:
			written = ev.Name == path && reviewtest.ReadFile(t, path) == "new\n"
		case <-ctx.Done():
			t.Fatal("the desk never wrote the file")
		}
	}
	reviewtest.WriteFile(t, path, "NEW (saved by the editor)\n")
	var o review.Outcome
	select {
	case o = <-outcome:
	case <-ctx.Done():
		t.Fatal("no outcome")
	}
	f := o.Files[0]
	if f.FinalContent != "NEW (saved by the editor)\n" || !strings.Contains(f.AutoFormatEdits, "+NEW (saved by the editor)") {
		t.Errorf("final %q, autoFormatEdits %q; want the editor's change reported", f.FinalContent, f.AutoFormatEdits)
	}
	if f.UserEdits != "" {
		t.Errorf("userEdits = %q; the person changed nothing", f.UserEdits)
	}
}

// BenchmarkPendingProposalMemory reports the heap a pending 10k-line
// proposal holds (base and proposed text, snapshot, counts).
func BenchmarkPendingProposalMemory(b *testing.B) {
	root := b.TempDir()
	cfg, _ := config.Load("", []string{root})
	j, err := journal.Open(context.Background(), filepath.Join(b.TempDir(), "j.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer j.Close()
	d, err := review.NewDesk(review.Options{FailureText: agenttext.Failure, Roots: []string{root}, Config: cfg, Journal: j})
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	var sb strings.Builder
	for i := 0; i < 10_000; i++ {
		sb.WriteString("\tfmt.Println(\"line ")
		sb.WriteString(strings.Repeat("x", i%40))
		sb.WriteString("\")\n")
	}
	base := sb.String()
	proposed := strings.Replace(base, "line x\"", "LINE x\"", 1)
	for i := 0; i < b.N; i++ {
		name := filepath.Join(root, "f0"+itoaBench(i)+".go")
		if err := writeBytes(name, base); err != nil {
			b.Fatal(err)
		}
	}
	before := heapInUse()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		name := "f0" + itoaBench(i) + ".go"
		if _, err := d.Propose(context.Background(), review.Request{Format: engine.FormatWrite, Path: name, Payload: proposed}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(heapInUse()-before)/float64(b.N)/(1<<20), "MB/pending")
}

func itoaBench(i int) string { return strconv.Itoa(i) }

func writeBytes(path, s string) error { return os.WriteFile(path, []byte(s), 0o644) }

// heapInUse returns the live heap after a collection, in bytes.
func heapInUse() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapInuse)
}
