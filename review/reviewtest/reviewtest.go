// Package reviewtest provides a desk over a temporary workspace, and the
// small helpers its tests share, for the tests of review and of the
// packages built on it (the doors, the protocol server, start-up).
package reviewtest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/config"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/internal/diffcount"
	"github.com/diffdesk/diffdesk/review/journal"
)

// Desk is a desk over a fresh workspace in a temporary directory, with its
// own journal.
type Desk struct {
	*review.Desk
	Root    string // the workspace root, symlinks resolved
	Journal *journal.Journal
}

// NewDesk starts a desk over a temporary workspace; unattended is
// Options.Unattended ("" for a person). toml, if not empty, is written to
// the workspace's .diffdesk.toml first, and trusted, so its rules apply.
// The desk and journal close when the test ends.
func NewDesk(t testing.TB, unattended decision.Verdict, toml string) *Desk {
	t.Helper()
	root := t.TempDir()
	if toml != "" {
		WriteFile(t, filepath.Join(root, config.FileName), toml)
	}
	cfg, err := config.LoadTrusting("", []string{root}, func(string, string) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	j, err := journal.Open(context.Background(), filepath.Join(t.TempDir(), "journal.db"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := review.NewDesk(review.Options{FailureText: agenttext.Failure, Roots: []string{root}, Config: cfg, Journal: j, Unattended: unattended})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		d.Close()
		j.Close()
	})
	return &Desk{Desk: d, Root: d.Roots()[0], Journal: j}
}

// PersonAtDesk makes a person attend d (review.Desk.Attend) until the test
// ends, as the window does: failures a person could place are held.
func (d *Desk) PersonAtDesk(t testing.TB) {
	leave := d.Attend()
	t.Cleanup(leave)
}

// MustPropose proposes an edit of rel as the agent "test" and fails the
// test if the desk refuses it.
func (d *Desk) MustPropose(t testing.TB, format engine.Format, rel, payload string) review.Proposal {
	t.Helper()
	p, err := d.Propose(context.Background(), review.Request{Agent: "test", Format: format, Path: rel, Payload: payload})
	if err != nil {
		t.Fatalf("Propose(%s %s): %v", format, rel, err)
	}
	return p
}

// MustDecide decides and fails the test if the decision is not carried out.
func (d *Desk) MustDecide(t testing.TB, id string, dec review.Decision) review.Outcome {
	t.Helper()
	o, err := d.Decide(context.Background(), id, dec)
	if err != nil {
		t.Fatalf("Decide(%s, %s): %v", id, dec.Verdict, err)
	}
	return o
}

// WaitOutcome waits (at most 10 s) for the outcome of proposal id.
func WaitOutcome(t testing.TB, d *review.Desk, id string) review.Outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	o, err := d.Wait(ctx, id)
	if err != nil {
		t.Fatalf("Wait(%s): %v", id, err)
	}
	return o
}

// SR is one Cline SEARCH/REPLACE block.
func SR(search, replace string) string {
	return "------- SEARCH\n" + search + "=======\n" + replace + "+++++++ REPLACE\n"
}

// WriteFile writes content to path, creating its directories.
func WriteFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// ReadFile returns the content of path.
func ReadFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Context is a context that ends after a minute or with the test.
func Context(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// WaitChecks waits (at most a minute: go vet may build a package) until
// the check of file path of proposal id has finished, and returns the
// proposal's file.
func WaitChecks(t testing.TB, d *review.Desk, id, path string) review.File {
	t.Helper()
	return WaitFile(t, d, id, path, "a finished check", func(f review.File) bool { return !f.Checks.Running && f.Checks.Reports != nil })
}

// WaitFile waits (at most a minute) until file path of proposal id is
// done, as done tells (what says what it waits for), and returns the file.
func WaitFile(t testing.TB, d *review.Desk, id, path, what string, done func(review.File) bool) review.File {
	t.Helper()
	changed := make(chan struct{}, 1)
	cancel := d.Subscribe(func(ev review.Event) {
		if ev.ID == id {
			select {
			case changed <- struct{}{}:
			default:
			}
		}
	})
	defer cancel()
	deadline := time.After(time.Minute)
	for {
		p, ok := d.Get(id)
		if !ok {
			t.Fatalf("waiting for %s: no proposal %s", what, id)
		}
		for _, f := range p.Files {
			if f.Path == path && done(f) {
				return f
			}
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("waiting for %s of %s in %s: none after a minute; the files: %+v", what, path, id, p.Files)
		}
	}
}

// ThreeChanges is a base of 30 lines and a proposal changing lines 2, 15
// and 28: three hunks far apart.
func ThreeChanges() (base, proposed string) {
	var b, p strings.Builder
	for i := 1; i <= 30; i++ {
		line := "line " + strings.Repeat("x", i%7) + "\n"
		b.WriteString(line)
		if i == 2 || i == 15 || i == 28 {
			line = "changed " + line
		}
		p.WriteString(line)
	}
	return b.String(), p.String()
}

// CountDiffs returns a count of the diffs of a file's base and proposed
// texts made from now until the test ends: a window's test shows the file
// it shows and decides is not diffed again (its File carries its hunks).
func CountDiffs(t testing.TB) *atomic.Int64 { return diffcount.Count(t) }
