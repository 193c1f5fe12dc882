package ui

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/config"
	"github.com/diffdesk/diffdesk/review/journal"
)

// newHarnessRoots is newHarness over a desk serving one workspace per name
// (directories of that name under a temporary directory; a name may hold
// a slash); h.root is the first.
func newHarnessRoots(t *testing.T, names ...string) (*harness, []string) {
	t.Helper()
	a := test.NewTempApp(t)
	a.Settings().SetTheme(NewVariantTheme(theme.VariantLight))
	base := t.TempDir()
	var roots []string
	for _, n := range names {
		r := filepath.Join(base, filepath.FromSlash(n))
		if err := os.MkdirAll(r, 0o755); err != nil {
			t.Fatal(err)
		}
		roots = append(roots, r)
	}
	h := &harness{t: t, root: roots[0], sched: make(chan func(), 4096), now: baseTime}
	j, err := journal.Open(context.Background(), filepath.Join(t.TempDir(), "journal.db"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(filepath.Join(t.TempDir(), "config.toml"), roots)
	if err != nil {
		t.Fatal(err)
	}
	h.j = j
	if h.desk, err = review.NewDesk(review.Options{FailureText: agenttext.Failure, Roots: roots, Config: cfg, Journal: j, Now: h.clock}); err != nil {
		t.Fatal(err)
	}
	h.win = NewWindow(a, h.desk, WindowOptions{Do: func(f func()) { h.sched <- f }, Now: h.clock, AfterFunc: h.afterFunc, NotifyDelay: -1, AgeTick: -1, ArmDelay: -1})
	h.win.Win.Resize(fyne.NewSize(1200, 700))
	h.win.View().SetSynchronous(true)
	t.Cleanup(func() {
		h.win.Close()
		h.desk.Close()
		j.Close()
	})
	return h, h.desk.Roots()
}

// A desk serving several workspaces names each changeset's workspace in
// its queue heading; two of the same base name are told apart by path.
func TestQueueNamesTheWorkspace(t *testing.T) {
	h, roots := newHarnessRoots(t, "app", "lib", "x/app")
	for _, r := range roots {
		os.WriteFile(filepath.Join(r, "a.go"), []byte("package a\n"), 0o644)
	}
	h.propose("claude", "s1", engine.FormatWrite, filepath.Join(roots[1], "a.go"), "package b\n")
	h.propose("gemini", "s2", engine.FormatWrite, filepath.Join(roots[0], "a.go"), "package c\n")
	h.propose("gemini", "s2", engine.FormatWrite, filepath.Join(roots[2], "a.go"), "package d\n")
	h.settle()
	got := h.Queue().Rows()
	want := []string{
		"[lib — claude · s1  · 1 file +1 −1 · 1 open]", "a.go",
		"[" + roots[0] + " + " + roots[2] + " — gemini · s2  · 2 files +2 −2 · 2 open]", "a.go", "a.go",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("queue rows:\n%q\nwant\n%q", got, want)
	}
}

// A desk with one workspace says it in the title alone: the headings stay
// as they were.
func TestQueueOneWorkspaceUnnamed(t *testing.T) {
	h := newHarness(t)
	h.write("a.go", "package a\n")
	h.propose("claude", "s1", engine.FormatWrite, "a.go", "package b\n")
	if got := h.Queue().Rows(); got[0] != "[claude · s1  · 1 file +1 −1 · 1 open]" {
		t.Errorf("heading %q; want no workspace in it", got[0])
	}
}
