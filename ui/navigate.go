package ui

import (
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/ui/diffview"
	"github.com/diffdesk/diffdesk/ui/present"
)

// navigator moves through the shown proposal and ticks its hunks: j/k
// across hunks, files and the changeset's proposals, ] and [, Space and
// H, s, u, J, m, { and }, / and go to line (g).
type navigator struct {
	paneKit
	deps      navDeps
	lineEntry *dialogEntry  // go to line (g), while open
	lineHint  *widget.Label // under it: what is wrong with what was typed
}

// navDeps is what the navigator needs beyond its kit.
type navDeps struct {
	step           func(dir int, last bool) bool // on into the changeset's next or previous proposal (the tree)
	selectFile     func(rel string)
	ticked         func() // the view's ticks changed: kept, and the tree, bar and counter told
	someRejected   func() bool
	approvePartial func()
	onScreen       *onScreen
	search         func() // the view's search box takes the keyboard
}

// nextHunk goes to the next change, on into the next file (j).
func (n *navigator) nextHunk() {
	defer n.counter()
	if n.view.Nav().NextHunk() {
		return
	}
	if p, file := n.sh.p, n.c.file; file+1 < len(p.Files) && n.sh.outcome == nil {
		n.deps.selectFile(p.Files[file+1].Rel) // opens at its first change
		return
	}
	n.deps.step(1, false) // on into the changeset's next proposal
}

// prevHunk goes to the previous change, back into the previous file (k).
func (n *navigator) prevHunk() {
	defer n.counter()
	if n.view.Nav().PrevHunk() {
		return
	}
	if p, file := n.sh.p, n.c.file; file > 0 && n.sh.outcome == nil {
		n.deps.selectFile(p.Files[file-1].Rel)
		n.view.Nav().LastHunk()
		return
	}
	n.deps.step(-1, true) // back into the changeset's previous proposal
}

// stepFile shows the next (dir 1, ]) or previous (-1, [) file of the
// changeset, else of the proposal.
func (n *navigator) stepFile(dir int) {
	if n.deps.step(dir, false) {
		return
	}
	id, p, file := n.sh.id, n.sh.p, n.c.file
	switch i := file + dir; {
	case id == "" || len(p.Files) < 2:
		n.say("This proposal has one file.")
	case i < 0:
		n.say("This is the first file of the proposal.")
	case i >= len(p.Files):
		n.say("This is the last file of the proposal.")
	default:
		n.deps.selectFile(p.Files[i].Rel) // opens at its first change
	}
}

// toggleHunk ticks or unticks the hunk j and k went to (Space), as a click
// on its toggle in the gutter does.
func (n *navigator) toggleHunk() {
	v := n.view
	k := v.Nav().CurrentHunk()
	switch {
	case !n.canTick() || len(v.Hunks()) == 0:
		n.say("No hunks to tick here.")
	case k < 0:
		n.say("No current hunk: j goes to the next one.")
	case !v.CurrentOnScreen(): // scrolled away: never tick what the person does not see
		n.say(fmt.Sprintf("Hunk %d, the current one, is off screen: j or k goes to one on screen, then Space ticks or unticks it.", k+1))
	default:
		v.ToggleHunk(k) // OnHunkToggled keeps the choice and updates the bar
	}
}

// toggleFileHunks ticks every hunk of the shown file, or unticks them all
// when all are ticked (H): a file left with none is not written.
func (n *navigator) toggleFileHunks() {
	v := n.view
	hs := v.Hunks()
	if !n.canTick() || len(hs) == 0 {
		n.say("No hunks to tick here.")
		return
	}
	all := len(v.AcceptedHunks()) == len(hs)
	for _, h := range hs {
		v.SetHunkAccepted(h.ID, !all)
	}
	p, file := n.sh.p, n.c.file
	if all {
		n.say(p.Files[file].Rel + ": every hunk unticked; approving leaves this file as it is.")
	} else {
		n.say(p.Files[file].Rel + ": every hunk ticked.")
	}
	n.deps.ticked()
}

