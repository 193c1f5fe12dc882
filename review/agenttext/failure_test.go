package agenttext_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/atomicfile"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/workspace"
	"pgregory.net/rapid"
)

// TestFailureGoldens: an edit the engine refused, as the agent reads it
// (review/testdata/failure).
func TestFailureGoldens(t *testing.T) {
	tests := []struct {
		name string
		path string
		err  error
	}{
		{"no-match-sr.txt", "src/app.go", &engine.MatchError{
			Format: engine.FormatSearchReplace, Block: 2, Kind: engine.FailNoMatch,
			Search: "func run() {\n\treturn nil\n}\n",
			Tried:  []engine.Strategy{engine.StrategyExact, engine.StrategyLineTrimmed, engine.StrategyBlockAnchor},
			Closest: []engine.Candidate{{StartLine: 40, EndLine: 42, Similarity: 0.82,
				Lines: []string{"func run() error {", "\treturn nil", "}"}}},
			Applied: []engine.Match{{Block: 1, Strategy: engine.StrategyExact, StartLine: 3, EndLine: 4}},
		}},
		{"count-edit.txt", "main.py", &engine.MatchError{
			Format: engine.FormatEdit, Block: 1, Kind: engine.FailCount, Search: "x = 1\n", Want: 1, Found: 2,
			Places: []engine.Candidate{{StartLine: 3, EndLine: 3, Similarity: 1}, {StartLine: 9, EndLine: 9, Similarity: 1}},
			Hint:   "add surrounding lines to old_string so it occurs once, or set replace_all",
		}},
		{"fence-in-search.txt", "README.md", &engine.MatchError{
			Format: engine.FormatMultiEdit, Block: 3, Kind: engine.FailNoMatch, Search: "```go\nx\n```\n",
			Applied: []engine.Match{{Block: 1}, {Block: 2}},
		}},
		{"format.txt", "a.txt", &engine.FormatError{Format: engine.FormatSearchReplace, Block: 1, Line: 4,
			Msg: "expected ======= before +++++++ REPLACE"}},
		{"binary.txt", "logo.png", &engine.ContentError{What: "file", Reason: "binary content (NUL byte)", Line: 1, Offset: 5}},
		{"other.txt", "a.txt", errors.New("boom")},
		{"patch-file-exists.txt", "/w", &engine.MatchError{Format: engine.FormatPatch, Path: "src/new.go", Kind: engine.FailFileExists,
			Hint: "update the file instead of adding it, or delete it first"}},
		{"patch-chunk.txt", "/w", &engine.MatchError{Format: engine.FormatPatch, Path: "src/a.go", Block: 2, Kind: engine.FailNoMatch,
			Search: "x := 1\n", Applied: []engine.Match{{Block: 1}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.err
			if _, other := err.(interface{ Unwrap() error }); !other && tt.name != "other.txt" {
				err = fmt.Errorf("applying: %w", err) // as the engine's callers wrap it: the text is the engine error's
			}
			f := review.EditFailure(tt.path, err)
			golden(t, filepath.Join("failure", tt.name), agenttext.Failure(f))
		})
	}
}

// TestFailureKinds is the table of every kind of failure the desk makes
// and the text its agent reads.
func TestFailureKinds(t *testing.T) {
	budget := &review.BudgetError{Scope: "the desk", Count: 3, Bytes: 3 << 20, MaxCount: 256, MaxBytes: 3 << 20, StreamPath: "/w/s.txt"}
	tests := []struct {
		f    review.Failure
		want string
	}{
		{*review.EditFailure("a.go", &engine.MatchError{Format: engine.FormatEdit, Block: 1, Kind: engine.FailNoChange, Search: "x\n"}),
			"The edit to a.go was not applied: old_string is identical to its replacement, so the edit changes nothing.\n\nSearched for:\n```\nx\n```\n\nNothing was written.\nSend the edit again with old_string copied exactly from the file's current lines.\n"},
		{*review.EditFailure("a.go", &engine.FormatError{Format: engine.FormatEdit, Msg: "old_string is missing"}),
			"The edit to a.go was not applied: it is malformed.\nedit: old_string is missing\nNothing was changed. Fix the edit's structure and send it again.\n"},
		{*review.EditFailure("a.png", &engine.ContentError{What: "edit", Reason: "invalid UTF-8"}),
			"The edit to a.png was not applied: edit is not editable text: invalid UTF-8.\nDiffDesk edits text files only; nothing was changed.\n"},
		{*review.EditFailure("a.go", errors.New("the disk is full")),
			"The edit to a.go was not applied: the disk is full\n"},
		{*review.RefusedFailure("/w/big.txt", nil, 2001, 1000),
			"refused: /w/big.txt: the streamed edit passed 2001 bytes, over twice the 1000-byte file limit; stop sending, and raise [limits] max_file_bytes or edit a smaller file"},
		{*review.RefusedFailure("/w/s.txt", budget, 0, 0), budget.Error()},
		{*review.ErrFailure(review.FailPath, errors.New("src is now a link out of the workspace")),
			"The desk refused to write your edit: src is now a link out of the workspace. Nothing was written. Read the file again and propose the edit again if it is still wanted.\n"},
		{*review.PathFailure(fmt.Errorf("checking: %w", &workspace.RefusalError{Path: "/w/src/a.go", Rule: workspace.RuleMoved,
			Detail: "it now leads to /etc/a.go; a symlink was put in its way after the edit was proposed, so nothing was written; look at what changed there, then propose the edit again"})),
			"The desk refused to write your edit to /w/src/a.go: it now leads to /etc/a.go; a symlink was put in its way after the edit was proposed, so nothing was written; look at what changed there, then propose the edit again.\n"},
		{*review.PathFailure(&atomicfile.Error{Path: "/w/src/a.go", Step: "resolve symlink", Err: fmt.Errorf("%w /w: src is a symlink to /etc", atomicfile.ErrOutsideRoot)}),
			"The desk refused to write your edit to /w/src/a.go: it leads outside the workspace root /w: src is a symlink to /etc. Nothing was written. Read the file again and propose the edit again if it is still wanted.\n"},
		{*review.ErrFailure(review.FailNotRecorded, errors.New("journal: disk I/O error")),
			"The desk could not record your edit, so it was not shown for review: journal: disk I/O error"},
		{review.Failure{Kind: review.FailNotWritten, Verdict: decision.ApprovedEdited, Paths: []string{"/w/a.go", "/w/b.go"}},
			"Approved (approved-edited), but not written: after the agent's tool, /w/a.go and /w/b.go did not hold the approved text."},
		{review.Failure{Kind: review.FailNotWritten, Verdict: decision.Approved, Paths: []string{"/w/a.go"}, Note: "Invalid input\x1b[2J"},
			"Approved (approved), but not written: after the agent's tool, /w/a.go did not hold the approved text.\nThe agent said: Invalid input\\x1b[2J"},
		{review.Failure{Kind: review.FailNotWritten, Verdict: decision.Approved, Paths: []string{"/w/a.go"}, Feedback: "louder"},
			"Approved (approved), but not written: after the agent's tool, /w/a.go did not hold the approved text.\nThe person's note: louder"},
		{*review.WriteFailure(&review.StaleError{ID: "p1", Paths: []string{"/w/a.go", "/w/b.go"}}),
			"The write stopped: /w/a.go and /w/b.go changed on disk since the proposal arrived. Nothing was written; the proposal still waits for a decision.\nReview base / disk / proposal and decide again.\n"},
		{review.Failure{Kind: review.FailStale, Paths: []string{"a.go", "b.go"}},
			"a.go and b.go changed on disk after you read it, and this desk runs without a person to review your edit against that change"},
		{review.Failure{Kind: review.FailProtected, Path: ".envrc", Err: "built-in: runs when you enter the directory"},
			"a person must review edits to protected path .envrc — built-in: runs when you enter the directory; this desk runs without a person and approves only what a rule may approve"},
		{review.Failure{Kind: review.FailCutShort, Path: "a.go", Err: "has no end marker"},
			"a person must review an edit cut short (a.go: has no end marker); this desk runs without a person and approves only what a rule may approve"},
		{review.Failure{Kind: review.FailLoose, Path: "a.go"},
			"a person must review an edit that did not match a.go exactly; this desk runs without a person and approves only what a rule may approve"},
		{review.Failure{Kind: review.FailUnattended}, "this desk runs without a person and rejects every edit"},
		{*review.Withdrawal(review.WithdrawDisconnected, "", ""), "the agent disconnected"},
		{*review.TextFailure("The edit to a.go was not applied: an older desk's words.\n"), "The edit to a.go was not applied: an older desk's words.\n"},
	}
	seen := map[review.FailureKind]bool{}
	for _, tt := range tests {
		seen[tt.f.Kind] = true
		if got := agenttext.Failure(&tt.f); got != tt.want {
			t.Errorf("Failure(%s) =\n%q\nwant\n%q", tt.f.Kind, got, tt.want)
		}
		// The journal keeps the failure as JSON: read back, it says the same.
		js, err := json.Marshal(tt.f)
		if err != nil {
			t.Fatal(err)
		}
		var back review.Failure
		if err := json.Unmarshal(js, &back); err != nil {
			t.Fatal(err)
		}
		if got := agenttext.Failure(&back); got != tt.want {
			t.Errorf("Failure(%s) read back from %s =\n%q\nwant\n%q", tt.f.Kind, js, got, tt.want)
		}
	}
	for _, k := range review.FailureKinds {
		if !seen[k] {
			t.Errorf("kind %s has no case in this table", k)
		}
	}
}

// TestWriteStops is the table of what stops a write (review.WriteStops):
// what stopped it, where, and what to do, never an error's own text beyond
// the reason it gives.
func TestWriteStops(t *testing.T) {
	readOnly := &workspace.RefusalError{Path: "/w/a.go", Rule: workspace.RuleReadOnly, Detail: "the file is read-only (mode 0444)"}
	tests := []struct {
		f    review.Failure
		want string
	}{
		{*review.WriteFailure(&review.StaleError{ID: "p1", Paths: []string{"/w/a.go"}}),
			"The write stopped: /w/a.go changed on disk since the proposal arrived. Nothing was written; the proposal still waits for a decision.\nReview base / disk / proposal and decide again.\n"},
		{*review.WriteFailure(fmt.Errorf("checking: %w", readOnly)),
			"The write stopped: the desk refused to write /w/a.go (read_only): the file is read-only (mode 0444). Nothing was written; the proposal still waits for a decision.\n"},
		{review.Failure{Kind: review.FailWrite, Stop: review.WriteIO, Path: "/w/a.go", Err: "no space left on device"},
			"Writing /w/a.go failed: no space left on device. Nothing was written: the files of the proposal written before it were put back as they were; the proposal still waits for a decision.\nFix the cause (space, permissions) and decide again.\n"},
		{review.Failure{Kind: review.FailWrite, Stop: review.WriteIO, Path: "/w/b.go", Paths: []string{"/w/a.go"}, Err: "no space left on device"},
			"Writing /w/b.go failed: no space left on device. /w/a.go, written before it, could not be put back as it was (it is as the approval left it); the proposal still waits for a decision.\nFix the cause (space, permissions) and decide again.\n"},
		{review.Failure{Kind: review.FailWrite, Stop: review.WriteJournal, Err: "database is locked"},
			"The journal could not record the decision, and the desk writes nothing it has not recorded: database is locked. Nothing was written; the proposal still waits for a decision.\nDecide again once the journal can be written.\n"},
		{review.Failure{Kind: review.FailWrite, Stop: review.WriteUnfinished, Err: "disk I/O error"},
			"The files were written, but the journal could not record that the write finished: disk I/O error. The proposal still waits for a decision, and its agent has not been told.\n"},
		{*review.WriteFailure(errors.New("review: a.go has no hunk \"h9\"")),
			"The decision was not carried out: review: a.go has no hunk \"h9\". Nothing was written; the proposal still waits for a decision.\n"},
	}
	seen := map[review.WriteStop]bool{}
	for _, tt := range tests {
		seen[tt.f.Stop] = true
		if got := agenttext.Failure(&tt.f); got != tt.want {
			t.Errorf("Failure(write, %s) =\n%q\nwant\n%q", tt.f.Stop, got, tt.want)
		}
	}
	for _, s := range review.WriteStops {
		if !seen[s] {
			t.Errorf("write stop %s has no case in this table", s)
		}
	}
	// A refusal journaled before its limit was kept: its words.
	if got, want := agenttext.Failure(&review.Failure{Kind: review.FailRefused, Err: "refused: /w/a: too big"}), "refused: /w/a: too big"; got != want {
		t.Errorf("Failure(refused, words only) = %q; want %q", got, want)
	}
	// A write failure from a desk before stops were named: its reason.
	if got, want := agenttext.Failure(&review.Failure{Kind: review.FailWrite, Err: "disk full"}), "The decision was not carried out: disk full. Nothing was written; the proposal still waits for a decision.\n"; got != want {
		t.Errorf("Failure(write without a stop) = %q; want %q", got, want)
	}
}

// TestWithdrawReasons is the table of why proposals are withdrawn
// (review.WithdrawReasons), as the outcome's reason (its feedback on the
// wire) and the history say it; the agent's own words are escaped.
func TestWithdrawReasons(t *testing.T) {
	budget := &review.BudgetError{Scope: "this connection", Count: 8, Bytes: 1 << 20, MaxCount: 8, MaxBytes: 64 << 20, StreamPath: "/w/a.go"}
	overBudget := review.Withdrawal(review.WithdrawBudget, "", "/w/a.go")
	overBudget.Budget = budget
	tests := []struct {
		f    *review.Failure
		want string
	}{
		{review.Cancelled("not needed\x1b[2J"), "not needed\\x1b[2J"},
		{review.Cancelled(""), "the agent cancelled the proposal"},
		{review.Withdrawal(review.WithdrawAnswered, "Gemini CLI", ""), "answered in the Gemini CLI terminal"},
		{review.Withdrawal(review.WithdrawClosedDiffs, "Claude Code", ""), "Claude Code closed its diffs"},
		{review.Withdrawal(review.WithdrawReopened, "Claude Code", "a.go ⧉"), "Claude Code reopened the tab a.go ⧉"},
		{review.Withdrawal(review.WithdrawNewerDiff, "Gemini CLI", "/w/a.go"), "Gemini CLI opened a newer diff of /w/a.go"},
		{review.Withdrawal(review.WithdrawStoppedWaiting, "Claude Code", ""), "Claude Code stopped waiting"},
		{review.Withdrawal(review.WithdrawDisconnected, "Claude Code", ""), "Claude Code disconnected"},
		{review.Withdrawal(review.WithdrawDeskClosed, "Gemini CLI", ""), "the desk closed before it was decided: nothing was written"},
		{overBudget, budget.Error()},
	}
	seen := map[review.WithdrawReason]bool{}
	for _, tt := range tests {
		seen[tt.f.Why] = true
		o := agenttext.ForWire(review.Outcome{ID: "p1", Status: decision.Withdrawn, Failure: tt.f})
		if got := agenttext.Reason(review.Outcome{Status: decision.Withdrawn, Failure: tt.f}); got != tt.want || o.Feedback != tt.want {
			t.Errorf("withdrawn (%s): reason %q, feedback on the wire %q; want %q", tt.f.Why, got, o.Feedback, tt.want)
		}
	}
	for _, w := range review.WithdrawReasons {
		if !seen[w] {
			t.Errorf("withdrawal %s has no case in this table", w)
		}
	}
}

// TestJournalGapsAreTheDesks: what the desk's journal could not record
// ends the agent's text as the journal's, never inside the person's note
// or reason (where it once was: "The person's note: (the journal could
// not record this outcome: …)").
func TestJournalGapsAreTheDesks(t *testing.T) {
	gap := []review.JournalGap{{What: review.GapOutcome, Err: "disk I/O error"}}
	for _, o := range []review.Outcome{
		{ID: "p1", Status: decision.Rejected, Feedback: "too broad", Files: []review.FileOutcome{}, Unrecorded: gap},
		{ID: "p2", Status: decision.Failed, Failure: review.RefusedFailure("/w/a.go", nil, 30, 10), Files: []review.FileOutcome{}, Unrecorded: gap},
		{ID: "p3", Status: decision.Withdrawn, Failure: review.Cancelled("x"), Files: []review.FileOutcome{}, Unrecorded: []review.JournalGap{{What: review.GapArrived, Err: "database is locked"}}},
	} {
		without := o
		without.Unrecorded = nil
		got, before := agenttext.Outcome(o), agenttext.Outcome(without)
		want := "The desk's journal could not record this outcome; the desk's history may lack it (disk I/O error).\n"
		if o.Status == decision.Withdrawn {
			want = "The desk's journal could not record what had arrived of your edit before it was withdrawn (database is locked).\n"
		}
		if !strings.HasPrefix(got, before) || !strings.HasSuffix(got, want) || strings.Contains(before, "journal") {
			t.Errorf("Outcome(%s with a gap) =\n%q\nwant\n%q then %q", o.Status, got, before, want)
		}
	}
}

// TestFailureWithoutItsFacts: a failure whose kind this desk does not know,
// or whose facts were lost (a damaged journal), still says something true
// rather than crash.
func TestFailureWithoutItsFacts(t *testing.T) {
	for _, f := range []review.Failure{{Kind: review.FailMatch, Path: "a.go"}, {Kind: "from-the-future", Err: "why"}} {
		got := agenttext.Failure(&f)
		if !strings.Contains(got, "was not applied ("+string(f.Kind)+")") || !strings.Contains(got, "Nothing was written.") {
			t.Errorf("Failure(%+v) = %q; want it to name the kind and say nothing was written", f, got)
		}
	}
	if got := agenttext.Failure(nil); got != "" {
		t.Errorf("Failure(nil) = %q; want \"\"", got)
	}
}

// TestFailureCapsEcho: a long search text is echoed to the agent cut to 40
// lines, saying how many were left out.
func TestFailureCapsEcho(t *testing.T) {
	const max = 40
	search := strings.Repeat("line\n", max+10)
	got := agenttext.Failure(review.EditFailure("f", &engine.MatchError{Format: engine.FormatEdit, Block: 1, Kind: engine.FailNoMatch, Search: search}))
	if n := strings.Count(got, "line\n"); n != max {
		t.Errorf("Failure echoed %d search lines; want %d", n, max)
	}
	if !strings.Contains(got, "(10 more lines)") {
		t.Errorf("Failure does not say how many lines were left out:\n%s", got)
	}
}

// TestOutcomeOfAnOlderDesk: an outcome with only the words of an older
// desk or journal (Error) reads as they were; ForWire puts a failure's
// text there and leaves such words alone.
func TestOutcomeOfAnOlderDesk(t *testing.T) {
	old := review.Outcome{ID: "p1", Status: decision.Failed, Error: "The edit to a.go was not applied: as an older desk said it.\n"}
	if got := agenttext.Outcome(old); got != old.Error {
		t.Errorf("Outcome(older desk's) = %q; want %q", got, old.Error)
	}
	if got := agenttext.ForWire(old).Error; got != old.Error {
		t.Errorf("ForWire changed an older desk's words to %q", got)
	}
	f := review.ErrFailure(review.FailNotRecorded, errors.New("disk full"))
	now := review.Outcome{ID: "p2", Status: decision.Failed, Failure: f}
	if got, want := agenttext.ForWire(now).Error, agenttext.Failure(f); got != want || got != agenttext.Outcome(now) {
		t.Errorf("ForWire(...).Error = %q; want %q, the outcome's text", got, want)
	}
	js, _ := json.Marshal(now)
	if strings.Contains(string(js), "failure") || strings.Contains(string(js), "error") {
		t.Errorf("an outcome not yet at the edge marshals %s; want neither a failure nor an error field (the wire's text is ForWire's)", js)
	}
}

// TestBudgetRefusalSaysWhatTheSenderWasTold: a stream stopped at the budget
// of proposals held fails, and what its agent reads of the failure is,
// word for word, the refusal its chunk was answered with (the
// review.BudgetError), for any budget and holdings.
func TestBudgetRefusalSaysWhatTheSenderWasTold(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		be := &review.BudgetError{
			Scope:      rapid.SampledFrom([]string{"the desk", "this connection"}).Draw(rt, "scope"),
			Count:      rapid.IntRange(0, 10000).Draw(rt, "count"),
			Bytes:      rapid.Int64Range(0, 1<<40).Draw(rt, "bytes"),
			MaxCount:   rapid.IntRange(1, 10000).Draw(rt, "maxCount"),
			MaxBytes:   rapid.Int64Range(1, 1<<40).Draw(rt, "maxBytes"),
			StreamPath: rapid.StringMatching(`/w/[a-z .]{1,12}`).Draw(rt, "path"),
		}
		f := review.RefusedFailure(be.StreamPath, be, 0, 0)
		if got := agenttext.Failure(f); got != be.Error() {
			rt.Fatalf("the failure says\n%q\nthe chunk was answered\n%q", got, be.Error())
		}
	})
}
