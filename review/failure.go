package review

import (
	"errors"
	"io/fs"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/atomicfile"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/workspace"
)

// Failure is why a proposal did not apply or was not written, in the
// desk's words rather than a person's — it failed, was given up as stale,
// or a rule of the desk rejected it — or why the last attempt to write it
// failed: its kind and the facts the text needs. The desk makes and
// journals it; every sentence of it is review/agenttext's (Failure),
// rendered at the edge.
type Failure struct {
	Kind FailureKind `json:"kind"`
	// Path names the file the edit was to (relative to its root), or, for
	// a patch, the directory it applied to; for FailProtected, FailCutShort
	// and FailLoose, the file a person must review.
	Path    string               `json:"path,omitempty"`
	Match   *engine.MatchError   `json:"match,omitempty"`   // FailMatch: the block that did not apply
	Format  *engine.FormatError  `json:"format,omitempty"`  // FailFormat: what is malformed
	Content *engine.ContentError `json:"content,omitempty"` // FailContent: what is not text
	// Err is the error's own text (FailOther, FailNotRecorded), FailPath's
	// reason (Path: the file, Rule: the workspace's rule; PathFailure),
	// why Path needs a person (the protection of FailProtected, how
	// FailCutShort's edit was cut short), or FailWrite's reason (Stop).
	Err string `json:"error,omitempty"`
	// FailRefused: the limit a streamed edit passed, Path being the file
	// it streamed to (absolute): the budget of proposals held (Budget),
	// or else Streamed bytes, over twice Limit (max_file_bytes).
	Budget   *BudgetError `json:"budget,omitempty"`
	Streamed int64        `json:"streamed,omitempty"`
	Limit    int64        `json:"limit,omitempty"`
	// FailWrite: what stopped the write (Stop), where (Path; Paths for
	// WriteStale, and WriteIO's files it could not put back) and why (Err: the workspace's reason for WriteRefused,
	// the system's for WriteIO, the journal's for WriteJournal and
	// WriteUnfinished, the desk's for WriteOther); Rule: the workspace's
	// rule that refused.
	Stop WriteStop `json:"stop,omitempty"`
	Rule string    `json:"rule,omitempty"`
	// FailWithdrawn: why the proposal ended without a decision (Why), by
	// which door's tool (Door: "Claude Code", "Gemini CLI"; "" for the
	// agent over the protocol), and the tab or file it names (Path), the
	// agent's own words (Note) or the budget it passed (Budget).
	Why  WithdrawReason `json:"why,omitempty"`
	Door string         `json:"door,omitempty"`
	// FailNotWritten: the approval (Verdict), the files that did not hold
	// its text after the agent's tool (Paths), what the agent said (Note;
	// "" if nothing) and the person's note on the approval (Feedback).
	// FailStale: the files that changed on disk.
	Verdict  decision.Verdict `json:"verdict,omitempty"`
	Paths    []string         `json:"paths,omitempty"`
	Note     string           `json:"note,omitempty"`
	Feedback string           `json:"feedback,omitempty"`
	// Text is FailText's: the words of an older journal or desk, which
	// kept no kind.
	Text string `json:"text,omitempty"`
}

// FailureKind names a kind of Failure; review/agenttext has a text for
// each.
type FailureKind string

// The kinds of failure.
const (
	FailMatch       FailureKind = "match"        // a block of the edit did not apply (Match)
	FailFormat      FailureKind = "format"       // the edit is malformed (Format)
	FailContent     FailureKind = "content"      // the file or the edit is not text (Content)
	FailOther       FailureKind = "other"        // the edit did not apply for another reason (Err)
	FailRefused     FailureKind = "refused"      // the desk refused the edit as it streamed: a limit (Path, Budget or Streamed and Limit)
	FailPath        FailureKind = "path"         // approved, but its path no longer led where it did (Path, Rule, Err)
	FailNotRecorded FailureKind = "not-recorded" // the journal could not record it (Err)
	FailNotWritten  FailureKind = "not-written"  // approved for its agent to write, which did not (Verdict, Paths, Note, Feedback)
	FailWrite       FailureKind = "write"        // the last attempt to write it failed; it stays open (Stop, Path or Paths, Rule, Err)
	FailStale       FailureKind = "stale"        // given up: its files changed on disk, with no person to review it against that (Paths)
	FailProtected   FailureKind = "protected"    // rejected by the unattended policy: a protected file needs a person (Path, Err)
	FailCutShort    FailureKind = "cut-short"    // rejected by the unattended policy: an edit cut short needs a person (Path, Err)
	FailLoose       FailureKind = "loose"        // rejected by the unattended policy: an edit that did not match exactly needs a person (Path)
	FailUnattended  FailureKind = "unattended"   // rejected by the unattended policy that rejects every edit
	FailWithdrawn   FailureKind = "withdrawn"    // withdrawn before a decision, without a person's word (Why, Door, Path, Note, Budget)
	FailText        FailureKind = "text"         // an older journal's or desk's words (Text)
)

