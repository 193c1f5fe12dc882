package present

import (
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
)

func TestApproveAll(t *testing.T) {
	plain := review.Proposal{ID: "a", Files: []review.File{{Rel: "a.go"}, {Rel: "b.go"}}}
	title, msg := ApproveAll([]review.Proposal{plain, {ID: "b", Files: []review.File{{Rel: "c.go"}}}}, review.Unseen{})
	if title != "Approve the whole changeset?" || !strings.HasPrefix(msg, "Approve all 2 open proposals of this changeset (3 files) as proposed?") || strings.Contains(msg, "never on screen") {
		t.Errorf("ApproveAll = %q, %q", title, msg)
	}
	_, msg = ApproveAll([]review.Proposal{plain}, review.Unseen{Unseen: 1, Total: 2, Files: []string{"a.go"}})
	if !strings.HasSuffix(msg, "\n1 of 2 hunks was never on screen (a.go).") {
		t.Errorf("ApproveAll with a hunk unseen = %q", msg)
	}
}

func TestChangesetReports(t *testing.T) {
	name := func(id string) string { return "file of " + id }
	got := ChangesetDecided(review.ChangesetResult{Decided: []review.Outcome{{Status: decision.Rejected}}, Skipped: []review.ChangesetSkip{{ID: "p2", Reason: "still streaming"}}}, name)
	if got != "Rejected 1 proposal of the changeset.\nLeft open: file of p2 — still streaming" {
		t.Errorf("ChangesetDecided = %q", got)
	}
	got = TrivialOthers(review.TrivialApproval{Approved: []review.Outcome{{}, {}}, Mixed: []string{"m"}, Skipped: []review.ChangesetSkip{{ID: "p3", Reason: "it changed"}}}, name)
	if got != "Approved 2 other proposals of the changeset, trivial throughout. 1 more mix trivial hunks with real ones: open each and press t.\nNot approved: file of p3: it changed" {
		t.Errorf("TrivialOthers = %q", got)
	}
}

func TestQuestionsAndCounters(t *testing.T) {
	if got := ProtectedQuestion([]string{".envrc — runs code", "ci.yml — CI"}); got != "These files are protected:\n\n.envrc — runs code\n\nci.yml — CI\n\nOnce written it can run code or change what happens without you. Approve it?" {
		t.Errorf("ProtectedQuestion = %q", got)
	}
	intro, lines := OwnChanges([]OwnChange{{Rel: "a.go", Line: 3, Was: "x\n", Now: "y\n"}}, 1)
	if intro != "You changed 1 character of the agent's text:" || lines != "a.go, line 3\nwas: x\nnow: y" {
		t.Errorf("OwnChanges = %q, %q", intro, lines)
	}
	for _, c := range []struct {
		cur, n int
		want   string
	}{{0, 0, "No changes."}, {0, 3, "3 changes"}, {2, 3, "change 2 of 3"}} {
		if got := CompareCounter(c.cur, c.n); got != c.want {
			t.Errorf("CompareCounter(%d, %d) = %q; want %q", c.cur, c.n, got, c.want)
		}
	}
	if got := CompareNote(false, false, true, "not UTF-8"); got != "The files are identical. not UTF-8" {
		t.Errorf("CompareNote = %q", got)
	}
}

func TestCounter(t *testing.T) {
	for _, c := range []struct {
		c    Counter
		want string
	}{
		{Counter{}, "no changes"},
		{Counter{NotKnown: true}, "not known: the agent read a version this desk never had"},
		{Counter{K: 2, N: 3}, "hunk 2 of 3"},
		{Counter{K: 1, N: 1, Faded: 2}, "hunk 1 of 1 (+2 whitespace-only, faded: approved too unless unticked)"},
		{Counter{K: 1, N: 2, File: 1, Files: 3}, "hunk 1 of 2 · file 2 of 3"},
		{Counter{K: 1, N: 2, File: 1, Files: 3, CsFile: 4, CsFiles: 6, CsBefore: 5, CsTotal: 9}, "hunk 6 of 9 · file 5 of 6 in the changeset"},
		{Counter{K: 1, N: 2, Trivial: 1}, "hunk 1 of 2 · 1 trivial (t approves)"},
		{Counter{K: 1, N: 2, Trivial: -1}, "hunk 1 of 2 · classifying hunks…"},
	} {
		if got := c.c.String(); got != c.want {
			t.Errorf("%+v = %q; want %q", c.c, got, c.want)
		}
	}
}
