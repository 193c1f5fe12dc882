package present

import (
	"testing"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/checker"
	"github.com/diffdesk/diffdesk/review/decision"
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
		// "Reason sent to the agent: the agent disconnected").
		{review.Outcome{Status: decision.Withdrawn, Feedback: "the agent disconnected"},
			"The agent withdrew this proposal. Why: the agent disconnected."},
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
	} {
		if got := Outcome(review.Proposal{}, review.Outcome{Status: decision.Failed, Failure: c.f}); got != c.want {
			t.Errorf("%s: status line %q; want %q", c.f.Kind, got, c.want)
		}
	}
	if got := Outcome(review.Proposal{}, review.Outcome{Status: decision.Failed, Failure: &review.Failure{Kind: review.FailOther, Err: "x"}}); got != "The edit did not apply." {
		t.Errorf("an edit that did not apply: %q", got)
	}
}
