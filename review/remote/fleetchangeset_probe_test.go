package remote

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/journal"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestFleetChangesetDecisionKeepsCommentsAndSeen: a whole changeset's
// decision carries each proposal's comments and what of it was on screen
// by the proposal's id — the window's id over several desks ("0:…"). The
// desk that holds the changeset gets them by its own ids: the agent is
// told the person's comments, and the journal keeps what was seen (they
// were dropped on the way).
func TestFleetChangesetDecisionKeepsCommentsAndSeen(t *testing.T) {
	far := newFarDesk(t)
	reviewtest.WriteFile(t, filepath.Join(far.Root, "a.txt"), "one\n")
	p, out := far.propose(t, "a.txt", "ONE\n")
	f, _ := newTestFleet(t, newFakeClock(), far.spec("far"))
	ps := f.List()
	if len(ps) != 1 {
		t.Fatalf("the fleet lists %d proposals; want 1", len(ps))
	}
	outer := ps[0]
	path := filepath.Join(far.Root, "a.txt")
	hunk := p.Files[0].Hunks()[0].ID
	comment := decision.Comment{Path: path, Side: decision.SideNew, Line: 1, EndLine: 1, Text: "lower case, please"}
	_, err := f.DecideChangeset(reviewtest.Context(t), review.ChangesetKey(outer), review.ChangesetDecision{Verdict: decision.Rejected, Feedback: "no",
		Seen:     map[string]map[string][]string{outer.ID: {path: {hunk}}},
		Comments: map[string][]decision.Comment{outer.ID: {comment}}})
	if err != nil {
		t.Fatal(err)
	}
	o := <-out
	if len(o.Comments) != 1 || o.Comments[0].Text != comment.Text {
		t.Errorf("the agent was told comments %+v; want the person's %q", o.Comments, comment.Text)
	}
	page, err := far.Journal.History(context.Background(), journal.Filter{})
	if err != nil || len(page.Entries) == 0 {
		t.Fatalf("History = %+v, %v", page, err)
	}
	det, err := far.Journal.Detail(context.Background(), page.Entries[0].Ref)
	if err != nil {
		t.Fatal(err)
	}
	if len(det.Seen) != 1 || !det.Seen[0].Seen {
		t.Errorf("the journal keeps seen %+v; want the one hunk seen whole", det.Seen)
	}
}

// TestTrivialApprovalOverTheProtocolKeepsLinesSeen: t over --connect (or
// over several desks) records how many lines of a hunk shown in part were
// on screen, as at the desk: approveTrivial carries seenLines too.
func TestTrivialApprovalOverTheProtocolKeepsLinesSeen(t *testing.T) {
	far := newFarDesk(t)
	code := "package x\n\nfunc a() int {\n\treturn 1\n}\n"
	reviewtest.WriteFile(t, filepath.Join(far.Root, "ws.go"), code)
	p, err := far.Propose(context.Background(), review.Request{Agent: "a", Session: "s", Format: engine.FormatSearchReplace, Path: "ws.go", Payload: reviewtest.SR("\treturn 1\n", "\treturn 1   \n")})
	if err != nil {
		t.Fatal(err)
	}
	f, _ := newTestFleet(t, newFakeClock(), far.spec("far"))
	outer := f.List()[0]
	path := filepath.Join(far.Root, "ws.go")
	hunk := p.Files[0].Hunks()[0].ID
	res, err := f.ApproveTrivial(reviewtest.Context(t), review.ChangesetKey(outer), review.ChangesetDecision{
		Seen:      map[string]map[string][]string{outer.ID: {}},
		SeenLines: map[string]map[string]map[string]int{outer.ID: {path: {hunk: 1}}}})
	if err != nil || len(res.Approved) != 1 {
		t.Fatalf("ApproveTrivial = %+v, %v; want ws.go approved", res, err)
	}
	page, err := far.Journal.History(context.Background(), journal.Filter{})
	if err != nil || len(page.Entries) == 0 {
		t.Fatalf("History = %+v, %v", page, err)
	}
	det, err := far.Journal.Detail(context.Background(), page.Entries[0].Ref)
	if err != nil {
		t.Fatal(err)
	}
	if len(det.Seen) != 1 || det.Seen[0].LinesSeen != 1 {
		t.Errorf("the journal keeps seen %+v; want 1 line of the hunk on screen", det.Seen)
	}
}
