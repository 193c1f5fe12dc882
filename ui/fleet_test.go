package ui

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/deskrpc"
	"github.com/diffdesk/diffdesk/review/deskrpc/deskrpctest"
	"github.com/diffdesk/diffdesk/review/remote"
	"github.com/diffdesk/diffdesk/review/reviewtest"
	"github.com/diffdesk/diffdesk/ui/present"
)

// fleetOf is desks served on sockets and reached through the protocol
// as one, as diffdesk --connect A --connect B reaches them.
func fleetOf(t *testing.T, desks ...*reviewtest.Desk) *remote.Fleet {
	t.Helper()
	var socks []string
	for _, d := range desks {
		socks = append(socks, "unix://"+deskrpctest.Serve(t, d.Desk))
	}
	addrs, err := remote.Addresses(socks, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := remote.NewFleet(reviewtest.Context(t), remote.Specs(addrs, remote.SSHOptions{}), remote.FleetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// TestWindowOverSeveralDesks: one window over two desks, as diffdesk
// --connect A --connect B runs it: both desks' proposals in one queue,
// each changeset headed by its desk, and the a key on one desk's proposal
// writes on that desk alone.
func TestWindowOverSeveralDesks(t *testing.T) {
	one, two := reviewtest.NewDesk(t, "", ""), reviewtest.NewDesk(t, "", "")
	f := fleetOf(t, one, two)
	h := windowOver(t, f, WindowOptions{Remote: present.FleetTitle(f.Labels(), f.Reachable())})
	for _, d := range []*reviewtest.Desk{one, two} {
		if _, err := d.Propose(reviewtest.Context(t), review.Request{Agent: "claude", Session: "s1", Format: engine.FormatWrite,
			Path: filepath.Join(d.Root, "same.txt"), Payload: "from " + filepath.Base(d.Root) + "\n"}); err != nil {
			t.Fatal(err)
		}
	}
	h.until("both desks' proposals are in the queue", func() bool { return h.win.Waiting() == 2 })
	var heads []string
	for _, r := range h.Queue().Rows() {
		if strings.HasPrefix(r, "[") {
			heads = append(heads, r)
		}
	}
	labels := f.Labels()
	if labels[0] != filepath.Base(one.Root)+" on local" || labels[1] != filepath.Base(two.Root)+" on local" {
		t.Errorf("labels %q; want each desk's workspace and machine", labels)
	}
	if len(heads) != 2 || !strings.Contains(heads[0], " @ "+labels[0]+"  · ") || !strings.Contains(heads[1], " @ "+labels[1]+"  · ") {
		t.Fatalf("queue headings %q; want one per desk, naming it", heads)
	}
	var second string
	for _, p := range f.List() {
		if p.Where == labels[1] {
			second = p.ID
		}
	}
	h.win.Select(second)
	h.until("desk two's proposal is shown", func() bool { return h.Shown() == second })
	h.Keys("a")
	path := filepath.Join(two.Root, "same.txt")
	h.until("desk two's file is written", func() bool {
		b, err := readIfThere(path)
		return err == nil && b == "from "+filepath.Base(two.Root)+"\n"
	})
	h.until("one proposal waits", func() bool { return h.win.Waiting() == 1 })
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
		if got := present.FleetTitle(tt.labels, down); got != tt.want {
			t.Errorf("FleetTitle(%q) = %q; want %q", tt.labels, got, tt.want)
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
	win := test.NewTempApp(t).NewWindow("DiffDesk")
	win.Resize(fyne.NewSize(1000, 700))
	askTrustItems(win, fleetTrustItems(desks, func(err error) { t.Error(err) }), nil)
	s := screen(t, win)
	if q := s.Dialog(); !strings.Contains(q, "/w/.diffdesk.toml on the desk api is not trusted") || !strings.Contains(q, "formatter ") {
		t.Fatalf("the first question:\n%s", q)
	} else if strings.Contains(q, "\x1b") {
		t.Errorf("a far desk's rule shown raw:\n%q", q)
	}
	s.Click("Keep off")
	if q := s.Dialog(); !strings.Contains(q, "/v/.diffdesk.toml on the desk runner is not trusted") || !strings.Contains(q, "deskctl trust /v (on runner)") {
		t.Fatalf("the second question:\n%s", q)
	}
	s.Click("Trust")
	if got := <-called; got != "runner /v/.diffdesk.toml" {
		t.Errorf("trusting the runner's file called %q", got)
	}
}

// TestHistoryPerDesk: over several desks the History tab shows one desk's
// history at a time, chosen by its label; a restore writes on that desk
// alone.
func TestHistoryPerDesk(t *testing.T) {
	one, two := reviewtest.NewDesk(t, "", ""), reviewtest.NewDesk(t, "", "")
	for _, d := range []*reviewtest.Desk{one, two} {
		reviewtest.WriteFile(t, filepath.Join(d.Root, "f.txt"), "old\n")
		p := d.MustPropose(t, engine.FormatWrite, "f.txt", "new "+filepath.Base(d.Root)+"\n")
		d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Approved, By: "ann@box"})
	}
	f := fleetOf(t, one, two)
	h := windowOver(t, f, WindowOptions{History: true})
	hist := h.History()
	if desks, shown := hist.FilterOptions("desk"); len(desks) != 2 || shown != f.Labels()[0] {
		t.Fatalf("the History tab's desk choice: %q, %q shown; want both desks, the first shown", desks, shown)
	}
	shows := func(d *reviewtest.Desk) func() bool {
		return func() bool {
			diffs := hist.Diffs()
			return len(hist.Entries()) == 1 && len(diffs) == 1 && string(diffs[0].New) == "new "+filepath.Base(d.Root)+"\n"
		}
	}
	h.win.ShowHistory()
	h.until("desk one's decision with its diff", shows(one))
	hist.Filter("desk", f.Labels()[1])
	h.until("desk two's decision with its diff", shows(two))
	hist.Restore("Restore…")
	h.Dialog().Click("Restore")
	hist.WaitEntries("the restore is listed", 2)
	if got := reviewtest.ReadFile(t, filepath.Join(two.Root, "f.txt")); got != "old\n" {
		t.Errorf("desk two's f.txt after the restore: %q; want old", got)
	}
	if got := reviewtest.ReadFile(t, filepath.Join(one.Root, "f.txt")); got != "new "+filepath.Base(one.Root)+"\n" {
		t.Errorf("desk one's f.txt changed by a restore of desk two's history: %q", got)
	}
}
