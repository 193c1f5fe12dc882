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
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestDeskClosingMeansNothingIsWritten: an agent told, as the desk
// closes, that nothing was written can rely on it — a decision arriving
// after (from a hub still linked while the desk stops, as deskctl serve
// --hub unlinks last) is refused and writes nothing. Every desk of a fleet
// restarted at once found files written whose agents had been told
// nothing was, proposed again and were told "rejected".
func TestDeskClosingMeansNothingIsWritten(t *testing.T) {
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
	path := filepath.Join(d.Root, "a.txt")
	answer := make(chan error, 1)
	go func() {
		req := review.Request{Agent: "a", Format: engine.FormatWrite, Path: path, Payload: "x\n"}
		answer <- cl.Call(context.Background(), "propose", struct {
			review.Request
			Wait bool `json:"wait"`
		}{req, true}, nil)
	}()
	for len(d.List()) == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	id := d.List()[0].ID
	cancel()
	if err := <-answer; err == nil || !strings.Contains(err.Error(), "nothing was written") {
		t.Fatalf("the waiting agent got %v; want told nothing was written", err)
	}
	if _, err := d.Decide(context.Background(), id, review.Decision{Verdict: decision.Approved}); err == nil {
		t.Error("a decision after the agent was told nothing was written was carried out")
	}
	if _, err := os.Stat(path); err == nil {
		t.Errorf("a.txt was written after its agent was told nothing was")
	}
	if err := <-done; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

// TestProposeCutByTheDeskClosing: a propose the desk was recording when it
// closed (its journal's work cancelled) is answered as the desk closing,
// -32006, nothing written — not as the journal's own error, which an
// agent would take for a fault of its edit. No proposal is left behind.
func TestProposeCutByTheDeskClosing(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	cc := &conn{s: NewServer(d.Desk), owned: map[string]bool{}, made: map[string]bool{}, flow: newFlow()}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // closed as the journal records it
	payload := "x\n"
	_, err := cc.propose(ctx, proposeParams{Request: review.Request{Agent: "a", Format: engine.FormatWrite, Path: filepath.Join(d.Root, "a.txt")}, Payload: &payload, Wait: true})
	re, ok := err.(*rpcError)
	if !ok || re.Code != codeClosed || !strings.Contains(re.Message, "nothing was written") {
		t.Fatalf("propose as the desk closes: %v; want code %d, nothing written", err, codeClosed)
	}
	if n := len(d.List()); n != 0 {
		t.Errorf("%d proposals left behind", n)
	}
}
