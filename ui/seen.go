package ui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2/dialog"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/ui/present"
)

// Seen coverage in the window: the view records which hunks had a changed
// row on screen (diffview's seen.go); before an approval writes hunks
// never shown, or files never opened, the window asks once
// (onScreen.confirm), unless the person turned that off in the View options
// (prefAskUnseen). Every decision the person makes carries the hunks seen
// (Decision.Seen) and the lines on screen of the others
// (Decision.SeenLines); the journal keeps them per hunk, by lines.

// prefAskUnseen is the window preference: ask before approving hunks
// never on screen (default on).
const prefAskUnseen = "askUnseen"

// onScreen is what the person had on screen: of the shown proposal, its
// files opened (seen) and, through the view, its hunks and lines; of the
// proposals shown before, their hunks (path → ids) and the lines of those
// shown only in part, for a whole-changeset approval. It asks the
// never-on-screen question.
type onScreen struct {
	paneKit
	deps        onScreenDeps
	seen        map[string]bool // the shown proposal's files opened
	unseenOK    bool            // the person chose to approve what they had not seen
	seenBefore  map[string]map[string]map[string]bool
	linesBefore map[string]map[string]map[string]int
	dialog      *dialog.ConfirmDialog // the question, while open
	msg         string                // what it asks
}

// onScreenDeps is what onScreen needs beyond its kit.
type onScreenDeps struct {
	merge      func(review.File) engine.MergeResult    // a stale file's merge
	get        func(id string) (review.Proposal, bool) // a proposal as the desk has it
	ask        func() bool                             // whether to ask (the View options' box)
	decide     func(review.Decision)                   // the approval asked about, once agreed
	selectFile func(rel string)
}

func newOnScreen(kit paneKit, deps onScreenDeps) *onScreen {
	return &onScreen{paneKit: kit, deps: deps, seen: map[string]bool{}, seenBefore: map[string]map[string]map[string]bool{}}
}

// reset keeps what the person saw of the proposal left (keep) and starts
// afresh for the next.
func (o *onScreen) reset() {
	o.keep()
	o.seen, o.unseenOK = map[string]bool{}, false
	o.view.Seen().Forget()
}

// opened records that the person opened file path.
func (o *onScreen) opened(path string) { o.seen[path] = true }

// unopened lists the files of the shown proposal never on screen.
func (o *onScreen) unopened() []string {
	p := o.sh.p
	var out []string
	for _, f := range p.Files {
		if !o.seen[f.Path] {
			out = append(out, f.Rel)
		}
	}
	return out
}

// seenSets returns, per file of the shown proposal, the ids of the hunks
// that have been on screen.
func (o *onScreen) seenSets() map[string]map[string]bool {
	p := o.sh.p
	out := map[string]map[string]bool{}
	for _, f := range p.Files {
		out[f.Path] = o.view.Seen().In(f.Path)
	}
	return out
}

// proposalSeen is the shown proposal as CheckSeen takes it for dec: the
// hunks seen, and those the person approved by their trivial label (t),
// which need no question; a partial approval asks only about the hunks it
// writes.
func (o *onScreen) proposalSeen(dec review.Decision) review.ProposalSeen {
	p := o.sh.p
	seen := o.seenSets()
	for path, ids := range o.c.trivialOK {
		for id := range ids {
			if seen[path] == nil {
				seen[path] = map[string]bool{}
			}
			seen[path][id] = true
		}
	}
	it := review.ProposalSeen{Proposal: p, Seen: seen}
	switch dec.Verdict {
	case decision.Partial:
		it.Only = dec.Hunks
	case decision.ApprovedEdited:
		it.Only = o.agentHunksWritten(dec)
	}
	return it
}

