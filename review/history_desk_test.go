package review_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/journal"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestHistoryOfDeskDecisions drives the real desk — an edited approval
// with a formatter, a rejection — and checks that history shows each
// decision with the person's edits, the formatter's changes and the
// reason, and that restoring through the journal undoes the write.
func TestHistoryOfDeskDecisions(t *testing.T) {
	ctx := context.Background()
	d := reviewtest.NewDesk(t, "", "[[formatter]]\nglob = \"*.txt\"\ncommand = [\"tr\", \"a-z\", \"A-Z\"]\n")
	path := filepath.Join(d.Root, "a.txt")
	reviewtest.WriteFile(t, path, "START\n")
	p := d.MustPropose(t, engine.FormatWrite, "a.txt", "proposed\n")
	o := d.MustDecide(t, p.ID, review.Decision{Verdict: journal.ApprovedEdited, Edited: map[string]string{path: "edited\n"}, Feedback: "my words"})
	r := d.MustPropose(t, engine.FormatWrite, "a.txt", "rejected\n")
	d.MustDecide(t, r.ID, review.Decision{Verdict: journal.Rejected, Feedback: "no thanks"})

	page, err := d.Journal.History(ctx, journal.Filter{File: path})
	if err != nil {
		t.Fatal(err)
	}
	want := []journal.Ref{"d2", journal.Ref(fmt.Sprint(o.Checkpoint))}
	var got []journal.Ref
	for _, e := range page.Entries {
		got = append(got, e.Ref)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("History(a.txt) = %v; want the rejection then checkpoint %d", got, o.Checkpoint)
	}
	if e := page.Entries[0]; e.Decision != journal.Rejected || e.Feedback != "no thanks" || e.Agent != "test" {
		t.Errorf("rejection entry = %+v", e)
	}
	detail, err := d.Journal.Detail(ctx, page.Entries[1].Ref)
	if err != nil {
		t.Fatal(err)
	}
	if detail.Decision != journal.ApprovedEdited || detail.Feedback != "my words" || len(detail.Outcome) == 0 {
		t.Errorf("Detail = %+v; want approved-edited with the note and the outcome", detail.Entry)
	}
	f := detail.Files[0]
	stages := []struct {
		name, hash, want string
	}{{"base", f.Base, "START\n"}, {"proposed", f.Proposed, "proposed\n"}, {"approved", f.Approved, "edited\n"},
		{"formatted", f.Formatted, "EDITED\n"}, {"final", f.Final, "EDITED\n"}, {"before", f.Before, "START\n"}}
	for _, s := range stages {
		got, err := d.Journal.Blob(ctx, s.hash)
		if err != nil || string(got) != s.want {
			t.Errorf("history %s = %q, %v; want %q", s.name, got, err, s.want)
		}
	}
	edits, err := d.Journal.DiffStage(ctx, path, "proposed", f.Proposed, "approved", f.Approved)
	if err != nil || !strings.Contains(edits.Unified, "-proposed\n+edited\n") {
		t.Errorf("person's edits = %q, %v", edits.Unified, err)
	}

	plan, err := d.Journal.PlanRestore(ctx, journal.RestoreRequest{Checkpoint: o.Checkpoint})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Journal.ApplyRestore(ctx, plan); err != nil {
		t.Fatal(err)
	}
	if got := reviewtest.ReadFile(t, path); got != "START\n" {
		t.Errorf("after restoring to before checkpoint %d: %q; want START", o.Checkpoint, got)
	}
}
