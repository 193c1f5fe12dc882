package review_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestProposalIsJournaledBeforeItIsAnnounced: a proposal is journaled
// before anyone can see it, so a decision taken the instant it is announced
// (a fast reviewer, a remote window, a script) has a proposal to decide on.
func TestProposalIsJournaledBeforeItIsAnnounced(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	reviewtest.WriteFile(t, filepath.Join(d.Root, "a.txt"), "old\n")
	journaled := make(chan error, 1)
	cancel := d.Subscribe(func(ev review.Event) {
		if ev.Kind == review.EventAdded {
			_, _, err := d.Journal.ProposalStatus(context.Background(), ev.ID)
			journaled <- err
		}
	})
	defer cancel()
	p := d.MustPropose(t, engine.FormatWrite, "a.txt", "new\n")
	if err := <-journaled; err != nil {
		t.Fatalf("the journal when the proposal was announced: %v; want it recorded first", err)
	}
	if o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Approved}); o.Status != decision.Approved {
		t.Errorf("outcome %s; want approved", o.Status)
	}
}

// TestStaleViewFollowsEveryDiskChange: a stale file whose disk content
// changes again (an editor that truncates, then writes) is announced
// again, with the new disk content, so the stale view never shows a state
// the disk has left.
func TestStaleViewFollowsEveryDiskChange(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path := filepath.Join(d.Root, "a.txt")
	reviewtest.WriteFile(t, path, "one\ntwo\nthree\nfour\n")
	p := d.MustPropose(t, engine.FormatWrite, "a.txt", "ONE\ntwo\nthree\nfour\n")
	events := make(chan review.Event, 16)
	cancel := d.Subscribe(func(ev review.Event) {
		if ev.ID == p.ID {
			events <- ev
		}
	})
	defer cancel()
	disk := func(want string) {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for {
			select {
			case <-events:
				if got, _ := d.Get(p.ID); got.State == review.StateStale && string(got.Files[0].Disk.Content) == want {
					return
				}
			case <-deadline:
				got, _ := d.Get(p.ID)
				t.Fatalf("the desk shows the disk as %q (%s); want %q announced", got.Files[0].Disk.Content, got.State, want)
			}
		}
	}
	reviewtest.WriteFile(t, path, "") // the editor truncates…
	disk("")
	reviewtest.WriteFile(t, path, "one\ntwo\nthree\nfour\nfive\n") // …then writes
	disk("one\ntwo\nthree\nfour\nfive\n")
	if m, _ := d.Merge(p.ID, path); m.Text != "ONE\ntwo\nthree\nfour\nfive\n" || len(m.Conflicts) != 0 {
		t.Errorf("merge after the real write = %q (%d conflicts); want a clean merge", m.Text, len(m.Conflicts))
	}
}