// FailureKinds lists every kind, for the table that renders them.
var FailureKinds = []FailureKind{FailMatch, FailFormat, FailContent, FailOther, FailRefused, FailPath,
	FailNotRecorded, FailNotWritten, FailWrite, FailStale, FailProtected, FailCutShort, FailLoose, FailUnattended, FailWithdrawn, FailText}

// EditFailure is the failure of an edit to path (or, for a patch, the
// directory it applies to) that the engine refused with err.
func EditFailure(path string, err error) *Failure {
	f := &Failure{Kind: FailOther, Path: path, Err: err.Error()}
	var me *engine.MatchError
	var fe *engine.FormatError
	var ce *engine.ContentError
	switch {
	case errors.As(err, &me):
		f.Kind, f.Match, f.Err = FailMatch, me, ""
	case errors.As(err, &fe):
		f.Kind, f.Format, f.Err = FailFormat, fe, ""
	case errors.As(err, &ce):
		f.Kind, f.Content, f.Err = FailContent, ce, ""
	}
	return f
}

// WithdrawReason is why a proposal was withdrawn (FailWithdrawn).
type WithdrawReason string

// Why proposals are withdrawn: the agent, its tool or its connection
// (WithdrawCancelled to WithdrawDisconnected), or the desk
// (WithdrawDeskClosed, WithdrawBudget).
const (
	WithdrawCancelled      WithdrawReason = "cancelled"       // the agent cancelled it (Note: its own words, "" if none)
	WithdrawAnswered       WithdrawReason = "answered"        // the person answered in the agent's own terminal (Door)
	WithdrawClosedDiffs    WithdrawReason = "closed-diffs"    // the agent's tool closed its diffs (Door)
	WithdrawReopened       WithdrawReason = "reopened"        // the agent's tool opened the same tab again (Door, Path: the tab)
	WithdrawNewerDiff      WithdrawReason = "newer-diff"      // the agent's tool opened a newer diff of the file (Door, Path)
	WithdrawStoppedWaiting WithdrawReason = "stopped-waiting" // the agent's tool stopped waiting for the answer (Door)
	WithdrawDisconnected   WithdrawReason = "disconnected"    // the agent's connection closed (Door)
	WithdrawDeskClosed     WithdrawReason = "desk-closed"     // the desk closed before it was decided
	WithdrawBudget         WithdrawReason = "budget"          // its connection passed its budget of proposals held while it streamed (Budget)
)

// WithdrawReasons lists every WithdrawReason, for the table that renders
// them.
var WithdrawReasons = []WithdrawReason{WithdrawCancelled, WithdrawAnswered, WithdrawClosedDiffs, WithdrawReopened,
	WithdrawNewerDiff, WithdrawStoppedWaiting, WithdrawDisconnected, WithdrawDeskClosed, WithdrawBudget}

// Withdrawal is the reason why, through door (the agent's tool; "" for
// the protocol), naming path (the tab or file; "" if none).
func Withdrawal(why WithdrawReason, door, path string) *Failure {
	return &Failure{Kind: FailWithdrawn, Why: why, Door: door, Path: path}
}

// Cancelled is an agent's withdrawal of its proposal, in its own words
// (reason; "" if it gave none).
func Cancelled(reason string) *Failure {
	return &Failure{Kind: FailWithdrawn, Why: WithdrawCancelled, Note: reason}
}

// ByDesk reports whether the desk withdrew it (it closed, or a budget
// stopped the stream), not the agent, its tool or its connection.
func (w WithdrawReason) ByDesk() bool { return w == WithdrawDeskClosed || w == WithdrawBudget }

// WriteStop is what stopped a write (FailWrite).
type WriteStop string

// What stops a write. Every one but WriteUnfinished stops it before any
// file is written, or puts back those written before it (WriteIO's Paths
// could not be).
const (
	WriteStale      WriteStop = "stale"      // Paths changed on disk since the proposal arrived
	WriteRefused    WriteStop = "refused"    // the workspace refused Path (Rule; Err: why, and what to do)
	WriteIO         WriteStop = "io"         // writing Path failed (Err: the system's reason); the files written before it were put back, but for Paths
	WriteJournal    WriteStop = "journal"    // the journal could not record the decision or the write it begins (Err)
	WriteUnfinished WriteStop = "unfinished" // the files were written, but the journal could not record that the write finished (Err)
	WriteOther      WriteStop = "other"      // the decision could not be carried out (Err: the desk's reason)
)

// WriteStops lists every WriteStop, for the table that renders them.
var WriteStops = []WriteStop{WriteStale, WriteRefused, WriteIO, WriteJournal, WriteUnfinished, WriteOther}

