//go:build unix

package ide

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/config"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestIDEDoorWriteWatchReadsTheDiskBounded: the door's watch after an
// approval reads a file the agent chose by then. An agent (with a shell)
// that puts a FIFO where the approved file was must not hang the watch —
// it opened the FIFO and waited for a writer for ever, so the approval
// was never recorded as not written and closing the doors (the desk's
// shutdown) hung on it; a link to /dev/zero was read until memory ran
// out. The file is read as the desk reads files: a FIFO is not a file
// that holds the approved text.
func TestIDEDoorWriteWatchReadsTheDiskBounded(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path := filepath.Join(d.Root, "a.txt")
	reviewtest.WriteFile(t, path, "old\n")
	pending := pendingProposals(t, d.Desk)
	doors, err := Start(context.Background(), d.Desk, Options{
		Doors:          config.Doors{Gemini: true},
		GeminiDir:      filepath.Join(t.TempDir(), "gemini", "ide"),
		AgentWriteWait: 300 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	closed := make(chan struct{})
	cs, got := dialGemini(t, doorStatus(t, doors, "gemini-cli"))
	if _, err := callTool(reviewtest.Context(t), cs, "openDiff", geminiOpenDiffArgs{FilePath: path, NewContent: "new\n"}); err != nil {
		t.Fatal(err)
	}
	id := next(t, pending, "the proposal")
	d.MustDecide(t, id, review.Decision{Verdict: decision.Approved})
	next(t, got, "the door's answer")
	// The agent swaps a FIFO in for the file instead of writing it.
	os.Remove(path)
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	o, _ := d.Outcome(id)
	for o.Status != decision.Failed && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		o, _ = d.Outcome(id)
	}
	if o.Status != decision.Failed || !strings.Contains(agenttext.Outcome(o), "not") {
		t.Errorf("outcome %s (%s); want failed: a FIFO does not hold the approved text", o.Status, agenttext.Outcome(o))
	}
	go func() { doors.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		// Let the stuck open return, so the test process can end.
		if f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
		t.Fatal("closing the doors hung: the write watch waits on the FIFO")
	}
}
