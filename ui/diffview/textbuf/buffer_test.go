package textbuf_test

import (
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/ui/diffview/textbuf"
)

// parse returns a buffer holding s without its marks: the cursor at "|"
// and, for a selection, its anchor at "^".
func parse(t *testing.T, s string) *textbuf.Buffer {
	t.Helper()
	cur, anchor := markAt(t, s, "|"), Pos(-1, -1)
	if strings.Contains(s, "^") {
		anchor = markAt(t, s, "^")
	}
	b := textbuf.New(strings.NewReplacer("|", "", "^", "").Replace(s))
	if anchor.Line >= 0 {
		b.MoveTo(anchor, false)
		b.MoveTo(cur, true)
	} else {
		b.MoveTo(cur, false)
	}
	return b
}

// Pos is a shorter textbuf.Pos{Line: line, Col: col}.
func Pos(line, col int) textbuf.Pos { return textbuf.Pos{Line: line, Col: col} }

// markAt returns where mark is in s once both marks are taken out.
func markAt(t *testing.T, s, mark string) textbuf.Pos {
	t.Helper()
	i := strings.Index(s, mark)
	if i < 0 {
		t.Fatalf("no %q in %q", mark, s)
	}
	before := strings.NewReplacer("|", "", "^", "").Replace(s[:i])
	line := strings.Count(before, "\n")
	return Pos(line, len(before)-strings.LastIndexByte(before, '\n')-1)
}

// show returns b's lines joined by "\n" with "|" at the cursor and, when
// there is a selection, "^" at its anchor.
func show(b *textbuf.Buffer) string {
	lines := append([]string(nil), b.Lines()...)
	cur := b.Cursor()
	from, to, ok := b.Selection()
	anchor := from
	if cur == from {
		anchor = to
	}
	put := func(p textbuf.Pos, mark string) {
		l := lines[p.Line]
		lines[p.Line] = l[:p.Col] + mark + l[p.Col:]
	}
	switch {
	case !ok:
		put(cur, "|")
	case cur.Before(anchor):
		put(anchor, "^")
		put(cur, "|")
	default:
		put(cur, "|")
		put(anchor, "^")
	}
	return strings.Join(lines, "\n")
}

func TestNewTextRoundTrips(t *testing.T) {
	tests := []struct{ text, want string }{
		{"", ""},
		{"\n", "\n"},
		{"a", "a"},
		{"a\n", "a\n"},
		{"a\n\nb\n", "a\n\nb\n"},
		{"a\r\nb\r\n", "a\nb\n"},
		{"a\r", "a"},
		{"a\rb\n", "a\rb\n"},
	}
	for _, tc := range tests {
		if got := textbuf.New(tc.text).Text(); got != tc.want {
			t.Errorf("New(%q).Text() = %q; want %q", tc.text, got, tc.want)
		}
	}
}

func TestNewLinesEndWithAnEmptyLineAfterAFinalNewline(t *testing.T) {
	b := textbuf.New("a\nb\n")
	if got := strings.Join(b.Lines(), ","); got != "a,b," {
		t.Errorf("Lines = %q; want a, b and an empty last line", b.Lines())
	}
	if b.Cursor() != (textbuf.Pos{}) {
		t.Errorf("Cursor = %v; want the start", b.Cursor())
	}
}

