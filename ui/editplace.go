package ui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2/dialog"
	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
)

// Entering edit mode (e, or a double click on the proposal's text) keeps
// what the person decided and where they were: the editor starts from the
// proposal with only the hunks left ticked (an unticked hunk does not come
// back behind their back), its cursor at the line they were reading (the
// change j/k went to, or the line double-clicked) and that line where it
// was on screen, not at the top of the file.

// editSession is the edit under way and what leads to one: edit mode
// entered and left (toggle, cancel), where it starts, the person's own
// change shown before it is written, a save on disk merged into it, an
// external editor. Edit mode and the edited texts are the shown
// proposal's choices (c).
type editSession struct {
	paneKit
	deps          editDeps
	ext           *externalEdit         // an external editor's file, reloaded live (decision_external.go)
	ownEditOK     string                // the few characters' edit the person confirmed (ownedit.go: editKey)
	clickedAt     *[2]int               // the line and column double-clicked, where e puts the cursor
	discardDialog *dialog.ConfirmDialog // before an edit is thrown away, while open
}

// editDeps is what the edit session needs beyond its kit.
type editDeps struct {
	saveFileState func()                // the view's ticks or edit into the choices
	decide        func(review.Decision) // the approval, once the person agreed
	editor        func() []string       // the external editor's command (nil: EditorCommand)
}

// reset forgets the session of the proposal left.
func (e *editSession) reset() {
	e.ownEditOK, e.clickedAt = "", nil
	e.closeExternal()
}

// toggle makes the right side editable (e), or leaves edit mode.
func (e *editSession) toggle() {
	if e.c.editing {
		e.cancel()
		return
	}
	if at := e.clickedAt; at != nil {
		if _, on := e.view.LineY(at[0]); on { // the line double-clicked, still on screen
			e.start(at[0], at[1])
			return
		}
	}
	e.start(e.view.PlaceLine(), 0) // editplace.go
}

// discard leaves edit mode and forgets the edits (cancel, once
// the person agreed).
func (e *editSession) discard() {
	if !e.c.editing || e.sh.deciding {
		return
	}
	a, y, placed := e.origPlace() // editplace.go: where the person was, not the top of the file
	e.c.editing = false
	e.c.edited, e.c.editedOn = map[string]string{}, nil
	e.closeExternal()
	e.redraw(true)
	if placed {
		e.showOrigPlace(a, y)
		e.counter() // the change at the place is the current one again
	}
	e.focus(nil) // the keys act on the window again
}

// start enters edit mode with the editor's cursor at line and col of
// the proposal as the view shows it (0-based).
func (e *editSession) start(line, col int) {
	if e.c.editing || !e.sh.canDecide() {
		return
	}
	y, on := e.view.LineY(line)
	if !on {
		y = e.view.Size().Height / 3
	}
	e.deps.saveFileState() // the ticks of the file shown, which the edit starts from
	f := e.cur()
	l, moved := e.tickedLine(f, line)
	if moved {
		col = 0
	}
	line = l
	e.c.editing = true
	e.redraw(true)
	if ed := e.view.Editor(); ed != nil && line >= 0 {
		ed.SetCursor(line, col)
		e.view.ShowLineAt(line, y)
	}
}

// editStart is the text editing f starts from: the person's edit of it so
// far, else its proposal with only the hunks left ticked.
func (e *editSession) editStart(f review.File) string {
	if t, ok := e.c.edited[f.Path]; ok {
		return t
	}
	return e.tickedText(f)
}

// tickedText is f's proposal with only the hunks left ticked.
func (e *editSession) tickedText(f review.File) string {
	if acc, some := e.c.tickedOnly(f); some {
		return f.WithHunks(func(id string) bool { return acc[id] })
	}
	return f.Proposed
}

// tickedLine maps line b of f's proposal to its line in editStart's text
// (the proposal without its unticked hunks); moved reports a line inside
// an unticked hunk's added lines, which maps to where that hunk was.
func (e *editSession) tickedLine(f review.File, b int) (line int, moved bool) {
	if _, ok := e.c.edited[f.Path]; ok {
		return b, false
	}
	acc, some := e.c.tickedOnly(f)
	if !some {
		return b, false
	}
	delta := 0
	for _, h := range f.Hunks() {
		c := h.Change
		if acc[h.ID] || c.B0 > b {
			continue
		}
		if b < c.B1 {
			return c.B0 + delta, true
		}
		delta += (c.A1 - c.A0) - (c.B1 - c.B0)
	}
	return b + delta, false
}

