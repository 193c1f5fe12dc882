package diffview

import (
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2/theme"
)

// noteAt returns the note text drawn on the row of line b (0-based) of the
// right side and its x, or "" when none.
func noteAt(v *DiffView, b int, note string) (string, float32) {
	r := newDiffRow(&v.parts)
	r.id = v.model.RowOfB(b)
	r.build()
	for _, txt := range r.texts[:r.nText] {
		if txt.Text == note {
			return txt.Text, txt.Position().X
		}
	}
	return "", 0
}

// TestHunkNotes: a note shows at its hunk's first row, on the right side
// when the line there leaves room, on the left when only that side does;
// SetTexts clears the notes.
func TestHunkNotes(t *testing.T) {
	v, _ := newTestView(t, 900, 300)
	long := strings.Repeat("word ", 30)
	old := "a\nb\nc\n" + "short\n"
	new := "a\nB\nc\n" + long + "\n"
	v.SetTexts("a.txt", old, new)
	hs := v.Hunks()
	if len(hs) != 2 {
		t.Fatalf("%d hunks; want 2", len(hs))
	}
	v.Marks().SetNotes(map[string]HunkNote{hs[0].ID: {Text: "comment only"}, hs[1].ID: {Text: "whitespace only", Done: true}})
	xR := v.metric.leftW + v.metric.gutW + v.metric.numW
	if got, x := noteAt(v, 1, "comment only"); got == "" || x < xR {
		t.Errorf("the short line's note: %q at x %v; want it on the right side (x ≥ %v)", got, x, xR)
	}
	if got, x := noteAt(v, 3, "whitespace only"); got == "" || x >= xR {
		t.Errorf("the long line's note: %q at x %v; want it on the left side, which has room", got, x)
	}
	if v.Marks().Note(hs[0].ID).Text != "comment only" || !v.Marks().Note(hs[1].ID).Done {
		t.Errorf("Note = %+v, %+v", v.Marks().Note(hs[0].ID), v.Marks().Note(hs[1].ID))
	}
	v.SetTexts("a.txt", old, new)
	if got, _ := noteAt(v, 1, "comment only"); got != "" || v.Marks().Note(hs[0].ID).Text != "" {
		t.Error("SetTexts kept the notes")
	}
}

// A note never sits closer than two cells to the end of the line it is
// drawn beside, at any line length (it was flush against the text at one).
func TestHunkNoteKeepsClearOfTheText(t *testing.T) {
	v, _ := newTestView(t, 900, 300)
	v.SetTexts("a.txt", "a\nb\n", "a\nb\n")
	mt := v.metric
	note := "formatting only"
	per := int(mt.sideW / mt.cell)
	for n := per - 30; n < per; n++ {
		right := strings.Repeat("x", n)
		v.SetTexts("a.txt", "a\nb\n", "a\n"+right+"\n")
		v.Marks().SetNotes(map[string]HunkNote{v.Hunks()[0].ID: {Text: note}})
		_, x := noteAt(v, 1, note)
		xR := mt.leftW + mt.gutW + mt.numW
		end := xR + padText + float32(n)*mt.cell // where the right line's text ends
		if x >= xR && x-end < 2*mt.cell-0.01 {
			t.Fatalf("line of %d cells: the note starts %.1f px after the text; want two cells (%.1f px) at least", n, x-end, 2*mt.cell)
		}
	}
}

// TestEOLNotes: a changed line whose ending changed says how, beside a
// change of its text too; in inline layout on the added line; a hunk's own
// note takes its first row.
func TestEOLNotes(t *testing.T) {
	v, _ := newTestView(t, 900, 300)
	for _, tt := range []struct {
		old, new string
		line     int // 0-based, right side
		note     string
	}{
		{"alpha\ngamma", "ALPHA\ngamma\n", 1, "newline added at end of file"},
		{"alpha\ngamma\n", "ALPHA\nGAMMA", 1, "newline removed at end of file"},
		{"a\r\nb\r\n", "A\nb\n", 0, "line ending CRLF → LF"},
		{"a\nb\n", "a\r\nB\r\n", 1, "line ending LF → CRLF"},
	} {
		for _, inline := range []bool{false, true} {
			v.SetInline(inline)
			v.SetTexts("a.txt", tt.old, tt.new)
			if got, _ := noteAt(v, tt.line, tt.note); got == "" {
				t.Errorf("%q → %q (inline %v): no %q on line %d", tt.old, tt.new, inline, tt.note, tt.line+1)
			}
		}
	}
	v.SetInline(false)
	v.SetTexts("a.txt", "a\nb\n", "A\nb\n") // same endings: no note
	if got, _ := noteAt(v, 0, "line ending LF → CRLF"); got != "" {
		t.Error("a note on a line whose ending did not change")
	}
	for _, txt := range func() []string {
		r := newDiffRow(&v.parts)
		r.id = v.model.RowOfB(0)
		r.build()
		var s []string
		for _, t := range r.texts[:r.nText] {
			s = append(s, t.Text)
		}
		return s
	}() {
		if strings.Contains(txt, "newline") || strings.Contains(txt, "line ending") {
			t.Errorf("a line whose ending did not change says %q", txt)
		}
	}
	v.SetTexts("a.txt", "x\nlast", "x\nlast\n")
	v.Marks().SetNotes(map[string]HunkNote{v.Hunks()[0].ID: {Text: "newline at end of file only"}})
	if got, _ := noteAt(v, 1, "newline added at end of file"); got != "" {
		t.Error("the line-ending note drawn over the hunk's own note")
	}
}

