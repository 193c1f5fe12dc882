package diffview

// The edit session: the view's side of the Editor. Entering and leaving
// edit mode, the diff on show patched around each edit, the rows drawn
// again as the cursor moves.

import (
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/ui/diffview/textbuf"
)

// SetEditable makes the right side a code editor (on) or read-only (off).
// Turning it on starts from the text shown; the diff then compares the
// original with the edited text.
func (v *DiffView) SetEditable(on bool) {
	if on == (v.ed != nil) {
		return
	}
	if !on {
		v.stopEditing()
		v.redraw()
		return
	}
	if v.feed.st != nil {
		return // a streaming proposal cannot be edited until it ends
	}
	v.settle()
	m := v.model
	ed := &Editor{host: v, buf: textbuf.New(strings.Join(m.b.raw(), ""))}
	ed.ExtendBaseWidget(ed)
	origRaw := m.a.raw()
	ed.orig = make([]string, len(origRaw))
	for i, l := range origRaw {
		ed.orig[i] = trimEOL(l)
	}
	if n := len(origRaw); n == 0 || strings.HasSuffix(origRaw[n-1], "\n") {
		ed.orig = append(ed.orig, "") // as the editor's lines: the empty line after a final newline
	}
	ed.prop = slices.Clone(ed.buf.Lines())
	v.ed = ed
	ed.rediffNow()
	v.redraw()
	ed.focus()
}

// stopEditing leaves edit mode, keeping the diff on show.
func (v *DiffView) stopEditing() {
	if v.ed == nil {
		return
	}
	v.ed.mu.Lock()
	if v.ed.timer != nil {
		v.ed.timer.Stop()
	}
	v.ed.mu.Unlock()
	v.ed.blur() // the keyboard goes back to the window, not to a detached editor
	v.ed = nil
}

// EditedText returns the right side's text while editable ("" otherwise).
func (v *DiffView) EditedText() string {
	if v.ed == nil {
		return ""
	}
	return v.ed.Text()
}

// Editor returns the code editor while the view is editable, else nil.
func (v *DiffView) Editor() *Editor { return v.ed }

// editorFocus draws the rows the caret's colour changes on, and tells
// the host (OnEditorFocus).
func (v *DiffView) editorFocus(on bool) {
	v.refreshChangedRows()
	if v.OnEditorFocus != nil {
		v.OnEditorFocus(on)
	}
}

// editedLines patches the diff on show after lines line:line+removed of
// the right side became added lines, schedules the full re-diff and
// keeps the cursor in view.
func (v *DiffView) editedLines(line, removed, added int) {
	m := v.model
	ops := patchOps(m.ops, line, line+removed, added-removed)
	pairs := m.pairs
	for _, op := range ops {
		if op.Kind == engine.OpReplace && op.B0 <= line+added && op.B1 >= line {
			delete(pairs, op)
		}
	}
	v.ed.mine = patchOps(v.ed.mine, line, line+removed, added-removed)
	lines := v.ed.buf.Lines()
	nm := newRowModel(m.a, lineSet{head: lines}, ops, [2]int{}, pairs)
	v.model = nm
	v.dec.hunks, v.dec.ok = nil, false
	v.hl.edited(1, line, removed, added)
	if w := textbuf.Width(lines[min(line, len(lines)-1)]); w > v.hbar.maxW {
		v.hbar.maxW = w
		v.updateHBar()
	}
	if v.wr.on {
		// Only the change holding the edit has new rows; patchOps merged
		// everything the edit touched into it.
		k := max(nm.segAt(nm.RowOfB(line))-1, 0)
		kc := -1
		for end := min(k+4, len(nm.segs)); k < end; k++ {
			if op := nm.segs[k].op; op.Kind != engine.OpEqual && op.B1 >= line && op.B0 <= line+added {
				kc = k
				break
			}
		}
		if kc >= 0 {
			v.wr.rewrapEdit(kc, kc+1, nm.n-m.n)
		} else {
			v.wr.apply()
		}
	}
	v.overview.Refresh() // the person's own edits show on the strip at once
	v.ed.scheduleRediff()
	v.cursorMoved()
}

// showEdited shows ops, the editor's full diff from orig to lines, and
// tells the host the text was edited (OnEdited).
func (v *DiffView) showEdited(orig, lines []string, ops []engine.Op, edited bool) {
	v.show(newRowModel(lineSet{head: orig}, lineSet{head: lines}, ops, [2]int{}, v.model.pairs))
	if edited && v.OnEdited != nil {
		v.OnEdited()
	}
}

// ownEditsChanged draws the person's own edits again: rows and strip.
func (v *DiffView) ownEditsChanged() {
	v.redrawRows()
	v.overview.Refresh()
}

// shortcut hands s to the host (OnShortcut); false when it takes none.
func (v *DiffView) shortcut(s fyne.Shortcut) bool {
	if v.OnShortcut == nil {
		return false
	}
	v.OnShortcut(s)
	return true
}

// manualRediff reports whether the editor's re-diff waits for a test
// (SetSynchronous).
func (v *DiffView) manualRediff() bool { return v.edit.manual }

// cursorMoved redraws the rows that changed and keeps the editor's cursor visible.
func (v *DiffView) cursorMoved() {
	ed := v.ed
	if ed == nil {
		return
	}
	cur := ed.buf.Cursor()
	row := v.model.RowOfB(cur.Line)
	if !v.wr.on {
		v.hbar.colBuf = columns(ed.buf.Lines()[cur.Line], v.hbar.colBuf)
		c := int(v.hbar.colBuf[cur.Col])
		if c < v.hbar.off {
			v.setHOffset(c)
		} else if c > v.hbar.off+v.metric.cols-1 {
			v.setHOffset(c - v.metric.cols + 1)
		}
	}
	v.list.ScrollTo(row)
	if v.model != v.edit.drawn {
		v.edit.drawn = v.model // an edit: the rows after it moved
		v.redrawRows()
		return
	}
	v.refreshChangedRows() // the rows of the cursor and the selection, before and after
}

// editGlue is what the view keeps for editing beside the Editor.
type editGlue struct {
	note *fyne.Container // over the rows while editable
	// manual stops the editor's re-diff timer: only flush re-diffs
	// (SetSynchronous, tests, benchmarks).
	manual bool
	drawn  *rowModel // the model the rows were all drawn from last (cursorMoved)
}
