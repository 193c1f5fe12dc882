package ui

import (
	"maps"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/ui/present"
)

// choices are what the person did to one proposal so far: the file shown,
// edit mode, the hunks left ticked, the edits, the trivial hunks t
// approved; and, as a cache, the merges of its stale files. They build the review.Decision each approval sends, and stay
// while another proposal is shown. The detail pane holds
// the shown proposal's.
type choices struct {
	file     int                 // index in the proposal's Files of the file shown
	editing  bool                // the right side is an editor
	accepted map[string][]string // path → ticked hunk ids, for files whose hunks were toggled
	edited   map[string]string   // path → the person's text (the editor, an external editor)
	editedOn map[string]string   // path → the left side the edit was made against
	// trivialOK: the hunks t approved (their labels green, not asked
	// about as unseen).
	trivialOK map[string]map[string]bool
	merges    map[string]engine.MergeResult // path and disk hash → merge of a stale file (base, disk as reviewed, proposal)
}

func newChoices() choices {
	return choices{accepted: map[string][]string{}, edited: map[string]string{}, trivialOK: map[string]map[string]bool{},
		merges: map[string]engine.MergeResult{}}
}

// any reports whether c holds a choice worth keeping: a tick, an edit,
// edit mode, another file than the first, a trivial approval.
func (c choices) any() bool {
	return len(c.accepted) > 0 || len(c.edited) > 0 || c.editing || c.file != 0 || len(c.trivialOK) > 0
}

// keep is a copy of c to keep while another proposal is shown; the cache
// stays behind.
func (c choices) keep() choices {
	return choices{file: c.file, editing: c.editing, accepted: maps.Clone(c.accepted), edited: maps.Clone(c.edited),
		editedOn: maps.Clone(c.editedOn), trivialOK: c.trivialOK}
}

// merge returns (and caches) the 3-way merge of a stale file against the
// disk content the person is shown.
func (c choices) merge(f review.File) engine.MergeResult {
	key := f.Path + "\x00" + f.Disk.SHA256
	m, ok := c.merges[key]
	if !ok {
		m = f.Merge()
		c.merges[key] = m
	}
	return m
}

// conflicted reports whether a stale file of p has a merge with
// conflicts.
func (c choices) conflicted(p review.Proposal) bool {
	for _, f := range p.Files {
		if f.Stale() && len(c.merge(f).Conflicts) > 0 {
			return true
		}
	}
	return false
}

// ticked are the ids of f's ticked hunks: what the person left, or all.
func (c choices) ticked(f review.File) []string {
	if ids, ok := c.accepted[f.Path]; ok {
		return ids
	}
	var ids []string
	for _, h := range f.Hunks() {
		ids = append(ids, h.ID)
	}
	return ids
}

// tickedOnly returns the ids of f's ticked hunks and whether some of its
// hunks are unticked (a file never ticked has all ticked; a stale file's
// hunks are the merge's, not ticked).
func (c choices) tickedOnly(f review.File) (map[string]bool, bool) {
	ids, ok := c.accepted[f.Path]
	if !ok || f.Stale() || len(ids) >= len(f.Hunks()) {
		return nil, false
	}
	acc := make(map[string]bool, len(ids))
	for _, id := range ids {
		acc[id] = true
	}
	return acc, true
}

// withTicks is c with path's ticks set to ids (the view's, for the file
// it shows); c itself is unchanged.
func (c choices) withTicks(path string, ids []string) choices {
	c.accepted = maps.Clone(c.accepted)
	c.accepted[path] = ids
	return c
}

// tick adds ids to the ticked hunks of the file at path, when some of
// its hunks were unticked (a file never ticked has every hunk ticked).
func (c choices) tick(path string, ids []string) {
	kept, ok := c.accepted[path]
	if !ok {
		return
	}
	have := map[string]bool{}
	for _, id := range kept {
		have[id] = true
	}
	for _, id := range ids {
		if !have[id] {
			kept = append(kept, id)
		}
	}
	c.accepted[path] = kept
}

// approveEdited is the decision writing the person's edits, each stale
// file's merge where not edited, and the other files with only their
// ticked hunks.
func (c choices) approveEdited(p review.Proposal) review.Decision {
	dec := review.Decision{Verdict: decision.ApprovedEdited, Edited: maps.Clone(c.edited)}
	if dec.Edited == nil {
		dec.Edited = map[string]string{}
	}
	c.addMerges(p, &dec)
	c.untickedOf(p, &dec)
	return dec
}

