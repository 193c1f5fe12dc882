package diffview

import (
	"slices"
	"sort"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/ui/diffview/textbuf"
)

// rediffDelay is how long the editor waits after the last keystroke before
// re-diffing the whole text against the original.
const rediffDelay = 150 * time.Millisecond

// Editor is the code editor a DiffView's right side becomes with
// SetEditable: cursor, selection, typing, auto-indent, tab, clipboard,
// undo/redo and keyboard navigation over the same virtualised rows. Its
// text is a textbuf.Buffer, which does the editing; the Editor maps keys,
// shortcuts, the clipboard and the focus to it and tells the view which
// lines changed, so a keystroke touches only its line: the diff shown is
// patched at once around the edit and recomputed in full in the
// background after a pause (rediffDelay).
//
// The Editor is the focusable part of the view: it receives the keys. Its
// methods also work without a window (tests call them directly).
type Editor struct {
	widget.BaseWidget
	host editorHost

	buf     *textbuf.Buffer
	shift   bool
	version int // bumped by every edit

	focused bool

	orig     []string    // the original's lines without line endings
	prop     []string    // the text editing started from (the agent's proposal), as lines
	mine     []engine.Op // diff from prop to the text: the person's own edits
	timer    *time.Timer
	mu       sync.Mutex
	rediffed int // version the shown diff was computed for
}

// editorHost is what the Editor reaches of its view: the canvas it takes
// the keyboard on, whether it is still the view's editor, the view's side
// of an edit and of a cursor moved (editsession.go), how many rows show,
// and the host's callbacks.
type editorHost interface {
	canvas() fyne.Canvas
	Editor() *Editor
	editorFocus(on bool)
	shortcut(s fyne.Shortcut) bool
	cursorMoved()
	editedLines(line, removed, added int)
	showEdited(orig, lines []string, ops []engine.Op, edited bool)
	ownEditsChanged()
	viewRows() (float32, bool)
	manualRediff() bool
}

// Text returns the edited text.
func (e *Editor) Text() string { return e.buf.Text() }

// CreateRenderer is part of fyne.Widget; the editor draws nothing itself
// (the rows draw its text, cursor and selection).
func (e *Editor) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(&fyne.Container{})
}

// focus gives the editor the keyboard.
func (e *Editor) focus() {
	if c := e.host.canvas(); c != nil {
		c.Focus(e)
	}
}

// FocusGained is part of fyne.Focusable.
func (e *Editor) FocusGained() { e.focused = true; e.host.editorFocus(true) }

// FocusLost is part of fyne.Focusable.
func (e *Editor) FocusLost() {
	e.focused = false
	e.shift = false
	e.host.editorFocus(false)
}

// AcceptsTab makes Tab insert a tab instead of moving the focus.
func (e *Editor) AcceptsTab() bool { return true }

// KeyDown tracks Shift for selecting with the arrows.
func (e *Editor) KeyDown(k *fyne.KeyEvent) {
	if k.Name == desktop.KeyShiftLeft || k.Name == desktop.KeyShiftRight {
		e.shift = true
	}
}

// KeyUp tracks Shift for selecting with the arrows.
func (e *Editor) KeyUp(k *fyne.KeyEvent) {
	if k.Name == desktop.KeyShiftLeft || k.Name == desktop.KeyShiftRight {
		e.shift = false
	}
}

func (e *Editor) shiftHeld() bool {
	if e.shift {
		return true
	}
	if d, ok := fyne.CurrentApp().Driver().(desktop.Driver); ok {
		return d.CurrentKeyModifiers()&fyne.KeyModifierShift != 0
	}
	return false
}

// TypedRune inserts r (replacing the selection).
func (e *Editor) TypedRune(r rune) {
	if e.detached() {
		return
	}
	e.edited(e.buf.Type(r))
}

// detached reports whether the view stopped editing with this editor
// (SetEditable(false) or new texts): it then takes no keys.
func (e *Editor) detached() bool { return e.host.Editor() != e }

