package textbuf_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/ui/diffview/textbuf"
)

// alphabet is what the fuzzer types and pastes: word and non-word runes,
// blanks, a newline and multi-byte runes.
var alphabet = []rune{'a', 'b', '_', '.', ' ', '\t', '\n', 'é', '世'}

// program reads a fuzzer's bytes as a sequence of buffer operations.
type program struct {
	code []byte
	i    int
}

func (p *program) done() bool { return p.i >= len(p.code) }

// next returns the next byte, 0 past the end.
func (p *program) next() int {
	if p.done() {
		return 0
	}
	p.i++
	return int(p.code[p.i-1])
}

// text returns one to three runes of the alphabet, with a CRLF when crlf.
func (p *program) text(crlf bool) string {
	n := p.next()
	var sb strings.Builder
	for k := range n%3 + 1 {
		sb.WriteRune(alphabet[(n/3+k*7)%len(alphabet)])
	}
	if crlf && n&0x80 != 0 {
		sb.WriteString("\r\n")
	}
	return sb.String()
}

// pos returns a position near the text, sometimes outside it.
func (p *program) pos(b *textbuf.Buffer) textbuf.Pos {
	return textbuf.Pos{Line: p.next()%(len(b.Lines())+2) - 1, Col: p.next()%40 - 1}
}

// step runs one operation: an edit (its change and whether it changed
// anything) or a move (edit false).
func (p *program) step(b *textbuf.Buffer) (name string, c textbuf.Change, ok, edit bool) {
	plain := []struct {
		name string
		do   func() (textbuf.Change, bool)
	}{
		{"Newline", b.Newline}, {"Backspace", b.Backspace}, {"Delete", b.Delete},
		{"Undo", b.Undo}, {"Redo", b.Redo}, {"Insert nothing", func() (textbuf.Change, bool) { return b.Insert("") }},
	}
	switch op := p.next() % 16; {
	case op < 3:
		r := alphabet[p.next()%len(alphabet)]
		c, ok = b.Type(r)
		return "Type " + string(r), c, ok, true
	case op == 3:
		s := p.text(false)
		c, ok = b.Insert(s)
		return "Insert " + s, c, ok, true
	case op == 4:
		s := p.text(true)
		c, ok = b.Paste(s)
		return "Paste " + s, c, ok, true
	case op == 5:
		outdent := p.next()%2 == 1
		c, ok = b.Tab(outdent)
		return fmt.Sprintf("Tab(%v)", outdent), c, ok, true
	case op < 6+len(plain):
		e := plain[op-6]
		c, ok = e.do()
		return e.name, c, ok, true
	case op == 12:
		b.MoveTo(p.pos(b), p.next()%2 == 1)
		return "MoveTo", c, false, false
	case op == 13:
		moves := []func() textbuf.Pos{b.Left, b.Right, b.Home, b.LineEnd, b.End, b.WordLeft, b.WordRight,
			func() textbuf.Pos { return b.Vertical(-1) }, func() textbuf.Pos { return b.Vertical(3) }}
		m := p.next()
		b.MoveTo(moves[m%len(moves)](), m&0x80 != 0)
		return "move", c, false, false
	case op == 14:
		b.SelectWord(p.pos(b))
		return "SelectWord", c, false, false
	default:
		b.SelectAll()
		return "SelectAll", c, false, false
	}
}

// checkValid fails unless b's lines and positions keep the invariants.
func checkValid(t *testing.T, b *textbuf.Buffer, after string) {
	t.Helper()
	lines := b.Lines()
	if len(lines) == 0 {
		t.Fatalf("after %s: no lines", after)
	}
	for i, l := range lines {
		if strings.Contains(l, "\n") {
			t.Fatalf("after %s: line %d holds a newline: %q", after, i, l)
		}
	}
	from, to, _ := b.Selection()
	for _, p := range []textbuf.Pos{b.Cursor(), from, to} {
		if p.Line < 0 || p.Line >= len(lines) || p.Col < 0 || p.Col > len(lines[p.Line]) {
			t.Fatalf("after %s: position %v outside the text %q", after, p, lines)
		}
	}
	if to.Before(from) {
		t.Fatalf("after %s: selection %v to %v runs backwards", after, from, to)
	}
	if text := b.Text(); !strings.Contains(text, "\r") {
		if got := textbuf.New(text).Text(); got != text {
			t.Fatalf("after %s: New(Text()).Text() = %q; want %q", after, got, text)
		}
	}
}

