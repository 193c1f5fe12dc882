package textbuf

import (
	"strings"
	"unicode/utf8"
)

// Pos is a place in the text: a 0-based line and a byte offset in it.
type Pos struct{ Line, Col int }

// Before reports whether p comes before q.
func (p Pos) Before(q Pos) bool { return p.Line < q.Line || p.Line == q.Line && p.Col < q.Col }

// Buffer is an editable text: its lines, a cursor, a selection between the
// cursor and an anchor, and the undo and redo stacks. The zero Buffer is
// not usable; New makes one.
type Buffer struct {
	lines   []string // the text, without line endings
	finalNL bool     // the text New was given ends with a newline
	cur     Pos
	anchor  Pos // the other end of the selection; == cur when none
	undo    []edit
	redo    []edit
}

// New returns a buffer holding text with the cursor at its start. Lines
// end at "\n"; a "\r" before it is dropped, so Text gives "\n" endings. A
// final newline leaves an empty last line, where the cursor can go.
func New(text string) *Buffer {
	b := &Buffer{lines: strings.Split(text, "\n"), finalNL: strings.HasSuffix(text, "\n")}
	for i, l := range b.lines {
		b.lines[i] = strings.TrimSuffix(l, "\r")
	}
	return b
}

// Text returns the text, lines joined with "\n".
func (b *Buffer) Text() string {
	lines := b.lines
	if b.finalNL && len(lines) > 0 && lines[len(lines)-1] == "" {
		return strings.Join(lines[:len(lines)-1], "\n") + "\n"
	}
	return strings.Join(lines, "\n")
}

// Lines returns the lines of the text, without line endings. The slice is
// the buffer's own, for reading until the next edit.
func (b *Buffer) Lines() []string { return b.lines }

// Cursor returns the cursor's position.
func (b *Buffer) Cursor() Pos { return b.cur }

// Selection returns the selected range in order, and whether there is one
// (else from and to are the cursor).
func (b *Buffer) Selection() (from, to Pos, ok bool) {
	if b.cur == b.anchor {
		return b.cur, b.cur, false
	}
	if b.cur.Before(b.anchor) {
		return b.cur, b.anchor, true
	}
	return b.anchor, b.cur, true
}

// Selected returns the selected text ("" for none).
func (b *Buffer) Selected() string {
	from, to, ok := b.Selection()
	if !ok {
		return ""
	}
	return b.textRange(from, to)
}

// MoveTo moves the cursor to p (clamped into the text), extending the
// selection from the anchor when sel, else dropping it. A move ends a
// typed run: the next typed rune undoes on its own.
func (b *Buffer) MoveTo(p Pos, sel bool) {
	p = b.clamp(p)
	b.cur = p
	if !sel {
		b.anchor = p
	}
	if n := len(b.undo); n > 0 {
		b.undo[n-1].typed = false
	}
}

// SelectAll selects the whole text, the cursor at its end.
func (b *Buffer) SelectAll() {
	b.anchor = Pos{}
	b.cur = b.End()
}

// SelectWord selects the word (letters, digits, '_') at p, or the single
// character there when it is not part of a word (WordAt); the cursor goes
// to its end.
func (b *Buffer) SelectWord(p Pos) {
	p = b.clamp(p)
	from, to := WordAt(b.lines[p.Line], p.Col)
	b.anchor = Pos{p.Line, from}
	b.MoveTo(Pos{p.Line, to}, true)
}

// WordAt returns the byte range of the word (letters, digits, '_') of
// line l around byte col, or of the single character at col when it is
// not part of a word; col past the end gives the last word.
func WordAt(l string, col int) (from, to int) {
	col = min(max(col, 0), len(l))
	from, to = col, col
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
	return from, to
}

func (b *Buffer) clamp(p Pos) Pos {
	p.Line = min(max(p.Line, 0), len(b.lines)-1)
	p.Col = min(max(p.Col, 0), len(b.lines[p.Line]))
	return p
}

// textRange returns the text between from and to.
func (b *Buffer) textRange(from, to Pos) string {
	if from.Line == to.Line {
		return b.lines[from.Line][from.Col:to.Col]
	}
	var sb strings.Builder
	sb.WriteString(b.lines[from.Line][from.Col:])
	for i := from.Line + 1; i < to.Line; i++ {
		sb.WriteByte('\n')
		sb.WriteString(b.lines[i])
	}
	sb.WriteByte('\n')
	sb.WriteString(b.lines[to.Line][:to.Col])
	return sb.String()
}
