package ui

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/hub"
	"github.com/diffdesk/diffdesk/review/hub/hubserver"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestWindowOverAHub: the window over every desk on a hub, as diffdesk
// --hub runs it: the desk's proposal shows under the desk's name, and the
// a key's decision is carried out by that desk, which writes the file.
func TestWindowOverAHub(t *testing.T) {
	a := test.NewTempApp(t)
	dir := filepath.Join(t.TempDir(), "hub")
	if err := hubserver.Init(dir); err != nil {
		t.Fatal(err)
	}
	seeds := map[string]string{}
	for name, role := range map[string]string{"devbox": hubserver.RoleDesk, "me": hubserver.RoleReviewer} {
		seed, err := hubserver.AddUser(dir, name, role)
		if err != nil {
			t.Fatal(err)
		}
		seeds[name] = seed
	}
	srv, err := hubserver.Start(hubserver.Options{Dir: dir, Port: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	dial := func(name string) hub.DialOptions {
		return hub.DialOptions{URL: srv.ClientURL(), Creds: hub.Credentials{Name: name, Seed: seeds[name]}}
	}
	desk := reviewtest.NewDesk(t, "", "")
	dnc, err := hub.Dial(dial("devbox"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(dnc.Close)
	link, err := hub.Connect(reviewtest.Context(t), desk.Desk, dnc, hub.LinkOptions{Name: "devbox"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { link.Close(time.Second) })
	rnc, err := hub.Dial(dial("me"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rnc.Close)
	r, err := hub.NewReviewer(reviewtest.Context(t), rnc, "me@test")
	if err != nil {
		t.Fatal(err)
	}
	v, err := hub.OpenView(reviewtest.Context(t), r, hub.ViewLimits{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })

	sched := make(chan func(), 4096)
	w := NewWindow(a, hubDesk{v}, WindowOptions{Do: func(f func()) { sched <- f }, NotifyDelay: -1, AgeTick: -1, ArmDelay: -1, Remote: "hub " + srv.ClientURL()})
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
	path := filepath.Join(desk.Root, "far.txt")
	reviewtest.WriteFile(t, path, "one\n")
	desk.MustPropose(t, engine.FormatWrite, "far.txt", "ONE\n")
	until("the window shows the desk's proposal", func() bool { return w.Waiting() == 1 && w.Selected() != "" })
	if got := w.queue.rows[0].header; !strings.HasSuffix(got, " @ devbox") {
		t.Errorf("queue heading %q; want it to name the desk devbox", got)
	}
	w.TypeKey('a')
	until("far.txt is written by its desk", func() bool { return reviewtest.ReadFile(t, path) == "ONE\n" })
	until("the window shows nothing waiting", func() bool { return w.Waiting() == 0 })
	w.hubState(srv.ClientURL(), true)
	if got := w.Win.Title(); !strings.HasSuffix(got, "hub "+srv.ClientURL()+" (unreachable, reconnecting)") {
		t.Errorf("title while the hub is away: %q", got)
	}
	w.hubState(srv.ClientURL(), false)
	if got := w.Win.Title(); !strings.HasSuffix(got, "hub "+srv.ClientURL()) {
		t.Errorf("title once the hub is back: %q", got)
	}
}
