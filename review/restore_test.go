package review_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/config"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/journal"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestRestoreThroughTheDesk: the desk restores a checkpoint itself (a dry
// run first), and a proposal waiting on the restored file is stale: it
// cannot be approved over the restore.
func TestRestoreThroughTheDesk(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path := filepath.Join(d.Root, "a.txt")
	reviewtest.WriteFile(t, path, "one\n")
	o := d.MustDecide(t, d.MustPropose(t, engine.FormatWrite, "a.txt", "two\n").ID, review.Decision{Verdict: decision.Approved})
	waiting := d.MustPropose(t, engine.FormatWrite, "a.txt", "three\n")
	ctx := context.Background()
	plan, _, err := d.Restore(ctx, journal.RestoreRequest{Checkpoint: o.Checkpoint}, false)
	if err != nil || len(plan.Files) != 1 || plan.Files[0].Action != journal.RestoreWrite || reviewtest.ReadFile(t, path) != "two\n" {
		t.Fatalf("dry run: %+v, %v; file %q", plan, err, reviewtest.ReadFile(t, path))
	}
	_, res, err := d.Restore(ctx, journal.RestoreRequest{Checkpoint: o.Checkpoint}, true)
	if err != nil || res.Checkpoint == 0 {
		t.Fatalf("restore: %+v, %v", res, err)
	}
	if got := reviewtest.ReadFile(t, path); got != "one\n" {
		t.Errorf("restored file %q; want one", got)
	}
	reviewtest.WaitFile(t, d.Desk, waiting.ID, path, "stale", review.File.Stale)
	if _, err := d.Decide(ctx, waiting.ID, review.Decision{Verdict: decision.Approved}); err == nil {
		t.Error("approved over the restore")
	}
}

// TestRestoreRefusesAnotherWorkspace: a desk restores only files of its
// own workspace, whatever the journal holds.
func TestRestoreRefusesAnotherWorkspace(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path := filepath.Join(d.Root, "a.txt")
	reviewtest.WriteFile(t, path, "one\n")
	o := d.MustDecide(t, d.MustPropose(t, engine.FormatWrite, "a.txt", "two\n").ID, review.Decision{Verdict: decision.Approved})
	other := t.TempDir()
	cfg, err := config.LoadTrusting("", []string{other}, func(string, string) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	e, err := review.NewDesk(review.Options{FailureText: agenttext.Failure, Roots: []string{other}, Config: cfg, Journal: d.Journal})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, _, err := e.Restore(context.Background(), journal.RestoreRequest{Checkpoint: o.Checkpoint}, true); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("restore of another workspace's file: %v; want a refusal naming it", err)
	}
	if got := reviewtest.ReadFile(t, path); got != "two\n" {
		t.Errorf("file %q; want it left alone", got)
	}
}