func TestEdits(t *testing.T) {
	type op = func(b *textbuf.Buffer) (textbuf.Change, bool)
	typeX := func(b *textbuf.Buffer) (textbuf.Change, bool) { return b.Type('X') }
	insert := func(s string) op { return func(b *textbuf.Buffer) (textbuf.Change, bool) { return b.Insert(s) } }
	paste := func(s string) op { return func(b *textbuf.Buffer) (textbuf.Change, bool) { return b.Paste(s) } }
	tab := func(outdent bool) op { return func(b *textbuf.Buffer) (textbuf.Change, bool) { return b.Tab(outdent) } }
	newline := (*textbuf.Buffer).Newline
	backspace := (*textbuf.Buffer).Backspace
	del := (*textbuf.Buffer).Delete
	none := textbuf.Change{}
	tests := []struct {
		name, before string
		do           op
		after        string
		change       textbuf.Change // none: the edit changes nothing
	}{
		{"type", "ab|c", typeX, "abX|c", textbuf.Change{Line: 0, Removed: 1, Added: 1}},
		{"type replaces the selection", "a^bc|d", typeX, "aX|d", textbuf.Change{Line: 0, Removed: 1, Added: 1}},
		{"insert lines", "x\na|b", insert("1\n2"), "x\na1\n2|b", textbuf.Change{Line: 1, Removed: 1, Added: 2}},
		{"insert over lines", "a^b\nc|d", insert("X"), "aX|d", textbuf.Change{Line: 0, Removed: 2, Added: 1}},
		{"insert nothing", "a|b", insert(""), "a|b", none},
		{"insert nothing deletes the selection", "a|bc^d", insert(""), "a|d", textbuf.Change{Line: 0, Removed: 1, Added: 1}},
		{"paste CRLF", "|", paste("x\r\ny"), "x\ny|", textbuf.Change{Line: 0, Removed: 1, Added: 2}},
		{"paste nothing keeps the selection", "^ab|", paste(""), "^ab|", none},
		{"newline keeps the indent", "\tx|y", newline, "\tx\n\t|y", textbuf.Change{Line: 0, Removed: 1, Added: 2}},
		{"newline in the indent", "  |  x", newline, "  \n  |  x", textbuf.Change{Line: 0, Removed: 1, Added: 2}},
		{"backspace", "ab|c", backspace, "a|c", textbuf.Change{Line: 0, Removed: 1, Added: 1}},
		{"backspace a rune", "aé|", backspace, "a|", textbuf.Change{Line: 0, Removed: 1, Added: 1}},
		{"backspace joins lines", "a\n|b", backspace, "a|b", textbuf.Change{Line: 0, Removed: 2, Added: 1}},
		{"backspace at the start", "|ab", backspace, "|ab", none},
		{"backspace deletes the selection", "^ab|c", backspace, "|c", textbuf.Change{Line: 0, Removed: 1, Added: 1}},
		{"delete", "a|bc", del, "a|c", textbuf.Change{Line: 0, Removed: 1, Added: 1}},
		{"delete joins lines", "a|\nb", del, "a|b", textbuf.Change{Line: 0, Removed: 2, Added: 1}},
		{"delete at the end", "ab|", del, "ab|", none},
		{"tab", "a|b", tab(false), "a\t|b", textbuf.Change{Line: 0, Removed: 1, Added: 1}},
		{"tab indents the selected lines", "^a\n\nb\n|c", tab(false), "^\ta\n\n\tb|\nc", textbuf.Change{Line: 0, Removed: 3, Added: 3}},
		{"shift+tab outdents a tab or spaces", "^\ta\n      b\n  c|", tab(true), "^a\n  b\nc|", textbuf.Change{Line: 0, Removed: 3, Added: 3}},
		{"shift+tab without a selection", "x\n  \ty|", tab(true), "x\n^\ty|", textbuf.Change{Line: 1, Removed: 1, Added: 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := parse(t, tc.before)
			c, ok := tc.do(b)
			if got := show(b); got != tc.after {
				t.Errorf("%q: text %q; want %q", tc.before, got, tc.after)
			}
			if want := tc.change != none; ok != want || c != tc.change {
				t.Errorf("%q: change %+v, %v; want %+v, %v", tc.before, c, ok, tc.change, want)
			}
		})
	}
}

