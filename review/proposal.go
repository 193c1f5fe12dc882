package review

import (
	"slices"
	"sync"
	"time"
	"unsafe"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/atomicfile"
	"github.com/diffdesk/diffdesk/review/config"
	"github.com/diffdesk/diffdesk/review/internal/diffcount"
)

// State is where a proposal is in its lifecycle:
// streaming → pending → decided → (written) → reported, or failed,
// withdrawn, or stale (a file changed on disk while the proposal waited).
// A failure a person at the desk could place is held (hold.go):
// failed → held, then held → pending (Place), held → held (Place, and
// another block does not match), held → failed → reported (Dismiss, or
// the last reviewer leaving) or held → withdrawn.
type State string

// The proposal states.
const (
	StateStreaming State = "streaming" // the agent is still sending the edit
	StatePending   State = "pending"   // applied in memory; waits for a decision
	StateStale     State = "stale"     // a file changed on disk after the base snapshot
	StateDecided   State = "decided"   // a decision was made; files are being written
	StateReported  State = "reported"  // the outcome was recorded and sent
	StateFailed    State = "failed"    // the edit did not apply
	StateWithdrawn State = "withdrawn" // the agent cancelled or disconnected
	// StateHeld: the edit did not apply (a block matched nowhere, or
	// several places), and the failure waits for the person at the desk
	// instead of reaching the agent at once (hold.go): the agent's call
	// stays open until the person places the block (Place: pending) or
	// dismisses the failure (Dismiss: the agent gets it); cancel and
	// disconnect withdraw it. The journal records it as failed.
	StateHeld State = "held"
)

// Open reports whether a proposal in this state still waits for a decision.
func (s State) Open() bool { return s == StateStreaming || s == StatePending || s == StateStale }

// Waiting reports whether the proposal's agent still waits on the desk: it
// is open, or a failure held for the person.
func (s State) Waiting() bool { return s.Open() || s == StateHeld }

// DidNotApply reports whether the edit did not apply: a failure the agent
// was told of, or one held for the person.
func (s State) DidNotApply() bool { return s == StateFailed || s == StateHeld }

// Request is a proposal as an agent sends it, before the desk applies it.
type Request struct {
	Agent   string `json:"agent"`   // who proposes, e.g. "claude-code"
	Session string `json:"session"` // the agent's session or task id
	// Turn names the agent's turn (one prompt and what the model did for
	// it) within the session, where the agent's door says; "" if it does
	// not. Proposals of one agent, session and turn form a changeset.
	Turn   string        `json:"turn,omitempty"`
	Format engine.Format `json:"format"`
	// Path is the file a single-file format edits; absolute, or relative to
	// Dir. For FormatPatch it is ignored and paths in the patch are relative
	// to Dir.
	Path string `json:"path,omitempty"`
	// Dir is the agent's working directory; "" means the first workspace root.
	Dir     string `json:"dir,omitempty"`
	Payload string `json:"payload"`
	// ReadSHA256, when set, is the hex SHA-256 of the content the agent last
	// read; if the file on disk differs, the proposal is stale from the start.
	ReadSHA256 string `json:"readSha256,omitempty"`
	// Stream says the payload will arrive in chunks (Desk.Feed, Desk.Finish).
	Stream bool `json:"stream,omitempty"`
	// AgentWrites says the agent writes the file itself from the outcome's
	// final content (the Claude Code and Gemini IDE doors): the desk checks,
	// formats and journals, but does not write.
	AgentWrites bool `json:"agentWrites,omitempty"`
	// VerdictOnly says the agent's door tells it only the verdict and, on
	// approval, the final text (the Claude Code and Gemini IDE doors): the
	// person's reason, line comments and the outcome's patches never reach
	// the agent, so the window must not say they were sent.
	VerdictOnly bool `json:"verdictOnly,omitempty"`
}

