package textbuf

import (
	"slices"
	"strings"
)

// Change is what an edit did to the lines: lines Line:Line+Removed of the
// text before it are lines Line:Line+Added after it (0-based; both counts
// are at least 1, as an edit inside one line replaces that line).
type Change struct{ Line, Removed, Added int }

// edit is one undoable change: removed was replaced by inserted at at.
type edit struct {
	at                Pos
	removed, inserted string
	curBefore         Pos
	curAfter          Pos
	typed             bool // a typed run that the next typed rune may extend
}

// Each edit below returns the Change it made, and false when it changed
// nothing (Backspace at the start, Undo with nothing to undo, …).

// Type inserts r as typed, replacing the selection. Typed runes undo
// together until a move, a space or a newline starts another run.
func (b *Buffer) Type(r rune) (Change, bool) { return b.insert(string(r), true) }

// Insert replaces the selection (or nothing, at the cursor) with text and
// leaves the cursor after it; Insert("") deletes the selection.
func (b *Buffer) Insert(text string) (Change, bool) {
	if _, _, ok := b.Selection(); !ok && text == "" {
		return Change{}, false
	}
	return b.insert(text, false)
}

// Paste inserts text as Insert does, with its "\r\n" line endings as "\n";
// pasting nothing changes nothing, the selection included.
func (b *Buffer) Paste(text string) (Change, bool) {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	if text == "" {
		return Change{}, false
	}
	return b.insert(text, false)
}

// Newline breaks the line at the cursor (replacing the selection) and
// indents the new line as the current one, up to the cursor.
func (b *Buffer) Newline() (Change, bool) {
	l := b.lines[b.cur.Line]
	indent := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
	if len(indent) > b.cur.Col {
		indent = indent[:b.cur.Col]
	}
	return b.insert("\n"+indent, false)
}

// Backspace deletes the selection or the character before the cursor.
func (b *Buffer) Backspace() (Change, bool) {
	if _, _, ok := b.Selection(); ok {
		return b.insert("", false)
	}
	if b.cur == (Pos{}) {
		return Change{}, false
	}
	_, c := b.replace(b.left(b.cur), b.cur, "", false)
	return c, true
}

// Delete deletes the selection or the character after the cursor.
func (b *Buffer) Delete() (Change, bool) {
	if _, _, ok := b.Selection(); ok {
		return b.insert("", false)
	}
	if b.cur == b.End() {
		return Change{}, false
	}
	_, c := b.replace(b.cur, b.right(b.cur), "", false)
	return c, true
}

// Tab inserts a tab at the cursor (replacing the selection), or, with a
// selection or outdent, indents by a tab (outdents by a tab or up to
// TabWidth spaces) every line the selection touches and selects them. A
// selection ending at a line's start leaves that line alone; indenting
// leaves empty lines alone.
func (b *Buffer) Tab(outdent bool) (Change, bool) {
	from, to, ok := b.Selection()
	if !ok && !outdent {
		return b.insert("\t", false)
	}
	last := to.Line
	if to.Col == 0 && to.Line > from.Line {
		last--
	}
	var sb strings.Builder
	for i := from.Line; i <= last; i++ {
		if i > from.Line {
			sb.WriteByte('\n')
		}
		l := b.lines[i]
		if outdent {
			switch {
			case strings.HasPrefix(l, "\t"):
				l = l[1:]
			default:
				l = strings.TrimPrefix(l, strings.Repeat(" ", min(TabWidth, len(l)-len(strings.TrimLeft(l, " ")))))
			}
		} else if l != "" {
			l = "\t" + l
		}
		sb.WriteString(l)
	}
	start, end := Pos{from.Line, 0}, Pos{last, len(b.lines[last])}
	curEnd, c := b.replace(start, end, sb.String(), false)
	b.anchor, b.cur = start, curEnd
	return c, true
}

// Undo reverts the last edit (a typed run is one edit) and puts the cursor
// where it was before it.
func (b *Buffer) Undo() (Change, bool) {
	if len(b.undo) == 0 {
		return Change{}, false
	}
	u := b.undo[len(b.undo)-1]
	b.undo = b.undo[:len(b.undo)-1]
	_, c := b.apply(u.at, b.endOf(u.at, u.inserted), u.removed)
	b.redo = append(b.redo, u)
	b.cur, b.anchor = u.curBefore, u.curBefore
	return c, true
}

// Redo makes the last undone edit again and puts the cursor after it.
func (b *Buffer) Redo() (Change, bool) {
	if len(b.redo) == 0 {
		return Change{}, false
	}
	u := b.redo[len(b.redo)-1]
	b.redo = b.redo[:len(b.redo)-1]
	_, c := b.apply(u.at, b.endOf(u.at, u.removed), u.inserted)
	u.typed = false
	b.undo = append(b.undo, u)
	b.cur, b.anchor = u.curAfter, u.curAfter
	return c, true
}

// insert replaces the selection (or nothing, at the cursor) with text.
func (b *Buffer) insert(text string, typed bool) (Change, bool) {
	from, to, ok := b.Selection()
	_, c := b.replace(from, to, text, typed && !ok)
	return c, true
}

// replace replaces from:to with text as one undoable edit, extending the
// last one when both are typed and this one follows it, and leaves the
// cursor after it.
func (b *Buffer) replace(from, to Pos, text string, typed bool) (Pos, Change) {
	removed := b.textRange(from, to)
	before := b.cur
	end, c := b.apply(from, to, text)
	b.redo = b.redo[:0]
	if n := len(b.undo); typed && n > 0 && b.undo[n-1].typed && removed == "" &&
		b.undo[n-1].curAfter == from && !strings.ContainsAny(text, " \n") {
		u := &b.undo[n-1]
		u.inserted += text
		u.curAfter = end
	} else {
		b.undo = append(b.undo, edit{at: from, removed: removed, inserted: text, curBefore: before, curAfter: end, typed: typed})
	}
	b.cur, b.anchor = end, end
	return end, c
}

// apply replaces from:to with text in the lines; it returns the end of the
// inserted text and the lines changed.
func (b *Buffer) apply(from, to Pos, text string) (Pos, Change) {
	prefix := b.lines[from.Line][:from.Col]
	suffix := b.lines[to.Line][to.Col:]
	parts := strings.Split(text, "\n")
	parts[0] = prefix + parts[0]
	end := Pos{from.Line + len(parts) - 1, len(parts[len(parts)-1])}
	parts[len(parts)-1] += suffix
	removed := to.Line - from.Line + 1
	if len(parts) == 1 && removed == 1 {
		b.lines[from.Line] = parts[0]
	} else {
		b.lines = slices.Replace(b.lines, from.Line, to.Line+1, parts...)
	}
	return end, Change{Line: from.Line, Removed: removed, Added: len(parts)}
}

// endOf returns where text would end if inserted at p.
func (b *Buffer) endOf(p Pos, text string) Pos {
	n := strings.Count(text, "\n")
	if n == 0 {
		return Pos{p.Line, p.Col + len(text)}
	}
	return Pos{p.Line + n, len(text) - strings.LastIndexByte(text, '\n') - 1}
}