// TestLooseMatchIsDisclosedAndNeverAutoApproved: an edit that found its
// text only loosely (a fuzzy smart edit, a unified hunk away from its
// header's line, a SEARCH with Roo's line numbers) is reported with how it
// was reached, where it went and what the file held there, and no
// auto-approve rule passes it.
func TestLooseMatchIsDisclosedAndNeverAutoApproved(t *testing.T) {
	tests := []struct {
		name, file, content string
		format              engine.Format
		payload             string
		line                int
		at, found, how      string
	}{
		{"fuzzy smart edit", "tax.js", "const a = 1;\nconst taxRate = 0.075;\nconst b = 2;\n", engine.FormatSmartEdit,
			`{"old_string":"const taxRate = 0.05;","new_string":"const taxRate = 0.08;"}`, 2, "at line 2", "const taxRate = 0.075;\n", "fuzzy"},
		{"unified hunk at an offset", "n.txt", "0\n1\n2\n3\n4\n5\n6\n", engine.FormatPatch,
			"--- a/n.txt\n+++ b/n.txt\n@@ -2,3 +2,3 @@\n 4\n-5\n+five\n 6\n", 5, "at lines 5–7", "4\n5\n6\n", "3 lines below where its hunk header put it"},
		{"roo line numbers", "r.txt", "a\nb\nc\n", engine.FormatSearchReplace,
			"<<<<<<< SEARCH\n2 | b\n=======\n2 | B\n>>>>>>> REPLACE", 2, "at line 2", "b\n", "line-numbers"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := reviewtest.NewDesk(t, "", "[[auto_approve]]\n")
			reviewtest.WriteFile(t, filepath.Join(d.Root, tt.file), tt.content)
			p := d.MustPropose(t, tt.format, tt.file, tt.payload)
			if p.State != review.StatePending || !p.Files[0].Unsure() {
				t.Fatalf("state %s, unsure %v (%s); want a pending loose match", p.State, p.Files[0].Unsure(), agenttext.Failure(p.Failure))
			}
			if p.AutoRule != "" {
				t.Fatalf("auto-approved by %q; a loose match must wait for a person", p.AutoRule)
			}
			o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Approved})
			f := o.Files[0]
			if len(f.Matches) != 1 || f.Matches[0].Found != tt.found || f.Matches[0].StartLine != tt.line {
				t.Fatalf("outcome matches = %+v; want the loose match at line %d with the lines it replaced", f.Matches, tt.line)
			}
			text := agenttext.Outcome(o)
			for _, want := range []string{"did not match the file exactly", tt.at, tt.how, strings.TrimSuffix(tt.found, "\n"), "The final content of"} {
				if !strings.Contains(text, want) {
					t.Errorf("agent text lacks %q:\n%s", want, text)
				}
			}
			if strings.Contains(text, "exactly the content you proposed") {
				t.Errorf("agent text claims an exact edit:\n%s", text)
			}
		})
	}
}

// TestIncompleteEditIsFlaggedAndNotApprovedUnattended: a SEARCH/REPLACE
// block cut off after ======= is flagged in the outcome, and a desk without
// a person rejects it rather than approving it.
func TestIncompleteEditIsFlaggedAndNotApprovedUnattended(t *testing.T) {
	d := reviewtest.NewDesk(t, decision.Approved, "")
	path := filepath.Join(d.Root, "f.txt")
	reviewtest.WriteFile(t, path, "a\nb\nc\n")
	p := d.MustPropose(t, engine.FormatSearchReplace, "f.txt", "------- SEARCH\nb\n=======\nB\n")
	o := reviewtest.WaitOutcome(t, d.Desk, p.ID)
	if o.Status != decision.Rejected || !strings.Contains(agenttext.Reason(o), "cut short") {
		t.Fatalf("outcome %s %q; want rejected, saying the edit was cut short", o.Status, agenttext.Reason(o))
	}
	if got := reviewtest.ReadFile(t, path); got != "a\nb\nc\n" {
		t.Errorf("f.txt = %q; want it untouched", got)
	}
	got, _ := d.Get(p.ID)
	if got.Files[0].Incomplete == nil {
		t.Errorf("the proposal does not carry the incomplete flag")
	}
}

// TestAutoApproveRuleMayOptInToLooseMatches: a rule with loose = true
// approves an edit that matched loosely (and says so in the outcome); a
// rule without it does not (TestLooseMatchIsDisclosedAndNeverAutoApproved).
func TestAutoApproveRuleMayOptInToLooseMatches(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "[[auto_approve]]\nloose = true\n")
	reviewtest.WriteFile(t, filepath.Join(d.Root, "tax.js"), "const a = 1;\nconst taxRate = 0.075;\nconst b = 2;\n")
	p := d.MustPropose(t, engine.FormatSmartEdit, "tax.js", `{"old_string":"const taxRate = 0.05;","new_string":"const taxRate = 0.08;"}`)
	o := reviewtest.WaitOutcome(t, d.Desk, p.ID)
	if o.Status != decision.Approved || o.DecidedBy != review.DecidedByRule || len(o.Files[0].Matches) != 1 {
		t.Errorf("outcome %s by %s with %d loose matches; want approved by the rule, the loose match disclosed", o.Status, o.DecidedBy, len(o.Files[0].Matches))
	}
}
