package deskrpc

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestDeskClosingNeverSaysNothingWrittenOfAnApprovalUnderWay: a desk that
// closes while an approval is being carried out waits for it at most
// closingGrace. One that takes longer (its formatters, each with its own
// timeout, one file after another) was answered "nothing was written" —
// and then written: the agent, told to propose again, applied its edit
// twice. Past the grace the agent is told it may yet be written.
func TestDeskClosingNeverSaysNothingWrittenOfAnApprovalUnderWay(t *testing.T) {
	old := closingGrace
	closingGrace = 50 * time.Millisecond
	defer func() { closingGrace = old }()
	d := reviewtest.NewDesk(t, "", "[[formatter]]\nglob = \"*.txt\"\ncommand = [\"sh\", \"-c\", \"sleep 1; cat\"]\n")
	c := serveAndWait(t, d)
	id := c.id
	decided := make(chan error, 1)
	go func() {
		_, err := d.Decide(context.Background(), id, review.Decision{Verdict: decision.Approved})
		decided <- err
	}()
	for p, _ := d.Get(id); p.State != review.StateDecided; p, _ = d.Get(id) {
		time.Sleep(5 * time.Millisecond) // the approval is under way: its formatter runs
	}
	c.close()
	told := <-c.answer
	if err := <-decided; err != nil {
		t.Fatalf("the approval: %v", err)
	}
	_, statErr := os.Stat(filepath.Join(d.Root, "a.txt"))
	if told != nil && strings.Contains(told.Error(), "nothing was written") && statErr == nil {
		t.Errorf("the agent was told %q, and a.txt was written", told)
	}
	if told == nil || !strings.Contains(told.Error(), "may yet be written") {
		t.Errorf("the agent was told %v; want that its approval was under way and may yet be written", told)
	}
	if err := <-c.done; err != nil {
		t.Errorf("Serve: %v", err)
	}
}
