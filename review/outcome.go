package review

import (
	"strings"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/checker"
	"github.com/diffdesk/diffdesk/review/decision"
)

// Outcome is what the desk tells an agent about its proposal.
type Outcome struct {
	ID        string           `json:"id"`
	Status    decision.Verdict `json:"status"`
	Files     []FileOutcome    `json:"files"`
	DecidedBy Decider          `json:"decidedBy,omitempty"` // who decided; "" when no one did (failed, withdrawn)
	By        string           `json:"by,omitempty"`        // DecidedByPerson: who, as "user@host"
	Rule      string           `json:"rule,omitempty"`      // DecidedByRule: which rule, e.g. "auto_approve rule at FILE line N"
	Feedback  string           `json:"feedback,omitempty"`  // the reason or note the person typed (or the rule gave)
	// Comments are the person's comments on lines of the proposal, with
	// the lines they are on (decision.Comment), in the proposal's file order.
	Comments   []decision.Comment `json:"comments,omitempty"`
	Checkpoint int64              `json:"checkpoint,omitempty"` // journal checkpoint of the write
	// Failure is why it failed (decision.Failed), or the desk's reason
	// for giving it up (decision.Stale), for its rule's rejection or for
	// its withdrawal (FailWithdrawn: who withdrew it and why): its
	// kind and facts, which review/agenttext renders. Not on the wire as
	// it is: the protocol carries its text in Error or Feedback
	// (WithFailureText, agenttext.ForWire); the journal keeps both.
	Failure *Failure `json:"-"`
	// Error is a failure's text as the protocol carries it, set at the
	// edge (agenttext.ForWire) or read from an older desk or journal,
	// which sent only words. The desk sets Failure, never this.
	Error string `json:"error,omitempty"`
	// Unrecorded is what the desk's journal could not record of how the
	// proposal ended, and why; the outcome was delivered all the same.
	// review/agenttext and ui/present say it.
	Unrecorded []JournalGap `json:"unrecorded,omitempty"`
	// Unfinished says the proposal was rejected or withdrawn before the
	// agent had finished sending it (a stream).
	Unfinished bool `json:"unfinished,omitempty"`
	// AgentWrites says the desk wrote nothing: the agent writes the files
	// itself from each file's final content (Request.AgentWrites).
	AgentWrites bool `json:"agentWrites,omitempty"`
}

// JournalGap is what the journal could not record of a proposal's end
// (What), and the journal's error (Err).
type JournalGap struct {
	What GapWhat `json:"what"`
	Err  string  `json:"error"`
}

// GapWhat names what the journal could not record.
type GapWhat string

// What the journal could not record.
const (
	GapOutcome GapWhat = "outcome" // the outcome (and, for an end without a decision, its verdict)
	GapArrived GapWhat = "arrived" // what had arrived of a stream withdrawn before it ended
)

// WithFailureText is o with its failure's text where the protocol and the
// journal carry it: Error for a failure, Feedback for a proposal given up
// as stale or rejected by the desk's rule. o without a Failure is
// returned as it is.
func (o Outcome) WithFailureText(text string) Outcome {
	switch {
	case o.Failure == nil:
	case o.Status == decision.Failed:
		o.Error = text
	default:
		o.Feedback = text
	}
	return o
}

// Decider is who decided a proposal.
type Decider string

// The deciders.
const (
	DecidedByPerson Decider = "person" // the person reviewing it
	DecidedByRule   Decider = "rule"   // a rule of the desk, with no person: an auto-approve rule or the unattended policy
)

// FileOutcome is the result for one file of a proposal.
type FileOutcome struct {
	Path            string        `json:"path"`                      // absolute path
	Written         bool          `json:"written"`                   // the desk wrote the file (false when the agent writes it)
	Deleted         bool          `json:"deleted,omitempty"`         // the file was deleted
	DiskEdits       string        `json:"diskEdits,omitempty"`       // unified patch base → disk: a change someone else made to the file while the proposal waited, which the approval was made over; "" if none
	UserEdits       string        `json:"userEdits,omitempty"`       // unified patch proposal (or, with DiskEdits, the proposal merged onto the disk) → approved text; "" if the person changed nothing
	AutoFormatEdits string        `json:"autoFormatEdits,omitempty"` // unified patch approved → final text (formatter, or an editor's format-on-save)
	FinalContent    string        `json:"finalContent,omitempty"`    // the file's content now; absent on the wire with FinalAsProposed, else absent only when ""
	FinalAsProposed bool          `json:"finalAsProposed,omitempty"` // FinalContent was left out: it is exactly what the agent proposed (WithoutProposedFinal)
	FinalSHA256     string        `json:"finalSha256"`               // hex SHA-256 of FinalContent
	Hunks           []HunkVerdict `json:"hunks,omitempty"`           // per-hunk decisions (decision.Partial)
	FormatterError  string        `json:"formatterError,omitempty"`  // the formatter failed; the approved text was written unformatted
	// Matches are the places the edit was applied to loosely (not the
	// exact text, or the first of several): what was searched for, what
	// the file really held there, and how it was found.
	Matches []engine.Match `json:"matches,omitempty"`
	// Incomplete says the edit was cut short and applied as far as it went.
	Incomplete *engine.Incomplete `json:"incomplete,omitempty"`
	// EditLineEndings names the line endings of the edit's text ("CRLF",
	// "LF", "CR") when the file's own differ: they were written in the
	// file's; absent when they agree.
	EditLineEndings string `json:"editLineEndings,omitempty"`
	// BOM says the file's UTF-8 byte order mark differs from the agent's
	// content: "kept" (the file has one, the content had none, and it was
	// kept) or "dropped" (the content began with one the file does not
	// have); "" when they agree or the edit sent no whole content.
	BOM string `json:"bom,omitempty"`
	// LineEndings says the final content's line endings are not those of
	// the text the decision started from: the person's edit or the
	// formatter changed them. Nil when they did not.
	LineEndings *EndingsChange `json:"lineEndingsChanged,omitempty"`
	// NewProblems are the problems the project's checkers find in the
	// final content that the file as it was did not have (lines 1-based
	// in the final content; Path set for one in another file).
	NewProblems []checker.Problem `json:"newProblems,omitempty"`
	// CheckErrors say which checkers could not tell, and why.
	CheckErrors []string `json:"checkErrors,omitempty"`
}

