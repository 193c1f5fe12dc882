package review

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/user"
	"slices"
	"strings"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/atomicfile"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/formatter"
	"github.com/diffdesk/diffdesk/review/journal"
	"github.com/diffdesk/diffdesk/review/workspace"
)

// Decision is a person's (or a rule's) decision on a proposal.
type Decision struct {
	// Verdict is what to reach: decision.Approved (write the proposal as it
	// is), decision.ApprovedEdited (write the person's full text instead),
	// decision.Partial (write only the accepted hunks) or decision.Rejected
	// (write nothing; Feedback says why).
	Verdict decision.Verdict
	// Edited maps a file's absolute path to the full text the person
	// approved (decision.ApprovedEdited). Files not in it are written as
	// proposed. Text with "\n" line endings and no BOM, as the window's
	// editor gives it, is written with the file's line endings and BOM (see
	// fileText); text holding "\r\n" is taken as the file's bytes.
	Edited map[string]string
	// Hunks maps a file's absolute path to the ids of the hunks the person
	// accepted (decision.Partial). Files not in it keep none of their hunks.
	// With decision.ApprovedEdited, a file in Hunks but not in Edited (one
	// the person unticked hunks of but did not edit) is written with only
	// those hunks; files in neither are written as proposed.
	Hunks map[string][]string
	// Feedback is the reason or note the person typed; it goes to the agent.
	Feedback string
	// Comments are the person's comments on lines of the proposal's files,
	// with any verdict: Path (absolute, or relative to its root), Side,
	// Line, EndLine (0: Line) and Text; Decide checks them, quotes the
	// lines and passes them to the outcome and the journal.
	Comments []decision.Comment
	// Seen maps a file's path (absolute, or relative to its root when that
	// names one file) to the ids of its hunks (File.Hunks) the person had
	// on screen before deciding; the journal records, per hunk, whether it
	// was seen. nil: not tracked (a rule, a reviewer that does not say).
	Seen map[string][]string
	// SeenLines maps a file's path (as in Seen) and the id of one of its
	// hunks shown only in part to how many of the lines it changes
	// (HunkLines) were on screen; a hunk in Seen counts all of them, one in
	// neither none. The journal says "N of M changed lines never on screen".
	SeenLines map[string]map[string]int
	// Overwrite maps the path of a stale file to the hex SHA-256 of the disk
	// content the person reviewed (in the base / disk / proposal view). The
	// write goes ahead only while the disk still holds exactly that content.
	Overwrite map[string]string
	// Shown is the version (ShownVersion) of the proposal the person had
	// on screen: a decision that writes is refused (ChangedError, nothing
	// written) if the proposal holds other texts by now. "": not checked
	// (a script deciding by id).
	Shown string
	// By names the person who decides, as "user@host": a reviewer on
	// another machine names its own; "" is the user this desk runs as, on
	// this host (the window beside it). The journal keeps it, and the
	// outcome says it.
	By string
	// Rule names the rule that decides when no person does (an auto-approve
	// rule, the unattended policy; see Proposal.AutoRule); "" for a person.
	Rule string

	seen []decision.HunkSeen // Seen, checked: one per hunk (seenRecord)
	// classified maps each file's path to the proposed text a policy
	// classified (Desk.ApproveTrivial): the decision is refused if the
	// proposal no longer waits with exactly those texts.
	classified map[string]string
	// why is the reason of the desk's own rule (the unattended policy)
	// for its rejection, which the agent reads rendered (Outcome.Failure).
	why *Failure
}

// StaleError reports a decision that was not carried out because files
// changed on disk since the proposal's base snapshot. The proposal is now
// StateStale; show base / disk / proposal (Desk.Merge) and decide again.
type StaleError struct {
	ID    string
	Paths []string
}

func (e *StaleError) Error() string {
	return fmt.Sprintf("review: proposal %s is stale: %s changed on disk since the proposal arrived; review base / disk / proposal and decide again",
		e.ID, strings.Join(e.Paths, ", "))
}

