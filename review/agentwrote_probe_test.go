package review_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestAgentWroteReadsTheDiskBounded: agentWrote makes the desk read the
// approved files again, and the agent chooses what is there by then. A
// FIFO put in place of the file (os.ReadFile waited on it for good, one
// goroutine and descriptor per call) or a link to /dev/zero (read until the
// desk ran out of memory) is read as every other file is: at most the size
// limit, opened without waiting, refused as not a file — so the approval is
// recorded as not written, at once.
func TestAgentWroteReadsTheDiskBounded(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path := filepath.Join(d.Root, "a.txt")
	for _, c := range []struct {
		name  string
		plant func() error
	}{
		{"fifo", func() error { return syscall.Mkfifo(path, 0o600) }},
		{"link to /dev/zero", func() error { return os.Symlink("/dev/zero", path) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			reviewtest.WriteFile(t, path, "one\n")
			p, err := d.Propose(context.Background(), review.Request{Agent: "cline", Session: "t1", Format: engine.FormatWrite, Path: "a.txt", Payload: "ONE\n", AgentWrites: true})
			if err != nil {
				t.Fatal(err)
			}
			d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Approved})
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			if err := c.plant(); err != nil {
				t.Fatal(err)
			}
			defer os.Remove(path)
			done := make(chan review.Outcome, 1)
			go func() {
				o, err := d.AgentWrote(context.Background(), p.ID, "")
				if err != nil {
					t.Error(err)
				}
				done <- o
			}()
			select {
			case o := <-done:
				if o.Status != decision.Failed || !strings.Contains(agenttext.Outcome(o), "not written") {
					t.Errorf("outcome %s %q; want failed, not written", o.Status, agenttext.Outcome(o))
				}
			case <-time.After(20 * time.Second):
				t.Fatal("AgentWrote is still reading the file the agent put in place (a FIFO waited on, /dev/zero read whole)")
			}
		})
	}
}
