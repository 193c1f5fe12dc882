package review_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

const placeFile = "package a\n\nfunc A() {\n\tx := 1\n\ty := 2\n}\n"

// A failed SEARCH with a near match: the person picks the closest lines,
// the proposal waits with the new text, the approval writes it, and the
// agent reads which lines the person chose.
func TestPlaceFailedThenApprove(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	d.PersonAtDesk(t)
	path := filepath.Join(d.Root, "a.go")
	reviewtest.WriteFile(t, path, placeFile)
	p := d.MustPropose(t, engine.FormatSearchReplace, "a.go", reviewtest.SR("\tx := 1\n\ty := 3\n\tz := 4\n", "\tx := 10\n\ty := 20\n"))
	if p.State != review.StateHeld || p.Mismatch == nil || len(p.Mismatch.Closest) == 0 {
		t.Fatalf("proposal = %s, mismatch %+v; want held with closest lines", p.State, p.Mismatch)
	}
	if _, ok := d.Outcome(p.ID); ok || p.State != review.StateHeld {
		t.Fatalf("state %s, outcome sent %v; want the failure held for the person, not sent", p.State, ok)
	}
	c := p.Mismatch.Closest[0]
	q, err := d.Place(context.Background(), p.ID, "a.go", p.Mismatch.Block, engine.Region{StartLine: c.StartLine, EndLine: c.EndLine})
	if err != nil {
		t.Fatalf("Place: %v", err)
	}
	if q.State != review.StatePending || q.Failure != nil || q.Mismatch != nil || q.Placed[1] != (engine.Region{StartLine: 4, EndLine: 6}) {
		t.Fatalf("placed proposal = %s %q %+v placed %v; want pending at lines 4-6", q.State, agenttext.Failure(q.Failure), q.Mismatch, q.Placed)
	}
	if status, _, err := d.Journal.ProposalStatus(context.Background(), p.ID); err != nil || status != string(review.StatePending) {
		t.Errorf("journal status = %q, %v; want pending", status, err)
	}
	if _, ok := d.Outcome(p.ID); ok {
		t.Errorf("Outcome(%s) still set after Place; want none until decided", p.ID)
	}
	o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Approved})
	want := "package a\n\nfunc A() {\n\tx := 10\n\ty := 20\n"
	if got := reviewtest.ReadFile(t, path); got != want {
		t.Errorf("file = %q; want %q", got, want)
	}
	if w := reviewtest.WaitOutcome(t, d.Desk, p.ID); w.Status != decision.Approved {
		t.Errorf("Wait after the decision = %s; want approved", w.Status)
	}
	text := agenttext.Outcome(o)
	if !strings.Contains(text, "Block 1: the person chose lines 4–6 of "+path+"; the edit was applied there.") {
		t.Errorf("agent text does not say which lines the person chose:\n%s", text)
	}
}

// An ambiguous edit: the person picks the second place.
func TestPlaceAmbiguousEdit(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	d.PersonAtDesk(t)
	reviewtest.WriteFile(t, filepath.Join(d.Root, "a.txt"), "x\ny\nx\n")
	p := d.MustPropose(t, engine.FormatEdit, "a.txt", `{"old_string":"x","new_string":"X"}`)
	if p.Mismatch == nil || len(p.Mismatch.Places) != 2 {
		t.Fatalf("mismatch = %+v; want two places", p.Mismatch)
	}
	pl := p.Mismatch.Places[1]
	q, err := d.Place(context.Background(), p.ID, "", 1, engine.Region{StartLine: pl.StartLine, EndLine: pl.EndLine})
	if err != nil {
		t.Fatal(err)
	}
	if q.Files[0].Proposed != "x\ny\nX\n" {
		t.Errorf("proposed = %q; want the second x replaced", q.Files[0].Proposed)
	}
}

