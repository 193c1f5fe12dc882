package deskrpc

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestDeskClosingAnswersTheWaitingAgent: when the desk stops (its window
// closed) an agent waiting on its proposal is told the desk closed and
// nothing was written, with code -32005, not a bare EOF.
func TestDeskClosingAnswersTheWaitingAgent(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	dir, err := os.MkdirTemp("", "dd")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	l, err := Listen(filepath.Join(dir, "desk.sock"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- NewServer(d.Desk).Serve(ctx, l) }()
	cl, err := Dial(filepath.Join(dir, "desk.sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	answer := make(chan error, 1)
	go func() {
		req := review.Request{Agent: "a", Format: engine.FormatWrite, Path: filepath.Join(d.Root, "a.txt"), Payload: "x\n"}
		answer <- cl.Call(context.Background(), "propose", struct {
			review.Request
			Wait bool `json:"wait"`
		}{req, true}, nil)
	}()
	for len(d.List()) == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	err = <-answer
	var re *rpcError
	if err == nil || !strings.Contains(err.Error(), "the desk closed before proposal") || !strings.Contains(err.Error(), "nothing was written") {
		t.Fatalf("the waiting agent got %v; want told the desk closed and nothing was written", err)
	}
	if e, ok := err.(*rpcError); ok {
		re = e
	}
	if re == nil || re.Code != codeClosed {
		t.Errorf("error %#v; want code %d", err, codeClosed)
	}
	if err := <-done; err != nil {
		t.Errorf("Serve: %v", err)
	}
}
