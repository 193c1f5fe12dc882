package review

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/atomicfile"
	"github.com/diffdesk/diffdesk/review/config"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/journal"
	"github.com/diffdesk/diffdesk/review/memory"
	"github.com/diffdesk/diffdesk/review/workspace"
)

// Options configures a Desk.
type Options struct {
	Roots   []string // workspace roots; edits elsewhere are refused
	Config  config.Config
	Journal *journal.Journal // where every proposal, decision and write is recorded
	// Unattended, when not empty, decides every proposal without a person:
	// decision.Approved approves what a rule may approve and rejects, saying
	// a person is needed, what may not (protected paths); decision.Rejected
	// rejects everything.
	Unattended decision.Verdict
	Now        func() time.Time // clock; time.Now if nil
	// Own are the desk's own files and directories: the user config and
	// trust store, --config FILE, the socket's directory. Edits to them,
	// and to the journal's directory, need a person whatever the
	// workspace (workspace.Guard).
	Own []string
	// MaxHeldBytes and MaxHeldCount bound the proposals the desk holds for
	// agents (budget.go); 0 means DefaultMaxHeldBytes, DefaultMaxHeldCount.
	MaxHeldBytes int64
	MaxHeldCount int
	// FailureText renders a failure as its agent reads it
	// (agenttext.Failure), for the journal, which keeps the text beside
	// the failure so that the history shows what the agent was told.
	// Required: the desk has no words of its own.
	FailureText func(*Failure) string
}

// ErrUnknownProposal is returned for an id the desk does not hold.
var ErrUnknownProposal = errors.New("review: unknown proposal id")

// Desk receives proposals from agents, holds them until they are decided,
// writes approved files safely, and reports outcomes. It is safe for use by
// many goroutines.
type Desk struct {
	ws         *workspace.Workspace
	cfg        liveConfig // SetConfig replaces it
	journal    *journal.Journal
	failText   func(*Failure) string // Options.FailureText
	unattended decision.Verdict
	now        func() time.Time
	watch      *staleWatcher

	maxHeldBytes int64 // budget.go
	maxHeldCount int

	mu      sync.Mutex
	entries map[string]*entry
	seq     int
	subs    Subscribers
	kept    keptList // decided proposals whose outcome was delivered, oldest first
	closed  bool     // Close was called: no check starts
	// attending counts the reviewers at the desk (Attend): while there is
	// one, a failure a person can place is held for them (hold.go).
	attending int

	checking sync.WaitGroup      // the checks under way (startChecks, CheckText)
	texts    map[*textCheck]bool // the CheckText calls under way
}

// entry is the desk's record of one proposal.
type entry struct {
	p        Proposal
	stream   *engine.Stream // StateStreaming only
	preview  engine.Preview // StateStreaming: the proposed text so far
	chunks   []string       // StateStreaming: the payload so far
	streamed int64          // StateStreaming: bytes of payload received
	// midStream says the proposal was made to stream and Finish has not
	// ended the stream: the agent may still be sending chunks.
	midStream bool
	deciding  bool          // a decision is being carried out
	done      chan struct{} // closed once outcome is set
	outcome   Outcome
	delivered bool      // the outcome reached its agent (or no agent waits for it)
	check     *checkRun // the check of the proposed text under way or last finished; nil if none
	format    *checkRun // the search for formatting-only hunks under way (formatcheck.go); nil if none
	watched   bool      // its files are watched for changes on disk (staleWatcher)
	// heldFailure is the failure as it was held (StateHeld): what
	// Dismiss sends, whatever placing blocks changed since.
	heldFailure *Failure
}

