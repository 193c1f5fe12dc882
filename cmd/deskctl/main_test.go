package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/deskrpc"
	"github.com/diffdesk/diffdesk/review/startup"
)

// deskctl runs a deskctl command line in-process.
func deskctl(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

func TestApplyPrintsContentByteExact(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.txt")
	os.WriteFile(path, []byte("\uFEFFone\r\ntwo\r\nthree"), 0o644)
	out, errOut, code := deskctl(t, "------- SEARCH\ntwo\n=======\nTWO\n+++++++ REPLACE\n", "apply", "--format", "search-replace", "--file", path)
	if code != 0 || out != "\uFEFFone\r\nTWO\r\nthree" {
		t.Fatalf("apply = %q (exit %d, stderr %q); want BOM, CRLF and no final newline kept", out, code, errOut)
	}
	if b, _ := os.ReadFile(path); string(b) != "\uFEFFone\r\ntwo\r\nthree" {
		t.Error("apply wrote the file")
	}
}

func TestApplyFailureGoesToStderr(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.txt")
	os.WriteFile(path, []byte("alpha\nbeta\n"), 0o644)
	out, errOut, code := deskctl(t, `{"old_string":"gamma","new_string":"delta"}`, "apply", "--format", "edit", "--file", path)
	if code != 1 || out != "" || !strings.Contains(errOut, "gamma") || !strings.Contains(errOut, "not applied") {
		t.Fatalf("apply = exit %d, stdout %q, stderr %q; want exit 1, nothing on stdout, the reason on stderr", code, out, errOut)
	}
}

func TestApplyJSON(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.txt")
	os.WriteFile(path, []byte("a\nb\nc\n"), 0o644)
	out, _, code := deskctl(t, `{"old_string":"b","new_string":"B"}`, "apply", "--format", "edit", "--file", path, "--json")
	var got struct {
		Content string
		Matches []struct {
			Block              int
			Strategy           string
			StartLine, EndLine int
		}
	}
	if code != 0 || json.Unmarshal([]byte(out), &got) != nil {
		t.Fatalf("apply --json = %q (exit %d)", out, code)
	}
	if got.Content != "a\nB\nc\n" || len(got.Matches) != 1 || got.Matches[0].StartLine != 2 || got.Matches[0].Strategy != "exact" {
		t.Errorf("apply --json = %+v", got)
	}
	out, _, code = deskctl(t, `{"old_string":"zz","new_string":"B"}`, "apply", "--format", "edit", "--file", path, "--json")
	var fail struct{ Error map[string]any }
	if code != 1 || json.Unmarshal([]byte(out), &fail) != nil || fail.Error["kind"] != "match" {
		t.Errorf("apply --json failure = %q (exit %d); want {\"error\":{\"kind\":\"match\",…}}", out, code)
	}
}

func TestApplyMissingFileIsNew(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new.txt")
	out, _, code := deskctl(t, "hello\n", "apply", "--format", "write", "--file", path)
	if code != 0 || out != "hello\n" {
		t.Errorf("apply to a missing file = %q (exit %d)", out, code)
	}
	_, errOut, code := deskctl(t, `{"old_string":"x","new_string":"y"}`, "apply", "--format", "edit", "--file", path)
	if code != 1 || !strings.Contains(errOut, "does not exist") {
		t.Errorf("edit of a missing file: exit %d, %q", code, errOut)
	}
}

func TestApplyPatch(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\nb\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "gone.txt"), []byte("x\n"), 0o644)
	patch := "*** Begin Patch\n*** Update File: a.txt\n@@\n a\n-b\n+B\n*** Add File: n.txt\n+new\n*** Delete File: gone.txt\n*** End Patch\n"
	out, errOut, code := deskctl(t, patch, "apply", "--format", "patch", "--root", dir)
	var got struct{ Files map[string]*string }
	if code != 0 || json.Unmarshal([]byte(out), &got) != nil {
		t.Fatalf("apply patch = %q (exit %d, %s)", out, code, errOut)
	}
	if got.Files["a.txt"] == nil || *got.Files["a.txt"] != "a\nB\n" || got.Files["n.txt"] == nil || *got.Files["n.txt"] != "new\n" {
		t.Errorf("files = %v", got.Files)
	}
	if v, ok := got.Files["gone.txt"]; !ok || v != nil {
		t.Errorf("gone.txt = %v, present %v; want null", v, ok)
	}
	if _, err := os.Stat(filepath.Join(dir, "n.txt")); err == nil {
		t.Error("apply --format patch wrote a file")
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{}, {"fly"}, {"apply", "--format", "write"}, {"apply", "--format", "patch"}} {
		if _, _, code := deskctl(t, "", args...); code != 2 {
			t.Errorf("deskctl %v: exit %d; want 2", args, code)
		}
	}
	if _, _, code := deskctl(t, "x", "apply", "--format", "nope", "--file", filepath.Join(t.TempDir(), "f")); code != 2 {
		t.Errorf("unknown format: exit %d; want 2, a usage error", code)
	}
}

