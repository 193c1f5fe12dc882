package diffview

import (
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/engine"
)

// pos is a place in the editor's text: a 0-based line and a byte offset in
// it.
type pos struct{ line, col int }

func (p pos) before(q pos) bool { return p.line < q.line || p.line == q.line && p.col < q.col }

// edit is one undoable change: removed was replaced by inserted at at.
type edit struct {
	at                pos
	removed, inserted string
	curBefore         pos
	curAfter          pos
	typed             bool // a typed run that the next typed rune may extend
}

// rediffDelay is how long the editor waits after the last keystroke before
// re-diffing the whole text against the original.
const rediffDelay = 150 * time.Millisecond

// Editor is the code editor a DiffView's right side becomes with
// SetEditable: cursor, selection, typing, auto-indent, tab, clipboard,
// undo/redo and keyboard navigation over the same virtualised rows. The
// text is an array of lines, so a keystroke touches only its line; the
// diff shown is patched at once around the edit and recomputed in full in
// the background after a pause (rediffDelay).
//
// The Editor is the focusable part of the view: it receives the keys. Its
// methods also work without a window (tests call them directly).
type Editor struct {
	widget.BaseWidget
	v *DiffView

	lines   []string // the text, without line endings
	finalNL bool     // the text ends with a newline
	cur     pos
	anchor  pos // the other end of the selection; == cur when none
	undo    []edit
	redo    []edit
	shift   bool
	version int // bumped by every change

	focused bool

	orig     []string // the original's lines without line endings
	origRaw  []string
	timer    *time.Timer
	mu       sync.Mutex
	rediffed int // version the shown diff was computed for
}

// SetEditable makes the right side a code editor (on) or read-only (off).
// Turning it on starts from the text shown; the diff then compares the
// original with the edited text.
func (v *DiffView) SetEditable(on bool) {
	if on == (v.ed != nil) {
		return
	}
	if !on {
		v.stopEditing()
		v.Refresh()
		return
	}
	if v.stream != nil {
		return // a streaming proposal cannot be edited until it ends
	}
	m := v.model
	ed := &Editor{v: v}
	ed.ExtendBaseWidget(ed)
	ed.origRaw = m.a.raw()
	ed.orig = make([]string, len(ed.origRaw))
	for i, l := range ed.origRaw {
		ed.orig[i] = trimEOL(l)
	}
	if n := len(ed.origRaw); n == 0 || strings.HasSuffix(ed.origRaw[n-1], "\n") {
		ed.orig = append(ed.orig, "") // as the editor's lines: the empty line after a final newline
	}
	raw := m.b.raw()
	ed.lines = make([]string, len(raw))
	for i, l := range raw {
		ed.lines[i] = trimEOL(l)
	}
	ed.finalNL = len(raw) > 0 && strings.HasSuffix(raw[len(raw)-1], "\n")
	if len(ed.lines) == 0 || ed.finalNL {
		ed.lines = append(ed.lines, "")
	}
	v.ed = ed
	ed.rediffNow()
	v.Refresh()
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

// Text returns the edited text.
func (e *Editor) Text() string {
	lines := e.lines
	if e.finalNL && len(lines) > 0 && lines[len(lines)-1] == "" {
		return strings.Join(lines[:len(lines)-1], "\n") + "\n"
	}
	return strings.Join(lines, "\n")
}

// CreateRenderer is part of fyne.Widget; the editor draws nothing itself
// (the rows draw its text, cursor and selection).
func (e *Editor) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(&fyne.Container{})
}

// focus gives the editor the keyboard.
func (e *Editor) focus() {
	if c := fyne.CurrentApp().Driver().CanvasForObject(e.v); c != nil {
		c.Focus(e)
	}
}

// FocusGained is part of fyne.Focusable.
func (e *Editor) FocusGained() { e.focused = true; e.v.refreshRows() }

// FocusLost is part of fyne.Focusable.
func (e *Editor) FocusLost() { e.focused = false; e.shift = false; e.v.refreshRows() }

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
	e.insert(string(r), true)
}

