package diffview

import (
	"maps"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"github.com/diffdesk/diffdesk/engine/words"
)

// HunkNote is a short note at a hunk's first row, e.g. "comment only";
// Done draws it in the success colour (the person has dealt with it).
type HunkNote struct {
	Text string
	Done bool
}

// SetHunkNotes shows a note at the first row of each hunk it names (hunk
// ID → note), at the right edge of a side; nil shows none. SetTexts clears
// them.
func (v *DiffView) SetHunkNotes(notes map[string]HunkNote) {
	if maps.Equal(notes, v.notes) {
		return // nothing to redraw
	}
	v.notes = notes
	v.refreshRows()
}

// Note returns the note shown at the hunk with the given ID.
func (v *DiffView) Note(id string) HunkNote { return v.notes[id] }

// hunkNote draws the note of the hunk row rw heads, if it has one, over a
// patch of the view's background: at the right edge of the right side,
// unless the line there reaches under it and the left side's line leaves
// room (a note must not hide the change it describes); with neither
// leaving room, over the side whose word spans it does not hide; with
// wrap, beside the line's last visual line.
func (r *diffRow) hunkNote(rw row, xTextL, xTextR float32, inline bool) {
	v := r.v
	if !rw.head || len(v.notes) == 0 || v.stream != nil || v.ed != nil {
		return
	}
	n := v.notes[v.hunkID(rw.hunk)]
	note := n.Text
	if note == "" {
		return
	}
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
			used = end - v.hoff
			if v.wrap {
				wins := r.windows(s, r.colBuf)
				used, y = end-wins[len(wins)-1][0], float32(len(wins)-1)*mt.line
			}
		}
		return float32(used+2)*mt.cell+padText+w <= mt.sideW-padText, y // two cells apart at least
	}
	// hides reports whether the note, at the right edge of a side that
	// scrolls sideways, would lie over a word span of the line there.
	hides := func(line int, set *lineSet, spans []words.Span) bool {
		if line < 0 || v.wrap {
			return false
		}
		r.colBuf = columns(set.Line(line), r.colBuf)
		c0 := v.hoff + int((mt.sideW-w-2*padText)/mt.cell)
		for _, sp := range spans {
			if int(r.colBuf[sp.End]) > c0 && int(r.colBuf[sp.Start]) < v.hoff+mt.cols {
				return true
			}
		}
		return false
	}
	xText := xTextR
	okR, y := fits(rw.b, &v.model.b)
	if !okR && !inline && mt.leftW > 0 {
		okL, yL := fits(rw.a, &v.model.a)
		if !okL {
			// No side has room: the note goes where it hides no change,
			// the right side's if neither.
			sp := v.model.Words(rw)
			okL = hides(rw.b, &v.model.b, sp.ins) && !hides(rw.a, &v.model.a, sp.del)
		}
		if okL {
			xText, y = xTextL, yL
		}
	}
	colour := theme.Color(theme.ColorNamePrimary)
	if n.Done {
		colour = theme.Color(theme.ColorNameSuccess)
	}
	x := max(xText+mt.sideW-w-padText, xText)
	r.rect(theme.Color(theme.ColorNameBackground), x, y+1, w, mt.line-2)
	r.text(note, colour, x+padText, y, w-2*padText, fyne.TextAlignLeading, fyne.TextStyle{Italic: true})
	r.texts[r.nText-1].TextSize = mt.size * scale
}
