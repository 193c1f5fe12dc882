package deskrpc

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
	c := serveAndWait(t, d)
	id := c.id
	c.close()
	if err := <-c.answer; err == nil || !strings.Contains(err.Error(), "nothing was written") {
		t.Fatalf("the waiting agent got %v; want told nothing was written", err)
	}
	if _, err := d.Decide(context.Background(), id, review.Decision{Verdict: decision.Approved}); err == nil {
		t.Error("a decision after the agent was told nothing was written was carried out")
	}
	if _, err := os.Stat(filepath.Join(d.Root, "a.txt")); err == nil {
		t.Errorf("a.txt was written after its agent was told nothing was")
	}
	if err := <-c.done; err != nil {
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