func TestUndoRedo(t *testing.T) {
	typeText := func(b *textbuf.Buffer, s string) {
		for _, r := range s {
			b.Type(r)
		}
	}
	undo := func(b *textbuf.Buffer) { b.Undo() }
	redo := func(b *textbuf.Buffer) { b.Redo() }
	tests := []struct {
		name, before string
		steps        []func(b *textbuf.Buffer)
		after        string
	}{
		{"a typed run undoes at once", "x|y", []func(*textbuf.Buffer){
			func(b *textbuf.Buffer) { typeText(b, "abc") }, undo}, "x|y"},
		{"redo types the run again", "x|y", []func(*textbuf.Buffer){
			func(b *textbuf.Buffer) { typeText(b, "abc") }, undo, redo}, "xabc|y"},
		{"a space starts a run", "|", []func(*textbuf.Buffer){
			func(b *textbuf.Buffer) { typeText(b, "ab cd") }, undo}, "ab|"},
		{"a move ends a run", "|", []func(*textbuf.Buffer){
			func(b *textbuf.Buffer) { typeText(b, "ab") },
			func(b *textbuf.Buffer) { b.MoveTo(b.Cursor(), false) },
			func(b *textbuf.Buffer) { typeText(b, "c") }, undo}, "ab|"},
		{"a paste is its own edit", "|", []func(*textbuf.Buffer){
			func(b *textbuf.Buffer) { typeText(b, "a") },
			func(b *textbuf.Buffer) { b.Paste("b") }, undo}, "a|"},
		{"undo puts the cursor where it was", "ab|c", []func(*textbuf.Buffer){
			func(b *textbuf.Buffer) { b.MoveTo(textbuf.Pos{}, true) },
			func(b *textbuf.Buffer) { b.Insert("X") }, undo}, "|abc"},
		{"undo and redo of a newline", "a|b", []func(*textbuf.Buffer){
			func(b *textbuf.Buffer) { b.Newline() }, undo, redo}, "a\n|b"},
		{"an edit drops what was undone", "|", []func(*textbuf.Buffer){
			func(b *textbuf.Buffer) { typeText(b, "a") }, undo,
			func(b *textbuf.Buffer) { typeText(b, "b") }, redo}, "b|"},
		{"undo of a tab over lines", "^a\nb|", []func(*textbuf.Buffer){
			func(b *textbuf.Buffer) { b.Tab(false) }, undo}, "a\nb|"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := parse(t, tc.before)
			for _, step := range tc.steps {
				step(b)
			}
			if got := show(b); got != tc.after {
				t.Errorf("%q: text %q; want %q", tc.before, got, tc.after)
			}
		})
	}
}

func TestUndoRedoWithNothingToDo(t *testing.T) {
	b := parse(t, "a|b")
	if c, ok := b.Undo(); ok {
		t.Errorf("Undo of a new buffer = %+v, true; want false", c)
	}
	if c, ok := b.Redo(); ok {
		t.Errorf("Redo of a new buffer = %+v, true; want false", c)
	}
}

func TestMoves(t *testing.T) {
	type move = func(b *textbuf.Buffer) textbuf.Pos
	vertical := func(n int) move { return func(b *textbuf.Buffer) textbuf.Pos { return b.Vertical(n) } }
	tests := []struct {
		name, text string
		move       move
		want       textbuf.Pos
	}{
		{"left", "ab|", (*textbuf.Buffer).Left, Pos(0, 1)},
		{"left over a rune", "é|", (*textbuf.Buffer).Left, Pos(0, 0)},
		{"left to the line before", "ab\n|c", (*textbuf.Buffer).Left, Pos(0, 2)},
		{"left at the start", "|a", (*textbuf.Buffer).Left, Pos(0, 0)},
		{"right over a rune", "|éa", (*textbuf.Buffer).Right, Pos(0, 2)},
		{"right to the next line", "a|\nb", (*textbuf.Buffer).Right, Pos(1, 0)},
		{"right at the end", "a|", (*textbuf.Buffer).Right, Pos(0, 1)},
		{"down keeps the cell after a tab", "\tx|\nabcdefg", vertical(1), Pos(1, 5)},
		{"down into a tab", "abcde|\n\tx", vertical(1), Pos(1, 2)},
		{"down to a shorter line", "abc|\nx", vertical(1), Pos(1, 1)},
		{"down under wide runes keeps the cell", "abcd|\n价格x", vertical(1), Pos(1, 6)},
		{"up from wide runes keeps the cell", "abcdef\n价格|", vertical(-1), Pos(0, 4)},
		{"up past the first line", "a\nb|", vertical(-5), Pos(0, 1)},
		{"down past the last line", "a|\nb", vertical(5), Pos(1, 1)},
		{"home to the first non-blank", "  a|b", (*textbuf.Buffer).Home, Pos(0, 2)},
		{"home again to column 0", "  |ab", (*textbuf.Buffer).Home, Pos(0, 0)},
		{"line end", "a|b\nc", (*textbuf.Buffer).LineEnd, Pos(0, 2)},
		{"end of the text", "a|\nbc", (*textbuf.Buffer).End, Pos(1, 2)},
		{"word right", "|alpha beta.gamma", (*textbuf.Buffer).WordRight, Pos(0, 5)},
		{"word right over a space", "alpha| beta.gamma", (*textbuf.Buffer).WordRight, Pos(0, 10)},
		{"word right over punctuation", "alpha beta|.gamma", (*textbuf.Buffer).WordRight, Pos(0, 16)},
		{"word right to the next line", "ab|\ncd", (*textbuf.Buffer).WordRight, Pos(1, 0)},
		{"word left", "alpha beta.gamma|", (*textbuf.Buffer).WordLeft, Pos(0, 11)},
		{"word left over punctuation", "alpha beta.|gamma", (*textbuf.Buffer).WordLeft, Pos(0, 6)},
		{"word left to the line before", "ab\n|cd", (*textbuf.Buffer).WordLeft, Pos(0, 2)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.move(parse(t, tc.text)); got != tc.want {
				t.Errorf("%q: %v; want %v", tc.text, got, tc.want)
			}
		})
	}
}