func TestProposeWithoutDesk(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "none.sock")
	_, errOut, code := deskctl(t, "x\n", "propose", "--socket", sock, "--format", "write", "--file", "f.txt")
	if code != 1 || !strings.Contains(errOut, "no desk is running") || !strings.Contains(errOut, "deskctl serve") {
		t.Errorf("propose with no desk: exit %d, %q", code, errOut)
	}
	out, _, code := deskctl(t, "", "status", "--socket", sock)
	if code != 1 || !strings.Contains(out, "no desk running") {
		t.Errorf("status with no desk: exit %d, %q", code, out)
	}
}

// startServe runs `deskctl serve` in-process until the test ends.
func startServe(t *testing.T, decide decision.Verdict) (root, sock string) {
	t.Helper()
	root = t.TempDir()
	dir, err := os.MkdirTemp("", "dd")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	// The front doors write lock and discovery files: keep them here.
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(dir, "claude"))
	t.Setenv("TMPDIR", dir)
	sock = filepath.Join(dir, "desk.sock")
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan struct{})
	done := make(chan error, 1)
	pr, pw, _ := os.Pipe()
	go func() {
		done <- serve(ctx, startup.Options{Roots: []string{root}, Unattended: decide, Socket: sock,
			Journal: filepath.Join(dir, "j.db"), Config: filepath.Join(dir, "none.toml")}, pw)
		pw.Close()
	}()
	go func() { // the first line says where it listens
		b := make([]byte, 1)
		pr.Read(b)
		close(ready)
		for {
			if _, err := pr.Read(b); err != nil {
				return
			}
		}
	}()
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("serve: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not start")
	}
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
		if _, err := os.Stat(sock); !os.IsNotExist(err) {
			t.Errorf("socket %s left behind after shutdown", sock)
		}
	})
	return root, sock
}

func TestServeAndPropose(t *testing.T) {
	root, sock := startServe(t, decision.Approved)
	path := filepath.Join(root, "f.txt")
	os.WriteFile(path, []byte("a\nb\n"), 0o644)
	out, errOut, code := deskctl(t, "------- SEARCH\nb\n=======\nB\n+++++++ REPLACE\n",
		"propose", "--socket", sock, "--format", "search-replace", "--file", path, "--agent", "tester")
	if code != 0 || !strings.Contains(out, "saved as proposed") {
		t.Fatalf("propose = exit %d, %q, %q", code, out, errOut)
	}
	if b, _ := os.ReadFile(path); string(b) != "a\nB\n" {
		t.Errorf("file = %q", b)
	}
	out, _, code = deskctl(t, strings.Repeat("line\n", 500), "propose", "--socket", sock, "--format", "write", "--file", filepath.Join(root, "g.txt"), "--stream", "9", "--json")
	var o struct{ Status string }
	if code != 0 || json.Unmarshal([]byte(out), &o) != nil || o.Status != "approved" {
		t.Errorf("streamed propose = exit %d, %q", code, out)
	}
	out, _, code = deskctl(t, "", "status", "--socket", sock)
	if code != 0 || !strings.Contains(out, "0 proposal(s) waiting") || !strings.Contains(out, "claude-code door") {
		t.Errorf("status = exit %d, %q", code, out)
	}
}

func TestServeRejectExitCode(t *testing.T) {
	root, sock := startServe(t, decision.Rejected)
	_, _, code := deskctl(t, "x\n", "propose", "--socket", sock, "--format", "write", "--file", filepath.Join(root, "f.txt"))
	if code != 3 {
		t.Errorf("rejected propose: exit %d; want 3", code)
	}
}

// TestStatusEscapesControlCharacters: an agent name holding a terminal
// escape and a newline neither recolours the terminal nor forges a line of
// deskctl status; a path holding one is refused.
func TestStatusEscapesControlCharacters(t *testing.T) {
	root, sock := startServe(t, "")
	cl, err := deskrpc.Dial(sock)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx := context.Background()
	req := review.Request{Agent: "evil\x1b[31m\n  p9-forged  claude", Format: engine.FormatWrite, Path: filepath.Join(root, "f.txt"), Payload: "x\n"}
	if err := cl.Call(ctx, "propose", req, nil); err != nil {
		t.Fatal(err)
	}
	req.Agent, req.Path = "agent", filepath.Join(root, "a\n  p9-forged.txt")
	if err := cl.Call(ctx, "propose", req, nil); err == nil || !strings.Contains(err.Error(), "control character") {
		t.Errorf("propose(path with a newline) = %v; want a refusal naming the control character", err)
	}
	out, _, code := deskctl(t, "", "status", "--socket", sock)
	if code != 0 || strings.Contains(out, "\x1b") || strings.Contains(out, "\n  p9-forged") || !strings.Contains(out, `"evil\x1b[31m\n  p9-forged  claude"`) {
		t.Errorf("status = exit %d:\n%s\nwant the agent name escaped, on its line", code, out)
	}
}
