package textbuf

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// TabWidth is how many cells a tab stop spans.
const TabWidth = 4

// Width returns the display width of s in cells: RuneWidth for each rune
// (two for a wide CJK character, none for a combining mark), a tab reaching
// to the next multiple of TabWidth.
func Width(s string) int {
	w := 0
	for _, r := range s {
		w = advance(w, r)
	}
	return w
}

// advance returns the cell after rune r placed at cell c.
func advance(c int, r rune) int {
	if r == '\t' {
		return c + TabWidth - c%TabWidth
	}
	return c + RuneWidth(r)
}

// The positions below are where a move of the cursor goes; MoveTo takes
// it there.

// Left returns the position one rune before the cursor: the end of the
// line before from a line's start.
func (b *Buffer) Left() Pos { return b.left(b.cur) }

// Right returns the position one rune after the cursor: the start of the
// next line from a line's end.
func (b *Buffer) Right() Pos { return b.right(b.cur) }

func (b *Buffer) left(p Pos) Pos {
	if p.Col > 0 {
		_, n := utf8.DecodeLastRuneInString(b.lines[p.Line][:p.Col])
		return Pos{p.Line, p.Col - n}
	}
	if p.Line > 0 {
		return Pos{p.Line - 1, len(b.lines[p.Line-1])}
	}
	return p
}

func (b *Buffer) right(p Pos) Pos {
	if l := b.lines[p.Line]; p.Col < len(l) {
		_, n := utf8.DecodeRuneInString(l[p.Col:])
		return Pos{p.Line, p.Col + n}
	}
	if p.Line < len(b.lines)-1 {
		return Pos{p.Line + 1, 0}
	}
	return p
}

// Vertical returns the position n lines below the cursor (above for a
// negative n, stopping at the first and last lines) at the cursor's
// display column, or the line's end when it is shorter.
func (b *Buffer) Vertical(n int) Pos {
	l := b.lines[b.cur.Line]
	cell := Width(l[:b.cur.Col])
	line := min(max(b.cur.Line+n, 0), len(b.lines)-1)
	t := b.lines[line]
	col := len(t)
	c := 0
	for i, r := range t {
		if c >= cell && RuneWidth(r) > 0 {
			col = i
			break
		}
		c = advance(c, r)
	}
	return Pos{line, col}
}

// Home returns the first non-blank character of the cursor's line, or
// its column 0 when the cursor is there already.
func (b *Buffer) Home() Pos {
	l := b.lines[b.cur.Line]
	first := len(l) - len(strings.TrimLeft(l, " \t"))
	if b.cur.Col == first {
		return Pos{b.cur.Line, 0}
	}
	return Pos{b.cur.Line, first}
}

// LineEnd returns the end of the cursor's line.
func (b *Buffer) LineEnd() Pos { return Pos{b.cur.Line, len(b.lines[b.cur.Line])} }

// End returns the end of the text.
func (b *Buffer) End() Pos {
	n := len(b.lines) - 1
	return Pos{n, len(b.lines[n])}
}

func isWord(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// WordLeft returns the start of the word before the cursor (skipping
// spaces and punctuation first), or the end of the line before from a
// line's start.
func (b *Buffer) WordLeft() Pos {
	p := b.cur
	if p.Col == 0 {
		return b.left(p)
	}
	l := b.lines[p.Line]
	for p.Col > 0 { // spaces and punctuation, then the word
		r, n := utf8.DecodeLastRuneInString(l[:p.Col])
		if isWord(r) {
			break
		}
		p.Col -= n
	}
	for p.Col > 0 {
		r, n := utf8.DecodeLastRuneInString(l[:p.Col])
		if !isWord(r) {
			break
		}
		p.Col -= n
	}
	return p
}

// WordRight returns the end of the word after the cursor (skipping spaces
// and punctuation first), or the start of the next line from a line's end.
func (b *Buffer) WordRight() Pos {
	l := b.lines[b.cur.Line]
	p := b.cur
	if p.Col == len(l) {
		return b.right(p)
	}
	for p.Col < len(l) {
		r, n := utf8.DecodeRuneInString(l[p.Col:])
		if isWord(r) {
			break
		}
		p.Col += n
	}
	for p.Col < len(l) {
		r, n := utf8.DecodeRuneInString(l[p.Col:])
		if !isWord(r) {
			break
		}
		p.Col += n
	}
	return p
}