// checkChange fails unless c describes how the lines went from before to
// after: only lines c.Line:c.Line+c.Removed were replaced, by c.Added lines.
func checkChange(t *testing.T, name string, before, after []string, c textbuf.Change, ok bool) {
	t.Helper()
	if !ok {
		if !slices.Equal(before, after) {
			t.Fatalf("%s reported no change but the lines went from %q to %q", name, before, after)
		}
		return
	}
	if c.Line < 0 || c.Removed < 1 || c.Added < 1 || c.Line+c.Removed > len(before) ||
		len(after) != len(before)-c.Removed+c.Added {
		t.Fatalf("%s: change %+v does not fit %d lines becoming %d", name, c, len(before), len(after))
	}
	if !slices.Equal(before[:c.Line], after[:c.Line]) || !slices.Equal(before[c.Line+c.Removed:], after[c.Line+c.Added:]) {
		t.Fatalf("%s: change %+v, but lines outside it changed: %q → %q", name, c, before, after)
	}
}

// FuzzBuffer runs random edits, moves, undos and redos on a text: the
// positions stay inside it, every edit's Change says which lines it
// touched, Text round-trips through New, and once every undone edit is
// redone, undoing everything gives back the text and redoing everything
// the edited one.
func FuzzBuffer(f *testing.F) {
	f.Add("func f() {\n\treturn 1\n}\n", []byte{12, 1, 10, 0, 'x', 0, 'y', 5, 8, 0, 9, 10, 6, 7})
	f.Add("", []byte{0, 4, 0, 6, 5, 0, 2, 9, 9, 10})
	f.Add("a\r\nb\r\n", []byte{15, 4, 0x85, 11, 9, 12, 2, 3, 1, 8, 1})
	f.Add("    indented\n\tline\n", []byte{15, 8, 1, 8, 1, 8, 0, 9, 9, 9, 10, 10})
	f.Add("alpha beta.gamma\nδ世界\n", []byte{13, 6, 13, 0x86, 3, 7, 14, 1, 9, 6, 0, 3, 9, 10})
	f.Add("x\n", []byte{15, 6, 9, 10, 0, 0, 1, 4, 2, 8, 11})
	f.Fuzz(func(t *testing.T, text string, code []byte) {
		if len(code) > 300 {
			code = code[:300]
		}
		b := textbuf.New(text)
		orig := b.Text()
		if !strings.Contains(text, "\r") && orig != text {
			t.Fatalf("New(%q).Text() = %q; want it back", text, orig)
		}
		checkValid(t, b, "New")
		p := &program{code: code}
		for !p.done() {
			before := slices.Clone(b.Lines())
			name, c, ok, edit := p.step(b)
			checkValid(t, b, name)
			if !edit && !slices.Equal(before, b.Lines()) {
				t.Fatalf("%s moved the cursor and changed the lines %q to %q", name, before, b.Lines())
			}
			checkChange(t, name, before, b.Lines(), c, ok)
		}
		untilDone := func(name string, op func() (textbuf.Change, bool)) {
			for range len(code) + 1 { // each edit of the program once at most
				if _, ok := op(); !ok {
					return
				}
				checkValid(t, b, name)
			}
		}
		untilDone("Redo", b.Redo) // what the program undid, so that redo has nothing left
		edited := b.Text()
		untilDone("Undo", b.Undo)
		if got := b.Text(); got != orig {
			t.Fatalf("after undoing everything the text is %q; want %q", got, orig)
		}
		untilDone("Redo", b.Redo)
		if got := b.Text(); got != edited {
			t.Fatalf("after redoing everything the text is %q; want %q", got, edited)
		}
	})
}
