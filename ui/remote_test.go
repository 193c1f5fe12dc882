package ui

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/deskrpc"
	"github.com/diffdesk/diffdesk/review/deskrpc/deskrpctest"
	"github.com/diffdesk/diffdesk/review/journal"
	"github.com/diffdesk/diffdesk/review/remote"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestWindowOverARemoteDesk: the window over a desk it did not start,
// reached through the protocol as diffdesk --connect reaches one: it lists
// the desk's proposal, the a key approves it, the file on the desk's side
// is written, and the title names the desk.
func TestWindowOverARemoteDesk(t *testing.T) {
	a := test.NewTempApp(t)
	local := reviewtest.NewDesk(t, "", "")
	sock := deskrpctest.Serve(t, local.Desk)
	cl, err := deskrpc.Dial(sock)
	if err != nil {
		t.Fatal(err)
	}
	rd, err := remote.Open(reviewtest.Context(t), cl, "dev@box", "me@laptop")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rd.Close() })

	sched := make(chan func(), 4096)
	w := NewWindow(a, rd, WindowOptions{Do: func(f func()) { sched <- f }, NotifyDelay: -1, AgeTick: -1, ArmDelay: -1, Remote: "dev@box"})
	t.Cleanup(w.Close)
	w.Win.Resize(fyne.NewSize(1200, 700))
	w.View().SetSynchronous(true)
	until := func(what string, cond func() bool) {
		t.Helper()
		deadline := time.After(20 * time.Second)
		for !cond() {
			select {
			case f := <-sched:
				f()
			case <-time.After(5 * time.Millisecond):
			case <-deadline:
				t.Fatalf("timed out waiting until %s", what)
			}
		}
	}

	path := filepath.Join(local.Root, "far.txt")
	reviewtest.WriteFile(t, path, "one\n")
	p := local.MustPropose(t, engine.FormatWrite, "far.txt", "ONE\n")
	until("the window shows the desk's proposal", func() bool { return w.Selected() == p.ID })
	if got := w.Win.Title(); !strings.HasPrefix(got, "DiffDesk — 1 waiting") || !strings.HasSuffix(got, " · dev@box") {
		t.Errorf("title %q; want 1 waiting, naming dev@box", got)
	}
	w.TypeKey('a')
	until("far.txt is written on the desk's side", func() bool { return reviewtest.ReadFile(t, path) == "ONE\n" })
	until("the window shows nothing waiting", func() bool { return w.Waiting() == 0 })
	if got, want := w.Win.Title(), "DiffDesk · "+local.Root+" · dev@box"; got != want {
		t.Errorf("title after the decision %q; want %q (the far desk's workspace, the machine)", got, want)
	}
}

// TestHistoryOverARemoteDesk: the window over a desk on another machine
// has its History tab, read through the protocol: the far desk's
// decision is listed with who decided it and what it changed, and a
// restore from it is written by the far desk (its file back as it was).
func TestHistoryOverARemoteDesk(t *testing.T) {
	a := test.NewTempApp(t)
	local := reviewtest.NewDesk(t, "", "")
	sock := deskrpctest.Serve(t, local.Desk)
	cl, err := deskrpc.Dial(sock)
	if err != nil {
		t.Fatal(err)
	}
	rd, err := remote.Open(reviewtest.Context(t), cl, "dev@box", "me@laptop")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rd.Close() })
	path := filepath.Join(local.Root, "far.txt")
	reviewtest.WriteFile(t, path, "one\n")
	p := local.MustPropose(t, engine.FormatWrite, "far.txt", "ONE\n")
	local.MustDecide(t, p.ID, review.Decision{Verdict: decision.Approved, By: "ann@box"})

	sched := make(chan func(), 4096)
	w := NewWindow(a, rd, WindowOptions{Do: func(f func()) { sched <- f }, NotifyDelay: -1, AgeTick: -1, ArmDelay: -1, Remote: "dev@box", History: true})
	t.Cleanup(w.Close)
	w.Win.Resize(fyne.NewSize(1200, 700))
	hv := w.history
	hv.view.SetSynchronous(true)
	hv.synchronous = true
	until := func(what string, cond func() bool) {
		t.Helper()
		deadline := time.After(20 * time.Second)
		for !cond() {
			select {
			case f := <-sched:
				f()
			case <-time.After(5 * time.Millisecond):
			case <-deadline:
				t.Fatalf("timed out waiting until %s", what)
			}
		}
	}
	w.ShowHistory()
	until("the far desk's decision is listed with its diff", func() bool { return len(hv.entries) == 1 && len(hv.diffs) == 1 })
	if d := hv.diffs[0]; string(d.Old) != "one\n" || string(d.New) != "ONE\n" {
		t.Errorf("the entry's diff: %q → %q; want one → ONE", d.Old, d.New)
	}
	until("the heading names who decided", func() bool { return strings.Contains(hv.title.Text, "approved by the person (ann@box)") })

	hv.ShowRestore()
	until("the dry-run dialog", func() bool { return hv.restoreDlg != nil })
	if got := reviewtest.ReadFile(t, path); got != "ONE\n" {
		t.Fatalf("the dry run wrote far.txt: %q", got)
	}
	test.Tap(hv.restoreConfirm)
	until("the restore is listed", func() bool { return len(hv.entries) == 2 && hv.entries[0].Kind == journal.EntryRestore })
	if got := reviewtest.ReadFile(t, path); got != "one\n" {
		t.Errorf("after the restore far.txt is %q; want it as it was, one", got)
	}
}

