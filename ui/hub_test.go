package ui

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/hub"
	"github.com/diffdesk/diffdesk/review/hub/hubserver"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestWindowOverAHub: the window over every desk on a hub, as diffdesk
// --hub runs it: the desk's proposal shows under the desk's name, and the
// a key's decision is carried out by that desk, which writes the file.
func TestWindowOverAHub(t *testing.T) {
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

	h := windowOver(t, hubDesk{v}, WindowOptions{Remote: "hub " + srv.ClientURL()})
	path := filepath.Join(desk.Root, "far.txt")
	reviewtest.WriteFile(t, path, "one\n")
	desk.MustPropose(t, engine.FormatWrite, "far.txt", "ONE\n")
	h.until("the window shows the desk's proposal", func() bool { return h.win.Waiting() == 1 && h.Shown() != "" })
	if rows := h.Queue().Rows(); len(rows) == 0 || !strings.Contains(rows[0], " @ devbox  · ") {
		t.Errorf("queue %q; want its heading to name the desk devbox", rows)
	}
	h.Keys("a")
	h.until("far.txt is written by its desk", func() bool { return reviewtest.ReadFile(t, path) == "ONE\n" })
	h.until("the window shows nothing waiting", func() bool { return h.win.Waiting() == 0 })
	h.HubAway(srv.ClientURL(), true)
	if got := h.Title(); !strings.HasSuffix(got, "hub "+srv.ClientURL()+" (unreachable, reconnecting)") {
		t.Errorf("title while the hub is away: %q", got)
	}
	h.HubAway(srv.ClientURL(), false)
	if got := h.Title(); !strings.HasSuffix(got, "hub "+srv.ClientURL()) {
		t.Errorf("title once the hub is back: %q", got)
	}
}