// File is one file of a proposal.
type File struct {
	Path      string              // absolute, symlinks resolved
	Rel       string              // relative to Root, slash-separated
	Root      string              // the workspace root holding it
	Base      atomicfile.Snapshot // the file when the proposal arrived
	Proposed  string              // the proposed bytes ("" when Delete)
	Delete    bool                // the proposal deletes the file
	Protected config.Protection   // why a person must decide (no rule may approve it); zero if not protected
	Matches   []engine.Match
	// Incomplete is set when the agent's edit was cut short (a SEARCH/
	// REPLACE block without its end): it was applied as far as it went.
	Incomplete *engine.Incomplete
	// EditEOL is the line ending the edit's text used where the file's
	// differs, which the proposal keeps (engine.Result.EditEOL); "" if none.
	EditEOL string
	// BOMChange says the proposed content's UTF-8 byte order mark is not
	// the one the agent's whole content had: "kept" (the file's, which the
	// content lacked) or "dropped" (the content's, which the file lacks);
	// "" when they agree or the edit is not a whole content (bomChange).
	BOMChange string
	Added     int // lines added by the proposal
	Removed   int // lines removed by the proposal
	// AgentRead is the hex SHA-256 of the content the agent said it read
	// (Request.ReadSHA256); "" if it did not say.
	AgentRead string
	// Disk is the file as it is now when the proposal is stale (the disk no
	// longer holds Base, or never held what the agent read); zero otherwise.
	Disk atomicfile.Snapshot
	// Growing is, while streaming, the 1-based line range of Proposed still
	// being written; zero otherwise.
	Growing engine.LineRange
	// Checks are the project's checkers' findings in Proposed, checked in
	// the background once the proposal waits for a decision (EventUpdated
	// says when they change).
	Checks Checks
	// Formatting are the ids of the hunks the project's formatter would
	// make anyway (formatting-only), found in the background once the
	// proposal waits (formatcheck.go); nil until then, or with no
	// formatter.
	Formatting []string

	diff *lineDiff // the diff of Base and Proposed, kept (keepDiff)
}

// Stale reports whether the file was found changed on disk while the
// proposal waited.
func (f File) Stale() bool { return f.Disk.Path != "" }

// staleAgainst reports whether the file as it is now (now) no longer holds
// what the proposal was based on.
func (f File) staleAgainst(now atomicfile.Snapshot) bool {
	return now.Changed(f.Base) || f.AgentRead != "" && f.AgentRead != now.SHA256
}

// Loose returns the matches that were not exact: the places the edit was
// applied to by a looser strategy, or the first of several that fit.
func (f File) Loose() []engine.Match {
	var out []engine.Match
	for _, m := range f.Matches {
		if m.Loose() {
			out = append(out, m)
		}
	}
	return out
}

// Unsure reports whether the file's edit needs a person's eyes whatever
// the rules say: a loose match, or an edit cut short.
func (f File) Unsure() bool { return f.Incomplete != nil || len(f.Loose()) > 0 }

// Hunks are the file's proposed changes as a partial decision names them
// (Decision.Hunks holds their ids). The diff is the one the desk made when
// the text was proposed, while the file holds the texts it was made of.
func (f File) Hunks() []engine.Hunk { return slices.Clone(f.lineDiff().hunks) }

// lineDiff is the file's diff, base to proposed: the one kept on the file
// while its texts are those it was made of (made on first use if it was
// kept lazily, KeepHunks), else made now.
func (f File) lineDiff() *lineDiff {
	if d := f.diff; d != nil && d.base == f.BaseText() && d.proposed == f.Proposed {
		d.once.Do(d.make)
		return d
	}
	return diffFile(f.BaseText(), f.Proposed)
}

// keepDiff makes f's diff and keeps it on f (and every copy made after).
func (f *File) keepDiff() { f.diff = diffFile(f.BaseText(), f.Proposed) }

// KeepHunks keeps on f (and every copy made after) the diff of its two
// texts, made once, when its hunks are first asked for: for a file that
// arrived from a far desk (review/remote, review/hub) without one. The
// hunks are always those of the texts f holds, never any the far desk
// sent: the person ticks the changes of the texts on screen.
func (f *File) KeepHunks() { f.diff = &lineDiff{base: f.BaseText(), proposed: f.Proposed} }

// KeepHunksFrom is KeepHunks, sharing was's diff when was holds the texts f
// holds: a far desk's proposal read again (its checks came, its
// formatting was found) is not diffed again.
func (f *File) KeepHunksFrom(was File) {
	if d := was.diff; d != nil && d.base == f.BaseText() && d.proposed == f.Proposed {
		f.diff = d
		return
	}
	f.KeepHunks()
}

// lineDiff is a file's line diff, base to proposed, and the texts it was
// made of: a file's copies share it, and one whose texts have changed
// since (a text cut short, a new stream version, a place chosen) does not
// use it. once makes ops and hunks (make) if they were not made when it
// was kept.
type lineDiff struct {
	base, proposed string
	once           sync.Once
	ops            []engine.Op
	hunks          []engine.Hunk
}

func diffFile(base, proposed string) *lineDiff {
	d := &lineDiff{base: base, proposed: proposed}
	d.once.Do(d.make)
	return d
}

