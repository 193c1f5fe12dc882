package journal

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/diffdesk/diffdesk/review/decision"
)

// TestJournalKeepsHunksSeen: a decision's per-hunk seen record comes back
// with its history entry; a decision without one (a rule) comes back
// without, and one with no hunks comes back tracked and empty.
func TestJournalKeepsHunksSeen(t *testing.T) {
	ctx := context.Background()
	j := openTestJournal(t)
	path := filepath.Join(t.TempDir(), "app.go")
	for _, id := range []string{"p1", "p2", "p3"} {
		err := j.RecordProposal(ctx, ProposalRecord{ID: id, Agent: "claude", Session: "s", Format: "write", Payload: []byte("b\n"), Status: "pending",
			Files: []ProposalFileRecord{{Path: path, Root: filepath.Dir(path), BaseExists: true, Base: []byte("a\n"), Proposed: []byte("b\n")}}})
		if err != nil {
			t.Fatal(err)
		}
	}
	seen := []decision.HunkSeen{{Path: path, Hunk: "0123456789ab", Seen: true}, {Path: path, Hunk: "ba9876543210", Seen: false}}
	for _, c := range []struct {
		id   string
		seen []decision.HunkSeen
	}{{"p1", seen}, {"p2", nil}, {"p3", []decision.HunkSeen{}}} {
		did, err := j.RecordDecision(ctx, DecisionRecord{ProposalID: c.id, Decision: decision.Rejected, Seen: c.seen})
		if err != nil {
			t.Fatal(err)
		}
		d, err := j.Detail(ctx, Ref(fmt.Sprintf("d%d", did)))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(d.Seen, c.seen) {
			t.Errorf("%s: Detail.Seen = %#v; want %#v", c.id, d.Seen, c.seen)
		}
	}
	if s, n := decision.SeenCount(seen); s != 1 || n != 2 {
		t.Errorf("SeenCount = %d of %d; want 1 of 2", s, n)
	}
}

// TestJournalFromBeforeSeenOpens: a journal at schema version 4 (before
// seen) with a decision opens, migrates, and shows that decision as not
// tracked; a new decision keeps its record.
func TestJournalFromBeforeSeenOpens(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "journal.db")
	old, err := openAt(ctx, path, 4)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO sessions VALUES ('claude', 's1', 1, 1)`,
		`INSERT INTO proposals(id, agent, session, created, format, status, updated) VALUES ('p1', 'claude', 's1', 1, 'write', 'approved', 1)`,
		`INSERT INTO decisions(proposal_id, decision, time) VALUES ('p1', 'approved', 2)`,
		`INSERT INTO proposals(id, agent, session, created, format, status, updated) VALUES ('p2', 'claude', 's1', 3, 'write', 'pending', 3)`,
	} {
		if _, err := old.db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	old.Close()
	j, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("Open(v4 journal) = %v", err)
	}
	defer j.Close()
	if d, err := j.Detail(ctx, "d1"); err != nil || d.Seen != nil {
		t.Fatalf("Detail(d1 of a v4 journal) = seen %#v, %v; want nil (not tracked)", d.Seen, err)
	}
	seen := []decision.HunkSeen{{Path: "/w/a", Hunk: "0123456789ab", Seen: false}}
	id, err := j.RecordDecision(ctx, DecisionRecord{ProposalID: "p2", Decision: decision.Approved, Seen: seen})
	if err != nil {
		t.Fatal(err)
	}
	if d, err := j.Detail(ctx, Ref(fmt.Sprintf("d%d", id))); err != nil || !reflect.DeepEqual(d.Seen, seen) {
		t.Errorf("Detail(new decision after migration).Seen = %#v, %v; want %#v", d.Seen, err, seen)
	}
}