// NewDesk starts a desk over the workspace roots. Close stops it.
func NewDesk(opts Options) (*Desk, error) {
	switch opts.Unattended {
	case "", decision.Approved, decision.Rejected:
	default:
		return nil, fmt.Errorf("review: a desk without a person can approve or reject every proposal, not reach %q", opts.Unattended)
	}
	if opts.Journal == nil {
		return nil, errors.New("review: a desk needs a journal")
	}
	if opts.FailureText == nil {
		return nil, errors.New("review: a desk needs Options.FailureText (agenttext.Failure) to journal what its agents are told of a failure")
	}
	ws, err := workspace.New(opts.Roots, opts.Config)
	if err != nil {
		return nil, err
	}
	ws.Guard(opts.Own...)
	if jp := opts.Journal.Path(); jp != "" {
		ws.Guard(journalFiles(jp, ws.Roots())...)
	}
	d := &Desk{
		ws: ws, journal: opts.Journal, failText: opts.FailureText, unattended: opts.Unattended, now: opts.Now,
		entries:      map[string]*entry{},
		kept:         keptList{maxBytes: keepDecidedBytes, maxCount: keepDecidedCount},
		maxHeldBytes: cmp.Or(opts.MaxHeldBytes, DefaultMaxHeldBytes),
		maxHeldCount: cmp.Or(opts.MaxHeldCount, DefaultMaxHeldCount),
	}
	d.cfg.store(opts.Config)
	if d.now == nil {
		d.now = time.Now
	}
	if opts.Config.Retention != (journal.RetentionPolicy{}) {
		// The user's [history] setting: prune what is past it before the
		// first proposal, so the journal does not grow without bound.
		if _, err := opts.Journal.Prune(context.Background(), opts.Config.Retention, false); err != nil {
			return nil, fmt.Errorf("review: pruning history per [history] in the config: %w", err)
		}
	}
	d.watch, err = newStaleWatcher(d.recheck)
	if err != nil {
		return nil, err
	}
	return d, nil
}

// journalFiles are what the desk guards of the journal at path: its
// directory, unless that directory holds a workspace root (a journal kept
// in the project: then the database and SQLite's files beside it).
func journalFiles(path string, roots []string) []string {
	dir := filepath.Dir(path)
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	for _, r := range roots {
		if rel, err := filepath.Rel(dir, r); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			return []string{path, path + "-wal", path + "-shm", path + "-journal"}
		}
	}
	return []string{dir}
}

// Close stops watching files and stops the checks under way. Open
// proposals stay open in memory; the caller withdraws them if it is
// shutting down.
func (d *Desk) Close() error {
	d.stopAllChecks()
	return d.watch.close()
}

// Roots returns the workspace roots, absolute and symlink-resolved.
func (d *Desk) Roots() []string { return d.ws.Roots() }

// Propose applies an agent's edit in memory and queues it for a decision.
// A refused path (outside the workspace, ignored, binary, too large) is an
// error and nothing is queued. An edit that does not apply is queued as
// StateFailed, with its outcome ready. With Request.Stream the proposal
// starts as StateStreaming and is completed by Feed and Finish.
func (d *Desk) Propose(ctx context.Context, req Request) (Proposal, error) {
	if req.Agent == "" {
		req.Agent = "agent"
	}
	d.mu.Lock()
	over := d.overBudgetLocked(true)
	d.mu.Unlock()
	if over != nil {
		return Proposal{}, over
	}
	// Names are shown to the person and printed in terminals: a control
	// character in one is escaped here, once, for every later reader.
	req.Agent, req.Session = Printable(req.Agent), Printable(req.Session)
	dir := req.Dir
	if dir == "" {
		dir = d.ws.Roots()[0]
	}
	p := Proposal{
		Agent: req.Agent, Session: req.Session, Turn: Printable(req.Turn), Created: d.now(), Format: req.Format,
		Payload: req.Payload, State: StatePending, AgentWrites: req.AgentWrites, VerdictOnly: req.VerdictOnly,
	}
	if req.Format == engine.FormatSmartEdit && !req.Stream {
		if e, err := engine.Parse(req.Format, req.Payload); err == nil {
			p.Instruction = strings.TrimSpace(e.(engine.SmartEdit).Instruction)
		}
	}
	var stream *engine.Stream
	switch {
	case req.Format == engine.FormatPatch:
		if req.Stream {
			return Proposal{}, errors.New("review: a patch cannot be streamed; send it whole")
		}
		files, err := d.applyPatch(dir, req.Payload)
		if err != nil {
			if !isEditFailure(err) {
				return Proposal{}, err
			}
			p.State, p.Failure = StateFailed, EditFailure(dir, err)
		}
		p.Files = files
	default:
		f, err := d.editTarget(dir, req.Path)
		if err != nil {
			return Proposal{}, err
		}
		f.AgentRead = req.ReadSHA256
		if req.Stream {
			stream, err = engine.NewStream(f.BaseText(), req.Format)
			if err != nil {
				return Proposal{}, err
			}
			p.State = StateStreaming
		} else if err := d.applyOne(&f, req.Format, req.Payload); err != nil {
			if !isEditFailure(err) {
				return Proposal{}, err
			}
			p.State, p.Failure, p.Mismatch = StateFailed, EditFailure(f.Rel, err), mismatch(err)
		}
		p.Files = []File{f}
	}
	// Journaled before anyone can see it: a decision may follow at once.
	p.ID = d.newID(p.Created)
	if err := d.journal.RecordProposal(ctx, d.proposalRecord(p)); err != nil {
		return Proposal{}, err
	}
	n := len(p.Payload)
	for _, f := range p.Files {
		n += f.TextBytes()
	}
	memory.Release(n) // compressing a big file's texts: before the window diffs them
	e, held := d.add(p, stream)
	switch p.State {
	case StateFailed:
		// Held, it is someone else's to end (Dismiss, Place, the last
		// reviewer leaving, a withdrawal), perhaps already: not here.
		if !held {
			d.finish(ctx, e, Outcome{ID: e.p.ID, Status: decision.Failed, Failure: e.p.Failure, Files: []FileOutcome{}})
		}
	case StatePending:
		d.queued(ctx, e)
	}
	return d.snapshot(e), nil
}

