//go:build unix

package review_test

import (
	"bufio"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/config"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// blockingChecker is a [[checker]] that says "started" on the FIFO fifo
// and then runs for an hour, unless it is killed.
func blockingChecker(fifo string) string {
	return "[[checker]]\nname = \"slow\"\nglob = \"*.go\"\ntimeout = \"1h\"\ncommand = [\"sh\", \"-c\", " +
		strconv.Quote("echo started > '"+fifo+"'; exec sleep 3600") + "]\n"
}

// startedDesk is a desk whose one checker blocks, with a proposal of a.go
// whose check has started.
func startedDesk(t *testing.T) (*reviewtest.Desk, review.Proposal) {
	t.Helper()
	fifo := filepath.Join(t.TempDir(), "started")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	d := reviewtest.NewDesk(t, "", blockingChecker(fifo))
	p := d.MustPropose(t, engine.FormatWrite, "a.go", "package a\n")
	if !p.Files[0].Checks.Running {
		t.Fatalf("Checks of a new proposal = %+v; want running", p.Files[0].Checks)
	}
	waitStarted(t, fifo)
	return d, p
}

// waitStarted waits until a checker process says "started" on the FIFO
// fifo, failing the test after a minute.
func waitStarted(t *testing.T, fifo string) {
	t.Helper()
	started := make(chan error, 1)
	// Ends when a checker process has opened the FIFO and written to it.
	go func() {
		f, err := os.Open(fifo) // blocks until the checker opens it to write
		if err == nil {
			_, err = bufio.NewReader(f).ReadString('\n')
			f.Close()
		}
		started <- err
	}()
	select {
	case err := <-started:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the checker did not start within a minute")
	}
}

// waitChecksEnded fails the test unless every check ends within a
// minute: a check that was not cancelled runs for an hour.
func waitChecksEnded(t *testing.T, d *reviewtest.Desk) {
	t.Helper()
	select {
	case <-d.ChecksEnded():
	case <-time.After(time.Minute):
		t.Fatal("the check was not cancelled: it still runs after a minute")
	}
}

// TestDecidingCancelsChecks: rejecting (or withdrawing) a proposal stops
// its check, killing the checker, and it no longer shows as checking.
func TestDecidingCancelsChecks(t *testing.T) {
	for _, end := range []string{"reject", "withdraw"} {
		t.Run(end, func(t *testing.T) {
			d, p := startedDesk(t)
			if end == "reject" {
				d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Rejected})
			} else if err := d.Withdraw(context.Background(), p.ID, "gone"); err != nil {
				t.Fatal(err)
			}
			waitChecksEnded(t, d)
			got, _ := d.Get(p.ID)
			if c := got.Files[0].Checks; c.Running || c.Reports != nil {
				t.Errorf("Checks after %s = %+v; want none, not running", end, c)
			}
		})
	}
}

// TestNewCheckersSupersedeTheCheck: when the checkers in force change
// (SetConfig, e.g. trusting a repository), the check under way is
// cancelled and the proposal is checked again by the new ones.
func TestNewCheckersSupersedeTheCheck(t *testing.T) {
	needTool(t, "gofmt")
	d, p := startedDesk(t)
	user := filepath.Join(t.TempDir(), "config.toml")
	reviewtest.WriteFile(t, user, "[[checker]]\npreset = \"gofmt\"\n")
	cfg, err := config.LoadTrusting(user, []string{d.Root}, nil) // the blocking checker is the untrusted repo's
	if err != nil {
		t.Fatal(err)
	}
	d.SetConfig(cfg)
	waitChecksEnded(t, d)
	f := reviewtest.WaitChecks(t, d.Desk, p.ID, filepath.Join(d.Root, "a.go"))
	if len(f.Checks.Reports) != 1 || f.Checks.Reports[0].Checker != "gofmt" || f.Checks.Reports[0].Err != nil {
		t.Errorf("Checks after SetConfig = %+v; want gofmt's clean report only", f.Checks)
	}
}

// TestCloseStopsChecks: closing the desk kills the checks under way.
func TestCloseStopsChecks(t *testing.T) {
	d, _ := startedDesk(t)
	done := make(chan error, 1)
	// Ends when Close returns.
	go func() { done <- d.Close() }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("Close did not stop the check within a minute")
	}
}

// slowOnChecker is a [[checker]] that passes text on stdin unless it
// holds "SLOW": then it says "started" on the FIFO fifo and runs for an
// hour, unless it is killed.
func slowOnChecker(fifo string) string {
	return "[[checker]]\nname = \"slow\"\nglob = \"*.go\"\ntimeout = \"1h\"\ncommand = [\"sh\", \"-c\", " +
		strconv.Quote("grep -q SLOW || exit 0; echo started > '"+fifo+"'; exec sleep 3600") + "]\n"
}

// TestCheckTextIsCancelled: a check of the person's edit ends, its
// checker killed, when its caller cancels it, when the proposal is
// decided, and when the desk closes; each says it was cancelled.
func TestCheckTextIsCancelled(t *testing.T) {
	for _, end := range []string{"cancel", "reject", "close"} {
		t.Run(end, func(t *testing.T) {
			fifo := filepath.Join(t.TempDir(), "started")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Fatal(err)
			}
			d := reviewtest.NewDesk(t, "", slowOnChecker(fifo))
			p := d.MustPropose(t, engine.FormatWrite, "a.go", "package a\n")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			result := make(chan error, 1)
			// Ends when CheckText returns.
			go func() {
				_, err := d.CheckText(ctx, p.ID, "a.go", "package a // SLOW\n")
				result <- err
			}()
			waitStarted(t, fifo)
			switch end {
			case "cancel":
				cancel()
			case "reject":
				d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Rejected})
			case "close":
				go d.Close() // ends once the checks have ended
			}
			select {
			case err := <-result:
				if !errors.Is(err, context.Canceled) {
					t.Errorf("CheckText after %s = %v; want it cancelled", end, err)
				}
			case <-time.After(time.Minute):
				t.Fatalf("CheckText still runs a minute after %s", end)
			}
			waitChecksEnded(t, d)
		})
	}
}
