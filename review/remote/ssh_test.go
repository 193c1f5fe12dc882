package remote

import (
	"slices"
	"strings"
	"testing"
)

func TestParseTarget(t *testing.T) {
	good := []struct {
		in   string
		want Target
	}{
		{"ssh://box", Target{Scheme: "ssh", Host: "box"}},
		{"ssh://dev@box:2222", Target{Scheme: "ssh", User: "dev", Host: "box", Port: "2222"}},
		{"ssh://dev@box/run/user/1000/diffdesk/desk.sock", Target{Scheme: "ssh", User: "dev", Host: "box", Socket: "/run/user/1000/diffdesk/desk.sock"}},
		{"ssh://[::1]:22/", Target{Scheme: "ssh", Host: "::1", Port: "22"}},
		{"docker://agent-box/run/diffdesk/desk.sock", Target{Scheme: "docker", Host: "agent-box", Socket: "/run/diffdesk/desk.sock"}},
		{"podman://dev@agent-box", Target{Scheme: "podman", User: "dev", Host: "agent-box"}},
	}
	for _, tt := range good {
		got, err := ParseTarget(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseTarget(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
	}
	bad := map[string]string{
		"box":                    "not a desk's address",
		"http://box":             "not a desk's address",
		"docker://box:2375":      "a container has no port",
		"ssh://dev:secret@box":   "password",
		"ssh://box?x=1":          "no ?query",
		"ssh://-oProxyCommand=x": "may not start with '-'",
	}
	for in, want := range bad {
		if _, err := ParseTarget(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseTarget(%q): %v; want an error saying %q", in, err, want)
		}
	}
}

// TestSSHCommand: the user's ssh, its options, the port, then one remote
// command that runs deskctl bridge with the socket quoted for the shell.
func TestSSHCommand(t *testing.T) {
	tgt := Target{Scheme: "ssh", User: "dev", Host: "box", Port: "2222", Socket: "/tmp/it's/desk.sock"}
	got := SSHOptions{SSH: []string{"ssh", "-F", "cfg"}, Deskctl: "/opt/bin/deskctl"}.Command(tgt)
	want := []string{"ssh", "-F", "cfg", "-T", "-p", "2222", "dev@box", "--", `exec '/opt/bin/deskctl' bridge --socket '/tmp/it'\''s/desk.sock'`}
	if !slices.Equal(got, want) {
		t.Errorf("Command:\n got %q\nwant %q", got, want)
	}
	got = SSHOptions{}.Command(Target{Scheme: "docker", User: "dev", Host: "agent-box", Socket: "/run/d.sock"})
	want = []string{"docker", "exec", "-i", "-u", "dev", "agent-box", "sh", "-c", `PATH="$PATH:$HOME/.local/bin:$HOME/go/bin"; exec 'deskctl' bridge --socket '/run/d.sock'`}
	if !slices.Equal(got, want) {
		t.Errorf("Command for a container:\n got %q\nwant %q", got, want)
	}
	t.Setenv("DIFFDESK_SSH", "ssh -i key")
	got = SSHOptions{}.Command(Target{Scheme: "ssh", Host: "box"})
	if !slices.Equal(got[:4], []string{"ssh", "-i", "key", "-T"}) || got[4] != "box" ||
		!strings.Contains(got[6], `$HOME/.local/bin`) || !strings.HasSuffix(got[6], "exec 'deskctl' bridge") {
		t.Errorf("Command with $DIFFDESK_SSH and no deskctl path: %q", got)
	}
}