// make diffs the two texts.
func (d *lineDiff) make() {
	diffcount.Diffed()
	a, b := engine.SplitLines(d.base), engine.SplitLines(d.proposed)
	d.ops = engine.DiffLines(a, b)
	d.hunks = engine.Hunks(a, b, d.ops, hunkContext)
}

// WithHunks is the base with only the hunks accept approves applied
// (engine.ApplyHunks, from the file's diff).
func (f File) WithHunks(accept func(id string) bool) string {
	return engine.ApplyChanges(engine.SplitLines(f.BaseText()), engine.SplitLines(f.Proposed), f.lineDiff().hunks, accept)
}

// hunkContext is how many unchanged lines join two changes into one hunk.
const hunkContext = 3

// Merge is the proposal's changes merged onto the disk content the desk
// found when it marked the file stale (Disk): what approving a stale file
// writes, with the conflicts the person must resolve first. Approve it with
// Decision.Overwrite set to Disk.SHA256, so the write happens only while the
// disk still holds what the person saw.
func (f File) Merge() engine.MergeResult { return f.mergeOnto(f.Disk) }

// mergeOnto is the proposal's changes merged onto disk.
func (f File) mergeOnto(disk atomicfile.Snapshot) engine.MergeResult {
	return engine.Merge3(f.BaseText(), string(disk.Content), f.Proposed, engine.MergeLabels{})
}

// BaseText returns the file's content when the proposal arrived. It is
// the snapshot's bytes themselves, not a copy: a snapshot's bytes are
// never written after it is read, and a copy per call held a big file's
// base several times over (the view, the checks, the trivial hunks).
func (f File) BaseText() string {
	if len(f.Base.Content) == 0 {
		return ""
	}
	return unsafe.String(&f.Base.Content[0], len(f.Base.Content))
}

// TextBytes is the size of the file's two texts, before and proposed.
func (f File) TextBytes() int { return len(f.Base.Content) + len(f.Proposed) }

// Proposal is an agent's proposed edit as the desk holds it. The values
// Desk returns are copies; change a proposal only through Desk's methods.
type Proposal struct {
	ID          string
	Agent       string
	Session     string
	Turn        string // the agent's turn within the session (Request.Turn); "" if not known
	Created     time.Time
	Format      engine.Format
	Payload     string
	State       State
	Files       []File
	AgentWrites bool
	VerdictOnly bool // Request.VerdictOnly: the agent hears no reason, comments or patches
	// Failure is why the edit did not apply (StateFailed, StateHeld), or
	// why the last write attempt failed (FailWrite); nil if neither. Its
	// text is review/agenttext's.
	Failure *Failure
	// Mismatch is, for a single-file edit that failed because a block
	// did not match (StateFailed, StateHeld), the engine's account of it: the block,
	// the closest lines or every place it fit. A person may place the
	// block (Desk.Place). Nil otherwise.
	Mismatch *engine.MatchError
	// Placed holds the blocks a person placed at lines they chose
	// (Desk.Place), by block number; nil if none.
	Placed map[int]engine.Region
	// AutoRule names the rule that decided the proposal without a person
	// (an auto-approve rule, or the desk's unattended policy); "" while it
	// waits for a person.
	AutoRule string
	// Instruction is the agent's own account of what the edit does (a
	// Gemini smart edit's instruction), for the person beside the diff.
	Instruction string
	// Unfinished says the proposal was rejected or withdrawn while the
	// agent was still sending it: Files[0].Proposed is the preview as it
	// stood (the lines that had arrived, then the original's), and Payload
	// what had arrived.
	Unfinished bool
	// Where names the desk that holds the proposal, in a window over
	// several (remote.Fleet sets it to the desk's label: machine and
	// workspace); "" for a window over one desk. The changeset key
	// includes it, so two desks' proposals never form one changeset.
	Where string
	// Unreachable says, in a window over several desks, that the desk
	// holding the proposal cannot be reached now: it is kept and shown,
	// and nothing can decide it until that desk is back.
	Unreachable bool
}

// Before reports whether p arrived before q: the desk's one order of
// proposals, oldest first (List, `deskctl status`, the window's choice).
func (p Proposal) Before(q Proposal) bool {
	return p.Created.Before(q.Created) || p.Created.Equal(q.Created) && p.ID < q.ID
}

// Counts returns the lines added and removed over all files.
func (p Proposal) Counts() (added, removed int) {
	for _, f := range p.Files {
		added += f.Added
		removed += f.Removed
	}
	return added, removed
}
