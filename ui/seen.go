package ui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2/dialog"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
)

// Seen coverage in the window: the view records which hunks had a changed
// row on screen (diffview's seen.go); before an approval writes hunks
// never shown, or files never opened, the window asks once
// (confirmUnseen), unless the person turned that off in the View options
// (prefAskUnseen). Every decision the person makes carries the hunks seen
// (Decision.Seen) and the lines on screen of the others
// (Decision.SeenLines); the journal keeps them per hunk, by lines.

// prefAskUnseen is the window preference: ask before approving hunks
// never on screen (default on).
const prefAskUnseen = "askUnseen"

// seenSets returns, per file of the shown proposal, the ids of the hunks
// that have been on screen.
func (d *detail) seenSets() map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, f := range d.p.Files {
		out[f.Path] = d.view.SeenIn(f.Path)
	}
	return out
}

// proposalSeen is the shown proposal as CheckSeen takes it for dec: the
// hunks seen, and those the person approved by their trivial label (t),
// which need no question; a partial approval asks only about the hunks it
// writes.
func (d *detail) proposalSeen(dec review.Decision) review.ProposalSeen {
	seen := d.seenSets()
	for path, ids := range d.trivialOK {
		for id := range ids {
			if seen[path] == nil {
				seen[path] = map[string]bool{}
			}
			seen[path][id] = true
		}
	}
	it := review.ProposalSeen{Proposal: d.p, Seen: seen, Hunks: d.fileHunks}
	switch dec.Verdict {
	case decision.Partial:
		it.Only = dec.Hunks
	case decision.ApprovedEdited:
		it.Only = d.agentHunksWritten(dec)
	}
	return it
}

// agentHunksWritten is, per file, the ids of the agent's hunks that an
// approval of edited text dec writes as the agent wrote them: in an edited
// file, those its text still holds (a hunk the person rewrote is theirs);
// in the others, the ticked ones; in a stale file, those the merge onto
// the disk (or the person's edit of it) keeps as the agent wrote them.
func (d *detail) agentHunksWritten(dec review.Decision) map[string][]string {
	out := map[string][]string{}
	for _, f := range d.p.Files {
		ids := []string{}
		switch t, edited := dec.Edited[f.Path]; {
		case f.Stale():
			// The merge onto the disk (or the person's edit of it) writes
			// the agent's hunks it keeps as written: those are asked about
			// too (approve merged asked nothing: QA, a 33-hunk file with
			// 28 never shown written at once).
			if !edited {
				t = d.merge(f).Text
			}
			mine := f
			mine.Base, mine.Proposed = f.Disk, t
			kept := map[string]bool{}
			for _, h := range mine.Hunks() {
				kept[h.ID] = true
			}
			for _, h := range d.fileHunks(f) {
				if kept[h.ID] {
					ids = append(ids, h.ID)
				}
			}
		case edited:
			mine := f
			mine.Proposed = t
			kept := map[string]bool{}
			for _, h := range mine.Hunks() {
				kept[h.ID] = true
			}
			for _, h := range d.fileHunks(f) {
				if kept[h.ID] {
					ids = append(ids, h.ID)
				}
			}
		case dec.Hunks[f.Path] != nil:
			ids = append(ids, dec.Hunks[f.Path]...)
		default:
			for _, h := range d.fileHunks(f) {
				ids = append(ids, h.ID)
			}
		}
		out[f.Path] = ids
	}
	return out
}

// askUnseen reports whether approving what was never on screen asks first.
func (d *detail) askUnseen() bool { return d.bar.askUnseen.Checked }

// unseenQuestion is the text of the question before approving files never
// opened (files) and hunks never on screen (u), or "" when there is
// nothing to ask about.
func unseenQuestion(files []string, u review.Unseen) string {
	unopened := map[string]bool{}
	for _, f := range files {
		unopened[f] = true
	}
	var parts []string
	if u.Unseen > 0 {
		var in []string
		for _, f := range u.Files {
			if unopened[f] {
				f += ", never opened"
				delete(unopened, f[:len(f)-len(", never opened")])
			}
			in = append(in, f)
		}
		parts = append(parts, fmt.Sprintf("%d of %d %s %s never on screen (%s).", u.Unseen, u.Total,
			plural(u.Total, "hunk", "hunks"), plural(u.Unseen, "was", "were"), strings.Join(in, "; ")))
	}
	var rest []string
	for _, f := range files {
		if unopened[f] {
			rest = append(rest, f)
		}
	}
	if len(rest) > 0 {
		parts = append(parts, fmt.Sprintf("You have not opened %s.", strings.Join(rest, ", ")))
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, "\n") + "\nApprove anyway?"
}

// confirmUnseen asks before approving files the person never opened or
// hunks never on screen; it reports whether to go ahead now. An approval
// of edited text asks the same about the agent's hunks it writes as the
// agent wrote them (one keystroke in edit mode does not make the other
// hunks seen); what the person wrote they have seen.
func (d *detail) confirmUnseen(dec review.Decision) bool {
	if d.unseenOK || !d.askUnseen() {
		return true
	}
	files := d.unseen()
	var u review.Unseen
	if dec.Verdict.Wrote() {
		u = review.CheckSeen([]review.ProposalSeen{d.proposalSeen(dec)})
	}
	msg := unseenQuestion(files, u)
	if msg == "" {
		return true
	}
	if u.Unseen > 0 {
		unseenN, total := d.linesUnseen(d.proposalSeen(dec))
		msg = strings.Replace(msg, "\nApprove anyway?", fmt.Sprintf("\n%d of %d changed lines were never on screen.\nApprove anyway?", unseenN, total), 1)
	}
	d.unseenMsg = msg
	d.unseenDialog = dialog.NewConfirm("Approve what you have not seen?", msg, func(ok bool) {
		d.unseenDialog = nil
		if ok {
			d.unseenOK = true
			d.decide(dec)
			return
		}
		d.showFirstUnseen(files, u)
	}, d.w.Win)
	d.unseenDialog.SetConfirmText("Approve anyway (Enter)")
	d.unseenDialog.SetDismissText("Show the first (Esc)")
	d.w.setCloser(d.unseenDialog, nil)
	d.bindDialog()
	d.unseenDialog.Show()
	return false
}

