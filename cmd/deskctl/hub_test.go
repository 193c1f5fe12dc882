package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review/hub/hubserver"
	"github.com/diffdesk/diffdesk/review/startup"
)

// The desk without --hub is the desk as it always was: no goroutine of
// NATS runs.
func TestServeWithoutHubRunsNoNATS(t *testing.T) {
	startServe(t, "")
	buf := make([]byte, 1<<20)
	stacks := string(buf[:runtime.Stack(buf, true)])
	if strings.Contains(stacks, "nats-io") {
		t.Fatalf("deskctl serve without --hub runs NATS code:\n%s", stacks)
	}
	_, errOut, code := deskctl(t, "", "serve", "--hub-creds", "x.nk", "--socket", filepath.Join(t.TempDir(), "s.sock"))
	if code != 1 || !strings.Contains(errOut, "go with --hub URL") {
		t.Errorf("--hub-creds without --hub: exit %d, %q", code, errOut)
	}
}

// A hub, a desk on it (started before the hub, linking once it is up), an
// agent proposing, and a reviewer listing, showing and deciding through
// deskctl: the desk writes the file, the agent hears.
func TestHubServeReviewDecide(t *testing.T) {
	dir, port, url := hubWithUsers(t)

	root, sockDir := t.TempDir(), t.TempDir()
	sock := filepath.Join(sockDir, "desk.sock")
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(sockDir, "claude"))
	t.Setenv("TMPDIR", sockDir)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- serveLinked(ctx, startup.Options{Roots: []string{root}, Socket: sock, Journal: filepath.Join(sockDir, "j.db"),
			Config: filepath.Join(sockDir, "none.toml")}, &strings.Builder{}, hubClientFlags{url: url, creds: filepath.Join(dir, "creds", "d1.nk")})
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	for i := 0; i < 300; i++ {
		if _, err := os.Stat(sock); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The desk serves before its hub is up, and links once it is.
	h, err := hubserver.Start(hubserver.Options{Dir: dir, Port: port})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Shutdown()
	proposed := make(chan int, 1)
	go func() {
		_, _, code := deskctl(t, "from the hub\n", "propose", "--socket", sock, "--format", "write", "--file", filepath.Join(root, "f.txt"))
		proposed <- code
	}()
	review := []string{"hub", "review", "--hub", url, "--hub-creds", filepath.Join(dir, "creds", "r1.nk")}
	var id string
	for i := 0; i < 100 && id == ""; i++ {
		out, errOut, code := deskctl(t, "", append(review, "list")...)
		if code != 0 {
			t.Fatalf("review list: exit %d, %q", code, errOut)
		}
		if m := regexp.MustCompile(`d1/([0-9a-f]{32})  pending  waiting`).FindStringSubmatch(out); m != nil && strings.Contains(out, "f.txt  +1 −0") {
			id = m[1]
		}
		time.Sleep(50 * time.Millisecond)
	}
	if id == "" {
		t.Fatal("the proposal never showed in deskctl hub review list")
	}
	out, errOut, code := deskctl(t, "", append(review, "show", "d1/"+id[:8])...)
	if code != 0 || !strings.Contains(out, "+++ b/f.txt") || !strings.Contains(out, "+from the hub") {
		t.Fatalf("review show: exit %d, %q %q", code, out, errOut)
	}
	m := regexp.MustCompile(`round 1  version ([0-9a-f]{16})`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("review show names no version: %q", out)
	}
	if out, errOut, code := deskctl(t, "", append(review, "--version", "0123456789abcdef", "decide", "d1/"+id[:8], "approve")...); code != 1 || !strings.Contains(errOut, "changed since you saw version 0123456789abcdef") || strings.Contains(out, "approved") {
		t.Fatalf("review decide on another version: exit %d, %q %q; want refused, nothing sent", code, out, errOut)
	}
	out, errOut, code = deskctl(t, "", append(review, "--feedback", "fine", "--version", m[1], "decide", "d1/"+id[:8], "approve")...)
	if code != 0 || !strings.Contains(out, "approved by r1@") || !strings.Contains(out, "(your decision)") || !strings.Contains(out, "wrote "+filepath.Join(root, "f.txt")) {
		t.Fatalf("review decide: exit %d, %q %q", code, out, errOut)
	}
	if c := <-proposed; c != 0 {
		t.Fatalf("propose: exit %d", c)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "f.txt")); string(b) != "from the hub\n" {
		t.Fatalf("f.txt: %q", b)
	}
	if _, errOut, code := deskctl(t, "", append(review, "decide", "d1/"+id, "reject")...); code != 1 || !strings.Contains(errOut, "no proposal") {
		t.Errorf("deciding it again: exit %d, %q", code, errOut)
	}
}

// hubWithUsers makes a hub's directory through deskctl hub init and add
// (a desk d1, a reviewer r1) and picks a free port for it: its dir, port
// and URL. The hub is not started.
func hubWithUsers(t *testing.T) (dir string, port int, url string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "hub")
	for _, args := range [][]string{{"hub", "init", "--dir", dir}, {"hub", "add", "--dir", dir, "--role", "desk", "d1"}, {"hub", "add", "--dir", dir, "--role", "reviewer", "r1"}} {
		if out, errOut, code := deskctl(t, "", args...); code != 0 {
			t.Fatalf("%v: exit %d, %q %q", args, code, out, errOut)
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port = l.Addr().(*net.TCPAddr).Port
	l.Close()
	return dir, port, fmt.Sprintf("nats://127.0.0.1:%d", port)
}