// TestTOverARemoteDesk: t approves the changeset's other proposals that
// are trivial throughout on a desk on another machine too: the desk
// classifies and approves (Desk.ApproveTrivial), the window says so.
func TestTOverARemoteDesk(t *testing.T) {
	a := test.NewTempApp(t)
	local := reviewtest.NewDesk(t, "", "")
	sock := deskrpctest.Serve(t, local.Desk)
	cl, err := deskrpc.Dial(sock)
	if err != nil {
		t.Fatal(err)
	}
	rd, err := remote.Open(reviewtest.Context(t), cl, "dev@box", "me@laptop")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rd.Close() })
	sched := make(chan func(), 4096)
	w := NewWindow(a, rd, WindowOptions{Do: func(f func()) { sched <- f }, NotifyDelay: -1, AgeTick: -1, ArmDelay: -1, Remote: "dev@box"})
	t.Cleanup(w.Close)
	w.Win.Resize(fyne.NewSize(1200, 700))
	w.View().SetSynchronous(true)
	until := func(what string, cond func() bool) {
		t.Helper()
		deadline := time.After(20 * time.Second)
		for !cond() {
			select {
			case f := <-sched:
				f()
			case <-time.After(5 * time.Millisecond):
			case <-deadline:
				t.Fatalf("timed out waiting until %s", what)
			}
		}
	}
	code := "package x\n\nfunc B() {\n\treturn\n}\n"
	for _, name := range []string{"real.go", "spaces.go"} {
		reviewtest.WriteFile(t, filepath.Join(local.Root, name), code)
	}
	real, err := local.Propose(reviewtest.Context(t), review.Request{Agent: "claude-code", Session: "s1", Format: engine.FormatWrite, Path: "real.go", Payload: "package x\n\nfunc B() {\n\tprintln()\n}\n"})
	if err != nil {
		t.Fatal(err)
	}
	spaces, err := local.Propose(reviewtest.Context(t), review.Request{Agent: "claude-code", Session: "s1", Format: engine.FormatWrite, Path: "spaces.go", Payload: "package x\n\nfunc B() {\n\treturn   \n}\n"})
	if err != nil {
		t.Fatal(err)
	}
	until("the window shows both", func() bool { _, ok := rd.Get(spaces.ID); return ok && w.Selected() == real.ID })
	until("the shown proposal's hunks are classified", func() bool { return !w.detail.trivial.pending() })
	w.TypeKey('t')
	until("the far desk approves the whitespace-only proposal", func() bool { o, ok := local.Outcome(spaces.ID); return ok && o.Status == decision.Approved })
	until("the window says so", func() bool {
		return strings.Contains(w.detail.line.status.Text, "Approved 1 other proposal of the changeset, trivial throughout")
	})
	if p, _ := local.Get(real.ID); p.State != review.StatePending {
		t.Errorf("the proposal with a real change after t: %s; want it left for the person", p.State)
	}
}
