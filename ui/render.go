package ui

import (
	"fmt"
	"strings"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/ui/diffview"
	"github.com/diffdesk/diffdesk/ui/present"
)

// What the view shows of the shown proposal: its diff, a stream, a stale
// file's views, or what became of it once decided.

// render draws the shown file as the proposal's state requires; it rebuilds
// the view only when what it shows changed (a recheck that changes nothing
// keeps the person's hunk choices and scroll position).
func (d *detail) render() {
	// The header's notes come and go: lay the pane out again, or the diff
	// keeps the place the last proposal's header took.
	// Not for each chunk of a stream already on show (no note while it
	// streams): refreshing the whole pane was most of a chunk's UI work
	// (issue 28).
	if !(d.p.State == review.StateStreaming && d.shownKey == "stream") {
		defer d.content.Refresh()
	}
	d.stale.hide() // renderProposal shows it for a stale file
	p := d.p
	d.head.show(p)
	if d.file >= len(p.Files) {
		d.file = 0
	}
	defer d.updateCounter()
	d.pick.show(p)
	d.inter.update(p, d.file)
	switch {
	case d.pick.choosing: // a placed proposal's candidates listed again (pick.go)
		d.failure.SetText("")
		d.showCenter(d.failureScroll)
		d.head.hideNote()
	case p.State.DidNotApply() || len(p.Files) == 0:
		d.failure.SetText(agenttext.Failure(p.Failure))
		d.showCenter(d.failureScroll)
		d.head.setNote(present.Failed(p))
	case d.outcome != nil:
		d.renderOutcome()
	default:
		d.renderProposal()
	}
	d.comments.refresh()
	d.trivial.show()
	d.updateBar()
	d.showKeyboard() // a button reached with Tab may have lost the keyboard unseen (another proposal shown)
}

func (d *detail) renderProposal() {
	f := d.cur()
	d.onScreen.opened(f.Path)
	d.showCenter(d.view)
	switch {
	case d.p.State == review.StateStreaming:
		d.head.hideNote()
		if pv, ok := d.w.desk.Preview(d.p.ID); ok {
			d.view.SetStream(f.Path, f.BaseText(), pv)
		}
		d.shownKey = "stream"
		return
	case f.Stale() && !d.editing:
		key := d.stale.key(f)
		d.stale.show()
		if d.shownKey == key {
			return
		}
		m := d.merge(f)
		// A save on disk while the person reads (this view, or the
		// proposal's before it turned stale) keeps their place: the same
		// line where it was on screen, its change the current one (it
		// threw the view to hunk 1 at every save).
		line, y, keep := placeKept(d.view, d.shownKey)
		d.stale.draw(d.view, f, m)
		if keep && strings.HasSuffix(d.shownKey, ":"+d.stale.shows()) || keep && !strings.HasPrefix(d.shownKey, "stale:") {
			d.view.ShowLineAt(min(line, d.view.Lines()-1), y)
		} else {
			d.view.Nav().NextHunk() // open at the first change, as every diff does
		}
		d.head.setNote(present.Stale(f, m))
		d.shownKey = key
		return
	}
	if d.editing || len(d.edited) > 0 {
		d.edit.rebase() // a save on disk while the person edits
	}
	key := fmt.Sprintf("texts:%d:%v:%s", d.file, d.editing, f.Disk.SHA256)
	if d.shownKey == key {
		return
	}
	d.shownKey = key
	old, proposed := leftText(f), f.Proposed // the disk of a stale file, else its base
	if f.Stale() {                           // a stale file: the disk against the merge
		proposed = d.merge(f).Text
	}
	if d.editing {
		d.edit.noteBase(f)
	}
	if d.editing && !f.Stale() {
		proposed = d.edit.editStart(f) // the person's edit, or the ticked hunks only (editplace.go)
	} else if t, ok := d.edited[f.Path]; ok {
		proposed = t
	}
	kept := d.edit.keepEditor(f) // ownedit.go: the cursor and the person's own lines
	d.view.SetTexts(f.Path, old, proposed)
	if !f.Stale() {
		d.view.Marks().SetLooseLines(looseRanges(f))
	}
	d.view.Nav().NextHunk() // open at the first change
	if ids, ok := d.accepted[f.Path]; ok && !d.editing {
		keep := map[string]bool{}
		for _, id := range ids {
			keep[id] = true
		}
		for _, h := range d.view.Hunks() {
			d.view.SetHunkAccepted(h.ID, keep[h.ID])
		}
	}
	d.view.SetEditable(d.editing)
	kept()
	switch note := present.Unsure(f); {
	case d.editing:
		d.head.hideNote() // the view says so in its own banner, keeping the rows still
	case note != "":
		d.head.setNote(note)
	default:
		d.head.hideNote()
	}
}

// renderOutcome shows what happened to a decided proposal and, when a
// formatter changed the approved text, that change.
func (d *detail) renderOutcome() {
	o := d.outcome
	d.showCenter(d.view)
	d.view.SetEditable(false)
	for _, fo := range o.Files {
		before, ok := fo.ApprovedText() // what was approved, before the formatter
		if !ok {
			continue
		}
		if d.shownKey != "format:"+fo.Path {
			d.view.SetTexts(fo.Path, before, fo.FinalContent)
			d.shownKey = "format:" + fo.Path
		}
		d.head.setNote("The formatter changed " + present.RelOf(d.p, fo.Path) + " after it was approved; this is its change.")
		return
	}
	d.head.hideNote()
	// The shown file written over a change on disk (a stale proposal
	// approved merged or edited): what the write did, the disk the person
	// reviewed → the final content. The stale view chosen before (what
	// changed on disk, what the agent sent) is not what was written.
	if len(d.p.Files) == 0 {
		return
	}
	f := d.cur()
	for _, fo := range o.Files {
		if fo.Path != f.Path || fo.DiskEdits == "" || !fo.Written || fo.Deleted {
			continue
		}
		if key := "written:" + fo.Path; d.shownKey != key {
			d.view.SetTexts(fo.Path, string(f.Disk.Content), fo.FinalContent)
			d.view.Nav().NextHunk()
			d.shownKey = key
		}
	}
}

// placeKept is the line of the right side the person reads at in v and
// how far below the top of the view it is, when v shows the shown file
// already (shownKey: a refresh of it, not another file or proposal).
func placeKept(v *diffview.DiffView, shownKey string) (line int, y float32, ok bool) {
	if shownKey == "" || shownKey == "stream" || strings.HasPrefix(shownKey, "format:") || strings.HasPrefix(shownKey, "written:") {
		return 0, 0, false
	}
	line = v.PlaceLine()
	if line < 0 {
		return 0, 0, false
	}
	y, on := v.LineY(line)
	return line, y, on
}