// isEditFailure reports whether err is the engine saying the edit does not
// apply (as opposed to the desk refusing the request).
func isEditFailure(err error) bool {
	var me *engine.MatchError
	var fe *engine.FormatError
	var ce *engine.ContentError
	return errors.As(err, &me) || errors.As(err, &fe) || errors.As(err, &ce)
}

// target resolves and snapshots the file a single-file proposal edits.
// Read returns a workspace file as the desk sees it (path absolute, or
// relative to the first root), refusing what a proposal to it would be
// refused for: agents read before proposing, and send its hash as
// Request.ReadSHA256.
func (d *Desk) Read(path string) (File, error) {
	return d.target(d.ws.Roots()[0], path)
}

func (d *Desk) target(dir, path string) (File, error) {
	if path == "" {
		return File{}, errors.New("review: the proposal names no file (path is empty)")
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	t, err := d.ws.Resolve(path)
	if err != nil {
		return File{}, err
	}
	base, err := d.readBase(t)
	if err != nil {
		return File{}, err
	}
	if err := d.ws.CheckContent(t, base.Size, base.Content); err != nil {
		return File{}, err
	}
	return File{Path: t.Abs, Rel: t.Rel, Root: t.Root, Base: base, Protected: t.Protected}, nil
}

// readBase reads t's file as it is now, refusing one over the size limit
// in force under its root from its size on disk, before reading it (a
// sparse 4 GiB file once took the desk out of memory), and reading at most
// the limit and one byte of a file that grows meanwhile.
func (d *Desk) readBase(t workspace.Target) (atomicfile.Snapshot, error) {
	s, err := d.readDisk(t.Abs, t.Root)
	var big *atomicfile.TooLargeError
	if errors.As(err, &big) {
		size := big.Size
		if size < 0 {
			size = big.Limit + 1
		}
		return s, d.ws.CheckContent(t, size, nil)
	}
	return s, err
}

// readDisk reads the file at path under root, at most the size limit in
// force there (an *atomicfile.TooLargeError past it).
func (d *Desk) readDisk(path, root string) (atomicfile.Snapshot, error) {
	return atomicfile.ReadSnapshotMax(path, d.cfg.LimitsFor(root).MaxFileBytes)
}

// editTarget is target for a file a proposal edits: an existing file must
// also be writable (workspace.CheckWritable).
func (d *Desk) editTarget(dir, path string) (File, error) {
	f, err := d.target(dir, path)
	if err == nil && f.Base.Exists {
		err = workspace.CheckWritable(f.Path, f.Base.Mode)
	}
	return f, err
}

// applyOne applies a single-file edit to f's base.
func (d *Desk) applyOne(f *File, format engine.Format, payload string) error {
	edit, err := engine.Parse(format, payload)
	if err != nil {
		return err
	}
	var res engine.Result
	if f.Base.Exists {
		res, err = engine.Apply(f.BaseText(), edit)
	} else {
		res, err = engine.Create(edit)
	}
	if err != nil {
		return err
	}
	if err := d.proposed(f, res); err != nil {
		return err
	}
	f.BOMChange = bomChange(format, payload, f.Proposed)
	return nil
}

// bomChange compares the byte order mark of an agent's whole content (a
// write) with the proposed file's (File.BOMChange).
func bomChange(format engine.Format, payload, proposed string) string {
	if format != engine.FormatWrite {
		return ""
	}
	had, has := strings.HasPrefix(payload, bom), strings.HasPrefix(proposed, bom)
	switch {
	case had && !has:
		return "dropped"
	case has && !had:
		return "kept"
	}
	return ""
}

// proposed records the proposed content of f after checking it (size,
// binary) as a file of the workspace.
func (d *Desk) proposed(f *File, res engine.Result) error {
	if !f.Delete {
		if err := d.ws.CheckProposed(workspace.Target{Abs: f.Path, Root: f.Root, Rel: f.Rel}, res.Content); err != nil {
			return err
		}
	}
	f.Proposed, f.Matches, f.Incomplete, f.EditEOL = res.Content, res.Matches, res.Incomplete, res.EditEOL
	f.keepDiff() // the file's one diff while its texts stay (File.Hunks)
	f.Added, f.Removed = engine.CountLines(f.diff.ops)
	return nil
}

// applyPatch applies a multi-file patch whose paths are relative to dir.
func (d *Desk) applyPatch(dir, payload string) ([]File, error) {
	targets := map[string]File{}
	read := func(rel string) (string, bool, error) {
		f, err := d.editTarget(dir, filepath.FromSlash(rel))
		if err != nil {
			return "", false, err
		}
		targets[rel] = f
		return f.BaseText(), f.Base.Exists, nil
	}
	changes, err := engine.ApplyPatch(payload, read)
	if err != nil {
		return nil, err
	}
	var files []File
	index := map[string]int{} // abs path → index in files
	put := func(rel string, content string, del bool, matches []engine.Match) error {
		f, ok := targets[rel]
		if !ok {
			var err error
			if f, err = d.editTarget(dir, filepath.FromSlash(rel)); err != nil {
				return err
			}
		}
		if i, ok := index[f.Path]; ok { // touched again: later change wins
			f = files[i]
		} else {
			index[f.Path] = len(files)
			files = append(files, f)
		}
		f.Delete = del
		if err := d.proposed(&f, engine.Result{Content: content, Matches: matches, EditEOL: patchEOL(payload, f.BaseText(), del)}); err != nil {
			return err
		}
		files[index[f.Path]] = f
		return nil
	}
	for _, c := range changes {
		var err error
		switch {
		case c.Op == engine.PatchDelete:
			err = put(c.Path, "", true, nil)
		case c.MoveTo != "":
			if err = put(c.Path, "", true, nil); err == nil {
				err = put(c.MoveTo, c.New, false, c.Matches)
			}
		default:
			err = put(c.Path, c.New, false, c.Matches)
		}
		if err != nil {
			return nil, err
		}
	}
	return files, nil
}

// patchEOL is a patch's line ending where the file's differs (its lines
// were written in the file's: File.EditEOL), "" if they agree.
func patchEOL(payload, base string, del bool) string {
	doc, err := engine.Decode(base)
	if err != nil || del || doc.EOL == "" {
		return ""
	}
	if eol := engine.FirstEOL(payload); eol != "" && eol != doc.EOL {
		return eol
	}
	return ""
}

// newID returns a new proposal id: its sequence number at this desk and
// the time it arrived.
func (d *Desk) newID(created time.Time) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.seq++
	return fmt.Sprintf("p%d-%s", d.seq, strconv.FormatInt(created.UnixMilli()%1e6, 36))
}

