package journal

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/diffdesk/diffdesk/review/decision"
)

// TestJournalKeepsComments: a decision's line comments come back, quotes
// and all, with the history entry of the decision.
func TestJournalKeepsComments(t *testing.T) {
	ctx := context.Background()
	j := openTestJournal(t)
	path := filepath.Join(t.TempDir(), "app.go")
	err := j.RecordProposal(ctx, ProposalRecord{ID: "p1", Agent: "claude", Session: "s", Format: "write", Payload: []byte("b\n"), Status: "pending",
		Files: []ProposalFileRecord{{Path: path, Root: filepath.Dir(path), BaseExists: true, Base: []byte("a\n"), Proposed: []byte("b\n")}}})
	if err != nil {
		t.Fatal(err)
	}
	comments := []decision.Comment{
		{Path: path, Side: decision.SideNew, Line: 1, EndLine: 1, Quote: "b\n", Text: "call it c"},
		{Path: path, Side: decision.SideOld, Line: 1, EndLine: 1, Quote: "a\n", Text: "why remove a?\nIt is used."},
	}
	id, err := j.RecordDecision(ctx, DecisionRecord{ProposalID: "p1", Decision: decision.Rejected, Feedback: "see comments", Comments: comments})
	if err != nil {
		t.Fatal(err)
	}
	d, err := j.Detail(ctx, Ref(fmt.Sprintf("d%d", id)))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(d.Comments, comments) {
		t.Errorf("Detail(d%d).Comments = %+v; want %+v", id, d.Comments, comments)
	}
}

// TestJournalFromBeforeCommentsOpens: a journal at schema version 3 (before
// comments) with a decision in it opens, migrates, and shows that decision
// with no comments; new decisions keep theirs.
func TestJournalFromBeforeCommentsOpens(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "journal.db")
	old, err := openAt(ctx, path, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO sessions VALUES ('claude', 's1', 1, 1)`,
		`INSERT INTO proposals(id, agent, session, created, format, status, updated) VALUES ('p1', 'claude', 's1', 1, 'write', 'rejected', 1)`,
		`INSERT INTO decisions(proposal_id, decision, time, feedback) VALUES ('p1', 'rejected', 2, 'no')`,
	} {
		if _, err := old.db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	old.Close()
	j, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("Open(v3 journal) = %v", err)
	}
	defer j.Close()
	d, err := j.Detail(ctx, "d1")
	if err != nil || d.Feedback != "no" || len(d.Comments) != 0 {
		t.Fatalf("Detail(d1 of a v3 journal) = feedback %q, comments %+v, %v; want \"no\" and none", d.Feedback, d.Comments, err)
	}
	c := []decision.Comment{{Path: "/w/a", Side: decision.SideNew, Line: 2, EndLine: 3, Quote: "x\ny\n", Text: "t"}}
	if _, err := j.db.ExecContext(ctx, `INSERT INTO proposals(id, agent, session, created, format, status, updated) VALUES ('p2', 'claude', 's1', 3, 'write', 'pending', 3)`); err != nil {
		t.Fatal(err)
	}
	id, err := j.RecordDecision(ctx, DecisionRecord{ProposalID: "p2", Decision: decision.Rejected, Comments: c})
	if err != nil {
		t.Fatal(err)
	}
	if d, err := j.Detail(ctx, Ref(fmt.Sprintf("d%d", id))); err != nil || !reflect.DeepEqual(d.Comments, c) {
		t.Errorf("Detail(new decision after migration).Comments = %+v, %v; want %+v", d.Comments, err, c)
	}
}
