package present

import (
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/checker"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/workspace"
)

// TestOutcomeTextEndsTheReason: the reason on the status line ends as a
// sentence before the count of comments (real window: "Reason sent to the
// agent: wrong func 2 comment(s) sent with it."), and a reason of several
// lines shows its first, not a status line lines high.
func TestOutcomeTextEndsTheReason(t *testing.T) {
	cs := []decision.Comment{{Text: "x"}, {Text: "y"}}
	for _, c := range []struct {
		o    review.Outcome
		want string
	}{
		{review.Outcome{Status: decision.Rejected, Feedback: "wrong func", Comments: cs},
			"Rejected; nothing was written. Reason sent to the agent: wrong func. 2 comment(s) sent with it."},
		{review.Outcome{Status: decision.Rejected, Feedback: "Why this?"},
			"Rejected; nothing was written. Reason sent to the agent: Why this?"},
		{review.Outcome{Status: decision.Rejected, Feedback: "too broad\nsplit it into two steps"},
			"Rejected; nothing was written. Reason sent to the agent: too broad …"},
		// A withdrawal's reason is the desk's, sent to no one (real window:
		// "Reason sent to the agent: the agent disconnected"); a far desk
		// sends only its words, not who withdrew it.
		{review.Outcome{Status: decision.Withdrawn, Feedback: "the agent disconnected"},
			"This proposal was withdrawn. Why: the agent disconnected."},
		// An approval merged into a change made on disk since says so.
		{review.Outcome{Status: decision.Approved, Checkpoint: 2, Files: []review.FileOutcome{{Written: true, DiskEdits: "@@ -1 +1 @@\n-a\n+A\n"}}},
			"Approved and written, merged into the change made on disk (checkpoint 2)."},
		// A stream rejected before it ended is said to be, as far as it came.
		{review.Outcome{Status: decision.Rejected, Unfinished: true},
			"Rejected while it streamed (shown as far as it had come); nothing was written."},
		// The desk's own rule's reason is the text its agent read.
		{review.Outcome{Status: decision.Rejected, DecidedBy: review.DecidedByRule, Failure: &review.Failure{Kind: review.FailUnattended}},
			"Rejected; nothing was written. Reason sent to the agent: this desk runs without a person and rejects every edit."},
		// A reviewer's overwrite over the protocol is said as what it was,
		// not as the raw status.
		{review.Outcome{Status: decision.Overwritten, Checkpoint: 4},
			"Approved over the change made on disk, as the reviewer chose, and written; what it replaced can be restored (checkpoint 4)."},
	} {
		if got := Outcome(review.Proposal{}, c.o); got != c.want {
			t.Errorf("Outcome = %q; want %q", got, c.want)
		}
	}
}

// TestProblemsNoteThroughAnIDEDoor: through a door that tells the agent
// only the verdict, the note says nothing of telling the agent; with no
// new problem there is no note.
func TestProblemsNoteThroughAnIDEDoor(t *testing.T) {
	o := review.Outcome{Status: decision.Approved, Files: []review.FileOutcome{{NewProblems: []checker.Problem{{Line: 4, Source: "gofmt", Message: "missing condition"}, {Source: "vet", Message: "x"}}}}}
	if got, want := Problems(review.Proposal{VerdictOnly: true}, o), " The checkers found 2 new problem(s) in what was written (line 4, gofmt: missing condition)."; got != want {
		t.Errorf("Problems = %q; want %q", got, want)
	}
	if got := Problems(review.Proposal{}, review.Outcome{Status: decision.Approved, Files: []review.FileOutcome{{}}}); got != "" {
		t.Errorf("Problems with no problem = %q; want none", got)
	}
}

// TestOutcomeTextThroughAVerdictOnlyDoor: neither the reason nor the line
// comments are said to be sent where the door carries none; elsewhere they
// are.
func TestOutcomeTextThroughAVerdictOnlyDoor(t *testing.T) {
	cs := []decision.Comment{{Text: "x"}, {Text: "y"}}
	o := review.Outcome{Status: decision.Rejected, Feedback: "wrong func", Comments: cs}
	ide := review.Proposal{Agent: "gemini-cli", VerdictOnly: true}
	if got, want := Outcome(ide, o), "Rejected; nothing was written. gemini-cli was told only the verdict (its IDE door carries no reason); your reason is kept in the history: wrong func. 2 comment(s) kept in the history, not sent: the IDE door carries none."; got != want {
		t.Errorf("through an IDE door:\n got %q\nwant %q", got, want)
	}
	if got, want := Outcome(review.Proposal{Agent: "deskctl"}, o), "Rejected; nothing was written. Reason sent to the agent: wrong func. 2 comment(s) sent with it."; got != want {
		t.Errorf("through the native door:\n got %q\nwant %q", got, want)
	}
}