// Decide carries out a decision: for an approval it re-checks the files on
// disk, formats the approved text, writes every file atomically (unless the
// agent writes them), journals the checkpoint, and then delivers the
// outcome. A stale file stops the write with a *StaleError; nothing is
// written and the proposal stays open.
func (d *Desk) Decide(ctx context.Context, id string, dec Decision) (Outcome, error) {
	if p, ok := d.Get(id); ok {
		if pv, ok := d.Preview(id); ok {
			// Rejected while it streams: what was on screen is the text
			// as far as it had come (cutStream), whose lines the comments
			// and the hunks seen are of.
			p.Files[0].Proposed = pv.Text()
			p.Files[0].keepDiff() // one diff for the comments and the hunks seen
		}
		cs, err := quoteComments(p, dec.Comments)
		if err != nil {
			return Outcome{}, err
		}
		dec.Comments = cs
		if dec.seen, err = seenRecord(p, dec.Seen, dec.SeenLines); err != nil {
			return Outcome{}, err
		}
	}
	e, err := d.startDecision(id, dec)
	if err != nil {
		return Outcome{}, err
	}
	o, err := d.carryOut(ctx, e, dec)
	if err != nil && pathRefused(err) {
		// The file's path no longer leads where it did: retrying cannot
		// help, so the proposal ends and the agent is told.
		d.finish(ctx, e, Outcome{ID: id, Status: decision.Failed, Files: []FileOutcome{},
			Failure: PathFailure(err)})
		return Outcome{}, err
	}
	if err != nil {
		d.mu.Lock()
		e.deciding = false
		if e.p.State == StateDecided {
			e.p.State = StatePending
		}
		if e.p.Unfinished && e.p.State == StateStreaming { // the stream goes on
			e.p.Unfinished, e.p.Files[0].Proposed = false, ""
		}
		e.p.Failure = WriteFailure(err)
		var se *StaleError
		if errors.As(err, &se) {
			e.p.State = StateStale
		}
		d.mu.Unlock()
		d.emit(Event{Kind: EventUpdated, ID: id})
		return Outcome{}, err
	}
	d.finish(context.WithoutCancel(ctx), e, o) // decided: recorded and delivered, the caller gone or not
	return o, nil
}

// who names who decided, as the journal and the outcome keep it: the
// rule (the journal's ByRule says which it is), the person By names, or
// this desk's own user on this host.
func (dec Decision) who() string {
	switch {
	case dec.Rule != "":
		return dec.Rule
	case dec.By != "":
		return dec.By
	}
	return LocalPerson()
}

// LocalPerson is the user this process runs as, on this host:
// "user@host", as who decided is recorded.
func LocalPerson() string {
	who := "unknown-user"
	if u, err := user.Current(); err == nil {
		who = u.Username
	}
	host, err := os.Hostname()
	if err != nil {
		host = "unknown-host"
	}
	return who + "@" + host
}

// decider says who made the decision: a person (and who), or the rule it
// names.
func (dec Decision) decider() (by Decider, rule, person string) {
	if dec.Rule != "" {
		return DecidedByRule, dec.Rule, ""
	}
	return DecidedByPerson, "", dec.who()
}

