//go:build unix

package review_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestFormattingCheckStopsOnDecision: rejecting a proposal while its
// formatter runs kills the formatter.
func TestFormattingCheckStopsOnDecision(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	d := reviewtest.NewDesk(t, "", "[[formatter]]\nglob = \"*.go\"\ncommand = [\"sh\", \"-c\", \"echo $$ >> "+pidFile+"; exec sleep 120\"]\ntimeout = \"5m\"\n")
	reviewtest.WriteFile(t, filepath.Join(d.Root, "app.go"), "package app\n")
	p := d.MustPropose(t, engine.FormatWrite, "app.go", "package app\n\nvar X = 1\n")
	var pid int
	until(t, "the formatter starts", func() bool {
		b, _ := os.ReadFile(pidFile)
		pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		return pid > 0
	})
	d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Rejected})
	until(t, "the formatter is killed", func() bool {
		return syscall.Kill(pid, 0) != nil
	})
}

// until polls cond (at most a minute).
func until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