// approveMerged is the decision writing each stale file's merge and the
// other files with only their ticked hunks (the unticked ones stay
// unwritten; they were written).
func (c choices) approveMerged(p review.Proposal) review.Decision {
	c.edited = nil
	return c.approveEdited(p)
}

// addMerges sets, for every stale file, the text to write (the person's
// edit, else the merge) and the disk hash the person reviewed.
func (c choices) addMerges(p review.Proposal, dec *review.Decision) {
	for _, f := range p.Files {
		if !f.Stale() {
			continue
		}
		if dec.Overwrite == nil {
			dec.Overwrite = map[string]string{}
		}
		dec.Overwrite[f.Path] = f.Disk.SHA256
		if _, ok := dec.Edited[f.Path]; !ok {
			dec.Edited[f.Path] = c.merge(f).Text
		}
	}
}

// untickedOf adds to dec.Hunks the ticked hunks of every file not edited
// that has some unticked: an approved edit writes those files with only
// their ticked hunks (review.Decision.Hunks).
func (c choices) untickedOf(p review.Proposal, dec *review.Decision) {
	for _, f := range p.Files {
		if _, ok := dec.Edited[f.Path]; ok {
			continue
		}
		if _, some := c.tickedOnly(f); !some {
			continue
		}
		if dec.Hunks == nil {
			dec.Hunks = map[string][]string{}
		}
		dec.Hunks[f.Path] = append([]string{}, c.accepted[f.Path]...)
	}
}

// approvePartial is the decision writing only the ticked hunks of every
// file, and how many hunks that is (none: nothing would be written).
func (c choices) approvePartial(p review.Proposal) (review.Decision, int) {
	dec := review.Decision{Verdict: decision.Partial, Hunks: map[string][]string{}}
	n := 0
	for _, f := range p.Files {
		dec.Hunks[f.Path] = append([]string{}, c.ticked(f)...)
		n += len(dec.Hunks[f.Path])
	}
	return dec, n
}

// What the person chose on a proposal stays when they look at another and
// come back (a click in the queue, n/p, ]/[ or j/k across a changeset's
// proposals): its unticked hunks, its edit (and edit mode), the file
// shown and the trivial hunks t approved. They were dropped, and a on the
// proposal again wrote the hunks the person had unticked.

// keptChoices are the choices of the proposals left undecided while
// another shows, by proposal id.
type keptChoices map[string]choices

// stash keeps c, the choices on proposal id as it is left, while another
// shows; open says it still takes a decision (a decided one keeps
// nothing). Proposals decided or gone meanwhile (get) are forgotten.
func (k keptChoices) stash(id string, c choices, open bool, get func(string) (review.Proposal, bool)) {
	for kid := range k {
		if p, ok := get(kid); !ok || !p.State.Open() {
			delete(k, kid)
		}
	}
	if !open || !c.any() {
		delete(k, id)
		return
	}
	k[id] = c.keep()
}

// restore puts back into c what stash kept of p, just shown again; it
// reports whether it restored edit mode, and whether an edit was dropped
// (p turned stale meanwhile: the edit was made on what the disk no longer
// holds; the person starts again from the merge).
func (k keptChoices) restore(p review.Proposal, c *choices) (editing, dropped bool) {
	kc, ok := k[p.ID]
	if !ok {
		return false, false
	}
	delete(k, p.ID)
	if !p.State.Open() {
		return false, false
	}
	c.accepted = kc.accepted
	if p.State == review.StatePending && kc.trivialOK != nil {
		c.trivialOK = kc.trivialOK // hunk ids: stale, the merge's hunks differ
	}
	if kc.file < len(p.Files) {
		c.file = kc.file
	}
	if p.State != review.StatePending {
		return false, kc.editing || len(kc.edited) > 0
	}
	c.edited, c.editedOn, c.editing = kc.edited, kc.editedOn, kc.editing
	return c.editing, false
}

// choiceIn returns the files of the first proposal of open, other than
// shown, with an edit or unticked hunks kept ("" if none): approving the
// changeset as proposed would drop them.
func (k keptChoices) choiceIn(open []review.Proposal, shown string) string {
	for _, p := range open {
		kc, ok := k[p.ID]
		if !ok || p.ID == shown {
			continue
		}
		if kc.editing || len(kc.edited) > 0 {
			return present.FileNames(p)
		}
		for _, f := range p.Files {
			if ids, ok := kc.accepted[f.Path]; ok && len(ids) < len(f.Hunks()) {
				return present.FileNames(p)
			}
		}
	}
	return ""
}