// add makes a journaled proposal visible: listed, watched, announced.
func (d *Desk) add(p Proposal, stream *engine.Stream) (e *entry, held bool) {
	d.mu.Lock()
	e = &entry{p: p, stream: stream, midStream: stream != nil, done: make(chan struct{}), watched: p.State.Open()}
	if stream != nil {
		// Shown before its first chunk, the proposal is the file as it is;
		// the zero Preview would claim the original's lines as its tail
		// (TailStart 0) while holding none.
		e.preview = stream.Preview()
	}
	held = d.holdLocked(e) // a person at the desk may place the failed block
	d.entries[p.ID] = e
	d.mu.Unlock()
	if p.State.Open() {
		for _, f := range p.Files {
			d.watch.add(f.Path)
		}
	}
	d.emit(Event{Kind: EventAdded, ID: p.ID})
	return e, held
}

// queued runs once a proposal becomes pending: a stale check and, where a
// rule or the headless policy says so, a decision without a person.
func (d *Desk) queued(ctx context.Context, e *entry) {
	d.recheckEntry(e)
	d.startChecks(e)
	d.emit(Event{Kind: EventPending, ID: e.p.ID})
	dec, ok := d.autoDecision(e)
	if !ok {
		return
	}
	d.mu.Lock()
	e.p.AutoRule = dec.Rule
	d.mu.Unlock()
	// The agent's request is not held up by the decision; its goroutine
	// ends when the decision has been carried out.
	go func() {
		ctx := context.WithoutCancel(ctx)
		_, err := d.Decide(ctx, e.p.ID, dec)
		var se *StaleError
		switch {
		case err == nil:
		case errors.As(err, &se) && d.unattended != "":
			d.giveUpStale(ctx, e, se.Paths)
		default:
			d.setFailure(e, err)
		}
	}()
}

