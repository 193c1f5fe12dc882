package ui

import (
	"context"
	"errors"
	"os"
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
	"github.com/diffdesk/diffdesk/review/remote"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestWindowOverSeveralDesks: one window over two desks, as diffdesk
// --connect A --connect B runs it: both desks' proposals in one queue,
// each changeset headed by its desk, and the a key on one desk's proposal
// writes on that desk alone.
func TestWindowOverSeveralDesks(t *testing.T) {
	a := test.NewTempApp(t)
	one, two := reviewtest.NewDesk(t, "", ""), reviewtest.NewDesk(t, "", "")
	addrs, err := remote.Addresses([]string{"unix://" + deskrpctest.Serve(t, one.Desk), "unix://" + deskrpctest.Serve(t, two.Desk)}, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := remote.NewFleet(reviewtest.Context(t), remote.Specs(addrs, remote.SSHOptions{}), remote.FleetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	sched := make(chan func(), 4096)
	w := NewWindow(a, f, WindowOptions{Do: func(f func()) { sched <- f }, NotifyDelay: -1, AgeTick: -1, ArmDelay: -1, Remote: fleetTitle(f.Labels(), f.Reachable())})
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
	for _, d := range []*reviewtest.Desk{one, two} {
		if _, err := d.Propose(reviewtest.Context(t), review.Request{Agent: "claude", Session: "s1", Format: engine.FormatWrite,
			Path: filepath.Join(d.Root, "same.txt"), Payload: "from " + filepath.Base(d.Root) + "\n"}); err != nil {
			t.Fatal(err)
		}
	}
	until("both desks' proposals are in the queue", func() bool { return w.Waiting() == 2 })
	var heads []string
	for _, r := range w.queue.rows {
		if r.header != "" {
			heads = append(heads, r.header)
		}
	}
	labels := f.Labels()
	if labels[0] != filepath.Base(one.Root)+" on local" || labels[1] != filepath.Base(two.Root)+" on local" {
		t.Errorf("labels %q; want each desk's workspace and machine", labels)
	}
	if len(heads) != 2 || !strings.HasSuffix(heads[0], " @ "+labels[0]) || !strings.HasSuffix(heads[1], " @ "+labels[1]) {
		t.Fatalf("queue headings %q; want one per desk, naming it", heads)
	}
	var second string
	for _, p := range f.List() {
		if p.Where == labels[1] {
			second = p.ID
		}
	}
	w.Select(second)
	until("desk two's proposal is shown", func() bool { return w.Selected() == second })
	w.TypeKey('a')
	path := filepath.Join(two.Root, "same.txt")
	until("desk two's file is written", func() bool {
		b, err := readIfThere(path)
		return err == nil && b == "from "+filepath.Base(two.Root)+"\n"
	})
	until("one proposal waits", func() bool { return w.Waiting() == 1 })
	if _, err := readIfThere(filepath.Join(one.Root, "same.txt")); err == nil {
		t.Error("desk one's file was written by a decision on desk two's proposal")
	}
}

// TestFleetTitle: the title names one or two desks, counts more, and says
// how many cannot be reached.
func TestFleetTitle(t *testing.T) {
	down := map[string]error{"b": errors.New("gone")}
	for _, tt := range []struct {
		labels []string
		want   string
	}{
		{[]string{"a"}, "a"},
		{[]string{"b"}, "b (unreachable, reconnecting)"},
		{[]string{"a", "b"}, "a, b (1 unreachable, reconnecting)"},
		{[]string{"a", "b", "c"}, "3 desks (1 unreachable, reconnecting)"},
	} {
		if got := fleetTitle(tt.labels, down); got != tt.want {
			t.Errorf("fleetTitle(%q) = %q; want %q", tt.labels, got, tt.want)
		}
	}
}

func readIfThere(path string) (string, error) {
	b, err := os.ReadFile(path)
	return string(b), err
}

// TestFleetTrustItems: each desk's untrusted config is asked about under
// its desk's label, a far desk's text is shown escaped, and Trust calls
// that desk only.
func TestFleetTrustItems(t *testing.T) {
	called := make(chan string, 2)
	desks := []remote.DeskTrust{
		{Label: "api", Files: []deskrpc.TrustFile{{Root: "/w", File: "/w/.diffdesk.toml", Rules: []string{"formatter \x1b[2Jruns x"}}},
			Trust: func(_ context.Context, f deskrpc.TrustFile) error { called <- "api " + f.File; return nil }},
		{Label: "runner", Files: []deskrpc.TrustFile{{Root: "/v", File: "/v/.diffdesk.toml"}},
			Trust: func(_ context.Context, f deskrpc.TrustFile) error { called <- "runner " + f.File; return nil }},
	}
	items := fleetTrustItems(desks, func(err error) { t.Error(err) })
	if len(items) != 2 || items[0].file != "/w/.diffdesk.toml on the desk api" || items[1].command != "deskctl trust /v (on runner)" {
		t.Fatalf("items: %+v", items)
	}
	if strings.Contains(items[0].rules[0], "\x1b") {
		t.Errorf("a far desk's rule shown raw: %q", items[0].rules[0])
	}
	if err := items[1].trust(); err != nil {
		t.Fatal(err)
	}
	if got := <-called; got != "runner /v/.diffdesk.toml" {
		t.Errorf("trusting the runner's file called %q", got)
	}
}

// TestHistoryPerDesk: over several desks the History tab shows one desk's
// history at a time, chosen by its label; a restore writes on that desk
// alone.
func TestHistoryPerDesk(t *testing.T) {
	a := test.NewTempApp(t)
	one, two := reviewtest.NewDesk(t, "", ""), reviewtest.NewDesk(t, "", "")
	for _, d := range []*reviewtest.Desk{one, two} {
		reviewtest.WriteFile(t, filepath.Join(d.Root, "f.txt"), "old\n")
		p := d.MustPropose(t, engine.FormatWrite, "f.txt", "new "+filepath.Base(d.Root)+"\n")
		d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Approved, By: "ann@box"})
	}
	addrs, err := remote.Addresses([]string{"unix://" + deskrpctest.Serve(t, one.Desk), "unix://" + deskrpctest.Serve(t, two.Desk)}, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := remote.NewFleet(reviewtest.Context(t), remote.Specs(addrs, remote.SSHOptions{}), remote.FleetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	sched := make(chan func(), 4096)
	w := NewWindow(a, f, WindowOptions{Do: func(f func()) { sched <- f }, NotifyDelay: -1, AgeTick: -1, ArmDelay: -1, History: true})
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
	if hv.deskSel == nil || len(hv.deskSel.Options) != 2 || hv.deskSel.Selected != f.Labels()[0] {
		t.Fatalf("the History tab's desk choice: %+v; want both desks, the first shown", hv.deskSel)
	}
	w.ShowHistory()
	until("desk one's decision with its diff", func() bool {
		return len(hv.entries) == 1 && len(hv.diffs) == 1 && string(hv.diffs[0].New) == "new "+filepath.Base(one.Root)+"\n"
	})
	hv.deskSel.SetSelected(f.Labels()[1])
	until("desk two's decision with its diff", func() bool {
		return len(hv.entries) == 1 && len(hv.diffs) == 1 && string(hv.diffs[0].New) == "new "+filepath.Base(two.Root)+"\n"
	})
	hv.ShowRestore()
	until("the dry-run dialog", func() bool { return hv.restoreDlg != nil })
	test.Tap(hv.restoreConfirm)
	until("the restore is listed", func() bool { return len(hv.entries) == 2 })
	if got := reviewtest.ReadFile(t, filepath.Join(two.Root, "f.txt")); got != "old\n" {
		t.Errorf("desk two's f.txt after the restore: %q; want old", got)
	}
	if got := reviewtest.ReadFile(t, filepath.Join(one.Root, "f.txt")); got != "new "+filepath.Base(one.Root)+"\n" {
		t.Errorf("desk one's f.txt changed by a restore of desk two's history: %q", got)
	}
}
