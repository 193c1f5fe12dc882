package startup

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/deskrpc"
	"github.com/diffdesk/diffdesk/review/ide"
	"github.com/diffdesk/diffdesk/review/journal"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// testConfig is a desk over a fresh workspace whose user config sets a
// settle window, so an approved write stays in flight (journaled, not yet
// finished) for that long.
func testConfig(t *testing.T, settle string) Options {
	t.Helper()
	dir := t.TempDir()
	root := filepath.Join(dir, "ws")
	reviewtest.WriteFile(t, filepath.Join(root, "a.txt"), "old\n")
	user := filepath.Join(dir, "config.toml")
	reviewtest.WriteFile(t, user, "[desk]\nsettle = \""+settle+"\"\n")
	sock, err := os.MkdirTemp("", "dd-startup")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(sock) })
	return Options{
		Roots: []string{root}, Socket: filepath.Join(sock, "desk.sock"),
		Journal: filepath.Join(dir, "journal.db"), Config: user,
		Doors: ide.Options{ClaudeLockDir: t.TempDir(), GeminiDir: t.TempDir()},
	}
}

// TestSecondDeskTouchesNothing starts a second desk on the socket and
// journal of a live one while the live desk waits out its settle window
// after approving a write: the second desk must stop at the socket (before
// the config, before recovering the journal), and the first desk's
// waiting agent must get its answer.
func TestSecondDeskTouchesNothing(t *testing.T) {
	c := testConfig(t, "3s")
	a, err := Start(c)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Stop()
	if err := a.Serve(); err != nil {
		t.Fatal(err)
	}
	ctx := reviewtest.Context(t)

	// The agent proposes over the socket and waits for the outcome.
	cl, err := deskrpc.Dial(c.Socket)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	type answer struct {
		Outcome *review.Outcome `json:"outcome"`
	}
	answered := make(chan answer, 1)
	go func() {
		var r answer
		if err := cl.Call(ctx, "propose", map[string]any{"format": engine.FormatWrite, "path": "a.txt", "payload": "new\n", "wait": true}, &r); err != nil {
			t.Errorf("propose: %v", err)
		}
		answered <- r
	}()
	id := waitFor(t, func() string {
		for _, p := range a.Desk.List() {
			if p.State == review.StatePending {
				return p.ID
			}
		}
		return ""
	})
	// The person approves; the write is journaled and on disk, and the
	// desk waits out the settle window before finishing it.
	decided := make(chan error, 1)
	go func() {
		_, err := a.Desk.Decide(context.Background(), id, review.Decision{Verdict: decision.Approved})
		decided <- err
	}()
	cp := waitFor(t, func() int64 {
		cps, err := a.Journal.Checkpoints(ctx, journal.CheckpointFilter{State: journal.WriteIntended})
		if err != nil || len(cps) == 0 {
			return 0
		}
		return cps[0].ID
	})

	// A second desk whose config does not even parse stops at the socket:
	// it never got as far as reading the config.
	broken := c
	broken.Config = filepath.Join(t.TempDir(), "broken.toml")
	reviewtest.WriteFile(t, broken.Config, "this is [not toml\n")
	if b, err := Start(broken); !errors.Is(err, deskrpc.ErrDeskRunning) {
		if b != nil {
			b.Stop()
		}
		t.Fatalf("second desk with a broken config: %v; want deskrpc.ErrDeskRunning before the config is read", err)
	}
	// The same with the live desk's own config and journal.
	if b, err := Start(c); !errors.Is(err, deskrpc.ErrDeskRunning) {
		if b != nil {
			b.Stop()
		}
		t.Fatalf("second desk: %v; want deskrpc.ErrDeskRunning", err)
	}
	if got, err := a.Journal.Checkpoint(ctx, cp); err != nil || got.State != journal.WriteIntended {
		t.Fatalf("checkpoint %d after the second desk gave up: %+v, %v; want still intended (the second desk must not recover it)", cp, got, err)
	}
	if _, err := os.Stat(c.Socket); err != nil {
		t.Fatalf("socket after the second desk gave up: %v; want the live desk's socket kept", err)
	}

	if err := <-decided; err != nil {
		t.Fatalf("Decide: %v", err)
	}
	r := <-answered
	if r.Outcome == nil || r.Outcome.Status != decision.Approved || r.Outcome.Checkpoint != cp {
		t.Fatalf("the agent's answer = %+v; want approved with checkpoint %d", r.Outcome, cp)
	}
	if got, err := a.Journal.Checkpoint(ctx, cp); err != nil || got.State != journal.WriteWritten {
		t.Errorf("checkpoint %d at the end: %+v, %v; want written", cp, got, err)
	}
	if got := reviewtest.ReadFile(t, filepath.Join(a.Desk.Roots()[0], "a.txt")); got != "new\n" {
		t.Errorf("a.txt = %q; want the approved content", got)
	}
}

// TestStartStopRemovesSocket checks the summary and that Stop leaves no
// socket behind, so the next desk starts cleanly.
func TestStartStopRemovesSocket(t *testing.T) {
	c := testConfig(t, "0s")
	c.Unattended = decision.Rejected
	b, err := Start(c)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Serve(); err != nil {
		t.Fatal(err)
	}
	sum := b.Summary()
	for _, want := range []string{"listening on " + c.Socket, "journal: " + c.Journal, "every edit is rejected", "door claude-code", "door gemini-cli"} {
		if !strings.Contains(sum, want) {
			t.Errorf("Summary() = %q; want it to contain %q", sum, want)
		}
	}
	if err := b.Stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(c.Socket); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("socket after Stop: %v; want it removed", err)
	}
	again, err := Start(c)
	if err != nil {
		t.Fatalf("Start after Stop: %v", err)
	}
	again.Stop()
}

func TestStopBeforeServing(t *testing.T) {
	c := testConfig(t, "0s")
	b, err := Start(c)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Stop(); err != nil {
		t.Errorf("Stop before Serve: %v", err)
	}
	if _, err := os.Stat(c.Socket); !errors.Is(err, os.ErrNotExist) {
		t.Error("the socket is left behind")
	}
}

// waitFor polls f until it returns a non-zero value, for at most a minute.
func waitFor[T comparable](t *testing.T, f func() T) T {
	t.Helper()
	var zero T
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if v := f(); v != zero {
			return v
		}
	}
	t.Fatal("timed out")
	return zero
}