// linesUnseen counts the changed lines of the hunks it asks about
// (total) and those never on screen (a hunk is seen once all its lines
// were: one partly shown counts the lines that were not).
func (d *detail) linesUnseen(it review.ProposalSeen) (unseen, total int) {
	for _, f := range it.Proposal.Files {
		var only map[string]bool
		if it.Only != nil {
			only = map[string]bool{}
			for _, id := range it.Only[f.Path] {
				only[id] = true
			}
		}
		part := d.view.LinesSeen(f.Path)
		for _, h := range d.fileHunks(f) {
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

// showFirstUnseen shows the first hunk never on screen, else the first
// file never opened.
func (d *detail) showFirstUnseen(files []string, u review.Unseen) {
	if u.Unseen == 0 {
		d.files.SetSelected(files[0]) // selectFile
		return
	}
	if u.First.Path != d.curPath() {
		d.files.SetSelected(u.First.Rel) // selectFile
	}
	d.view.ShowHunk(u.First.Hunk.ID)
	d.updateCounter()
}

// seenForDecision is what a decision on the shown proposal says was on
// screen: per file, the ids of its hunks seen.
func (d *detail) seenForDecision() map[string][]string {
	if len(d.p.Files) == 0 || d.p.State == review.StateStreaming {
		return nil // a stream's text grows under the view: not tracked
	}
	return review.SeenIDs(d.p, d.seenSets(), d.fileHunks)
}

// seenLinesForDecision is, per file of the shown proposal, its hunks shown
// only in part and how many of the lines each changes were on screen
// (Decision.SeenLines: the journal counts seen by lines). Only the
// proposal's own hunks: a stale or edited view's other changes are not
// the proposal's.
func (d *detail) seenLinesForDecision() map[string]map[string]int {
	if len(d.p.Files) == 0 || d.p.State == review.StateStreaming {
		return nil
	}
	out := map[string]map[string]int{}
	for _, f := range d.p.Files {
		part := d.view.LinesSeen(f.Path)
		for _, h := range d.fileHunks(f) {
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

// changesetSeenLines is, for deciding the proposals ps together, each
// one's Decision.SeenLines: the lines on screen of the hunks shown only
// in part, kept for the proposals shown before (keepSeen) and the shown
// one's now.
func (d *detail) changesetSeenLines(ps []review.Proposal) map[string]map[string]map[string]int {
	out := map[string]map[string]map[string]int{}
	for _, p := range ps {
		lines := maxLines(nil, d.linesBefore[p.ID])
		if p.ID == d.id {
			lines = maxLines(lines, d.seenLinesForDecision())
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

// keepSeen remembers the hunks of the shown proposal that were on screen,
// before the view forgets them for another proposal, so approving its
// changeset whole knows what the person saw of it (changesetSeen). It
// keeps only open proposals.
func (d *detail) keepSeen() {
	if d.id == "" || len(d.p.Files) == 0 {
		return
	}
	for id := range d.seenBefore {
		if p, ok := d.w.desk.Get(id); !ok || !p.State.Open() {
			delete(d.seenBefore, id)
			delete(d.linesBefore, id)
		}
	}
	if d.linesBefore == nil {
		d.linesBefore = map[string]map[string]map[string]int{}
	}
	d.linesBefore[d.id] = maxLines(d.linesBefore[d.id], d.seenLinesForDecision())
	old := d.seenBefore[d.id]
	if old == nil {
		old = map[string]map[string]bool{}
		d.seenBefore[d.id] = old
	}
	for path, ids := range d.seenSets() {
		if old[path] == nil {
			old[path] = map[string]bool{}
		}
		for id := range ids {
			old[path][id] = true
		}
	}
}

// seenOf is what of proposal p has been on screen: the view's record for
// the shown one, what was kept for the others.
func (d *detail) seenOf(p review.Proposal) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for path, ids := range d.seenBefore[p.ID] {
		out[path] = map[string]bool{}
		for id := range ids {
			out[path][id] = true
		}
	}
	if p.ID == d.id {
		for path, ids := range d.proposalSeen(review.Decision{}).Seen {
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

// changesetSeen is, for approving the open proposals ps whole, what of
// them was never on screen, and the seen record each decision carries.
func (d *detail) changesetSeen(ps []review.Proposal) (review.Unseen, map[string]map[string][]string) {
	var items []review.ProposalSeen
	record := map[string]map[string][]string{}
	for _, p := range ps {
		seen, hunks := d.seenOf(p), d.tree.fileHunks(p)
		items = append(items, review.ProposalSeen{Proposal: p, Seen: seen, Hunks: hunks})
		record[p.ID] = review.SeenIDs(p, seen, hunks)
	}
	return review.CheckSeen(items), record
}