// TypedKey handles editing and navigation keys.
func (e *Editor) TypedKey(k *fyne.KeyEvent) {
	sel := e.shiftHeld()
	switch k.Name {
	case fyne.KeyReturn, fyne.KeyEnter:
		e.Newline()
	case fyne.KeyBackspace:
		e.Backspace()
	case fyne.KeyDelete:
		e.Delete()
	case fyne.KeyTab:
		e.Tab(sel)
	case fyne.KeyLeft:
		e.move(e.left(e.cur), sel)
	case fyne.KeyRight:
		e.move(e.right(e.cur), sel)
	case fyne.KeyUp:
		e.move(e.vertical(-1), sel)
	case fyne.KeyDown:
		e.move(e.vertical(1), sel)
	case fyne.KeyPageUp:
		e.move(e.vertical(-e.page()), sel)
	case fyne.KeyPageDown:
		e.move(e.vertical(e.page()), sel)
	case fyne.KeyHome:
		e.move(e.home(), sel)
	case fyne.KeyEnd:
		e.move(pos{e.cur.line, len(e.lines[e.cur.line])}, sel)
	case fyne.KeyEscape:
		e.blur()
	}
}

// blur gives the keyboard back to the window, keeping the text: Esc in the
// editor, so the window's keys (a to approve edited, Esc to cancel) work.
func (e *Editor) blur() {
	if c := fyne.CurrentApp().Driver().CanvasForObject(e.v); c != nil && c.Focused() == e {
		c.Unfocus()
	}
}