// A loosely matched pending proposal placed elsewhere gets the new text.
func TestPlacePendingLoose(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	d.PersonAtDesk(t)
	reviewtest.WriteFile(t, filepath.Join(d.Root, "a.md"), "# A\n\nintro\n\n# B\n\nintro\n")
	p := d.MustPropose(t, engine.FormatSearchReplace, "a.md", reviewtest.SR("intro\n", "Intro.\n"))
	if p.State != review.StatePending || len(p.Files[0].Loose()) != 1 {
		t.Fatalf("state %s, loose %v; want pending, first of several", p.State, p.Files[0].Loose())
	}
	q, err := d.Place(context.Background(), p.ID, "a.md", 1, engine.Region{StartLine: 7, EndLine: 7})
	if err != nil {
		t.Fatal(err)
	}
	if q.Files[0].Proposed != "# A\n\nintro\n\n# B\n\nIntro.\n" || q.State != review.StatePending {
		t.Errorf("placed: %s %q; want pending with line 7 replaced", q.State, q.Files[0].Proposed)
	}
	if m := q.Files[0].Matches; len(m) != 1 || m[0].Strategy != engine.StrategyPersonChosen {
		t.Errorf("matches = %+v; want one person-chosen", m)
	}
}

// No rule approves a person-chosen placement, even one that takes loose
// matches: Place never asks the rules; it waits for the person.
func TestPlaceNoRule(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "[[auto_approve]]\npath = \"docs/**\"\nloose = true\n")
	d.PersonAtDesk(t)
	reviewtest.WriteFile(t, filepath.Join(d.Root, "docs/a.md"), "# A\n\nintro\n\n# B\n\nintro\n")
	p := d.MustPropose(t, engine.FormatEdit, "docs/a.md", `{"old_string":"intro","new_string":"Intro."}`)
	if p.State != review.StateHeld {
		t.Fatalf("state %s; want held (ambiguous)", p.State)
	}
	q, err := d.Place(context.Background(), p.ID, "docs/a.md", 1, engine.Region{StartLine: 7, EndLine: 7})
	if err != nil {
		t.Fatal(err)
	}
	if q.State != review.StatePending || q.AutoRule != "" {
		t.Fatalf("placed: %s rule %q; want pending for a person", q.State, q.AutoRule)
	}
	if _, ok := d.Outcome(p.ID); ok {
		t.Fatal("a rule decided a person-chosen placement")
	}
}

func TestPlaceRefusals(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	d.PersonAtDesk(t)
	reviewtest.WriteFile(t, filepath.Join(d.Root, "a.txt"), "a\nb\n")
	failed := d.MustPropose(t, engine.FormatEdit, "a.txt", `{"old_string":"zz","new_string":"Z"}`)
	write := d.MustPropose(t, engine.FormatWrite, "a.txt", "new\n")
	decided := d.MustPropose(t, engine.FormatEdit, "a.txt", `{"old_string":"a","new_string":"A"}`)
	d.MustDecide(t, decided.ID, review.Decision{Verdict: decision.Rejected})
	tests := []struct {
		name, id, path string
		block          int
		r              engine.Region
		want           string
	}{
		{"unknown", "nope", "", 1, engine.Region{StartLine: 1, EndLine: 1}, "unknown proposal"},
		{"write", write.ID, "", 1, engine.Region{StartLine: 1, EndLine: 1}, "only search-replace, edit, multi-edit and smart-edit"},
		{"decided", decided.ID, "", 1, engine.Region{StartLine: 1, EndLine: 1}, "only a failed or waiting proposal"},
		{"other file", failed.ID, "b.txt", 1, engine.Region{StartLine: 1, EndLine: 1}, "edits a.txt, not b.txt"},
		{"past the end", failed.ID, "", 1, engine.Region{StartLine: 2, EndLine: 9}, "lines 2–9 are past the end of the file, which has 2 lines"},
		{"no such block", failed.ID, "", 3, engine.Region{StartLine: 1, EndLine: 1}, "the edit has 1 block(s)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := d.Place(context.Background(), tt.id, tt.path, tt.block, tt.r)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Place error = %v; want one containing %q", err, tt.want)
			}
		})
	}
	if p, _ := d.Get(failed.ID); p.State != review.StateHeld || p.Placed != nil {
		t.Errorf("after refused placements: %s placed %v; want held, unchanged", p.State, p.Placed)
	}
}

