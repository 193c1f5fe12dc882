package diffview

import (
	"fmt"
	"strings"
	"testing"
)

// drawAll draws every row of v without build's guard, so that a panic in
// drawing fails the test instead of showing a row as unavailable.
func drawAll(t *testing.T, v *DiffView, what string) {
	t.Helper()
	r := newDiffRow(&v.parts)
	for id := range v.model.Len() {
		r.id = id
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("%s: drawing row %d panicked: %v", what, id, p)
				}
			}()
			r.draw()
		}()
	}
}

// rowShapes are the file shapes that broke drawing before: a new file, a
// deleted one, empty texts, CRLF, no final newline, moved blocks.
var rowShapes = [][2]string{
	{"", "package main\n\nfunc main() {}\n"},    // new file
	{"package main\n\nfunc main() {}\n", ""},    // deleted
	{"", ""},                                    // empty
	{"", "one line, no newline"},                // new, no final newline
	{"a\r\nb\r\nc\r\n", "a\r\nB\r\nc\r\nd\r\n"}, // CRLF
	{"a\nb\nc", "a\nb\nC"},                      // no final newline
	{"x\n", "y\r\nz\r\n"},                       // ending changed with the text
	{"a\nb\n", "a\nb\nc\nd\n"},                  // pure insertion at the end
	{"a\nb\nc\nd\n", "c\nd\n"},                  // pure deletion at the start
	{"\tif x {\n\t\treturn\n\t}\n", "    if x {\n        return\n    }\n"}, // whitespace only
	{numbered(30, nil), numbered(30, func(k int) string { // a moved block
		return fmt.Sprintf("line %d\n", (k+10)%30)
	})},
}

// TestEveryRowDrawsInEveryLayout: pressing i on a new file's proposal
// ended the window's process (and every waiting agent's connection): the
// inline line-ending note read the line an inserted row "replaced" when it
// replaced none. Every row of every shape draws in every layout.
func TestEveryRowDrawsInEveryLayout(t *testing.T) {
	v, _ := newTestView(t, 900, 300)
	for _, sh := range rowShapes {
		forEachLayout(v, func(layout string) {
			v.SetTexts("a.go", sh[0], sh[1])
			drawAll(t, v, fmt.Sprintf("%q → %q, %s", sh[0], sh[1], layout))
		})
	}
}

// forEachLayout calls fn under every combination of the view's toggles.
func forEachLayout(v *DiffView, fn func(layout string)) {
	for mask := range 16 {
		inline, wrap, ws, fold := mask&1 != 0, mask&2 != 0, mask&4 != 0, mask&8 != 0
		v.SetInline(inline)
		v.SetWrap(wrap)
		v.SetIgnoreWhitespace(ws)
		v.Folds().Collapse(fold)
		fn(fmt.Sprintf("inline %v wrap %v ignore-ws %v fold %v", inline, wrap, ws, fold))
	}
	v.SetInline(false)
	v.SetWrap(false)
	v.SetIgnoreWhitespace(false)
	v.Folds().Collapse(false)
}

// TestARowThatPanicsIsShownAsUnavailable: a panic while drawing a row is
// caught by build, the row says it could not be drawn, and the view goes on.
func TestARowThatPanicsIsShownAsUnavailable(t *testing.T) {
	v, _ := newTestView(t, 900, 300)
	v.SetTexts("a.go", "a\n", "b\n")
	r := newDiffRow(&v.parts)
	r.id = 0
	v.model = nil // drawing with no row model panics
	func() {
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("build let a panic through: %v", p)
			}
		}()
		r.build()
	}()
	found := false
	for _, txt := range r.texts[:r.nText] {
		found = found || strings.Contains(txt.Text, "could not be drawn")
	}
	if !found {
		t.Error("the row that panicked does not say it could not be drawn")
	}
}

// FuzzRowDrawing: random texts built from lines that stress the row model
// (blank, CRLF, tabs, no final newline, repeated lines) draw in every
// layout without a panic.
func FuzzRowDrawing(f *testing.F) {
	for _, sh := range rowShapes {
		f.Add(sh[0], sh[1])
	}
	v, _ := newTestView(&testing.T{}, 900, 300)
	f.Fuzz(func(t *testing.T, old, new string) {
		if len(old) > 4000 || len(new) > 4000 {
			return
		}
		forEachLayout(v, func(layout string) {
			v.SetTexts("a.go", old, new)
			drawAll(t, v, layout)
		})
	})
}