// startDecision claims an open proposal for a decision.
func (d *Desk) startDecision(id string, dec Decision) (*entry, error) {
	switch dec.Verdict {
	case decision.Approved, decision.ApprovedEdited, decision.Partial, decision.Rejected:
	case decision.Overwritten:
		if dec.Rule != "" {
			return nil, fmt.Errorf("review: %s may not overwrite a change made on disk; only a person may", dec.Rule)
		}
	default:
		return nil, fmt.Errorf("review: unknown decision %q", dec.Verdict)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	e, ok := d.entries[id]
	switch {
	case !ok:
		return nil, ErrUnknownProposal
	case e.p.State == StateHeld:
		return nil, fmt.Errorf("review: proposal %s did not apply and waits for the person: place its block at the lines it was meant for, or dismiss it", id)
	case e.p.State == StateStreaming && dec.Verdict != decision.Rejected:
		return nil, fmt.Errorf("review: proposal %s is still streaming; wait for it to finish before approving", id)
	case e.deciding:
		return nil, fmt.Errorf("review: proposal %s is being decided already (another decision on it is under way); this one was not carried out and nothing was written for it", id)
	case !e.p.State.Open():
		return nil, fmt.Errorf("review: proposal %s is already %s", id, e.p.State)
	}
	if dec.Rule != "" && dec.Verdict != decision.Rejected {
		// Whatever the rule, a protected file needs a person.
		for _, f := range e.p.Files {
			if !f.Protected.IsZero() {
				return nil, fmt.Errorf("review: %s may not approve proposal %s: %s is protected (%s); a person must decide", dec.Rule, id, f.Rel, f.Protected)
			}
		}
	}
	if err := checkShown(e.p, dec); err != nil {
		return nil, err
	}
	if dec.classified != nil {
		if e.p.State != StatePending {
			return nil, fmt.Errorf("review: proposal %s is %s since it was classified trivial; a person decides it", id, e.p.State)
		}
		for _, f := range e.p.Files {
			if t, ok := dec.classified[f.Path]; !ok || t != f.Proposed {
				return nil, fmt.Errorf("review: %s of proposal %s changed since it was classified trivial; a person decides it", f.Rel, id)
			}
		}
	}
	e.deciding = true
	e.cutStream() // rejected while it streams: what the person saw
	if dec.Verdict != decision.Rejected {
		e.p.State = StateDecided
	}
	e.p.Failure = nil
	return e, nil
}

// carryOut does the work of a decision and returns the outcome to report.
func (d *Desk) carryOut(ctx context.Context, e *entry, dec Decision) (Outcome, error) {
	d.mu.Lock()
	p := copyProposal(e.p)
	d.mu.Unlock()
	var plan []fileWrite
	if dec.Verdict != decision.Rejected {
		var err error
		if plan, err = d.plan(p, dec); err != nil {
			return Outcome{}, err
		}
		if nothingTicked(dec, plan) {
			// A partial approval with no hunk ticked keeps nothing: it
			// is a rejection, and said as one.
			dec.Verdict = decision.Rejected
		}
	}
	if dec.Verdict == decision.Rejected {
		if p.Unfinished { // the proposal journaled at the start had no text yet
			if err := d.journal.RecordProposal(ctx, d.proposalRecord(p)); err != nil {
				return Outcome{}, &journalError{err: err}
			}
		}
		if err := d.recordDecision(ctx, p, dec, nil); err != nil {
			return Outcome{}, &journalError{err: err}
		}
		o := Outcome{ID: p.ID, Status: decision.Rejected, Feedback: dec.Feedback, Failure: dec.why, Comments: dec.Comments, Files: chosenUnwritten(p), Unfinished: p.Unfinished}
		o.DecidedBy, o.Rule, o.By = dec.decider()
		return o, nil
	}
	if err := d.checkDisk(p, dec, plan); err != nil {
		return Outcome{}, err
	}
	if err := d.checkLimits(plan); err != nil { // planned again over the disk
		return Outcome{}, err
	}
	if d.format(ctx, plan) {
		if err := d.recheckAfterFormat(p, plan); err != nil {
			return Outcome{}, err
		}
	}
	if err := d.recordDecision(ctx, p, dec, plan); err != nil {
		return Outcome{}, &journalError{err: err}
	}
	var cp int64
	if !p.AgentWrites {
		// The agent that writes its files itself gets no checkpoint: the
		// desk wrote nothing, and the history says so.
		var err error
		if cp, err = d.journal.BeginWrite(ctx, writeIntent(p, plan)); err != nil {
			return Outcome{}, &journalError{err: err}
		}
		// Begun: the write is finished and journaled whatever the caller
		// does now (a hub link closing, a connection dropped cancels ctx);
		// only the settle window's wait is cut short.
		begun := context.WithoutCancel(ctx)
		if err := d.write(plan); err != nil {
			var kept []string // written, and not put back
			if we := (*writeError)(nil); errors.As(err, &we) {
				kept = we.unrestored
			}
			d.journal.FinishWrite(begun, cp, finals(plan, true, kept...))
			return Outcome{}, err
		}
		d.settle(ctx, plan)
		if err := d.journal.FinishWrite(begun, cp, finals(plan, false)); err != nil {
			return Outcome{}, &journalError{err: err, written: true}
		}
	}
	o := Outcome{ID: p.ID, Status: reached(dec.Verdict, plan), Feedback: dec.Feedback, Comments: dec.Comments, Checkpoint: cp, AgentWrites: p.AgentWrites}
	o.DecidedBy, o.Rule, o.By = dec.decider()
	for _, w := range plan {
		o.Files = append(o.Files, w.outcome(!p.AgentWrites))
	}
	d.addProblems(ctx, e, plan, o.Files)
	return o, nil
}

// beforeDecisionRecorded, when set (tests), runs as a decision is about to
// be journaled, with no lock of the desk or the journal held.
var beforeDecisionRecorded func(id string)

// recordDecision journals the decision on p.
func (d *Desk) recordDecision(ctx context.Context, p Proposal, dec Decision, plan []fileWrite) error {
	if beforeDecisionRecorded != nil {
		beforeDecisionRecorded(p.ID)
	}
	if dec.why != nil { // the history says what the agent reads
		dec.Feedback = d.failText(dec.why)
	}
	_, err := d.journal.RecordDecision(ctx, decisionRecord(p, dec, plan))
	return err
}

// decisionRecord is the journal's form of a decision.
func decisionRecord(p Proposal, dec Decision, plan []fileWrite) journal.DecisionRecord {
	r := journal.DecisionRecord{ProposalID: p.ID, Decision: reached(dec.Verdict, plan), Feedback: dec.Feedback, Comments: dec.Comments, Seen: dec.seen, By: dec.who(), ByRule: dec.Rule != ""}
	for _, w := range plan {
		r.Files = append(r.Files, journal.DecisionFile{Path: w.Path, Delete: w.Delete, Approved: []byte(w.Approved)})
		for _, v := range w.Verdicts {
			if v.Accepted {
				r.Hunks = append(r.Hunks, v.ID)
			}
		}
	}
	return r
}

// writeIntent is the journal's form of the write about to happen.
func writeIntent(p Proposal, plan []fileWrite) journal.WriteIntent {
	w := journal.WriteIntent{ProposalID: p.ID}
	for _, f := range plan {
		w.Files = append(w.Files, journal.FileWrite{Path: f.Path, Root: f.Root, BeforeExists: f.now.Exists,
			Before: f.now.Content, Delete: f.Delete, After: []byte(f.Final)})
	}
	return w
}

// finals is how each file ended; rolledBack says the write failed and every
// file is back as it was, but those written that could not be put back
// (unrestored).
func finals(plan []fileWrite, rolledBack bool, unrestored ...string) []journal.FileFinal {
	out := make([]journal.FileFinal, len(plan))
	for i, w := range plan {
		final := []byte(w.Final) // one copy for both: the journal only reads them
		f := journal.FileFinal{Path: w.Path, Formatted: w.Final != w.Approved, FormatterOutput: final,
			Final: final, Deleted: w.Delete, CreatedDirs: w.created}
		if rolledBack && !slices.Contains(unrestored, w.Path) {
			f = journal.FileFinal{Path: w.Path, Final: w.now.Content, Deleted: !w.now.Exists}
		}
		out[i] = f
	}
	return out
}

// reached is the verdict a decision reaches with its plan: an approval
// with edits that change nothing is a plain approval. A stale file's merge
// onto the disk (start) is the proposal, not the person's edit: approving
// it unchanged is a plain approval too, as the agent's text says. A
// partial approval with every hunk ticked is a plain approval.
func reached(v decision.Verdict, plan []fileWrite) decision.Verdict {
	switch v {
	case decision.ApprovedEdited:
		for _, w := range plan {
			if w.Approved != w.start {
				return v
			}
		}
		return decision.Approved
	case decision.Partial:
		for _, w := range plan {
			for _, h := range w.Verdicts {
				if !h.Accepted {
					return v
				}
			}
		}
		return decision.Approved
	}
	return v
}

// nothingTicked reports whether dec is a partial approval that keeps none
// of any file's hunks.
func nothingTicked(dec Decision, plan []fileWrite) bool {
	if dec.Verdict != decision.Partial {
		return false
	}
	for _, w := range plan {
		if !w.untouched {
			return false
		}
	}
	return true
}

// fileWrite is the plan for writing one file of an approved proposal.
type fileWrite struct {
	File
	Approved       string        // what the person approved
	Final          string        // what ends up on disk (after the formatter)
	Verdicts       []HunkVerdict // decision.Partial
	FormatterError string
	Settled        bool                // Final was changed by an external writer within the settle window
	start          string              // the text the decision started from (see start)
	overDisk       bool                // the file changed on disk since Base and is written over it (Decision.Overwrite)
	now            atomicfile.Snapshot // the file just before writing
	created        []string            // directories SaveFile created for it
	// untouched says the decision keeps none of the file's changes (a
	// partial approval with none of its hunks ticked): it is neither
	// formatted nor written, and a new file is not created.
	untouched bool
}

func (w fileWrite) outcome(written bool) FileOutcome {
	fo := FileOutcome{
		Path: w.Path, Written: written && !w.untouched, Deleted: w.Delete,
		FinalContent: w.Final, FinalSHA256: atomicfile.Hash([]byte(w.Final)),
		Hunks: w.Verdicts, FormatterError: w.FormatterError,
		Matches: w.Loose(), Incomplete: w.Incomplete,
	}
	if w.EditEOL != "" && !w.Delete {
		fo.EditLineEndings = engine.EOLName(w.EditEOL)
	}
	if !w.Delete && !w.untouched {
		if has := strings.HasPrefix(w.Final, bom); w.BOMChange == "kept" && has || w.BOMChange == "dropped" && !has {
			fo.BOM = w.BOMChange
		}
		from, approved, final := endings(w.start), endings(w.Approved), endings(w.Final)
		switch {
		case from != "" && approved != "" && from != approved:
			fo.LineEndings = &EndingsChange{From: from, To: approved, By: "person"}
		case approved != "" && final != "" && approved != final:
			fo.LineEndings = &EndingsChange{From: approved, To: final, By: "formatter"}
		}
	}
	if w.overDisk {
		fo.DiskEdits = engine.Unified("base/"+w.Rel, "disk/"+w.Rel, w.BaseText(), string(w.now.Content), 3)
	}
	if w.Delete {
		fo.FinalSHA256 = ""
		return fo
	}
	from := "proposal/"
	if w.start != w.Proposed {
		from = "merged/"
	}
	fo.UserEdits = engine.Unified(from+w.Rel, "approved/"+w.Rel, w.start, w.Approved, 3)
	fo.AutoFormatEdits = engine.Unified("approved/"+w.Rel, "final/"+w.Rel, w.Approved, w.Final, 3)
	return fo
}

// plan works out the approved text of every file, within the size limit.
func (d *Desk) plan(p Proposal, dec Decision) ([]fileWrite, error) {
	plan, err := planFiles(p, dec)
	if err != nil {
		return nil, err
	}
	return plan, d.checkLimits(plan)
}

// checkLimits refuses an approved text over the size limit.
func (d *Desk) checkLimits(plan []fileWrite) error {
	for _, w := range plan {
		if !w.Delete {
			if max := d.cfg.LimitsFor(w.Root).MaxFileBytes; max > 0 && int64(len(w.Approved)) > max {
				return &workspace.RefusalError{Path: w.Path, Rule: "max_file_bytes", Detail: "the approved text is over the size limit"}
			}
		}
	}
	return nil
}

// planCounted, when set (tests), is called for each file planned.
var planCounted func()

// planFiles works out the approved text of every file.
func planFiles(p Proposal, dec Decision) ([]fileWrite, error) {
	plan := make([]fileWrite, len(p.Files))
	for i, f := range p.Files {
		w, err := planFile(f, dec)
		if err != nil {
			return nil, err
		}
		plan[i] = w
	}
	return plan, nil
}

// planFile works out the approved text of one file. A stale file (Disk
// set) the person reviewed over the disk (Decision.Overwrite) is approved
// as the merge: the proposal, or the hunks ticked of it, merged onto the
// disk, or the person's own text written from that merge; a merge with
// conflicts, or a deletion of a file someone changed, is refused. Only
// decision.Overwritten writes the proposal as sent over the disk.
func planFile(f File, dec Decision) (fileWrite, error) {
	if planCounted != nil {
		planCounted()
	}
	w := fileWrite{File: f, Approved: f.Proposed, start: f.Proposed}
	// The disk the person reviewed; checkDisk plans again over the disk
	// as it is when the desk's record lags behind it.
	want, reviewed := dec.Overwrite[f.Path]
	over := reviewed && f.Stale() && want == f.Disk.SHA256
	merge := over && dec.Verdict != decision.Overwritten
	var conflicts int
	if merge && !f.Delete {
		m := f.Merge()
		w.start, conflicts = m.Text, len(m.Conflicts)
	}
	edited := false
	switch dec.Verdict {
	case decision.ApprovedEdited:
		if text, ok := dec.Edited[f.Path]; ok {
			if f.Delete {
				return w, fmt.Errorf("review: %s is deleted by the proposal; it cannot be edited", f.Path)
			}
			w.Approved, edited = fileText(w.start, text), true
		} else if ids, ok := dec.Hunks[f.Path]; ok {
			// A file the person did not edit but unticked hunks of.
			if err := applyTicked(&w, f, ids); err != nil {
				return w, err
			}
		} else {
			w.Approved = w.start
		}
	case decision.Partial:
		if err := applyTicked(&w, f, dec.Hunks[f.Path]); err != nil {
			return w, err
		}
	case decision.Overwritten:
		if len(dec.Edited) > 0 || len(dec.Hunks) > 0 {
			return w, errors.New("review: an overwrite writes the proposal as the agent sent it; it takes no edited text or hunks (approve-edited takes the person's text)")
		}
	default:
		w.Approved = w.start
	}
	if merge && f.Delete && !w.untouched {
		return w, fmt.Errorf("review: %s changed on disk since the proposal that deletes it: deleting it now would throw that change away; reject, or overwrite to delete it anyway", f.Path)
	}
	if merge && w.Verdicts != nil && !w.untouched {
		// The hunks the person ticked, merged onto the disk.
		m := engine.Merge3(f.BaseText(), string(f.Disk.Content), w.Approved, engine.MergeLabels{})
		w.Approved, conflicts = m.Text, len(m.Conflicts)
	}
	if merge && !edited && !w.untouched && conflicts > 0 {
		return w, fmt.Errorf("review: the proposal's change to %s conflicts with the change made on disk since (%d conflicts): approve-edited with the conflicts resolved, overwrite the disk's change, or reject", f.Path, conflicts)
	}
	w.overDisk = over
	w.Final = w.Approved
	return w, nil
}

// applyTicked makes w write only the hunks of f whose ids the person left
// ticked (decision.Partial, and the files of an approved edit the person
// did not edit but unticked hunks of).
func applyTicked(w *fileWrite, f File, ids []string) error {
	accepted := map[string]bool{}
	for _, id := range ids {
		accepted[id] = true
	}
	known := map[string]bool{}
	for _, h := range f.Hunks() {
		known[h.ID] = true
		w.Verdicts = append(w.Verdicts, HunkVerdict{ID: h.ID, Accepted: accepted[h.ID]})
	}
	for id := range accepted {
		if !known[id] {
			return fmt.Errorf("review: %s has no hunk %q", f.Path, id)
		}
	}
	w.untouched = len(accepted) == 0
	if f.Delete {
		if len(accepted) == 0 {
			w.Delete, w.Approved = false, f.BaseText()
		}
		return nil
	}
	w.Approved = f.WithHunks(func(id string) bool { return accepted[id] })
	return nil
}

// fileText turns the text the person approved into the file's bytes, the
// way the engine writes a proposal: the window's editor works on text with
// "\n" line endings and no BOM, so edited is given the BOM and line endings
// of ref, the file's text the edit started from. In a file that mixes
// endings, lines the person kept keep their own ending and new lines take
// the dominant one. edited holding "\r\n" is already the file's bytes, and
// a file with only "\n" endings and no BOM needs nothing: both are
// returned as they are.
func fileText(ref, edited string) string {
	if strings.Contains(edited, "\r\n") || !strings.Contains(ref, "\r") && !strings.HasPrefix(ref, bom) {
		return edited
	}
	doc, err := engine.Decode(ref)
	if err != nil {
		return edited
	}
	ed, err := engine.Decode(edited)
	if err != nil {
		return edited
	}
	out := doc.Encode(ed.Text)
	if ed.BOM && !doc.BOM {
		out = bom + out
	}
	return out
}

// bom is the UTF-8 byte order mark.
const bom = "\uFEFF"

// checkDisk re-checks every file's path against the workspace roots (a
// symlink swapped in since the proposal is refused) and that it is still
// writable, re-reads it, and refuses to go on if one changed since the
// base snapshot, unless the person reviewed exactly that disk content
// (Decision.Overwrite): such a file is planned again against what the
// disk holds now (planFile), the merge or, for decision.Overwritten, the
// proposal over it. A file the person reviewed over a disk content it no
// longer holds is stale again. It keeps what it read in the plan, as the
// journal's "before".
func (d *Desk) checkDisk(p Proposal, dec Decision, plan []fileWrite) error {
	var stale []string
	over := false
	for i, f := range p.Files {
		if err := d.ws.Recheck(f.Path); err != nil {
			return err
		}
		now, err := d.readDisk(f.Path, f.Root)
		if err != nil {
			return err
		}
		if now.Exists {
			if err := workspace.CheckWritable(f.Path, now.Mode); err != nil {
				return err
			}
		}
		want, reviewed := dec.Overwrite[f.Path]
		changed := f.staleAgainst(now)
		if changed && (!reviewed || want != now.SHA256) || !changed && reviewed && want != now.SHA256 && f.Stale() {
			stale = append(stale, f.Path)
			d.markStale(p.ID, f.Path, now)
			continue
		}
		f.Disk = atomicfile.Snapshot{}
		if changed {
			f.Disk, over = now, true
		}
		if planned := p.Files[i].Disk; f.Disk.Path != planned.Path || f.Disk.SHA256 != planned.SHA256 {
			// Planned over another disk than the one there now.
			w, err := planFile(f, dec)
			if err != nil {
				return err
			}
			plan[i] = w
		}
		plan[i].now = now
	}
	if len(stale) > 0 {
		return &StaleError{ID: p.ID, Paths: stale}
	}
	if dec.Verdict == decision.Overwritten && !over {
		return fmt.Errorf("review: proposal %s is not stale: no file of it changed on disk, so there is no one's change to overwrite; approve it instead", p.ID)
	}
	return nil
}

// format runs each file's formatter over its approved text, and reports
// whether any ran (a formatter takes time the disk may change in).
func (d *Desk) format(ctx context.Context, plan []fileWrite) (ran bool) {
	for i := range plan {
		w := &plan[i]
		if w.Delete || w.untouched {
			continue
		}
		rule, ok := d.cfg.FormatterFor(w.Path, w.Root)
		if !ok {
			continue
		}
		ran = true
		out, err := formatter.Run(ctx, *rule, w.Path, w.Approved)
		if err != nil {
			w.FormatterError = err.Error()
			continue
		}
		w.Final = out
	}
	return ran
}

// write writes every file of the plan atomically. If one fails, the files
// already written are put back as they were.
func (d *Desk) write(plan []fileWrite) error {
	var done []fileWrite
	for i := range plan {
		w := &plan[i]
		if w.untouched {
			continue
		}
		if err := writeOne(w); err != nil {
			we := &writeError{path: w.Path, err: err}
			for _, u := range done {
				if restoreBase(u) != nil {
					we.unrestored = append(we.unrestored, u.Path)
				}
			}
			return we
		}
		done = append(done, *w)
	}
	return nil
}

// writeOne writes (or deletes) one file, never through a symlink that
// leads out of its workspace root (atomicfile.SaveIn).
func writeOne(w *fileWrite) error {
	if w.Delete {
		return atomicfile.RemoveIn(w.Root, w.Path)
	}
	mode := w.Base.Mode.Perm()
	if !w.Base.Exists {
		mode = 0o644
	}
	created, err := atomicfile.SaveIn(w.Root, w.Path, []byte(w.Final), mode)
	w.created = created
	return err
}

// restoreBase puts a file back as it was just before the write.
func restoreBase(w fileWrite) error {
	if !w.now.Exists {
		err := atomicfile.RemoveIn(w.Root, w.Path)
		atomicfile.RemoveCreatedDirs(w.created)
		return err
	}
	_, err := atomicfile.SaveIn(w.Root, w.Path, w.now.Content, w.now.Mode)
	return err
}

// pathRefused reports whether err is the desk refusing to write because a
// file's path no longer leads where it did when proposed.
func pathRefused(err error) bool {
	var re *workspace.RefusalError
	return errors.Is(err, atomicfile.ErrOutsideRoot) || errors.As(err, &re) && re.Rule == workspace.RuleMoved
}

// settle waits the configured settle window for an external writer (an
// editor's format-on-save) and takes its change into the final content.
func (d *Desk) settle(ctx context.Context, plan []fileWrite) {
	var wait time.Duration
	for _, w := range plan {
		wait = max(wait, d.cfg.SettleFor(w.Root))
	}
	if wait <= 0 {
		return
	}
	t := time.NewTimer(wait)
	select {
	case <-t.C:
	case <-ctx.Done():
		t.Stop()
	}
	for i := range plan {
		w := &plan[i]
		if w.Delete {
			continue
		}
		now, err := d.readDisk(w.Path, w.Root)
		if err == nil && now.Exists && string(now.Content) != w.Final {
			w.Final, w.Settled = string(now.Content), true
		}
	}
}