// TypedShortcut handles the clipboard, undo/redo, select all and the
// Ctrl+arrow/Home/End moves.
func (e *Editor) TypedShortcut(s fyne.Shortcut) {
	switch s := s.(type) {
	case *fyne.ShortcutCopy:
		e.Copy(clipboardOf(s.Clipboard))
	case *fyne.ShortcutCut:
		e.Cut(clipboardOf(s.Clipboard))
	case *fyne.ShortcutPaste:
		if cb := clipboardOf(s.Clipboard); cb != nil {
			e.Paste(cb.Content())
		}
	case *fyne.ShortcutSelectAll:
		e.SelectAll()
	case *fyne.ShortcutUndo:
		e.Undo()
	case *fyne.ShortcutRedo:
		e.Redo()
	case *desktop.CustomShortcut:
		sel := s.Modifier&fyne.KeyModifierShift != 0
		ctrl := s.Modifier&(fyne.KeyModifierControl|fyne.KeyModifierSuper) != 0
		if !ctrl {
			return
		}
		switch s.KeyName {
		case fyne.KeyLeft:
			e.move(e.wordLeft(), sel)
		case fyne.KeyRight:
			e.move(e.wordRight(), sel)
		case fyne.KeyHome:
			e.move(pos{}, sel)
		case fyne.KeyEnd:
			n := len(e.lines) - 1
			e.move(pos{n, len(e.lines[n])}, sel)
		case fyne.KeyZ:
			if sel {
				e.Redo()
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

// Cursor returns the cursor's line (0-based) and byte offset in it.
func (e *Editor) Cursor() (line, col int) { return e.cur.line, e.cur.col }

// SetCursor moves the cursor to line and byte col (clamped), dropping the
// selection.
func (e *Editor) SetCursor(line, col int) { e.moveTo(e.clamp(pos{line, col}), false) }

// Selected returns the selected text.
func (e *Editor) Selected() string {
	from, to, ok := e.selection()
	if !ok {
		return ""
	}
	return e.textRange(from, to)
}

// SelectAll selects the whole text.
func (e *Editor) SelectAll() {
	n := len(e.lines) - 1
	e.anchor = pos{}
	e.cur = pos{n, len(e.lines[n])}
	e.changed()
}

// selectWord selects the word (letters, digits, '_') at p, or the single
// character there when it is not part of a word.
func (e *Editor) selectWord(p pos) {
	p = e.clamp(p)
	l := e.lines[p.line]
	from, to := p.col, p.col
	for from > 0 {
		r, n := utf8.DecodeLastRuneInString(l[:from])
		if !isWord(r) {
			break
		}
		from -= n
	}
	for to < len(l) {
		r, n := utf8.DecodeRuneInString(l[to:])
		if !isWord(r) {
			if to == from {
				to += n
			}
			break
		}
		to += n
	}
	e.anchor = pos{p.line, from}
	e.moveTo(pos{p.line, to}, true)
}

// Copy puts the selection on the clipboard.
func (e *Editor) Copy(cb fyne.Clipboard) {
	if t := e.Selected(); t != "" && cb != nil {
		cb.SetContent(t)
	}
}

// Cut puts the selection on the clipboard and deletes it.
func (e *Editor) Cut(cb fyne.Clipboard) {
	if t := e.Selected(); t != "" {
		if cb != nil {
			cb.SetContent(t)
		}
		e.insert("", false)
	}
}

// Paste inserts text at the cursor (replacing the selection).
func (e *Editor) Paste(text string) {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	if text != "" {
		e.insert(text, false)
	}
}

// Newline breaks the line at the cursor and indents the new line as the
// current one.
func (e *Editor) Newline() {
	l := e.lines[e.cur.line]
	indent := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
	if len(indent) > e.cur.col {
		indent = indent[:e.cur.col]
	}
	e.insert("\n"+indent, false)
}

// Backspace deletes the selection or the character before the cursor.
func (e *Editor) Backspace() {
	if _, _, ok := e.selection(); ok {
		e.insert("", false)
		return
	}
	if e.cur == (pos{}) {
		return
	}
	e.replace(e.left(e.cur), e.cur, "", false)
}

// Delete deletes the selection or the character after the cursor.
func (e *Editor) Delete() {
	if _, _, ok := e.selection(); ok {
		e.insert("", false)
		return
	}
	n := len(e.lines) - 1
	if e.cur == (pos{n, len(e.lines[n])}) {
		return
	}
	e.replace(e.cur, e.right(e.cur), "", false)
}

// Tab inserts a tab, or indents (outdent with shift) the selected lines.
func (e *Editor) Tab(outdent bool) {
	from, to, ok := e.selection()
	if !ok && !outdent {
		e.insert("\t", false)
		return
	}
	if !ok {
		from, to = e.cur, e.cur
	}
	last := to.line
	if to.col == 0 && to.line > from.line {
		last--
	}
	var b strings.Builder
	for i := from.line; i <= last; i++ {
		if i > from.line {
			b.WriteByte('\n')
		}
		l := e.lines[i]
		if outdent {
			switch {
			case strings.HasPrefix(l, "\t"):
				l = l[1:]
			default:
				l = strings.TrimPrefix(l, strings.Repeat(" ", min(tabWidth, len(l)-len(strings.TrimLeft(l, " ")))))
			}
		} else if l != "" {
			l = "\t" + l
		}
		b.WriteString(l)
	}
	start, end := pos{from.line, 0}, pos{last, len(e.lines[last])}
	curEnd := e.replace(start, end, b.String(), false)
	e.anchor, e.cur = start, curEnd
	e.changed()
}

// Undo reverts the last change (a typed run is one change).
func (e *Editor) Undo() {
	if len(e.undo) == 0 {
		return
	}
	u := e.undo[len(e.undo)-1]
	e.undo = e.undo[:len(e.undo)-1]
	end := e.endOf(u.at, u.inserted)
	e.apply(u.at, end, u.removed)
	e.redo = append(e.redo, u)
	e.cur, e.anchor = u.curBefore, u.curBefore
	e.changed()
}

// Redo applies the last undone change again.
func (e *Editor) Redo() {
	if len(e.redo) == 0 {
		return
	}
	u := e.redo[len(e.redo)-1]
	e.redo = e.redo[:len(e.redo)-1]
	end := e.endOf(u.at, u.removed)
	e.apply(u.at, end, u.inserted)
	u.typed = false
	e.undo = append(e.undo, u)
	e.cur, e.anchor = u.curAfter, u.curAfter
	e.changed()
}

// insert replaces the selection (or nothing, at the cursor) with text.
func (e *Editor) insert(text string, typed bool) {
	from, to, ok := e.selection()
	if !ok {
		from, to = e.cur, e.cur
	}
	e.replace(from, to, text, typed && !ok)
}

// replace replaces from:to with text as one undoable change and leaves the
// cursor after it.
func (e *Editor) replace(from, to pos, text string, typed bool) pos {
	removed := e.textRange(from, to)
	before := e.cur
	end := e.apply(from, to, text)
	e.redo = e.redo[:0]
	if n := len(e.undo); typed && n > 0 && e.undo[n-1].typed && removed == "" &&
		e.undo[n-1].curAfter == from && !strings.ContainsAny(text, " \n") {
		u := &e.undo[n-1]
		u.inserted += text
		u.curAfter = end
	} else {
		e.undo = append(e.undo, edit{at: from, removed: removed, inserted: text, curBefore: before, curAfter: end, typed: typed})
	}
	e.cur, e.anchor = end, end
	e.changed()
	return end
}

// apply replaces from:to with text in the lines and patches the diff on
// show; it returns the end of the inserted text.
func (e *Editor) apply(from, to pos, text string) pos {
	prefix := e.lines[from.line][:from.col]
	suffix := e.lines[to.line][to.col:]
	parts := strings.Split(text, "\n")
	parts[0] = prefix + parts[0]
	end := pos{from.line + len(parts) - 1, len(parts[len(parts)-1])}
	parts[len(parts)-1] += suffix
	removedLines := to.line - from.line + 1
	if len(parts) == 1 && removedLines == 1 {
		e.lines[from.line] = parts[0]
	} else {
		e.lines = slices.Replace(e.lines, from.line, to.line+1, parts...)
	}
	e.version++
	e.v.editedLines(from.line, removedLines, len(parts))
	return end
}

// endOf returns where text would end if inserted at p.
func (e *Editor) endOf(p pos, text string) pos {
	n := strings.Count(text, "\n")
	if n == 0 {
		return pos{p.line, p.col + len(text)}
	}
	return pos{p.line + n, len(text) - strings.LastIndexByte(text, '\n') - 1}
}

// textRange returns the text between from and to.
func (e *Editor) textRange(from, to pos) string {
	if from.line == to.line {
		return e.lines[from.line][from.col:to.col]
	}
	var b strings.Builder
	b.WriteString(e.lines[from.line][from.col:])
	for i := from.line + 1; i < to.line; i++ {
		b.WriteByte('\n')
		b.WriteString(e.lines[i])
	}
	b.WriteByte('\n')
	b.WriteString(e.lines[to.line][:to.col])
	return b.String()
}

// selection returns the selected range in order, if any.
func (e *Editor) selection() (from, to pos, ok bool) {
	if e.cur == e.anchor {
		return e.cur, e.cur, false
	}
	if e.cur.before(e.anchor) {
		return e.cur, e.anchor, true
	}
	return e.anchor, e.cur, true
}

func (e *Editor) clamp(p pos) pos {
	p.line = min(max(p.line, 0), len(e.lines)-1)
	p.col = min(max(p.col, 0), len(e.lines[p.line]))
	return p
}

// move moves the cursor to p, extending the selection when sel.
func (e *Editor) move(p pos, sel bool) {
	e.moveTo(e.clamp(p), sel)
}

func (e *Editor) moveTo(p pos, sel bool) {
	old := e.cur
	e.cur = p
	if !sel {
		e.anchor = p
	}
	if n := len(e.undo); n > 0 {
		e.undo[n-1].typed = false // a move ends a typed run
	}
	e.v.cursorMoved(old.line)
}

func (e *Editor) left(p pos) pos {
	if p.col > 0 {
		_, n := utf8.DecodeLastRuneInString(e.lines[p.line][:p.col])
		return pos{p.line, p.col - n}
	}
	if p.line > 0 {
		return pos{p.line - 1, len(e.lines[p.line-1])}
	}
	return p
}

func (e *Editor) right(p pos) pos {
	if l := e.lines[p.line]; p.col < len(l) {
		_, n := utf8.DecodeRuneInString(l[p.col:])
		return pos{p.line, p.col + n}
	}
	if p.line < len(e.lines)-1 {
		return pos{p.line + 1, 0}
	}
	return p
}

// vertical moves n lines keeping the display column.
func (e *Editor) vertical(n int) pos {
	l := e.lines[e.cur.line]
	cell := textWidth(l[:e.cur.col])
	line := min(max(e.cur.line+n, 0), len(e.lines)-1)
	t := e.lines[line]
	col := len(t)
	c := 0
	for i, r := range t {
		if c >= cell {
			col = i
			break
		}
		if r == '\t' {
			c += tabWidth - c%tabWidth
		} else {
			c++
		}
	}
	return pos{line, col}
}

// home goes to the first non-blank character, or to column 0 from there.
func (e *Editor) home() pos {
	l := e.lines[e.cur.line]
	first := len(l) - len(strings.TrimLeft(l, " \t"))
	if e.cur.col == first {
		return pos{e.cur.line, 0}
	}
	return pos{e.cur.line, first}
}

func isWord(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

func (e *Editor) wordLeft() pos {
	p := e.cur
	if p.col == 0 {
		return e.left(p)
	}
	l := e.lines[p.line]
	for p.col > 0 { // spaces and punctuation, then the word
		r, n := utf8.DecodeLastRuneInString(l[:p.col])
		if isWord(r) {
			break
		}
		p.col -= n
	}
	for p.col > 0 {
		r, n := utf8.DecodeLastRuneInString(l[:p.col])
		if !isWord(r) {
			break
		}
		p.col -= n
	}
	return p
}

func (e *Editor) wordRight() pos {
	l := e.lines[e.cur.line]
	p := e.cur
	if p.col == len(l) {
		return e.right(p)
	}
	for p.col < len(l) {
		r, n := utf8.DecodeRuneInString(l[p.col:])
		if isWord(r) {
			break
		}
		p.col += n
	}
	for p.col < len(l) {
		r, n := utf8.DecodeRuneInString(l[p.col:])
		if !isWord(r) {
			break
		}
		p.col += n
	}
	return p
}

// page returns how many lines a page up/down moves.
func (e *Editor) page() int {
	if h := e.v.metric.line; h > 0 {
		return max(int(e.v.list.Size().Height/h)-1, 1)
	}
	return 20
}

// changed redraws and keeps the cursor visible.
func (e *Editor) changed() {
	e.v.cursorMoved(-1)
}

// scheduleRediff re-diffs after a pause in typing.
func (e *Editor) scheduleRediff() {
	if e.v.manualRediff {
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
			if e.v.ed == e && e.version == ver {
				e.rediffAsync()
			}
		})
	})
}

// rediffAsync diffs a snapshot of the text in a goroutine (which ends
// after posting its result) and shows the result if nothing changed
// meanwhile.
func (e *Editor) rediffAsync() {
	snap, ver := slices.Clone(e.lines), e.version
	orig := e.orig
	go func() {
		ops := engine.DiffLines(orig, snap)
		fyne.Do(func() {
			if e.v.ed == e && e.version == ver {
				e.showDiff(ops)
			}
		})
	}()
}

// rediffNow re-diffs on the calling goroutine (SetEditable, tests).
func (e *Editor) rediffNow() {
	e.showDiff(engine.DiffLines(e.orig, e.lines))
}

// Flush recomputes the diff at once instead of after the typing pause
// (OnEdited follows if the text changed).
func (e *Editor) Flush() {
	e.mu.Lock()
	if e.timer != nil {
		e.timer.Stop()
	}
	e.mu.Unlock()
	e.rediffNow()
}

func (e *Editor) showDiff(ops []engine.Op) {
	v := e.v
	var pairs map[engine.Op][]alignRow
	if v.model != nil {
		pairs = v.model.pairs
	}
	v.show(newRowModel(lineSet{head: e.orig}, lineSet{head: e.lines}, ops, [2]int{}, pairs))
	changed := e.rediffed != e.version
	e.rediffed = e.version
	if changed && e.version > 0 && v.OnEdited != nil {
		v.OnEdited()
	}
}

// editedLines patches the diff on show after lines line:line+removed of
// the right side became added lines, and schedules the full re-diff.
func (v *DiffView) editedLines(line, removed, added int) {
	m := v.model
	ops := patchOps(m.ops, line, line+removed, added-removed)
	pairs := m.pairs
	for _, op := range ops {
		if op.Kind == engine.OpReplace && op.B0 <= line+added && op.B1 >= line {
			delete(pairs, op)
		}
	}
	nm := newRowModel(m.a, lineSet{head: v.ed.lines}, ops, [2]int{}, pairs)
	v.model = nm
	v.hunks, v.hunksOK = nil, false
	v.hl.edited(1, line, removed, added)
	if w := textWidth(v.ed.lines[min(line, len(v.ed.lines)-1)]); w > v.maxW {
		v.maxW = w
		v.updateHBar()
	}
	if v.wrap {
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
			v.rewrapEdit(kc, kc+1, nm.n-m.n)
		} else {
			v.applyWrap()
		}
	}
	v.ed.scheduleRediff()
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

// cursorMoved redraws the rows of the cursor and keeps it visible.
func (v *DiffView) cursorMoved(oldLine int) {
	ed := v.ed
	if ed == nil {
		return
	}
	row := v.model.RowOfB(ed.cur.line)
	if !v.wrap {
		v.colBufEd = columns(ed.lines[ed.cur.line], v.colBufEd)
		c := int(v.colBufEd[ed.cur.col])
		if c < v.hoff {
			v.setHOffset(c)
		} else if c > v.hoff+v.metric.cols-1 {
			v.setHOffset(c - v.metric.cols + 1)
		}
	}
	v.list.ScrollTo(row)
	v.list.Refresh()
}
