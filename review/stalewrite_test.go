package review_test

import (
	"context"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/journal"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// A stale proposal is approved as the merge, whatever door decides: a
// reviewer on the protocol sends approve (or partial) with the disk hash it
// saw, not the merged text the window sends as an edit.

const (
	staleBase = "a\nb\nc\nd\ne\nf\ng\nh\ni\n"
	staleDisk = "a\nb\nc\nd\ne\nf\ng\nh\nI (theirs)\n"
)

// twoHunks changes the first and the fifth line: two hunks.
var twoHunks = reviewtest.SR("a\n", "A\n") + reviewtest.SR("e\n", "E\n")

func TestApproveStaleOverTheProtocolWritesTheMerge(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path, p := staleProposal(t, d, staleBase, twoHunks, staleDisk)
	o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Approved, Overwrite: map[string]string{path: p.Files[0].Disk.SHA256}})
	if got, want := reviewtest.ReadFile(t, path), "A\nb\nc\nd\nE\nf\ng\nh\nI (theirs)\n"; got != want {
		t.Fatalf("approving a stale proposal wrote %q; want the merge %q", got, want)
	}
	if o.Status != decision.Approved || o.Files[0].UserEdits != "" || o.Files[0].DiskEdits == "" {
		t.Errorf("status %s, userEdits %q, diskEdits %q; want approved, no edits by the person, the disk's change", o.Status, o.Files[0].UserEdits, o.Files[0].DiskEdits)
	}
	if text := agenttext.Outcome(o); strings.Contains(text, "changes made by the person") || !strings.Contains(text, "merged into their change") {
		t.Errorf("the agent reads:\n%s\nwant the merge, and no person's changes", text)
	}
}

func TestPartialStaleWritesTheTickedHunksMerged(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path, p := staleProposal(t, d, staleBase, twoHunks, staleDisk)
	hunks := p.Files[0].Hunks()
	if len(hunks) != 2 {
		t.Fatalf("%d hunks; want 2", len(hunks))
	}
	o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Partial, Hunks: map[string][]string{path: {hunks[1].ID}},
		Overwrite: map[string]string{path: p.Files[0].Disk.SHA256}})
	if got, want := reviewtest.ReadFile(t, path), "a\nb\nc\nd\nE\nf\ng\nh\nI (theirs)\n"; got != want {
		t.Fatalf("a partial approval of a stale proposal wrote %q; want the ticked hunk merged onto the disk %q", got, want)
	}
	if o.Status != decision.Partial || !strings.Contains(agenttext.Outcome(o), "1 of 2 hunks") || !strings.Contains(agenttext.Outcome(o), "merged into their change") {
		t.Errorf("status %s, text:\n%s", o.Status, agenttext.Outcome(o))
	}
}

func TestApproveStaleConflictIsRefused(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path, p := staleProposal(t, d, staleBase, twoHunks, "a (theirs)\nb\nc\nd\ne\nf\ng\nh\ni\n")
	_, err := d.Decide(context.Background(), p.ID, review.Decision{Verdict: decision.Approved, Overwrite: map[string]string{path: p.Files[0].Disk.SHA256}})
	if err == nil || !strings.Contains(err.Error(), "conflict") {
		t.Fatalf("approving a conflicted merge: %v; want a refusal naming the conflict", err)
	}
	if got := reviewtest.ReadFile(t, path); got != "a (theirs)\nb\nc\nd\ne\nf\ng\nh\ni\n" {
		t.Errorf("file = %q; want the disk left alone", got)
	}
	if q, _ := d.Get(p.ID); !q.State.Open() {
		t.Errorf("state %s; want the proposal still open", q.State)
	}
}

// TestOverwriteIsExplicitJournaledAndSaid: the proposal written over
// someone else's change only when a person asks for exactly that; the
// outcome names it, and restoring to before the checkpoint brings their
// change back.
func TestOverwriteIsExplicitJournaledAndSaid(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path, p := staleProposal(t, d, staleBase, twoHunks, staleDisk)
	o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Overwritten, Overwrite: map[string]string{path: p.Files[0].Disk.SHA256}})
	if got, want := reviewtest.ReadFile(t, path), "A\nb\nc\nd\nE\nf\ng\nh\ni\n"; got != want {
		t.Fatalf("overwrite wrote %q; want the proposal %q", got, want)
	}
	text := agenttext.Outcome(o)
	if o.Status != decision.Overwritten || !strings.Contains(text, "overwrite") || strings.Contains(text, "merged") {
		t.Errorf("status %s, text:\n%s\nwant the overwrite named, and no merge", o.Status, text)
	}
	plan, err := d.Journal.PlanRestore(context.Background(), journal.RestoreRequest{Checkpoint: o.Checkpoint})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Journal.ApplyRestore(context.Background(), plan); err != nil {
		t.Fatal(err)
	}
	if got := reviewtest.ReadFile(t, path); got != staleDisk {
		t.Errorf("restoring to before the overwrite gave %q; want their change %q", got, staleDisk)
	}
	es, err := d.Journal.History(context.Background(), journal.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(es.Entries) != 2 || es.Entries[1].Decision != decision.Overwritten {
		t.Errorf("history %+v; want the overwrite recorded as such", es)
	}
}