// agentHunksWritten is, per file, the ids of the agent's hunks that an
// approval of edited text dec writes as the agent wrote them: in an edited
// file, those its text still holds (a hunk the person rewrote is theirs);
// in the others, the ticked ones; in a stale file, those the merge onto
// the disk (or the person's edit of it) keeps as the agent wrote them.
func (o *onScreen) agentHunksWritten(dec review.Decision) map[string][]string {
	p := o.sh.p
	out := map[string][]string{}
	for _, f := range p.Files {
		ids := []string{}
		t, edited := dec.Edited[f.Path]
		switch {
		case f.Stale() || edited:
			// The merge onto the disk (or the person's edit of it) writes
			// the agent's hunks it keeps as written: those are asked about
			// too (approve merged asked nothing: QA, a 33-hunk file with
			// 28 never shown written at once).
			mine := f
			if f.Stale() {
				if !edited {
					t = o.deps.merge(f).Text
				}
				mine.Base = f.Disk
			}
			mine.Proposed = t
			kept := map[string]bool{}
			for _, h := range mine.Hunks() {
				kept[h.ID] = true
			}
			for _, h := range f.Hunks() {
				if kept[h.ID] {
					ids = append(ids, h.ID)
				}
			}
		case dec.Hunks[f.Path] != nil:
			ids = append(ids, dec.Hunks[f.Path]...)
		default:
			for _, h := range f.Hunks() {
				ids = append(ids, h.ID)
			}
		}
		out[f.Path] = ids
	}
	return out
}

// confirm asks before approving files the person never opened or
// hunks never on screen; it reports whether to go ahead now. An approval
// of edited text asks the same about the agent's hunks it writes as the
// agent wrote them (one keystroke in edit mode does not make the other
// hunks seen); what the person wrote they have seen.
func (o *onScreen) confirm(dec review.Decision) bool {
	if o.unseenOK || !o.deps.ask() {
		return true
	}
	files := o.unopened()
	var u review.Unseen
	if dec.Verdict.Wrote() {
		u = review.CheckSeen([]review.ProposalSeen{o.proposalSeen(dec)})
	}
	msg := present.UnseenQuestion(files, u)
	if msg == "" {
		return true
	}
	if u.Unseen > 0 {
		unseenN, total := o.linesUnseen(o.proposalSeen(dec))
		msg = strings.Replace(msg, "\nApprove anyway?", fmt.Sprintf("\n%d of %d changed lines were never on screen.\nApprove anyway?", unseenN, total), 1)
	}
	o.msg = msg
	o.dialog = dialog.NewConfirm("Approve what you have not seen?", msg, func(ok bool) {
		o.dialog = nil
		if ok {
			o.unseenOK = true
			o.deps.decide(dec)
			return
		}
		o.showFirst(files, u)
	}, o.win)
	o.dialog.SetConfirmText("Approve anyway (Enter)")
	o.dialog.SetDismissText("Show the first (Esc)")
	o.ask(o.dialog)
	return false
}

// linesUnseen counts the changed lines of the hunks it asks about
// (total) and those never on screen (a hunk is seen once all its lines
// were: one partly shown counts the lines that were not).
func (o *onScreen) linesUnseen(it review.ProposalSeen) (unseen, total int) {
	for _, f := range it.Proposal.Files {
		var only map[string]bool
		if it.Only != nil {
			only = map[string]bool{}
			for _, id := range it.Only[f.Path] {
				only[id] = true
			}
		}
		part := o.view.Seen().Lines(f.Path)
		for _, h := range f.Hunks() {
			if only != nil && !only[h.ID] {
				continue
			}
			n := max((h.Change.A1-h.Change.A0)+(h.Change.B1-h.Change.B0), 1)
			total += n
			switch {
			case it.Seen[f.Path][h.ID]:
			case part[h.ID][1] > 0:
				unseen += max(n-part[h.ID][0], 0)
			default:
				unseen += n
			}
		}
	}
	return unseen, total
}

// showFirst shows the first hunk never on screen, else the first
// file never opened.
func (o *onScreen) showFirst(files []string, u review.Unseen) {
	if u.Unseen == 0 {
		o.deps.selectFile(files[0])
		return
	}
	if u.First.Path != o.view.Path() {
		o.deps.selectFile(u.First.Rel)
	}
	o.view.Nav().ShowHunk(u.First.Hunk.ID)
	o.counter()
}

// forDecision is what a decision on the shown proposal says was on
// screen: per file, the ids of its hunks seen.
func (o *onScreen) forDecision() map[string][]string {
	p := o.sh.p
	if len(p.Files) == 0 || p.State == review.StateStreaming {
		return nil // a stream's text grows under the view: not tracked
	}
	return review.SeenIDs(p, o.seenSets())
}