func TestMoveToClampsAndSelects(t *testing.T) {
	tests := []struct {
		name, before string
		to           textbuf.Pos
		sel          bool
		after        string
	}{
		{"past the end", "|ab\nc", Pos(5, 9), false, "ab\nc|"},
		{"before the start", "ab|", Pos(-1, -1), false, "|ab"},
		{"past a line's end", "|ab\nc", Pos(0, 7), false, "ab|\nc"},
		{"selecting", "a|bc", Pos(0, 3), true, "a^bc|"},
		{"selecting backwards", "ab|c", Pos(0, 0), true, "|ab^c"},
		{"dropping the selection", "^ab|c", Pos(0, 1), false, "a|bc"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := parse(t, tc.before)
			b.MoveTo(tc.to, tc.sel)
			if got := show(b); got != tc.after {
				t.Errorf("%q: MoveTo(%v, %v) = %q; want %q", tc.before, tc.to, tc.sel, got, tc.after)
			}
		})
	}
}

func TestSelect(t *testing.T) {
	tests := []struct {
		name, before string
		do           func(b *textbuf.Buffer)
		after, sel   string
	}{
		{"all", "a|\nb", (*textbuf.Buffer).SelectAll, "^a\nb|", "a\nb"},
		{"a word", "|foo_bar1 baz", func(b *textbuf.Buffer) { b.SelectWord(Pos(0, 2)) }, "^foo_bar1| baz", "foo_bar1"},
		{"the word ending there", "|foo baz", func(b *textbuf.Buffer) { b.SelectWord(Pos(0, 3)) }, "^foo| baz", "foo"},
		{"a character outside words", "|a  b", func(b *textbuf.Buffer) { b.SelectWord(Pos(0, 2)) }, "a ^ |b", " "},
		{"a rune outside words", "|x — y", func(b *textbuf.Buffer) { b.SelectWord(Pos(0, 2)) }, "x ^—| y", "—"},
		{"past the end: the last word", "|a—b", func(b *textbuf.Buffer) { b.SelectWord(Pos(9, 9)) }, "a—^b|", "b"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := parse(t, tc.before)
			tc.do(b)
			if got := show(b); got != tc.after {
				t.Errorf("%q: %q; want %q", tc.before, got, tc.after)
			}
			if got := b.Selected(); got != tc.sel {
				t.Errorf("%q: Selected = %q; want %q", tc.before, got, tc.sel)
			}
		})
	}
}

func TestWidth(t *testing.T) {
	tests := []struct {
		s    string
		want int
	}{
		{"", 0},
		{"abc", 3},
		{"\t", textbuf.TabWidth},
		{"a\tb", textbuf.TabWidth + 1},
		{"abcd\t", 2 * textbuf.TabWidth},
		{"é世", 3},      // é one cell, 世 two (East Asian wide)
		{"e\u0301", 1}, // a combining accent takes no cell
		{"한\t", 4},     // a tab after a wide syllable reaches the next stop
		{"ｘ\u200d", 2}, // fullwidth x, zero-width joiner
	}
	for _, tc := range tests {
		if got := textbuf.Width(tc.s); got != tc.want {
			t.Errorf("Width(%q) = %d; want %d", tc.s, got, tc.want)
		}
	}
}
