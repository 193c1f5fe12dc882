package remote

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/config"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestAddresses: --connect values are addresses or the config's labels;
// --desks takes the whole list; every address, the config's included, is
// checked as --connect's are, so a config line cannot smuggle an ssh
// option or a command in.
func TestAddresses(t *testing.T) {
	list := []config.ConnectEntry{
		{Label: "devbox", Address: "ssh://me@devbox/run/desk.sock", Origin: "config.toml line 1"},
		{Label: "ci", Address: "docker://runner", Origin: "config.toml line 4"},
	}
	got, err := Addresses([]string{"devbox", "local", "unix:///tmp/d/desk.sock", "ssh://me@devbox/run/desk.sock"}, false, list)
	if err != nil {
		t.Fatal(err)
	}
	want := []Address{{Label: "devbox", Target: Target{Scheme: "ssh", User: "me", Host: "devbox", Socket: "/run/desk.sock"}},
		{Target: Target{Scheme: "unix"}}, {Target: Target{Scheme: "unix", Socket: "/tmp/d/desk.sock"}}}
	if len(got) != len(want) {
		t.Fatalf("Addresses: %+v; want %+v (the same desk named twice reviewed once)", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("address %d: %+v; want %+v", i, got[i], want[i])
		}
	}
	all, err := Addresses(nil, true, list)
	if err != nil || len(all) != 2 || all[1].Label != "ci" || all[1].Target.Scheme != "docker" {
		t.Fatalf("--desks: %+v, %v", all, err)
	}
	for _, tt := range []struct {
		values []string
		all    bool
		list   []config.ConnectEntry
		want   string
	}{
		{[]string{"nosuch"}, false, list, `"nosuch" is neither a desk's address nor a label of your config's [[connect]] (devbox, ci)`},
		{nil, true, nil, "lists none"},
		{nil, true, []config.ConnectEntry{{Label: "x", Address: "ssh://-oProxyCommand=touch${IFS}pwned", Origin: "config.toml line 9"}}, "config.toml line 9: "},
		{nil, true, []config.ConnectEntry{{Label: "x", Address: "docker://-privileged", Origin: "c"}}, "may not start with '-'"},
		{[]string{"unix://relative/desk.sock"}, false, nil, "unix:///absolute/path"},
	} {
		if _, err := Addresses(tt.values, tt.all, tt.list); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Addresses(%q, %v): %v; want an error saying %q", tt.values, tt.all, err, tt.want)
		}
	}
}

// TestLocalAddress: local and unix:// reach this user's desk through its
// socket, checked as deskctl checks it, with no command run.
func TestLocalAddress(t *testing.T) {
	a := reviewtest.NewDesk(t, "", "")
	a.MustPropose(t, engine.FormatWrite, "x.txt", "x\n")
	sock := serve(t, a.Desk)
	t.Setenv("DIFFDESK_SSH", "/nonexistent/ssh") // nothing may run it
	addrs, err := Addresses([]string{"unix://" + sock}, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := NewFleet(reviewtest.Context(t), Specs(addrs, SSHOptions{}), FleetOptions{After: func(time.Duration) <-chan time.Time { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ps := f.List()
	if len(ps) != 1 || ps[0].Where != filepath.Base(a.Root)+" on local" || filepath.Base(ps[0].Files[0].Path) != "x.txt" {
		t.Fatalf("List: %+v", ps)
	}
	if d := f.Desks(); len(d) != 1 || d[0].Where != "local:"+sock || d[0].Label != filepath.Base(a.Root)+" on local" || d[0].Err != nil {
		t.Errorf("Desks: %+v; want the address and a label of the workspace and machine", d)
	}
	if _, err := Dial(context.Background(), Target{Scheme: "unix", Socket: filepath.Join(t.TempDir(), "none.sock")}, SSHOptions{}); err == nil {
		t.Error("dialling a socket that is not there succeeded")
	}
}