// TestOutcomeOfAnApprovalNotWritten: an approval that was not carried out
// — its agent's tool did not write the approved text (the Cline door), or
// its path no longer led where it did — is not "The edit did not apply":
// the edit applied and the person approved it. The status line says what
// happened, in the words the agent read.
func TestOutcomeOfAnApprovalNotWritten(t *testing.T) {
	for _, c := range []struct {
		f    *review.Failure
		want string
	}{
		{&review.Failure{Kind: review.FailNotWritten, Verdict: decision.Approved, Paths: []string{"a.go"}, Note: "blocked by a hook"},
			"Approved (approved), but not written: after the agent's tool, a.go did not hold the approved text."},
		{&review.Failure{Kind: review.FailPath, Err: "a.go is now a symbolic link"},
			"Approved, but not written: a.go is now a symbolic link."},
		{review.PathFailure(&workspace.RefusalError{Path: "/w/a.go", Rule: workspace.RuleMoved, Detail: "it now leads to /etc/a.go; a symlink was put in its way"}),
			"Approved, but not written: the desk refused to write /w/a.go: it now leads to /etc/a.go; a symlink was put in its way."},
	} {
		if got := Outcome(review.Proposal{}, review.Outcome{Status: decision.Failed, Failure: c.f}); got != c.want {
			t.Errorf("%s: status line %q; want %q", c.f.Kind, got, c.want)
		}
	}
	if got := Outcome(review.Proposal{}, review.Outcome{Status: decision.Failed, Failure: &review.Failure{Kind: review.FailOther, Err: "x"}}); got != "The edit did not apply." {
		t.Errorf("an edit that did not apply: %q", got)
	}
}

// TestWithdrawals: who withdrew a proposal, and why, for every reason the
// desk has (review.WithdrawReasons): the desk when it closed or a budget
// stopped the stream — never "the agent withdrew" then.
func TestWithdrawals(t *testing.T) {
	budget := &review.BudgetError{Scope: "this connection", Count: 8, Bytes: 1 << 20, MaxCount: 8, MaxBytes: 64 << 20, StreamPath: "/w/a.go"}
	overBudget := review.Withdrawal(review.WithdrawBudget, "", "/w/a.go")
	overBudget.Budget = budget
	tests := []struct {
		why        *review.Failure
		unfinished bool
		want       string
	}{
		{review.Cancelled("superseded by a better plan"), false, "The agent withdrew this proposal. Why: superseded by a better plan."},
		{review.Cancelled(""), true, "The agent withdrew this proposal before it had finished sending it (shown as far as it had come). Why: the agent cancelled the proposal."},
		{review.Withdrawal(review.WithdrawAnswered, "Claude Code", ""), false, "The agent withdrew this proposal. Why: answered in the Claude Code terminal."},
		{review.Withdrawal(review.WithdrawClosedDiffs, "Claude Code", ""), false, "The agent withdrew this proposal. Why: Claude Code closed its diffs."},
		{review.Withdrawal(review.WithdrawReopened, "Claude Code", "✻ [Claude Code] a.go"), false, "The agent withdrew this proposal. Why: Claude Code reopened the tab ✻ [Claude Code] a.go."},
		{review.Withdrawal(review.WithdrawNewerDiff, "Gemini CLI", "/w/a.go"), false, "The agent withdrew this proposal. Why: Gemini CLI opened a newer diff of /w/a.go."},
		{review.Withdrawal(review.WithdrawStoppedWaiting, "Claude Code", ""), false, "The agent withdrew this proposal. Why: Claude Code stopped waiting."},
		{review.Withdrawal(review.WithdrawDisconnected, "", ""), true, "The agent withdrew this proposal before it had finished sending it (shown as far as it had come). Why: the agent disconnected."},
		{review.Withdrawal(review.WithdrawDisconnected, "Gemini CLI", ""), false, "The agent withdrew this proposal. Why: Gemini CLI disconnected."},
		{review.Withdrawal(review.WithdrawDeskClosed, "", ""), false, "The desk withdrew this proposal. Why: the desk closed before it was decided: nothing was written."},
		{overBudget, true, "The desk withdrew this proposal before its agent had finished sending it (shown as far as it had come). Why: " + budget.Error() + "."},
	}
	seen := map[review.WithdrawReason]bool{}
	for _, tt := range tests {
		seen[tt.why.Why] = true
		o := review.Outcome{Status: decision.Withdrawn, Failure: tt.why, Unfinished: tt.unfinished}
		if got := Outcome(review.Proposal{}, o); got != tt.want {
			t.Errorf("Outcome(withdrawn, %s) =\n%q\nwant\n%q", tt.why.Why, got, tt.want)
		}
	}
	for _, w := range review.WithdrawReasons {
		if !seen[w] {
			t.Errorf("withdrawal %s has no case in this table", w)
		}
	}
}

// TestJournalGaps: what the journal could not record of an outcome is
// said after it, as the journal's, never as the person's note.
func TestJournalGaps(t *testing.T) {
	o := review.Outcome{Status: decision.Rejected, Feedback: "no", Unrecorded: []review.JournalGap{{What: review.GapOutcome, Err: "disk I/O error"}}}
	if got, want := Outcome(review.Proposal{}, o), "Rejected; nothing was written. Reason sent to the agent: no. The journal could not record this outcome (the history may lack it): disk I/O error."; got != want {
		t.Errorf("Outcome = %q; want %q", got, want)
	}
	o = review.Outcome{Status: decision.Withdrawn, Failure: review.Withdrawal(review.WithdrawDisconnected, "", ""), Unfinished: true,
		Unrecorded: []review.JournalGap{{What: review.GapArrived, Err: "database is locked"}}}
	if got := Outcome(review.Proposal{}, o); !strings.HasSuffix(got, "Why: the agent disconnected. The journal could not record what had arrived of the stream: database is locked.") {
		t.Errorf("Outcome = %q; want the reason, then what the journal could not record", got)
	}
}