// giveUpStale ends a proposal whose files (paths, absolute) changed on
// disk after the agent read them, on a desk with no person to review it
// against the change: nothing is written, and the agent is told to redo it.
func (d *Desk) giveUpStale(ctx context.Context, e *entry, paths []string) {
	d.mu.Lock()
	if !e.p.State.Open() || e.deciding {
		d.mu.Unlock()
		return
	}
	e.deciding = true
	var names []string
	for _, f := range e.p.Files {
		if slices.Contains(paths, f.Path) {
			names = append(names, f.Rel)
		}
	}
	d.mu.Unlock()
	d.finish(ctx, e, Outcome{ID: e.p.ID, Status: decision.Stale, DecidedBy: DecidedByRule, Rule: d.unattendedRule(),
		Failure: &Failure{Kind: FailStale, Paths: names}, Files: []FileOutcome{}})
}

// The unattended policies (Options.Unattended), as the outcome names the
// rule that decided.
const (
	unattendedApprove = "the desk's unattended policy (approve every edit but those to protected paths)"
	unattendedReject  = "the desk's unattended policy (reject every edit)"
)

// autoDecision says whether a pending proposal is decided without a person,
// and how; the decision names its rule.
func (d *Desk) autoDecision(e *entry) (Decision, bool) {
	d.mu.Lock()
	p := e.p
	d.mu.Unlock()
	// protected says why no rule may approve p; unsure, why the unattended
	// policy may not (a loose match is approved only by a rule that says
	// loose = true).
	var protected, unsure *Failure
	for _, f := range p.Files {
		switch {
		case !f.Protected.IsZero():
			protected = &Failure{Kind: FailProtected, Path: f.Rel, Err: f.Protected.String()}
		case f.Incomplete != nil:
			protected = &Failure{Kind: FailCutShort, Path: f.Rel, Err: f.Incomplete.Reason}
		case len(f.Loose()) > 0 && unsure == nil:
			unsure = &Failure{Kind: FailLoose, Path: f.Rel}
		}
		if protected != nil {
			break
		}
	}
	if protected == nil && p.State == StatePending {
		if rule, ok := d.autoRule(p); ok {
			return Decision{Verdict: decision.Approved, Rule: rule}, true
		}
	}
	if protected == nil {
		protected = unsure
	}
	switch d.unattended {
	case decision.Approved:
		if protected != nil {
			return Decision{Verdict: decision.Rejected, Rule: unattendedApprove, why: protected}, true
		}
		// A stale proposal is given up when the write-time check finds it so.
		return Decision{Verdict: decision.Approved, Rule: unattendedApprove}, true
	case decision.Rejected:
		return Decision{Verdict: decision.Rejected, Rule: unattendedReject, why: &Failure{Kind: FailUnattended}}, true
	}
	return Decision{}, false
}

// unattendedRule names the desk's unattended policy; "" if a person decides.
func (d *Desk) unattendedRule() string {
	switch d.unattended {
	case decision.Approved:
		return unattendedApprove
	case decision.Rejected:
		return unattendedReject
	}
	return ""
}

// autoRule returns the config rule that approves every file of p, if any.
func (d *Desk) autoRule(p Proposal) (string, bool) {
	rule := ""
	for _, f := range p.Files {
		r, ok := d.cfg.AutoApprove(config.AutoRequest{
			Agent: p.Agent, Root: f.Root, Rel: f.Rel, Kind: p.Format, Added: f.Added, Removed: f.Removed,
			Protected: !f.Protected.IsZero(), NewFile: !f.Base.Exists, Loose: len(f.Loose()) > 0,
		})
		if !ok {
			return "", false
		}
		rule = r
	}
	return rule, rule != ""
}

func (d *Desk) setFailure(e *entry, err error) {
	d.mu.Lock()
	e.p.Failure = WriteFailure(err)
	d.mu.Unlock()
	d.emit(Event{Kind: EventUpdated, ID: e.p.ID})
}