// TypedKey handles editing and navigation keys.
func (e *Editor) TypedKey(k *fyne.KeyEvent) {
	if e.detached() {
		return
	}
	sel := e.shiftHeld()
	b := e.buf
	switch k.Name {
	case fyne.KeyReturn, fyne.KeyEnter:
		e.edited(b.Newline())
	case fyne.KeyBackspace:
		e.edited(b.Backspace())
	case fyne.KeyDelete:
		e.edited(b.Delete())
	case fyne.KeyTab:
		e.edited(b.Tab(sel))
	case fyne.KeyLeft:
		e.move(b.Left(), sel)
	case fyne.KeyRight:
		e.move(b.Right(), sel)
	case fyne.KeyUp:
		e.move(b.Vertical(-1), sel)
	case fyne.KeyDown:
		e.move(b.Vertical(1), sel)
	case fyne.KeyPageUp:
		e.move(b.Vertical(-e.page()), sel)
	case fyne.KeyPageDown:
		e.move(b.Vertical(e.page()), sel)
	case fyne.KeyHome:
		e.move(b.Home(), sel)
	case fyne.KeyEnd:
		e.move(b.LineEnd(), sel)
	case fyne.KeyEscape:
		e.blur()
	}
}

// blur gives the keyboard back to the window, keeping the text: Esc in the
// editor, so the window's keys (a to approve edited, Esc to cancel) work.
func (e *Editor) blur() {
	if c := e.host.canvas(); c != nil && c.Focused() == e {
		c.Unfocus()
	}
}

// TypedShortcut handles the clipboard, undo/redo, select all and the
// Ctrl+arrow/Home/End moves.
func (e *Editor) TypedShortcut(s fyne.Shortcut) {
	if e.detached() {
		return
	}
	b := e.buf
	switch s := s.(type) {
	case *fyne.ShortcutCopy:
		e.copy(clipboardOf(s.Clipboard))
	case *fyne.ShortcutCut:
		e.cut(clipboardOf(s.Clipboard))
	case *fyne.ShortcutPaste:
		if cb := clipboardOf(s.Clipboard); cb != nil {
			e.edited(b.Paste(cb.Content()))
		}
	case *fyne.ShortcutSelectAll:
		e.SelectAll()
	case *fyne.ShortcutUndo:
		e.edited(b.Undo())
	case *fyne.ShortcutRedo:
		e.edited(b.Redo())
	case *desktop.CustomShortcut:
		sel := s.Modifier&fyne.KeyModifierShift != 0
		ctrl := s.Modifier&(fyne.KeyModifierControl|fyne.KeyModifierSuper) != 0
		if !ctrl {
			return
		}
		if (s.KeyName == fyne.KeyReturn || s.KeyName == fyne.KeyEnter || s.KeyName == fyne.KeyF) && e.host.shortcut(s) {
			return // Ctrl+Enter: the window's approve edited; Ctrl+F: its search
		}
		switch s.KeyName {
		case fyne.KeyLeft:
			e.move(b.WordLeft(), sel)
		case fyne.KeyRight:
			e.move(b.WordRight(), sel)
		case fyne.KeyHome:
			e.move(textbuf.Pos{}, sel)
		case fyne.KeyEnd:
			e.move(b.End(), sel)
		case fyne.KeyZ:
			if sel {
				e.edited(b.Redo())
			}
		}
	}
}

func clipboardOf(c fyne.Clipboard) fyne.Clipboard {
	if c != nil {
		return c
	}
	if a := fyne.CurrentApp(); a != nil {
		return a.Clipboard()
	}
	return nil
}

// copy puts the selection on the clipboard.
func (e *Editor) copy(cb fyne.Clipboard) {
	if t := e.buf.Selected(); t != "" && cb != nil {
		cb.SetContent(t)
	}
}

// cut puts the selection on the clipboard and deletes it.
func (e *Editor) cut(cb fyne.Clipboard) {
	if t := e.buf.Selected(); t != "" {
		if cb != nil {
			cb.SetContent(t)
		}
		e.edited(e.buf.Insert(""))
	}
}

// SetCursor moves the cursor to line and byte col (0-based, clamped),
// dropping the selection.
func (e *Editor) SetCursor(line, col int) { e.move(textbuf.Pos{Line: line, Col: col}, false) }

// SelectAll selects the whole text.
func (e *Editor) SelectAll() {
	e.buf.SelectAll()
	e.host.cursorMoved()
}

