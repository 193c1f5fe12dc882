package review_test

import (
	"context"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/journal"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestJournalKeepsWhoDecided: the person a decision names, else the
// desk's own user on this host, else the rule; the outcome says it too.
func TestJournalKeepsWhoDecided(t *testing.T) {
	for _, tt := range []struct {
		name    string
		by      string
		rule    bool
		want    string
		outcome string
	}{
		{"a reviewer elsewhere", "ann@laptop", false, "ann@laptop", "ann@laptop"},
		{"the window beside the desk", "", false, review.LocalPerson(), review.LocalPerson()},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := reviewtest.NewDesk(t, "", "")
			p := d.MustPropose(t, engine.FormatWrite, "f.txt", "x\n")
			o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Rejected, Feedback: "no", By: tt.by})
			if o.By != tt.outcome || o.DecidedBy != review.DecidedByPerson {
				t.Errorf("outcome by %q (%s); want %q, a person", o.By, o.DecidedBy, tt.outcome)
			}
			page, err := d.Journal.History(context.Background(), journal.Filter{})
			if err != nil || len(page.Entries) == 0 {
				t.Fatalf("History: %+v, %v", page, err)
			}
			det, err := d.Journal.Detail(context.Background(), page.Entries[0].Ref)
			if err != nil || det.DecidedBy != tt.want {
				t.Errorf("journal: decided by %q, %v; want %q", det.DecidedBy, err, tt.want)
			}
		})
	}
	d := reviewtest.NewDesk(t, decision.Approved, "")
	p := d.MustPropose(t, engine.FormatWrite, "g.txt", "y\n")
	o := reviewtest.WaitOutcome(t, d.Desk, p.ID)
	page, _ := d.Journal.History(context.Background(), journal.Filter{})
	det, err := d.Journal.Detail(context.Background(), page.Entries[0].Ref)
	if err != nil || o.By != "" || det.DecidedBy != o.Rule || !det.DecidedByRule {
		t.Errorf("unattended: outcome by %q, journal %q (rule %v, %v); want none, and the rule %q marked as a rule", o.By, det.DecidedBy, det.DecidedByRule, err, o.Rule)
	}
	// A person whose name says "rule: " is a person.
	d = reviewtest.NewDesk(t, "", "")
	p = d.MustPropose(t, engine.FormatWrite, "h.txt", "z\n")
	d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Rejected, Feedback: "no", By: "rule: auto_approve rule at x line 1"})
	page, _ = d.Journal.History(context.Background(), journal.Filter{})
	if det, err := d.Journal.Detail(context.Background(), page.Entries[0].Ref); err != nil || det.DecidedByRule || det.DecidedBy != "rule: auto_approve rule at x line 1" {
		t.Errorf("a person named \"rule: …\": journal %q (rule %v, %v); want the person", det.DecidedBy, det.DecidedByRule, err)
	}
}
