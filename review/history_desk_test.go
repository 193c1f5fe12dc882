package review_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/atomicfile"
	"github.com/diffdesk/diffdesk/review/decision"
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
	o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.ApprovedEdited, Edited: map[string]string{path: "edited\n"}, Feedback: "my words"})
	r := d.MustPropose(t, engine.FormatWrite, "a.txt", "rejected\n")
	d.MustDecide(t, r.ID, review.Decision{Verdict: decision.Rejected, Feedback: "no thanks"})

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
	if e := page.Entries[0]; e.Decision != decision.Rejected || e.Feedback != "no thanks" || e.Agent != "test" {
		t.Errorf("rejection entry = %+v", e)
	}
	detail, err := d.Journal.Detail(ctx, page.Entries[1].Ref)
	if err != nil {
		t.Fatal(err)
	}
	if detail.Decision != decision.ApprovedEdited || detail.Feedback != "my words" || len(detail.Outcome) == 0 {
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

// TestHistoryRecordsProposalsThatWroteNothing: failed, withdrawn and stale
// proposals are decisions in the history, with what the agent was told.
func TestHistoryRecordsProposalsThatWroteNothing(t *testing.T) {
	ctx := context.Background()
	d := reviewtest.NewDesk(t, "", "")
	reviewtest.WriteFile(t, filepath.Join(d.Root, "a.txt"), "alpha\n")
	failed := d.MustPropose(t, engine.FormatSearchReplace, "a.txt", reviewtest.SR("gamma\n", "delta\n"))
	streamed, err := d.Propose(ctx, review.Request{Agent: "test", Format: engine.FormatSearchReplace, Path: "a.txt", Stream: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Feed(streamed.ID, "------- SEARCH\nalpha\n"); err != nil { // never finished: malformed
		t.Fatal(err)
	}
	if _, err := d.Finish(ctx, streamed.ID); err != nil {
		t.Fatal(err)
	}
	withdrawn := d.MustPropose(t, engine.FormatWrite, "a.txt", "x\n")
	if err := d.Withdraw(ctx, withdrawn.ID, "answered in the terminal"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		decision decision.Verdict
		ids      []string
		feedback string
	}{
		{decision.Failed, []string{streamed.ID, failed.ID}, "was not applied"},
		{decision.Withdrawn, []string{withdrawn.ID}, "answered in the terminal"},
	}
	for _, tt := range tests {
		t.Run(string(tt.decision), func(t *testing.T) {
			page, err := d.Journal.History(ctx, journal.Filter{Decision: string(tt.decision)})
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, e := range page.Entries {
				ids = append(ids, e.ProposalID)
				if e.Kind != journal.EntryDecision || e.Decision != tt.decision || !strings.Contains(e.Feedback, tt.feedback) {
					t.Errorf("entry %+v; want a %s decision saying %q", e, tt.decision, tt.feedback)
				}
			}
			if fmt.Sprint(ids) != fmt.Sprint(tt.ids) {
				t.Errorf("History(decision %s) = proposals %v; want %v", tt.decision, ids, tt.ids)
			}
		})
	}
}

// TestUnattendedDeskGivesUpStaleProposals: a desk without a person does not
// approve over a file that changed after the agent read it; it gives the
// proposal up as stale, tells the agent, and records it.
func TestUnattendedDeskGivesUpStaleProposals(t *testing.T) {
	ctx := context.Background()
	d := reviewtest.NewDesk(t, decision.Approved, "")
	path := filepath.Join(d.Root, "a.txt")
	reviewtest.WriteFile(t, path, "now\n")
	p, err := d.Propose(ctx, review.Request{Agent: "test", Format: engine.FormatWrite, Path: "a.txt", Payload: "x\n",
		ReadSHA256: atomicfile.Hash([]byte("what the agent read\n"))})
	if err != nil {
		t.Fatal(err)
	}
	o := reviewtest.WaitOutcome(t, d.Desk, p.ID)
	if o.Status != decision.Stale || !strings.Contains(agenttext.Outcome(o), "a.txt changed on disk") || strings.Contains(agenttext.Outcome(o), "has been applied") {
		t.Errorf("outcome %s, text:\n%s\nwant stale, saying a.txt changed and nothing was written", o.Status, agenttext.Outcome(o))
	}
	if got := reviewtest.ReadFile(t, path); got != "now\n" {
		t.Errorf("file = %q; want untouched", got)
	}
	page, err := d.Journal.History(ctx, journal.Filter{Decision: string(decision.Stale)})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Entries) != 1 || page.Entries[0].ProposalID != p.ID || !strings.Contains(page.Entries[0].Feedback, "changed on disk") {
		t.Errorf("History(decision stale) = %+v; want the proposal with its reason", page.Entries)
	}
}

// TestHistoryOfAFailedEditShowsNoProposedText: an edit that did not apply
// has no proposed text. Its history entry once showed the base against
// an empty "proposed" file — the whole file deleted (the window's History
// tab and deskctl history show: "the proposal: README.md (+0 −15)"),
// which the agent never proposed.
func TestHistoryOfAFailedEditShowsNoProposedText(t *testing.T) {
	ctx := context.Background()
	d := reviewtest.NewDesk(t, "", "")
	path := filepath.Join(d.Root, "a.txt")
	reviewtest.WriteFile(t, path, "one\ntwo\nthree\n")
	p := d.MustPropose(t, engine.FormatSearchReplace, "a.txt", reviewtest.SR("not in the file\n", "x\n"))
	if p.State != review.StateFailed {
		t.Fatalf("state %s; want failed (no person at the desk)", p.State)
	}
	page, err := d.Journal.History(ctx, journal.Filter{File: path})
	if err != nil || len(page.Entries) != 1 || page.Entries[0].Decision != decision.Failed {
		t.Fatalf("History = %+v, %v; want the failed entry", page.Entries, err)
	}
	diffs, err := d.Desk.HistoryDiff(ctx, review.HistoryCompare{Entry: page.Entries[0].Ref})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range diffs {
		if f.Removed != 0 || f.Added != 0 || !f.NewExists || strings.Contains(f.Unified, "-one") {
			t.Errorf("history of the failed edit shows %s changed (+%d −%d, new side exists %v):\n%s\nwant no change: the edit did not apply", f.Path, f.Added, f.Removed, f.NewExists, f.Unified)
		}
	}
}