// tickMovePartners ticks or unticks, with hunk id, the hunks holding the
// other end of a block moved out of or into it, and says so: one end of a
// move alone deletes the block, or copies it, and the person meant neither
// (QA in the real window: unticking where five functions arrived deleted
// them on a bare a, told to the agent as "1 of 2 hunks").
func (n *navigator) tickMovePartners(id string, ok bool) {
	v := n.view
	var moved []string
	for _, p := range v.Marks().MovePartners(id) {
		v.SetHunkAccepted(p, ok)
		moved = append(moved, "hunk "+hunkNumber(v, p))
	}
	if len(moved) == 0 {
		return
	}
	verb := "unticked"
	if ok {
		verb = "ticked"
	}
	n.say("A block moved between this hunk and " + strings.Join(moved, ", ") + ": " + verb + " together, as one end alone would delete the block or copy it.")
}

// hunkNumber is hunk id's 1-based number in v.
func hunkNumber(v *diffview.DiffView, id string) string {
	for i, h := range v.Hunks() {
		if h.ID == id {
			return strconv.Itoa(i + 1)
		}
	}
	return "?"
}

// approveSelected writes only the ticked hunks (s); with every hunk ticked
// it says that a approves them all.
func (n *navigator) approveSelected() {
	switch {
	case !n.canTick():
		n.say("Approving selected hunks needs a waiting proposal, outside edit mode and not stale.")
	case !n.deps.someRejected():
		n.say("Every hunk is ticked: Space unticks the current one; a approves them all.")
	default:
		n.deps.approvePartial()
	}
}

// Two keys for reading what matters: u goes to the first hunk of the
// shown proposal never on screen (in any of its files), so the
// never-on-screen question need not be the way to find them; J goes to
// the next change that is not trivial (no whitespace-, comment- or
// formatting-only label), past the ones t approves.

// nextUnseen shows the first hunk of the proposal never on screen (u).
func (n *navigator) nextUnseen() {
	if p := n.sh.p; n.sh.id == "" || len(p.Files) == 0 || p.State == review.StateStreaming || n.c.editing {
		n.say("u goes to a hunk never on screen: choose a proposal waiting for a decision, outside edit mode.")
		return
	}
	u := review.CheckSeen([]review.ProposalSeen{n.deps.onScreen.proposalSeen(review.Decision{Verdict: decision.Approved})})
	if u.Unseen == 0 {
		n.say("Every hunk of this proposal has been on screen.")
		return
	}
	n.deps.onScreen.showFirst(nil, u)
	n.say("")
}

// nextNonTrivial goes to the next change of the shown file without a
// trivial label (J).
func (n *navigator) nextNonTrivial() {
	v := n.view
	hs := v.Hunks()
	from := v.Nav().CurrentHunk()
	if !v.CurrentOnScreen() {
		from = -1
	}
	for k := from + 1; k < len(hs); k++ {
		if v.Marks().Note(hs[k].ID).Text == "" {
			n.showHunk(hs[k])
			return
		}
	}
	n.say("No change below that is not trivial in this file: ] goes to the next file.")
}

// showHunk makes h the current change, on screen.
func (n *navigator) showHunk(h engine.Hunk) {
	n.view.Nav().ShowHunk(h.ID)
	n.counter()
}

// showSearch opens the view's search bar (Ctrl+F, /), which takes the
// keyboard until Esc.
func (n *navigator) showSearch() {
	if n.sh.id == "" || !n.view.Visible() {
		n.say("No diff to search.")
		return
	}
	n.view.Search().Show()
	n.deps.search()
}

// expand shows more unchanged lines beside the current hunk ({, }).
func (n *navigator) expand(more func() bool) {
	if !more() {
		n.say("Nothing collapsed there.")
	}
}

// jumpMoved goes to the other end of the moved block at the current hunk
// or on screen (m).
func (n *navigator) jumpMoved() {
	if !n.view.JumpMoved() {
		n.say("No moved lines here: moved blocks are the teal lines.")
	}
	n.counter()
}