func TestOverwriteNeedsAStaleFileAndAPerson(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	reviewtest.WriteFile(t, d.Root+"/a.txt", staleBase)
	p := d.MustPropose(t, engine.FormatSearchReplace, "a.txt", twoHunks)
	if _, err := d.Decide(context.Background(), p.ID, review.Decision{Verdict: decision.Overwritten}); err == nil || !strings.Contains(err.Error(), "not stale") {
		t.Errorf("overwrite of a proposal nothing changed under: %v; want a refusal", err)
	}
	d2 := reviewtest.NewDesk(t, "", "")
	path, s := staleProposal(t, d2, staleBase, twoHunks, staleDisk)
	if _, err := d2.Decide(context.Background(), s.ID, review.Decision{Verdict: decision.Overwritten, Rule: "some rule", Overwrite: map[string]string{path: s.Files[0].Disk.SHA256}}); err == nil {
		t.Errorf("a rule overwrote someone's change")
	}
	if got := reviewtest.ReadFile(t, path); got != staleDisk {
		t.Errorf("file = %q", got)
	}
}

func TestApproveStaleDeletionIsRefusedUnlessOverwritten(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path := d.Root + "/gone.txt"
	reviewtest.WriteFile(t, path, "x\n")
	p, err := d.Propose(context.Background(), review.Request{Agent: "test", Format: engine.FormatPatch,
		Payload: "*** Begin Patch\n*** Delete File: gone.txt\n*** End Patch\n"})
	if err != nil {
		t.Fatal(err)
	}
	reviewtest.WriteFile(t, path, "x\ntheirs\n")
	if _, err := d.Decide(context.Background(), p.ID, review.Decision{Verdict: decision.Approved}); err == nil {
		t.Fatal("approving over a changed file succeeded")
	}
	p, _ = d.Get(p.ID)
	hash := map[string]string{path: p.Files[0].Disk.SHA256}
	if _, err := d.Decide(context.Background(), p.ID, review.Decision{Verdict: decision.Approved, Overwrite: hash}); err == nil {
		t.Fatal("approving the deletion of a file someone changed succeeded as a merge")
	}
	if got := reviewtest.ReadFile(t, path); got != "x\ntheirs\n" {
		t.Fatalf("file = %q", got)
	}
	o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Overwritten, Overwrite: hash})
	if o.Status != decision.Overwritten || !o.Files[0].Deleted || !strings.Contains(agenttext.Outcome(o), "overwrite") {
		t.Errorf("status %s, text:\n%s", o.Status, agenttext.Outcome(o))
	}
}

// TestPartialOfAStaleDeletionWithNothingTicked is a rejection, as any
// partial with nothing ticked (the model-based test found it refused as a
// deletion over someone's change).
func TestPartialOfAStaleDeletionWithNothingTicked(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path := d.Root + "/gone.txt"
	reviewtest.WriteFile(t, path, "x\n")
	p, err := d.Propose(context.Background(), review.Request{Agent: "test", Format: engine.FormatPatch,
		Payload: "*** Begin Patch\n*** Delete File: gone.txt\n*** End Patch\n"})
	if err != nil {
		t.Fatal(err)
	}
	reviewtest.WriteFile(t, path, "x\ntheirs\n")
	q := reviewtest.WaitFile(t, d.Desk, p.ID, path, "stale", review.File.Stale)
	o, err := d.Decide(context.Background(), p.ID, review.Decision{Verdict: decision.Partial, Hunks: map[string][]string{path: {}},
		Overwrite: map[string]string{path: q.Disk.SHA256}})
	if err != nil || o.Status != decision.Rejected {
		t.Fatalf("partial with nothing ticked of a stale deletion: %s, %v; want a rejection", o.Status, err)
	}
	if got := reviewtest.ReadFile(t, path); got != "x\ntheirs\n" {
		t.Errorf("file = %q", got)
	}
}