// origPlace returns the line of the original the person reads at (the
// editor's cursor while on screen, else the view's PlaceLine, mapped
// across) and how far below the top of the view it is.
func (e *editSession) origPlace() (a int, y float32, ok bool) {
	b := e.view.PlaceLine()
	if ed := e.view.Editor(); ed != nil {
		if l, _ := ed.Cursor(); func() bool { _, on := e.view.LineY(l); return on }() {
			b = l
		}
	}
	if b < 0 {
		return 0, 0, false
	}
	y, on := e.view.LineY(b)
	if !on {
		y = e.view.Size().Height / 3
	}
	return e.view.LineAcross(1, b), y, true
}

// showOrigPlace scrolls the view so the right side's line facing line a of
// the original is y below its top.
func (e *editSession) showOrigPlace(a int, y float32) {
	e.view.ShowLineAt(e.view.LineAcross(0, a), y)
}

// cancel leaves edit mode and forgets the edits (Cancel edit, e, and
// Esc once the editor has let the keyboard go). When the person changed
// something it asks first: Enter discards, Esc keeps editing. A second Esc
// pressed to leave the editor must never throw their work away.
func (e *editSession) cancel() {
	if !e.c.editing || e.sh.deciding || e.discardDialog != nil {
		return
	}
	changed := e.changedFiles()
	if len(changed) == 0 {
		e.discard()
		return
	}
	keep := func() {
		e.discardDialog = nil
		if ed := e.view.Editor(); ed != nil {
			e.focus(ed) // back to the text, to go on
		}
	}
	e.discardDialog = dialog.NewConfirm("Discard your edit?",
		fmt.Sprintf("You changed %s. Discard your changes and go back to the proposal?", strings.Join(changed, ", ")),
		func(ok bool) {
			if !ok {
				keep()
				return
			}
			e.discardDialog = nil
			e.discard()
		}, e.win)
	e.discardDialog.SetConfirmText("Discard (Enter)")
	e.discardDialog.SetDismissText("Keep editing (Esc)")
	e.ask(e.discardDialog) // Esc hides it: the callback keeps the edit
}

// changedFiles names the files of the shown proposal whose edit differs
// from the text editing started from (the proposal's ticked hunks).
func (e *editSession) changedFiles() []string {
	var out []string
	for _, f := range e.sh.p.Files {
		text, ok := e.c.edited[f.Path]
		if f.Path == e.cur().Path && e.view.Editor() != nil {
			text, ok = e.view.EditedText(), true
		}
		if ok && text != e.tickedText(f) {
			out = append(out, f.Rel)
		}
	}
	return out
}

// A save on disk while the person edits: their text was made against the
// left side as it was then. Approve edited wrote it over the new save —
// reverting a change nobody in the window made, and telling no one (QA in
// the real window). The edit is carried onto the new disk as the proposal
// is, by a three-way merge, and the approval that would have used the old
// one stops so the person sees the result first.

// leftText is what the view shows on the left for f: the disk of a stale
// file, else the file as the proposal found it.
func leftText(f review.File) string {
	if f.Stale() {
		return string(f.Disk.Content)
	}
	return f.BaseText()
}

// noteBase records, for the file shown in edit mode, the left side the
// person edits against (once: the first time it is shown in edit mode).
func (e *editSession) noteBase(f review.File) {
	if e.c.editedOn == nil {
		e.c.editedOn = map[string]string{}
	}
	if _, ok := e.c.editedOn[f.Path]; !ok {
		e.c.editedOn[f.Path] = leftText(f)
	}
}

// rebase merges each of the person's edits (e.c.edited: the editor
// keeps it current through OnEdited) made against a left side the disk no
// longer holds onto the disk as it is now, and says so. It returns the
// names of the files it moved.
func (e *editSession) rebase() []string {
	var moved, conflicted []string
	for _, f := range e.sh.p.Files {
		text, edited := e.c.edited[f.Path]
		on, known := e.c.editedOn[f.Path]
		now := leftText(f)
		if !edited || !known || on == now {
			continue
		}
		m := engine.Merge3(on, now, text, engine.MergeLabels{Ours: "the disk now", Base: "the disk you began editing", Theirs: "your edit"})
		e.c.edited[f.Path], e.c.editedOn[f.Path] = m.Text, now
		moved = append(moved, f.Rel)
		if len(m.Conflicts) > 0 {
			conflicted = append(conflicted, fmt.Sprintf("%s (%d conflicts)", f.Rel, len(m.Conflicts)))
		}
	}
	if len(moved) == 0 {
		return nil
	}
	msg := "Saved on disk while you edited: " + strings.Join(moved, ", ") + ". Your edit was merged onto the new disk (left); nothing was written — review it, then approve."
	if len(conflicted) > 0 {
		msg = "Saved on disk while you edited: " + strings.Join(moved, ", ") + ". Your edit and the save conflict in " + strings.Join(conflicted, ", ") + ": resolve the marked lines, then approve. Nothing was written."
	}
	e.sh.shownKey = "" // rebuilt at the next render
	e.setStatus(msg, true)
	return moved
}