// Feed adds a chunk of a streaming proposal's payload. A payload growing
// past its limit (streamLimit) ends the proposal as failed at once, with a
// refusal naming the limit, and frees what it held.
func (d *Desk) Feed(id, chunk string) error {
	d.mu.Lock()
	e, err := d.streaming(id)
	if err != nil {
		d.mu.Unlock()
		return err
	}
	if why, err := d.checkStreamed(e, int64(len(chunk))); err != nil {
		e.p.State, e.p.Failure = StateFailed, why
		d.mu.Unlock()
		d.finish(context.Background(), e, Outcome{ID: id, Status: decision.Failed, Failure: e.p.Failure, Files: []FileOutcome{}})
		return err
	}
	if e.streamed/streamCheckBytes != (e.streamed+int64(len(chunk)))/streamCheckBytes {
		if over := d.overBudgetLocked(false); over != nil {
			over.StreamPath = e.p.Files[0].Path
			e.p.State, e.p.Failure = StateFailed, RefusedFailure(over.StreamPath, over, 0, 0)
			d.mu.Unlock()
			d.finish(context.Background(), e, Outcome{ID: id, Status: decision.Failed, Failure: e.p.Failure, Files: []FileOutcome{}})
			return over
		}
	}
	defer d.mu.Unlock()
	pv, err := e.stream.Feed(chunk)
	if err != nil {
		return err
	}
	e.preview = pv
	e.p.Files[0].Growing = pv.Growing
	e.chunks = append(e.chunks, chunk)
	e.streamed += int64(len(chunk))
	d.subs.Emit(Event{Kind: EventUpdated, ID: id})
	return nil
}

// checkStreamed refuses n more bytes of e's streamed payload if they take
// it past twice max_file_bytes (room for SEARCH/REPLACE blocks rewriting
// a whole file at the limit): the limit is enforced as the bytes arrive,
// not once the stream is finished. It returns the proposal's failure and
// the refusal its sender is answered (agenttext says the same of the
// failure: TestRefusalSaysWhatTheSenderWasTold). d.mu must be held.
func (d *Desk) checkStreamed(e *entry, n int64) (*Failure, error) {
	f := e.p.Files[0]
	max := d.cfg.LimitsFor(f.Root).MaxFileBytes
	if max <= 0 || e.streamed+n <= 2*max {
		return nil, nil
	}
	return RefusedFailure(f.Path, nil, e.streamed+n, max), &workspace.RefusalError{Path: f.Path, Rule: workspace.RuleTooLarge,
		Detail: fmt.Sprintf("the streamed edit passed %d bytes, over twice the %d-byte file limit; stop sending, and raise [limits] max_file_bytes or edit a smaller file", e.streamed+n, max)}
}

// Finish ends a streaming proposal: the edit is applied in full and the
// proposal waits for a decision (or fails).
func (d *Desk) Finish(ctx context.Context, id string) (Proposal, error) {
	d.mu.Lock()
	if e, ok := d.entries[id]; ok && e.endedMidStream() {
		// Rejected (or withdrawn) while it streamed: the outcome answers.
		d.mu.Unlock()
		return d.snapshot(e), nil
	}
	e, err := d.streaming(id)
	if err != nil {
		d.mu.Unlock()
		return Proposal{}, err
	}
	res, err := e.stream.Close()
	e.stream, e.preview, e.midStream = nil, engine.Preview{}, false
	e.p.Payload = strings.Join(e.chunks, "")
	e.chunks = nil
	f := &e.p.Files[0]
	f.Growing = engine.LineRange{}
	if err == nil {
		err = d.proposed(f, res)
		f.BOMChange = bomChange(e.p.Format, e.p.Payload, f.Proposed)
	}
	held := false
	if err != nil {
		e.p.State, e.p.Failure, e.p.Mismatch = StateFailed, EditFailure(f.Rel, err), mismatch(err)
		held = d.holdLocked(e)
	} else {
		e.p.State = StatePending
	}
	p := copyProposal(e.p)
	d.mu.Unlock()
	failed := p.State.DidNotApply()
	// The proposal journaled when the stream opened had no text yet.
	if err := d.journal.RecordProposal(ctx, d.proposalRecord(p)); err != nil && !failed {
		d.mu.Lock()
		if failed = e.p.State == StatePending && !e.deciding; failed {
			e.p.State, e.p.Failure = StateFailed, ErrFailure(FailNotRecorded, err)
		}
		d.mu.Unlock()
	}
	if held {
		d.emit(Event{Kind: EventUpdated, ID: id})
	} else if failed {
		d.finish(ctx, e, Outcome{ID: id, Status: decision.Failed, Failure: e.p.Failure, Files: []FileOutcome{}})
	} else {
		d.queued(ctx, e)
	}
	return d.snapshot(e), nil
}

