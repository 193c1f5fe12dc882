package review_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/journal"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestFileChangedWhileTheFormatterRunsIsNotOverwritten: the file is saved
// by someone else while the formatter runs on the approved text (here the
// formatter itself saves it, so no timing is involved). The decision stops
// stale: nothing is written over that change, nothing is journaled, and
// approving over the disk the person now sees writes the merge (real
// window: a 4-second formatter, an editor's save meanwhile written over,
// the agent told "saved as proposed").
func TestFileChangedWhileTheFormatterRunsIsNotOverwritten(t *testing.T) {
	// A new file: the background look for formatting-only hunks runs only
	// on existing files, so the formatter runs once, at the decision.
	d := reviewtest.NewDesk(t, "", "[[formatter]]\nglob = \"*.txt\"\ncommand = [\"sh\", \"-c\", \"printf 'saved by someone else\\\\n' > \\\"$1\\\"; cat\", \"sh\", \"{path}\"]\n")
	path := filepath.Join(d.Root, "a.txt")
	p := d.MustPropose(t, engine.FormatWrite, "a.txt", "from the agent\n")
	_, err := d.Decide(context.Background(), p.ID, review.Decision{Verdict: decision.Approved})
	var se *review.StaleError
	if !errors.As(err, &se) {
		t.Fatalf("Decide: %v; want a StaleError: the file changed while the formatter ran", err)
	}
	if got := reviewtest.ReadFile(t, path); got != "saved by someone else\n" {
		t.Errorf("a.txt = %q; want the change made while the formatter ran, not written over", got)
	}
	if got, _ := d.Get(p.ID); got.State != review.StateStale {
		t.Errorf("proposal %s; want stale, for the person to review base / disk / proposal", got.State)
	}
	if _, ok := d.Outcome(p.ID); ok {
		t.Error("the proposal has an outcome: the agent would be told of a write that did not happen")
	}
	page, err := d.Journal.History(context.Background(), journal.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Entries) != 0 {
		t.Errorf("the journal holds %+v; want nothing for a decision that stopped", page.Entries)
	}
}