// Two blocks that fail: placing the first leaves the proposal failed on the
// second, which is placed in turn.
func TestPlaceTwoBlocks(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	d.PersonAtDesk(t)
	reviewtest.WriteFile(t, filepath.Join(d.Root, "a.go"), placeFile)
	p := d.MustPropose(t, engine.FormatSearchReplace, "a.go", reviewtest.SR("func AA() {\n", "func B() {\n")+reviewtest.SR("\ty := 22\n", "\ty := 3\n"))
	q, err := d.Place(context.Background(), p.ID, "", 1, engine.Region{StartLine: 3, EndLine: 3})
	if err != nil {
		t.Fatal(err)
	}
	if q.State != review.StateHeld || q.Mismatch == nil || q.Mismatch.Block != 2 || q.Placed[1] != (engine.Region{StartLine: 3, EndLine: 3}) {
		t.Fatalf("after block 1: %s, mismatch %+v, placed %v; want held on block 2 with block 1 placed", q.State, q.Mismatch, q.Placed)
	}
	q, err = d.Place(context.Background(), p.ID, "", 2, engine.Region{StartLine: 5, EndLine: 5})
	if err != nil {
		t.Fatal(err)
	}
	if want := "package a\n\nfunc B() {\n\tx := 1\n\ty := 3\n}\n"; q.State != review.StatePending || q.Files[0].Proposed != want {
		t.Errorf("after block 2: %s %q; want pending %q", q.State, q.Files[0].Proposed, want)
	}
}

// A failed block the person places and then rejects: the rejection is the
// agent's only answer (the failure was held, never sent), so it says
// which lines the person chose for the block and lists the block in
// files[].matches, unwritten; otherwise the agent reads only "rejected"
// and resends the SEARCH that matched nothing (real window).
func TestPlaceThenRejectTellsTheAgent(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	d.PersonAtDesk(t)
	path := filepath.Join(d.Root, "a.go")
	reviewtest.WriteFile(t, path, placeFile)
	p := d.MustPropose(t, engine.FormatSearchReplace, "a.go", reviewtest.SR("\tx := 1\n\ty := 3\n\tz := 4\n", "\tx := 10\n\ty := 20\n"))
	if p.State != review.StateHeld {
		t.Fatalf("proposal = %s; want a held failure", p.State)
	}
	if _, err := d.Place(context.Background(), p.ID, "a.go", 1, engine.Region{StartLine: 4, EndLine: 6}); err != nil {
		t.Fatalf("Place: %v", err)
	}
	o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Rejected, Feedback: "wrong lines"})
	if got := reviewtest.ReadFile(t, path); got != placeFile {
		t.Errorf("file = %q after the reject; want it untouched", got)
	}
	if len(o.Files) != 1 || o.Files[0].Path != path || o.Files[0].Written || len(o.Files[0].Matches) != 1 ||
		o.Files[0].Matches[0].Strategy != engine.StrategyPersonChosen || o.Files[0].FinalContent != "" {
		t.Fatalf("files = %+v; want a.go unwritten, with its person-chosen block", o.Files)
	}
	text := agenttext.Outcome(o)
	for _, want := range []string{
		"rejected it; nothing was written.",
		"Their reason: wrong lines",
		"Block 1 of your edit to " + path + " did not apply as you sent it: the person chose lines 4–6 to review it there.",
		"\tx := 1\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("agent text lacks %q:\n%s", want, text)
		}
	}
	// A plain reject names no files.
	q := d.MustPropose(t, engine.FormatWrite, "b.txt", "b\n")
	if o := d.MustDecide(t, q.ID, review.Decision{Verdict: decision.Rejected}); len(o.Files) != 0 {
		t.Errorf("a plain reject lists files %+v; want none", o.Files)
	}
}