// showGoToLine asks for a line of the right side and scrolls to it (g).
func (n *navigator) showGoToLine() {
	v := n.view
	id, p, file := n.sh.id, n.sh.p, n.c.file
	if id == "" || !v.Visible() || n.c.editing {
		return
	}
	label := fmt.Sprintf("Line of %s (right side, 1–%d):", p.Files[file].Rel, v.Lines())
	var dlg dialog.Dialog
	dlg, n.lineEntry, n.lineHint = goToLine(v, label, n.win, n.say, n.counter)
	n.openFree(dlg, n.lineEntry)
}

// goToLine is the dialog asking for a line of v's right side (label says
// which) and scrolling there, then done: what is wrong with a line typed
// is said under it as it is typed; one not there keeps it open, or, once
// Go closed it, is said by say. It returns the dialog, its box and the
// hint under it.
func goToLine(v *diffview.DiffView, label string, win fyne.Window, say func(string), done func()) (dialog.Dialog, *dialogEntry, *widget.Label) {
	lines := v.Lines()
	var dlg dialog.Dialog
	hint := widget.NewLabel("")
	var entry *dialogEntry
	submit := func() bool {
		line, err := strconv.Atoi(strings.TrimSpace(entry.Text))
		if err != nil || !v.Nav().GoToLine(line) {
			hint.SetText(fmt.Sprintf("Type a line number from 1 to %d.", lines))
			return false
		}
		dlg.Hide()
		done()
		return true
	}
	entry = newDialogEntry(false, func() { dlg.Hide() }, func() { submit() })
	entry.SetPlaceHolder(fmt.Sprintf("1–%d", lines))
	entry.OnChanged = func(s string) { hint.SetText(present.LineHint(strings.TrimSpace(s), lines)) }
	dlg = dialog.NewCustomConfirm("Go to line", "Go", "Cancel", container.NewVBox(widget.NewLabel(label), entry, hint), func(ok bool) {
		// Go has closed the dialog: a line not in the file is said on the
		// message line (in the closed dialog's hint, nothing was seen).
		if ok && !submit() {
			say(fmt.Sprintf("No line %q to go to: g, then a line number from 1 to %d.", strings.TrimSpace(entry.Text), lines))
		}
	}, win)
	return dlg, entry, hint
}

// The counter and the file shown, the pane's own.

// selectFile switches the view to another file of the proposal (the
// files' choice).
func (d *detail) selectFile(rel string) {
	for i, f := range d.p.Files {
		if f.Rel == rel && i != d.file {
			d.showFile(i)
		}
	}
}

// showFile shows file i of the proposal, keeping what the person did to
// the one left.
func (d *detail) showFile(i int) {
	d.edit.clickedAt = nil
	d.saveFileState()
	d.file = i
	d.files.choose(d.p.Files[i].Rel)
	d.shownKey = ""
	d.render()
	d.tree.refresh()
}

// updateCounter says which hunk of the shown file j and k went to, and
// shows the loose match that placed it, if any.
func (d *detail) updateCounter() { d.line.setCounter(d.counterText()) }

// counterText is the counter's line for the view as it is.
func (d *detail) counterText() string {
	if d.view.Opening() { // a big diff is being computed: OnOpened comes back
		return "diffing…"
	}
	// The loose match that placed the change j and k went to, in the
	// proposal's own diff (a stale view diffs other texts; a decided
	// proposal's view shows what happened).
	var own *review.File
	if d.id != "" && d.outcome == nil && d.p.State == review.StatePending && len(d.p.Files) > 0 && !d.cur().Stale() && d.view.Visible() {
		f := d.cur()
		own = &f
	}
	if d.loose.follow(own, d.view) {
		d.content.Refresh() // the card came or went above the diff
	}
	d.checks.update()
	if d.id == "" || !d.view.Visible() || d.p.State == review.StateStreaming {
		return ""
	}
	k, n, faded := d.view.Nav().HunkCount()
	c := present.Counter{K: k, Above: d.view.Nav().HunksAbove(), N: n, Faded: faded, File: d.file, Files: len(d.p.Files)}
	c.NotKnown = len(d.p.Files) > 0 && present.StaleFromStart(d.cur()) && d.stale.shows() == present.StaleDisk
	c.CsFile, c.CsFiles, c.CsBefore, c.CsTotal = d.tree.place(n)
	if d.canTick() {
		c.Trivial = d.trivial.unapproved()
	}
	return c.String()
}