// linesForDecision is, per file of the shown proposal, its hunks shown
// only in part and how many of the lines each changes were on screen
// (Decision.SeenLines: the journal counts seen by lines). Only the
// proposal's own hunks: a stale or edited view's other changes are not
// the proposal's.
func (o *onScreen) linesForDecision() map[string]map[string]int {
	p := o.sh.p
	if len(p.Files) == 0 || p.State == review.StateStreaming {
		return nil
	}
	out := map[string]map[string]int{}
	for _, f := range p.Files {
		part := o.view.Seen().Lines(f.Path)
		for _, h := range f.Hunks() {
			if n := part[h.ID][0]; n > 0 {
				if out[f.Path] == nil {
					out[f.Path] = map[string]int{}
				}
				out[f.Path][h.ID] = n
			}
		}
	}
	return out
}

// changesetLines is, for deciding the proposals ps together, each
// one's Decision.SeenLines: the lines on screen of the hunks shown only
// in part, kept for the proposals shown before (keep) and the shown
// one's now.
func (o *onScreen) changesetLines(ps []review.Proposal) map[string]map[string]map[string]int {
	shown := o.sh.id
	out := map[string]map[string]map[string]int{}
	for _, p := range ps {
		lines := maxLines(nil, o.linesBefore[p.ID])
		if p.ID == shown {
			lines = maxLines(lines, o.linesForDecision())
		}
		if len(lines) > 0 {
			out[p.ID] = lines
		}
	}
	return out
}

// maxLines returns a with b's counts merged in, the greater of each (a
// new map when a is nil).
func maxLines(a, b map[string]map[string]int) map[string]map[string]int {
	if a == nil {
		a = map[string]map[string]int{}
	}
	for path, ids := range b {
		if a[path] == nil {
			a[path] = map[string]int{}
		}
		for id, n := range ids {
			a[path][id] = max(a[path][id], n)
		}
	}
	return a
}

// keep remembers the hunks of the shown proposal that were on screen,
// before the view forgets them for another proposal, so approving its
// changeset whole knows what the person saw of it (changeset). It
// keeps only open proposals.
func (o *onScreen) keep() {
	shown, p := o.sh.id, o.sh.p
	if shown == "" || len(p.Files) == 0 {
		return
	}
	for id := range o.seenBefore {
		if p, ok := o.deps.get(id); !ok || !p.State.Open() {
			delete(o.seenBefore, id)
			delete(o.linesBefore, id)
		}
	}
	if o.linesBefore == nil {
		o.linesBefore = map[string]map[string]map[string]int{}
	}
	o.linesBefore[shown] = maxLines(o.linesBefore[shown], o.linesForDecision())
	old := o.seenBefore[shown]
	if old == nil {
		old = map[string]map[string]bool{}
		o.seenBefore[shown] = old
	}
	for path, ids := range o.seenSets() {
		if old[path] == nil {
			old[path] = map[string]bool{}
		}
		for id := range ids {
			old[path][id] = true
		}
	}
}

// of is what of proposal p has been on screen: the view's record for
// the shown one, what was kept for the others.
func (o *onScreen) of(p review.Proposal) map[string]map[string]bool {
	shown := o.sh.id
	out := map[string]map[string]bool{}
	for path, ids := range o.seenBefore[p.ID] {
		out[path] = map[string]bool{}
		for id := range ids {
			out[path][id] = true
		}
	}
	if p.ID == shown {
		for path, ids := range o.proposalSeen(review.Decision{}).Seen {
			if out[path] == nil {
				out[path] = map[string]bool{}
			}
			for id := range ids {
				out[path][id] = true
			}
		}
	}
	return out
}

// records are, for deciding the proposals ps together, the hunks and the
// lines of each that were on screen (ChangesetDecision.Seen, SeenLines).
func (o *onScreen) records(ps []review.Proposal) (map[string]map[string][]string, map[string]map[string]map[string]int) {
	_, seen := o.changeset(ps)
	return seen, o.changesetLines(ps)
}

// changeset is, for approving the open proposals ps whole, what of
// them was never on screen, and the seen record each decision carries.
func (o *onScreen) changeset(ps []review.Proposal) (review.Unseen, map[string]map[string][]string) {
	var items []review.ProposalSeen
	record := map[string]map[string][]string{}
	for _, p := range ps {
		seen := o.of(p)
		items = append(items, review.ProposalSeen{Proposal: p, Seen: seen})
		record[p.ID] = review.SeenIDs(p, seen)
	}
	return review.CheckSeen(items), record
}