// TestHunkNoteBesideAWrappedLinesEnd: with wrap, a line filling its first
// visual line on both sides gets its note beside its last visual line,
// not over its text (real window, 1024x700: "comment only" hid the word
// "number" of "// Func114 does thing number 114.").
func TestHunkNoteBesideAWrappedLinesEnd(t *testing.T) {
	v, _ := newTestView(t, 900, 300)
	v.SetWrap(true)
	mt := v.metric
	per := int(mt.sideW / mt.cell)
	long := strings.Repeat("w", per-3) + " tail"
	v.SetTexts("a.txt", "a\n"+long+"\n", "a\n"+long+" // more\n")
	note := "comment only"
	v.Marks().SetNotes(map[string]HunkNote{v.Hunks()[0].ID: {Text: note}})
	r := newDiffRow(&v.parts)
	r.id = v.model.RowOfB(1)
	r.build()
	for _, txt := range r.texts[:r.nText] {
		if txt.Text != note {
			continue
		}
		if txt.Position().Y < mt.line {
			t.Errorf("note at y %v; want it on the wrapped line's last visual line (y ≥ %v), clear of the first", txt.Position().Y, mt.line)
		}
		return
	}
	t.Fatal("no note drawn")
}

// TestHunkNoteHidesNoChange: with both lines past the note on either side,
// the note goes over the side whose change it would not hide (real window,
// 1024x700: "comment only" covered the right side's " // edited 0", the
// whole change, while the left side had no emphasis to hide).
func TestHunkNoteHidesNoChange(t *testing.T) {
	v, _ := newTestView(t, 900, 300)
	mt := v.metric
	per := int(mt.sideW / mt.cell)
	line := "// " + strings.Repeat("w", per-8)
	v.SetTexts("a.go", "a\n"+line+"\n", "a\n"+line+" // edited\n")
	note := "comment only"
	v.Marks().SetNotes(map[string]HunkNote{v.Hunks()[0].ID: {Text: note}})
	xR := mt.leftW + mt.gutW + mt.numW
	if got, x := noteAt(v, 1, note); got == "" || x >= xR {
		t.Errorf("note %q at x %v; want it on the left side (x < %v): on the right it hides the change", got, x, xR)
	}
}

// TestGoToLineMarksTheLine: the number of the line go-to-line went to
// stands out in the primary colour, so the eye finds it; new texts forget
// it.
func TestGoToLineMarksTheLine(t *testing.T) {
	v, _ := newTestView(t, 900, 300)
	v.SetTexts("a.txt", "a\nb\nc\nd\n", "a\nB\nc\nd\n")
	marked := func(line int) bool {
		r := newDiffRow(&v.parts)
		r.id = v.model.RowOfB(line)
		r.build()
		for _, txt := range r.texts[:r.nText] {
			if txt.Text == strconv.Itoa(line+1) && txt.Color == theme.Color(theme.ColorNamePrimary) {
				return true
			}
		}
		return false
	}
	if marked(2) {
		t.Fatal("line 3 marked before go-to-line")
	}
	if !v.Nav().GoToLine(3) || !marked(2) || marked(1) {
		t.Errorf("after GoToLine(3): line 3 marked %v, line 2 marked %v; want line 3 alone", marked(2), marked(1))
	}
	v.SetTexts("a.txt", "a\nb\nc\nd\n", "a\nB\nc\nD\n")
	if marked(2) {
		t.Error("new texts kept the mark")
	}
}
