package main

import (
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/deskrpc"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestBridgeCarriesTheProtocol: a client on the far end of deskctl
// bridge's stdio is a reviewer of the desk like one on its socket; when
// its side ends, the bridge exits 0.
func TestBridgeCarriesTheProtocol(t *testing.T) {
	d, sock := serveTestDesk(t)
	reviewtest.WriteFile(t, filepath.Join(d.Root, "a.txt"), "a\n")
	p := d.MustPropose(t, engine.FormatWrite, "a.txt", "A\n")

	inR, inW := io.Pipe()   // the window's requests → bridge's stdin
	outR, outW := io.Pipe() // bridge's stdout → the window
	var stderr strings.Builder
	exit := make(chan int, 1)
	go func() {
		exit <- run([]string{"bridge", "--socket", sock}, inR, outW, &stderr)
		outW.Close()
	}()
	cl := deskrpc.NewClient(struct {
		io.Reader
		io.Writer
		io.Closer
	}{outR, inW, inW})
	ctx := reviewtest.Context(t)
	if err := cl.Call(ctx, "hello", map[string]any{"protocol": 1, "agent": "diffdesk", "session": "far", "role": "reviewer"}, nil); err != nil {
		t.Fatal(err)
	}
	sub, err := cl.Subscribe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(sub.Proposals) != 1 || sub.Proposals[0].ID != p.ID {
		t.Fatalf("the queue through the bridge: %+v; want %s", sub.Proposals, p.ID)
	}
	if err := cl.Call(ctx, "decide", map[string]any{"id": p.ID, "decision": "approve"}, nil); err != nil {
		t.Fatal(err)
	}
	if got := reviewtest.ReadFile(t, filepath.Join(d.Root, "a.txt")); got != "A\n" {
		t.Errorf("a.txt after approving through the bridge: %q", got)
	}
	for {
		ev, err := sub.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if ev.ID == p.ID && ev.Kind == "decided" {
			break
		}
	}
	inW.Close()
	if code := <-exit; code != 0 {
		t.Errorf("bridge exit code %d after its stdin ended; want 0 (stderr %q)", code, stderr.String())
	}
}

// TestBridgeWithoutADesk: no desk on the socket is exit 1 and says how to
// start one.
func TestBridgeWithoutADesk(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "none.sock")
	var stdout, stderr strings.Builder
	code := run([]string{"bridge", "--socket", sock}, strings.NewReader(""), &stdout, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "no desk is running") || !strings.Contains(stderr.String(), "deskctl serve") {
		t.Errorf("bridge without a desk: exit %d, stderr %q; want 1, no desk is running … deskctl serve", code, stderr.String())
	}
}