// streaming returns the streaming entry id; d.mu must be held.
func (d *Desk) streaming(id string) (*entry, error) {
	e, ok := d.entries[id]
	if !ok {
		return nil, ErrUnknownProposal
	}
	if e.endedMidStream() {
		return nil, fmt.Errorf("proposal %s was %s while it streamed: stop sending; finish or wait answers with the outcome", id, e.outcome.Status)
	}
	if e.p.State != StateStreaming {
		return nil, fmt.Errorf("proposal %s is %s, not streaming", id, e.p.State)
	}
	return e, nil
}

// cutStream keeps, for a proposal rejected or withdrawn while it streams,
// what had arrived: the preview as the person saw it becomes the proposed
// text, and the chunks the payload, so the window and the journal show
// that and not an empty proposal. It reports whether the stream was cut;
// d.mu must be held.
func (e *entry) cutStream() bool {
	if e.p.State != StateStreaming || e.stream == nil {
		return false
	}
	e.p.Files[0].Proposed, e.p.Files[0].Growing = e.preview.Text(), engine.LineRange{}
	e.p.Payload, e.p.Unfinished = strings.Join(e.chunks, ""), true
	return true
}

// endedMidStream reports whether the proposal was decided (rejected) or
// withdrawn while it was still streaming; d.mu must be held.
func (e *entry) endedMidStream() bool {
	return e.midStream && !e.p.State.Open() && e.p.State != StateDecided
}

// Wait blocks until the proposal has an outcome or ctx is done.
func (d *Desk) Wait(ctx context.Context, id string) (Outcome, error) {
	d.mu.Lock()
	e, ok := d.entries[id]
	d.mu.Unlock()
	if !ok {
		return Outcome{}, ErrUnknownProposal
	}
	select {
	case <-e.done:
		d.mu.Lock()
		defer d.mu.Unlock()
		d.deliveredLocked(e)
		return e.outcome, nil
	case <-ctx.Done():
		return Outcome{}, ctx.Err()
	}
}

// Withdraw ends an open proposal its agent cancelled, reason being its
// own words ("" if none): WithdrawBecause(Cancelled(reason)).
func (d *Desk) Withdraw(ctx context.Context, id, reason string) error {
	return d.WithdrawBecause(ctx, id, Cancelled(reason))
}

// WithdrawBecause ends an open proposal without a decision, why (a
// FailWithdrawn failure) saying why: the agent cancelled, its tool
// answered elsewhere, its connection closed, or the desk stopped it.
func (d *Desk) WithdrawBecause(ctx context.Context, id string, why *Failure) error {
	d.mu.Lock()
	e, ok := d.entries[id]
	if !ok {
		d.mu.Unlock()
		return ErrUnknownProposal
	}
	if !e.p.State.Waiting() || e.deciding {
		if e.hasOutcome() {
			d.deliveredLocked(e) // its agent no longer waits for it
		}
		d.mu.Unlock()
		return nil // already decided: the outcome stands
	}
	cut := e.cutStream()
	e.p.State, e.stream = StateWithdrawn, nil
	p := copyProposal(e.p)
	d.mu.Unlock()
	o := Outcome{ID: id, Status: decision.Withdrawn, Failure: why, Files: []FileOutcome{}, Unfinished: cut}
	if cut {
		if err := d.journal.RecordProposal(ctx, d.proposalRecord(p)); err != nil {
			o.Unrecorded = append(o.Unrecorded, JournalGap{What: GapArrived, Err: err.Error()})
		}
	}
	d.finish(ctx, e, o)
	return nil
}

// finish records an outcome, then delivers it.
func (d *Desk) finish(ctx context.Context, e *entry, o Outcome) {
	if err := d.record(ctx, e.p.ID, o); err != nil {
		// The outcome is still delivered: the agent must not hang. The
		// gap is said with it.
		o.Unrecorded = append(o.Unrecorded, JournalGap{What: GapOutcome, Err: err.Error()})
	}
	d.mu.Lock()
	d.stopChecksLocked(e)
	e.outcome = o
	if e.p.State.Open() || e.p.State == StateDecided {
		e.p.State = StateReported
	}
	e.stream, e.preview, e.chunks = nil, engine.Preview{}, nil
	close(e.done)
	if o.Status == decision.Withdrawn {
		d.deliveredLocked(e) // no agent waits for it
	}
	watched := e.watched
	e.watched = false
	d.mu.Unlock()
	for _, f := range e.p.Files {
		if watched { // a failed proposal never was
			d.watch.remove(f.Path)
		}
	}
	d.emit(Event{Kind: EventDecided, ID: e.p.ID})
}