// AsProposed reports whether the file now holds exactly what the agent
// proposed: no one else changed it, the person did not edit it, and no
// formatter touched it.
func (f FileOutcome) AsProposed() bool {
	return f.DiskEdits == "" && f.UserEdits == "" && f.AutoFormatEdits == ""
}

// FinalChanged reports whether f's final text is not simply what the
// agent proposed, so that the agent needs the text itself: someone else's
// change on disk, the person's edit, the formatter, hunks the person left
// out, a loose match or an edit cut short, a byte order mark or line
// endings other than the agent's. A file not written as an approval (a
// rejection, a failure) has no final text to speak of: false.
func (o Outcome) FinalChanged(f FileOutcome) bool {
	if !o.Status.Wrote() || f.Deleted {
		return false
	}
	acc, all := f.Accepted()
	return !f.AsProposed() || o.Status == decision.Partial && acc < all || len(f.Matches) > 0 ||
		f.Incomplete != nil || f.BOM != "" || f.LineEndings != nil || f.EditLineEndings != ""
}

// WithoutProposedFinal returns o with the final text left out of each
// file that holds exactly what the agent proposed (FinalChanged false, and
// same reports true for the text): FinalAsProposed set, FinalContent "".
// same is the caller's own check of the text against the proposal (nil:
// none). A protocol answer sends only the final texts the agent lacks
// (docs/protocol.md, "finalContent"); o itself is not changed.
func (o Outcome) WithoutProposedFinal(same func(f FileOutcome) bool) Outcome {
	if !o.Status.Wrote() {
		return o
	}
	files := make([]FileOutcome, len(o.Files))
	for i, f := range o.Files {
		if !f.Deleted && f.FinalContent != "" && !o.FinalChanged(f) && (same == nil || same(f)) {
			f.FinalContent, f.FinalAsProposed = "", true
		}
		files[i] = f
	}
	o.Files = files
	return o
}

// EndingsChange is a change of a file's line endings by the decision:
// From and To name them ("LF", "CRLF", "CR" or "mixed"), By says who
// ("person" or "formatter").
type EndingsChange struct {
	From string `json:"from"`
	To   string `json:"to"`
	By   string `json:"by"`
}

// HunkVerdict says whether the person accepted one hunk of the proposal.
type HunkVerdict struct {
	ID       string `json:"id"`
	Accepted bool   `json:"accepted"`
}

// Accepted counts the hunks of a partial decision on f the person
// accepted, and all of them.
func (f FileOutcome) Accepted() (acc, all int) {
	for _, h := range f.Hunks {
		if h.Accepted {
			acc++
		}
	}
	return acc, len(f.Hunks)
}

// chosenUnwritten lists, for a rejected proposal, the files with blocks
// the person placed (engine.StrategyPersonChosen), unwritten: the reject is
// the agent's only answer (a held failure is never sent), and without them
// it would not learn that its block did not apply as sent.
func chosenUnwritten(p Proposal) []FileOutcome {
	out := []FileOutcome{}
	for _, f := range p.Files {
		var chosen []engine.Match
		for _, m := range f.Matches {
			if m.Strategy == engine.StrategyPersonChosen {
				chosen = append(chosen, m)
			}
		}
		if len(chosen) > 0 {
			out = append(out, FileOutcome{Path: f.Path, Matches: chosen})
		}
	}
	return out
}

// endings names the line endings of text: "LF", "CRLF", "CR", "mixed",
// or "" when it has no line break.
func endings(text string) string {
	crlf := strings.Count(text, "\r\n")
	cr := strings.Count(text, "\r") - crlf
	lf := strings.Count(text, "\n") - crlf
	kinds, name := 0, ""
	for _, k := range []struct {
		n    int
		name string
	}{{lf, "LF"}, {crlf, "CRLF"}, {cr, "CR"}} {
		if k.n > 0 {
			kinds, name = kinds+1, k.name
		}
	}
	if kinds > 1 {
		return "mixed"
	}
	return name
}
