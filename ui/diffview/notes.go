package diffview

import (
	"maps"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
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
// room (a note must not hide the change it describes).
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
	fits := func(line int, set *lineSet) bool {
		used := 0
		if line >= 0 {
			r.colBuf = columns(set.Line(line), r.colBuf)
			used = int(r.colBuf[len(r.colBuf)-1]) - v.hoff
		}
		return float32(used+2)*mt.cell+padText+w <= mt.sideW-padText // two cells apart at least
	}
	xText := xTextR
	if !fits(rw.b, &v.model.b) && !inline && mt.leftW > 0 && fits(rw.a, &v.model.a) {
		xText = xTextL
	}
	colour := theme.Color(theme.ColorNamePrimary)
	if n.Done {
		colour = theme.Color(theme.ColorNameSuccess)
	}
	x := max(xText+mt.sideW-w-padText, xText)
	r.rect(theme.Color(theme.ColorNameBackground), x, 1, w, mt.line-2)
	r.text(note, colour, x+padText, 0, w-2*padText, fyne.TextAlignLeading, fyne.TextStyle{Italic: true})
	r.texts[r.nText-1].TextSize = mt.size * scale
}
