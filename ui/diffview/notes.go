package diffview

import (
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// SetHunkNotes shows a short note at the first row of each hunk it names
// (hunk ID → note, e.g. "comment only"), at the right edge of the right
// side; nil shows none. SetTexts clears them.
func (v *DiffView) SetHunkNotes(notes map[string]string) {
	if len(notes) == 0 && len(v.notes) == 0 {
		return
	}
	v.notes = notes
	v.refreshRows()
}

// HunkNote returns the note shown at the hunk with the given ID.
func (v *DiffView) HunkNote(id string) string { return v.notes[id] }

// hunkNote draws the note of the hunk row rw heads, if it has one, over a
// patch of the view's background so long lines stay readable around it.
func (r *diffRow) hunkNote(rw row, xTextR float32) {
	v := r.v
	if !rw.head || len(v.notes) == 0 || v.stream != nil || v.ed != nil {
		return
	}
	note := v.notes[v.hunkID(rw.hunk)]
	if note == "" {
		return
	}
	mt := v.metric
	size := mt.size * 0.85
	w := float32(utf8.RuneCountInString(note))*mt.cell*0.85 + 2*padText
	x := xTextR + mt.sideW - w - padText
	if x < xTextR {
		x = xTextR
	}
	r.rect(theme.Color(theme.ColorNameBackground), x, 1, w, mt.line-2)
	r.text(note, theme.Color(theme.ColorNamePrimary), x+padText, 0, w-2*padText, fyne.TextAlignLeading, fyne.TextStyle{Italic: true})
	r.texts[r.nText-1].TextSize = size
}
