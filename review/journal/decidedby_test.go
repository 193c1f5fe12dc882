package journal

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/diffdesk/diffdesk/review/decision"
)

// A rule's decision and a person's are told apart by a column of their
// own, not by a "rule: " prefix in the name: a person who calls
// themselves "rule: auto" is a person. A journal from before (schema 7)
// keeps its reading of the prefix, once, as it migrates.
func TestRuleAndPersonAreKeptApart(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "journal.db")
	old, err := openAt(ctx, path, 7)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO sessions VALUES ('claude', 's1', 1, 1)`,
		`INSERT INTO proposals(id, agent, session, created, format, status, updated) VALUES ('p1', 'claude', 's1', 1, 'write', 'approved', 1)`,
		`INSERT INTO decisions(proposal_id, decision, time, decided_by) VALUES ('p1', 'approved', 2, 'rule: auto_approve rule at /c.toml line 3')`,
	} {
		if _, err := old.db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	old.Close()
	j, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if d, err := j.Detail(ctx, "d1"); err != nil || !d.DecidedByRule || d.DecidedBy != "auto_approve rule at /c.toml line 3" {
		t.Errorf("a v7 rule's decision after migration: by %q, rule %v, %v; want the rule, marked as one", d.DecidedBy, d.DecidedByRule, err)
	}
	for i, rec := range []DecisionRecord{
		{By: "rule: auto", ByRule: false},
		{By: "auto_approve rule at /c.toml line 3", ByRule: true},
	} {
		id := fmt.Sprintf("p%d", i+2)
		if _, err := j.db.ExecContext(ctx, `INSERT INTO proposals(id, agent, session, created, format, status, updated) VALUES (?, 'claude', 's1', 3, 'write', 'pending', 3)`, id); err != nil {
			t.Fatal(err)
		}
		rec.ProposalID, rec.Decision = id, decision.Rejected
		n, err := j.RecordDecision(ctx, rec)
		if err != nil {
			t.Fatal(err)
		}
		d, err := j.Detail(ctx, Ref(fmt.Sprintf("d%d", n)))
		if err != nil || d.DecidedBy != rec.By || d.DecidedByRule != rec.ByRule {
			t.Errorf("decided by %q (rule %v): the journal says %q (rule %v), %v", rec.By, rec.ByRule, d.DecidedBy, d.DecidedByRule, err)
		}
	}
}
