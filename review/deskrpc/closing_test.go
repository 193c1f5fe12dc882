package deskrpc

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// closing is a desk served on its own socket, with one agent's proposal
// of a.txt waiting on it, for the tests of what a closing desk tells that
// agent: close stops the server as a closing window does.
type closing struct {
	id     string     // the waiting proposal
	answer chan error // what its agent is told
	done   chan error // Serve's return
	close  context.CancelFunc
}

func serveAndWait(t *testing.T, d *reviewtest.Desk) closing {
	t.Helper()
	dir, err := os.MkdirTemp("", "dd")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	l, err := Listen(filepath.Join(dir, "desk.sock"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	c := closing{answer: make(chan error, 1), done: make(chan error, 1), close: cancel}
	go func() { c.done <- NewServer(d.Desk).Serve(ctx, l) }()
	cl, err := Dial(filepath.Join(dir, "desk.sock"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close() })
	go func() {
		req := review.Request{Agent: "a", Format: engine.FormatWrite, Path: filepath.Join(d.Root, "a.txt"), Payload: "x\n"}
		c.answer <- cl.Call(context.Background(), "propose", struct {
			review.Request
			Wait bool `json:"wait"`
		}{req, true}, nil)
	}()
	for len(d.List()) == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	c.id = d.List()[0].ID
	return c
}
