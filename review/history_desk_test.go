package review

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
)

// TestHistoryOfDeskDecisions drives the real desk — an edited approval
// with a formatter, a rejection — and checks that history shows each
// decision with the person's edits, the formatter's changes and the
// reason, and that restoring through the journal undoes the write.
func TestHistoryOfDeskDecisions(t *testing.T) {
	ctx := context.Background()
	d := newTestDesk(t, "", "[[formatter]]\nglob = \"*.txt\"\ncommand = [\"tr\", \"a-z\", \"A-Z\"]\n")
	path := filepath.Join(d.root, "a.txt")
	writeFile(t, path, "START\n")
	p := d.propose(t, engine.FormatWrite, "a.txt", "proposed\n")
	o := d.decide(t, p.ID, Decision{Kind: DecideApproveEdited, Edited: map[string]string{path: "edited\n"}, Feedback: "my words"})
	r := d.propose(t, engine.FormatWrite, "a.txt", "rejected\n")
	d.decide(t, r.ID, Decision{Kind: DecideReject, Feedback: "no thanks"})

	page, err := d.journal.History(ctx, HistoryFilter{File: path})
	if err != nil {
		t.Fatal(err)
	}
	want := []HistoryRef{"d2", HistoryRef(fmt.Sprint(o.Checkpoint))}
	if got := refs(page.Entries); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("History(a.txt) = %v; want the rejection then checkpoint %d", got, o.Checkpoint)
	}
	if e := page.Entries[0]; e.Decision != DecisionRejected || e.Feedback != "no thanks" || e.Agent != "test" {
		t.Errorf("rejection entry = %+v", e)
	}
	detail, err := d.journal.HistoryDetail(ctx, page.Entries[1].Ref)
	if err != nil {
		t.Fatal(err)
	}
	if detail.Decision != DecisionApprovedEdited || detail.Feedback != "my words" || len(detail.Outcome) == 0 {
		t.Errorf("HistoryDetail = %+v; want approved-edited with the note and the outcome", detail.HistoryEntry)
	}
	f := detail.Files[0]
	stages := []struct {
		name, hash, want string
	}{{"base", f.Base, "START\n"}, {"proposed", f.Proposed, "proposed\n"}, {"approved", f.Approved, "edited\n"},
		{"formatted", f.Formatted, "EDITED\n"}, {"final", f.Final, "EDITED\n"}, {"before", f.Before, "START\n"}}
	for _, s := range stages {
		got, err := d.journal.Blob(ctx, s.hash)
		if err != nil || string(got) != s.want {
			t.Errorf("history %s = %q, %v; want %q", s.name, got, err, s.want)
		}
	}
	edits, err := d.journal.DiffStage(ctx, path, "proposed", f.Proposed, "approved", f.Approved)
	if err != nil || !strings.Contains(edits.Unified, "-proposed\n+edited\n") {
		t.Errorf("person's edits = %q, %v", edits.Unified, err)
	}

	plan, err := d.journal.PlanRestore(ctx, RestoreRequest{Checkpoint: o.Checkpoint})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.journal.ApplyRestore(ctx, plan); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); got != "START\n" {
		t.Errorf("after restoring to before checkpoint %d: %q; want START", o.Checkpoint, got)
	}
}