// WriteFailure is the failure of a write attempt that err stopped.
func WriteFailure(err error) *Failure {
	f := &Failure{Kind: FailWrite, Stop: WriteOther, Err: err.Error()}
	var se *StaleError
	var re *workspace.RefusalError
	var we *writeError
	var je *journalError
	switch {
	case errors.As(err, &se):
		f.Stop, f.Paths, f.Err = WriteStale, se.Paths, ""
	case errors.As(err, &re):
		f.Stop, f.Path, f.Rule, f.Err = WriteRefused, re.Path, re.Rule, re.Detail
	case errors.As(err, &we):
		f.Stop, f.Path, f.Paths, f.Err = WriteIO, we.path, we.unrestored, we.err.Error()
		var pe *fs.PathError
		if errors.As(we.err, &pe) {
			f.Err = pe.Err.Error() // the system's reason: the path is ours
		}
	case errors.As(err, &je) && je.written:
		f.Stop, f.Err = WriteUnfinished, je.err.Error()
	case errors.As(err, &je):
		f.Stop, f.Err = WriteJournal, je.err.Error()
	}
	return f
}

// PathFailure is the failure of an approval whose file's path no longer
// led where it did when proposed (err: the workspace's refusal, or a
// write refused out of the root): the file (Path), the rule (Rule) and the
// reason (Err: the refusal's why and what to do, or the write's reason).
func PathFailure(err error) *Failure {
	f := &Failure{Kind: FailPath, Err: err.Error()}
	var re *workspace.RefusalError
	var ae *atomicfile.Error
	switch {
	case errors.As(err, &re):
		f.Path, f.Rule, f.Err = re.Path, re.Rule, re.Detail
	case errors.As(err, &ae):
		f.Path, f.Err = ae.Path, ae.Err.Error()
	}
	return f
}

// RefusedFailure is the failure of a streamed edit to path that passed
// the desk's limit: over (the budget of proposals held), or else
// streamed bytes over twice limit, the file-size limit.
func RefusedFailure(path string, over *BudgetError, streamed, limit int64) *Failure {
	if over != nil {
		return &Failure{Kind: FailRefused, Path: path, Budget: over}
	}
	return &Failure{Kind: FailRefused, Path: path, Streamed: streamed, Limit: limit}
}

// writeError is a file's write that failed (Desk.write): WriteIO; the
// files written before it that could not be put back (unrestored).
type writeError struct {
	path       string
	err        error
	unrestored []string
}

func (e *writeError) Error() string { return e.err.Error() }
func (e *writeError) Unwrap() error { return e.err }

// journalError is the journal failing to record a decision or its write:
// WriteJournal, or WriteUnfinished once the files were written.
type journalError struct {
	err     error
	written bool
}

func (e *journalError) Error() string { return e.err.Error() }
func (e *journalError) Unwrap() error { return e.err }

// ErrFailure is a failure of kind k whose fact is err's text
// (FailNotRecorded).
func ErrFailure(k FailureKind, err error) *Failure {
	return &Failure{Kind: k, Err: err.Error()}
}

// TextFailure is the failure an older journal or desk kept as words only;
// nil for "".
func TextFailure(text string) *Failure {
	if text == "" {
		return nil
	}
	return &Failure{Kind: FailText, Text: text}
}

// Size is about how many bytes f holds, for the desk's memory budget.
func (f *Failure) Size() int {
	if f == nil {
		return 0
	}
	n := len(f.Path) + len(f.Err) + len(f.Note) + len(f.Text) + len(f.Rule) + len(f.Door) + len(f.Feedback)
	if f.Budget != nil {
		n += len(f.Budget.Scope) + len(f.Budget.StreamPath)
	}
	for _, m := range f.Paths {
		n += len(m)
	}
	if me := f.Match; me != nil {
		n += len(me.Search) + len(me.Hint)
		for _, c := range append(append([]engine.Candidate(nil), me.Closest...), me.Places...) {
			for _, l := range c.Lines {
				n += len(l)
			}
		}
	}
	if f.Format != nil {
		n += len(f.Format.Msg)
	}
	return n
}

// ErrorJSON returns the structured form of an edit error for JSON output:
// {"kind": …, "message": …} plus the engine's typed fields.
func ErrorJSON(err error) map[string]any {
	f := EditFailure("", err)
	out := map[string]any{"message": err.Error(), "kind": string(f.Kind)}
	switch {
	case f.Match != nil:
		out["match"] = f.Match
	case f.Format != nil:
		out["block"], out["line"] = f.Format.Block, f.Format.Line
	case f.Content != nil:
		out["line"], out["offset"] = f.Content.Line, f.Content.Offset
	}
	return out
}