// selectWord selects the word at p (a double tap).
func (e *Editor) selectWord(p textbuf.Pos) {
	e.buf.SelectWord(p)
	e.host.cursorMoved()
}

// move moves the cursor to p, extending the selection when sel.
func (e *Editor) move(p textbuf.Pos, sel bool) {
	e.buf.MoveTo(p, sel)
	e.host.cursorMoved()
}

// edited shows an edit of the buffer, if it changed anything: the diff on
// show is patched around it, and the cursor stays visible.
func (e *Editor) edited(c textbuf.Change, ok bool) {
	if !ok {
		return
	}
	e.version++
	e.host.editedLines(c.Line, c.Removed, c.Added)
}

// page returns how many lines a page up/down moves.
func (e *Editor) page() int {
	if rows, ok := e.host.viewRows(); ok {
		return max(int(rows)-1, 1)
	}
	return 20
}

// scheduleRediff re-diffs after a pause in typing.
func (e *Editor) scheduleRediff() {
	if e.host.manualRediff() {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.timer != nil {
		e.timer.Stop()
	}
	ver := e.version
	e.timer = time.AfterFunc(rediffDelay, func() { // runs once, after the pause
		fyne.Do(func() {
			if !e.detached() && e.version == ver {
				e.rediffAsync()
			}
		})
	})
}

// rediffAsync diffs a snapshot of the text in a goroutine (which ends
// after posting its result) and shows the result if nothing changed
// meanwhile.
func (e *Editor) rediffAsync() {
	snap, ver := slices.Clone(e.buf.Lines()), e.version
	orig, prop := e.orig, e.prop
	go func() {
		ops, mine := engine.DiffLines(orig, snap), engine.DiffLines(prop, snap)
		fyne.Do(func() {
			if !e.detached() && e.version == ver {
				e.mine = mine
				e.showDiff(ops)
			}
		})
	}()
}

// SetOwnBase sets the text the person's own edits are told apart from
// (drawn purple beside the agent's green): by default the text editing
// started from, which is the person's edit so far when the editor is made
// again for text they already changed (an external editor's save, their
// edit merged onto a new save on disk).
func (e *Editor) SetOwnBase(text string) {
	e.prop = slices.Clone(textbuf.New(text).Lines())
	e.mine = engine.DiffLines(e.prop, e.buf.Lines())
	e.host.ownEditsChanged()
}

// Own reports whether line (0-based) of the text is the person's own: a
// line they added or changed, against SetOwnBase's text.
func (e *Editor) Own(line int) bool {
	changed, _ := e.edit(line)
	return changed
}

// rediffNow re-diffs on the calling goroutine (SetEditable, tests).
func (e *Editor) rediffNow() {
	e.mine = engine.DiffLines(e.prop, e.buf.Lines())
	e.showDiff(engine.DiffLines(e.orig, e.buf.Lines()))
}

// edit returns the person's own edit at line b of the text: a changed or
// added line (changed), lines of the proposal deleted just before it
// (deletedBefore).
func (e *Editor) edit(b int) (changed, deletedBefore bool) {
	// The first op ending after b, or a deletion at b (ops are in order of b).
	k := sort.Search(len(e.mine), func(k int) bool {
		op := e.mine[k]
		return op.B1 > b || op.B0 == b && op.B1 == b
	})
	for ; k < len(e.mine) && e.mine[k].B0 <= b; k++ {
		op := e.mine[k]
		switch {
		case op.Kind == engine.OpDelete && op.B0 == b:
			deletedBefore = true
		case op.Kind != engine.OpEqual && op.Kind != engine.OpDelete && b < op.B1:
			changed = true
		}
	}
	return changed, deletedBefore
}

// ownRow reports whether row rw of the diff on show (in the change op)
// is the person's own edit: a line they added or changed, or a line of the
// original deleted where they deleted lines of the proposal.
func (e *Editor) ownRow(rw row, op engine.Op) bool {
	if rw.b >= 0 {
		changed, _ := e.edit(rw.b)
		return changed
	}
	_, deleted := e.edit(op.B0)
	return rw.a >= 0 && deleted
}

// ownRows calls fn with the rows of m (from, to: half-open) that hold the
// person's own edits, one range per edit of theirs.
func (e *Editor) ownRows(m *rowModel, fn func(from, to int)) {
	for _, op := range e.mine {
		switch {
		case op.Kind == engine.OpEqual:
		case op.B0 == op.B1: // lines of the proposal deleted: where they were
			r := m.RowOfB(op.B0)
			fn(r, r)
		default:
			fn(m.RowOfB(op.B0), m.RowOfB(op.B1-1)+1)
		}
	}
}

// showDiff shows ops, the diff from the original to the text; edited
// when the text changed since the diff last shown.
func (e *Editor) showDiff(ops []engine.Op) {
	edited := e.rediffed != e.version && e.version > 0
	e.rediffed = e.version
	e.host.showEdited(e.orig, e.buf.Lines(), ops, edited)
}

// patchOps returns ops (a diff from a to b) after lines b0:b1 of b were
// replaced by b1-b0+delta lines: the ops those lines touch merge into one
// change, later ops shift by delta. The result is a valid diff, though not
// always a minimal one, until the next full re-diff.
func patchOps(ops []engine.Op, b0, b1, delta int) []engine.Op {
	// The touched ops: those overlapping b0:b1, or holding b0 when empty.
	i := 0
	for i < len(ops) && ops[i].B1 <= b0 && !(ops[i].B1 == b0 && ops[i].B0 == b0 && ops[i].Kind != engine.OpEqual) {
		i++
	}
	j := i
	for j < len(ops) && (ops[j].B0 < b1 || j == i) {
		j++
	}
	out := make([]engine.Op, 0, len(ops)+2)
	out = append(out, ops[:i]...)
	if i == len(ops) { // appending past the end
		a := 0
		if len(ops) > 0 {
			a = ops[len(ops)-1].A1
		}
		return append(out, engine.Op{Kind: engine.OpInsert, A0: a, A1: a, B0: b0, B1: b1 + delta})
	}
	first, last := ops[i], ops[j-1]
	ch := engine.Op{A0: first.A0, B0: first.B0, A1: last.A1, B1: last.B1}
	if first.Kind == engine.OpEqual && first.B0 < b0 {
		n := b0 - first.B0
		out = append(out, engine.Op{Kind: engine.OpEqual, A0: first.A0, A1: first.A0 + n, B0: first.B0, B1: b0})
		ch.A0, ch.B0 = first.A0+n, b0
	}
	var tail engine.Op
	if last.Kind == engine.OpEqual && last.B1 > b1 {
		n := last.B1 - b1
		tail = engine.Op{Kind: engine.OpEqual, A0: last.A1 - n, A1: last.A1, B0: b1 + delta, B1: last.B1 + delta}
		ch.A1, ch.B1 = last.A1-n, b1
	}
	ch.B1 += delta
	switch {
	case ch.A0 == ch.A1 && ch.B0 == ch.B1:
	case ch.A0 == ch.A1:
		ch.Kind = engine.OpInsert
	case ch.B0 == ch.B1:
		ch.Kind = engine.OpDelete
	default:
		ch.Kind = engine.OpReplace
	}
	if ch.A0 != ch.A1 || ch.B0 != ch.B1 {
		// Merge with a neighbouring change so changes stay separated by
		// equal ops.
		if n := len(out); n > 0 && out[n-1].Kind != engine.OpEqual {
			p := out[n-1]
			out = out[:n-1]
			ch.A0, ch.B0 = p.A0, p.B0
			ch.Kind = engine.OpReplace
			if ch.A0 == ch.A1 {
				ch.Kind = engine.OpInsert
			} else if ch.B0 == ch.B1 {
				ch.Kind = engine.OpDelete
			}
		}
		out = append(out, ch)
	}
	if tail.A1 > tail.A0 {
		out = append(out, tail)
	}
	for _, op := range ops[j:] {
		op.B0 += delta
		op.B1 += delta
		if n := len(out); n > 0 && op.Kind != engine.OpEqual && out[n-1].Kind != engine.OpEqual {
			p := out[n-1]
			out[n-1] = engine.Op{A0: p.A0, A1: op.A1, B0: p.B0, B1: op.B1, Kind: engine.OpReplace}
			continue
		}
		out = append(out, op)
	}
	return out
}