// record journals an outcome. A proposal that ended without a decision
// (failed, withdrawn, given up as stale) is first recorded as a decision
// of that verdict, with what the agent is told as its feedback, so the
// history shows it.
func (d *Desk) record(ctx context.Context, id string, o Outcome) error {
	if !o.Status.Decidable() {
		reason := o.Feedback
		if o.Failure != nil {
			reason = d.failText(o.Failure)
		}
		if _, err := d.journal.RecordDecision(ctx, journal.DecisionRecord{ProposalID: id, Decision: o.Status, Feedback: reason}); err != nil {
			return err
		}
	}
	oj, _ := json.Marshal(journaledOutcome(o, d.failText(o.Failure)))
	return d.journal.RecordOutcome(ctx, id, oj, d.now())
}

// outcomeRecord is an outcome as the journal keeps it: without each file's
// final content, which is the checkpoint's final (finalSha256 names it).
// Kept whole beside that compressed blob, it grew the journal by the
// file's size at every decision, and a big file's outcome was marshalled
// twice. A failure is kept both as it is (failure) and as its agent
// read it (error), which is all an older journal has.
type outcomeRecord struct {
	Outcome
	Files   []fileRecord `json:"files"`
	Failure *Failure     `json:"failure,omitempty"`
}

// fileRecord is a FileOutcome without FinalContent (omitted when empty;
// the field shadows the FileOutcome's).
type fileRecord struct {
	FileOutcome
	FinalContent string `json:"finalContent,omitempty"`
}

// journaledOutcome is o as the journal keeps it; text is its failure's.
func journaledOutcome(o Outcome, text string) outcomeRecord {
	o = o.WithFailureText(text)
	r := outcomeRecord{Outcome: o, Files: make([]fileRecord, len(o.Files)), Failure: o.Failure}
	for i, f := range o.Files {
		r.Files[i].FileOutcome = f
	}
	return r
}

// Preview returns the proposed text so far of a streaming proposal.
func (d *Desk) Preview(id string) (engine.Preview, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	e, ok := d.entries[id]
	if !ok || e.p.State != StateStreaming {
		return engine.Preview{}, false
	}
	return e.preview, true
}

// Get returns a copy of the proposal with that id.
func (d *Desk) Get(id string) (Proposal, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	e, ok := d.entries[id]
	if !ok {
		return Proposal{}, false
	}
	return copyProposal(e.p), true
}

// Outcome returns the outcome of a decided proposal.
func (d *Desk) Outcome(id string) (Outcome, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	e, ok := d.entries[id]
	if !ok || !e.hasOutcome() {
		return Outcome{}, false
	}
	d.deliveredLocked(e)
	return e.outcome, true
}

// List returns copies of the proposals still waiting for a decision
// (streaming, pending or stale) or for the person (a held failure),
// oldest first.
func (d *Desk) List() []Proposal {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []Proposal
	for _, e := range d.entries {
		if e.p.State.Waiting() {
			out = append(out, copyProposal(e.p))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Before(out[j]) })
	return out
}

// Forget drops a decided proposal from memory (its record stays in the
// journal). Open proposals are kept.
func (d *Desk) Forget(id string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if e, ok := d.entries[id]; ok && !e.p.State.Waiting() && e.p.State != StateDecided {
		delete(d.entries, id)
	}
}

func (d *Desk) snapshot(e *entry) Proposal {
	d.mu.Lock()
	defer d.mu.Unlock()
	return copyProposal(e.p)
}

func copyProposal(p Proposal) Proposal {
	p.Files = append([]File(nil), p.Files...)
	p.Placed = maps.Clone(p.Placed)
	return p
}

// proposalRecord is the journal's form of p.
func (d *Desk) proposalRecord(p Proposal) journal.ProposalRecord {
	r := journal.ProposalRecord{ID: p.ID, Agent: p.Agent, Session: p.Session, Created: p.Created,
		Format: string(p.Format), Payload: []byte(p.Payload), Status: string(p.State)}
	if p.Failure != nil {
		r.Reason = d.failText(p.Failure)
	}
	if p.State == StateHeld {
		r.Status = string(StateFailed) // the journal records the edit as it applied: held is the desk's, not the record's
	}
	for _, f := range p.Files {
		r.Files = append(r.Files, journal.ProposalFileRecord{Path: f.Path, Root: f.Root, BaseExists: f.Base.Exists,
			Base: f.Base.Content, Delete: f.Delete, Proposed: []byte(f.Proposed)})
	}
	return r
}
