package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/deskrpc"
)

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"version"}} {
		out, _, code := deskctl(t, "", args...)
		if code != 0 || !strings.HasPrefix(out, "deskctl ") || !strings.Contains(out, "go1.") {
			t.Errorf("deskctl %v = exit %d, %q; want the version line", args, code, out)
		}
	}
	out, _, _ := deskctl(t, "", "version", "--json")
	var v struct{ Version, Go string }
	if json.Unmarshal([]byte(out), &v) != nil || v.Version == "" || v.Go == "" {
		t.Errorf("deskctl version --json = %q", out)
	}
}

// TestStatusJSON: --json is the desk's status result with the protocol's
// field names (docs/protocol.md), none dropped; the text names the
// desk's version.
func TestStatusJSON(t *testing.T) {
	root, sock := startServe(t, "")
	cl, err := deskrpc.Dial(sock)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	req := review.Request{Agent: "claude-code", Session: "s1", Turn: "t1", Format: engine.FormatWrite, Path: filepath.Join(root, "f.txt"), Payload: "x\n"}
	if err := cl.Call(context.Background(), "propose", req, nil); err != nil {
		t.Fatal(err)
	}
	out, _, code := deskctl(t, "", "status", "--socket", sock, "--json")
	var st map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &st) != nil {
		t.Fatalf("status --json = exit %d, %q", code, out)
	}
	for _, k := range []string{"protocol", "roots", "waiting", "proposals", "doors", "version"} {
		if _, ok := st[k]; !ok {
			t.Errorf("status --json has no %q:\n%s", k, out)
		}
	}
	p := st["proposals"].([]any)[0].(map[string]any)
	for _, k := range []string{"id", "agent", "session", "turn", "changeset", "state", "files", "added", "removed", "created"} {
		if _, ok := p[k]; !ok {
			t.Errorf("status --json's proposal has no %q: %v", k, p)
		}
	}
	if _, ok := p["ID"]; ok {
		t.Errorf("status --json's proposal has Go's field name ID: %v", p)
	}
	out, _, _ = deskctl(t, "", "status", "--socket", sock)
	if !strings.Contains(out, "desk version: ") || !strings.Contains(out, "deskctl version: ") {
		t.Errorf("status = %q; want the desk's version and deskctl's", out)
	}
}
