package review_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestInterdiff: an agent re-proposes a file after a rejection with
// comments; the new proposal is shown against the previous one, and the
// comments it touched are marked.
func TestInterdiff(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path := filepath.Join(d.Root, "a.txt")
	reviewtest.WriteFile(t, path, "one\ntwo\nthree\nfour\n")
	propose := func(session, payload string) review.Proposal {
		p, err := d.Propose(context.Background(), review.Request{Agent: "a", Session: session, Format: engine.FormatWrite, Path: "a.txt", Payload: payload})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	first := propose("s", "one\nTWO\nTHREE\n")
	if _, ok := d.Interdiff(first.ID, ""); ok {
		t.Error("an interdiff for the session's first proposal; want none")
	}
	d.MustDecide(t, first.ID, review.Decision{Verdict: decision.Rejected, Comments: []decision.Comment{
		{Path: path, Side: decision.SideNew, Line: 2, Text: "lower case"},  // TWO: changed next
		{Path: path, Side: decision.SideNew, Line: 1, Text: "fine"},        // one: kept
		{Path: path, Side: decision.SideOld, Line: 4, Text: "keep four"},   // removed, then kept
		{Path: path, Side: decision.SideOld, Line: 1, Text: "still there"}, // kept both times
	}})
	other := propose("other", "x\n") // another session's proposal is not the previous one
	second := propose("s", "one\ntwo\nTHREE\nfour\n")
	in, ok := d.Interdiff(second.ID, path)
	if !ok {
		t.Fatal("no interdiff for a re-proposal in the same session")
	}
	if in.PreviousID != first.ID || in.Status != decision.Rejected || in.Previous != "one\nTWO\nTHREE\n" || in.Current != "one\ntwo\nTHREE\nfour\n" {
		t.Errorf("interdiff = %+v; want %s (rejected) against this one", in, first.ID)
	}
	want := map[string]bool{"lower case": true, "fine": false, "keep four": true, "still there": false}
	if len(in.Comments) != len(want) {
		t.Fatalf("comments = %+v; want %d", in.Comments, len(want))
	}
	for _, c := range in.Comments {
		if c.Touched != want[c.Text] {
			t.Errorf("comment %q touched = %v; want %v", c.Text, c.Touched, want[c.Text])
		}
	}
	if _, ok := d.Interdiff(other.ID, ""); ok {
		t.Error("an interdiff for the other session's only proposal; want none")
	}
	// A proposal still waiting is no previous one.
	third := propose("s", "one\n")
	if in, ok := d.Interdiff(third.ID, ""); !ok || in.PreviousID != first.ID {
		t.Errorf("interdiff of the third = %+v, %v; want against %s, the last one decided", in, ok, first.ID)
	}
}
