package diffview

import (
	"image/color"
	"maps"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/engine/words"
)

// HunkNote is a short note at a hunk's first row, e.g. "comment only";
// Done draws it in the success colour (the person has dealt with it).
type HunkNote struct {
	Text string
	Done bool
}

// SetNotes shows a note at the first row of each hunk it names (hunk
// ID → note), at the right edge of a side; nil shows none. SetTexts clears
// them.
func (mk *Marks) SetNotes(notes map[string]HunkNote) {
	if maps.Equal(notes, mk.notes) {
		return // nothing to redraw
	}
	mk.notes = notes
	mk.host.redrawRows()
}

// Note returns the note shown at the hunk with the given ID.
func (mk *Marks) Note(id string) HunkNote { return mk.notes[id] }

// hunkNote draws the note of the hunk row rw heads, if it has one, over a
// patch of the view's background: at the right edge of the right side,
// unless the line there reaches under it and the left side's line leaves
// room (a note must not hide the change it describes); with neither
// leaving room, over the side whose word spans it does not hide; with
// wrap, beside the line's last visual line.
func (r *diffRow) hunkNote(rw row, xTextL, xTextR float32, inline bool) {
	v := r.p
	if !rw.head || len(v.marks.notes) == 0 || v.streaming() || v.Editor() != nil {
		return
	}
	n := v.marks.notes[v.hunkID(rw.hunk)]
	if n.Text == "" {
		return
	}
	colour := theme.Color(theme.ColorNamePrimary)
	if n.Done {
		colour = theme.Color(theme.ColorNameSuccess)
	}
	r.note(rw, n.Text, colour, xTextL, xTextR, inline)
}

// eolNote says, on a changed row whose two lines end differently, how
// ("newline added at end of file", "line ending CRLF → LF"): without it a
// line whose only change is its ending looks unchanged, and a change of
// ending beside a change of text goes unseen. A hunk's own note, drawn on
// its first row, says it instead there.
func (r *diffRow) eolNote(rw row, xTextL, xTextR float32, inline bool) {
	v := r.p
	a, b := rw.a, rw.b
	if inline && rw.kind == rowInserted {
		a = rw.wa // the line it replaced is on a row above (-1: it replaced none)
	}
	if a < 0 || b < 0 || rw.kind != rowChanged && rw.kind != rowInserted || inline && rw.kind == rowChanged {
		return
	}
	if v.streaming() || v.Editor() != nil || rw.head && v.marks.notes[v.hunkID(rw.hunk)].Text != "" {
		return
	}
	if note := eolChange(v.shown().a.rawLine(a), v.shown().b.rawLine(b)); note != "" {
		r.note(rw, note, theme.Color(theme.ColorNameWarning), xTextL, xTextR, inline)
	}
}

// eolChange describes how line b ends differently from line a, both with
// their line endings; "" if they end alike.
func eolChange(a, b string) string {
	ea, eb := eol(a), eol(b)
	switch {
	case ea == eb:
		return ""
	case ea == "":
		return "newline added at end of file"
	case eb == "":
		return "newline removed at end of file"
	}
	return "line ending " + engine.EOLName(ea) + " → " + engine.EOLName(eb)
}

// eol is line l's ending: "\r\n", "\n" or "" (the file's last line).
func eol(l string) string {
	switch {
	case strings.HasSuffix(l, "\r\n"):
		return "\r\n"
	case strings.HasSuffix(l, "\n"):
		return "\n"
	}
	return ""
}

// note draws text at the right edge of row rw's right side over a patch
// of the view's background, unless the line there reaches under it and
// the left side's line leaves room (a note must not hide the change it
// describes).
func (r *diffRow) note(rw row, note string, colour color.Color, xTextL, xTextR float32, inline bool) {
	v := r.p
	mt := v.metric
	const scale = 0.85
	w := float32(utf8.RuneCountInString(note))*mt.cell*scale + 2*padText
	// fits reports whether the note fits after the line's last visual line
	// (the first and only one without wrap), and that line's y.
	fits := func(line int, set *lineSet) (bool, float32) {
		used, y := 0, float32(0)
		if line >= 0 {
			s := set.Line(line)
			r.colBuf = columns(s, r.colBuf)
			end := int(r.colBuf[len(r.colBuf)-1])
			used = end - v.hbar.off
			if v.wr.on {
				wins := r.windows(s, r.colBuf)
				used, y = end-wins[len(wins)-1][0], float32(len(wins)-1)*mt.line
			}
		}
		return float32(used+2)*mt.cell+padText+w <= mt.sideW-padText, y // two cells apart at least
	}
	// hides reports whether the note, at the right edge of a side that
	// scrolls sideways, would lie over a word span of the line there.
	hides := func(line int, set *lineSet, spans []words.Span) bool {
		if line < 0 || v.wr.on {
			return false
		}
		r.colBuf = columns(set.Line(line), r.colBuf)
		c0 := v.hbar.off + int((mt.sideW-w-2*padText)/mt.cell)
		for _, sp := range spans {
			if int(r.colBuf[sp.End]) > c0 && int(r.colBuf[sp.Start]) < v.hbar.off+mt.cols {
				return true
			}
		}
		return false
	}
	xText := xTextR
	okR, y := fits(rw.b, &v.shown().b)
	if !okR && !inline && mt.leftW > 0 {
		okL, yL := fits(rw.a, &v.shown().a)
		if !okL {
			// No side has room: the note goes where it hides no change,
			// the right side's if neither.
			sp := v.shown().Words(rw)
			okL = hides(rw.b, &v.shown().b, sp.ins) && !hides(rw.a, &v.shown().a, sp.del)
		}
		if okL {
			xText, y = xTextL, yL
		}
	}
	x := max(xText+mt.sideW-w-padText, xText)
	r.rect(theme.Color(theme.ColorNameBackground), x, y+1, w, mt.line-2)
	r.text(note, colour, x+padText, y, w-2*padText, fyne.TextAlignLeading, fyne.TextStyle{Italic: true})
	r.texts[r.nText-1].TextSize = mt.size * scale
}
