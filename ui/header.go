package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/ui/present"
)

// header is the text above the diff: the title, the checkers' word and the
// state on one row; the protected files and the agent's own words; and a
// note on what the view shows when it is not the plain proposal, after a
// warning icon (amber text on white is hard to read).
type header struct {
	title, state, checks *widget.Label
	intent, note         *widget.Label
	noteBox              *fyne.Container
	row                  *fyne.Container // title, checks, state
}

// newHeader builds the header; noteMax is how tall the note may be before
// it scrolls.
func newHeader(noteMax func() float32) *header {
	h := &header{title: widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		state: widget.NewLabel(""), checks: widget.NewLabel(""), intent: widget.NewLabel(""), note: widget.NewLabel("")}
	h.title.Truncation = fyne.TextTruncateEllipsis
	h.intent.Wrapping = fyne.TextWrapWord
	h.intent.Hide()
	h.note.Wrapping = fyne.TextWrapWord
	note := container.New(cappedLayout{content: h.note, maxHeight: noteMax}, container.NewVScroll(h.note))
	h.noteBox = container.NewBorder(nil, nil, widget.NewIcon(theme.WarningIcon()), nil, note)
	h.noteBox.Hide()
	h.row = container.NewBorder(nil, nil, nil, container.NewHBox(h.checks, h.state), h.title)
	return h
}

// show heads proposal p: its title, state, protected files and the agent's
// words.
func (h *header) show(p review.Proposal) {
	setText(h.title, present.GroupName(p)+" — "+present.FileNames(p))
	intent := present.Intent(p)
	setText(h.intent, intent)
	vis(h.intent, intent != "")
	setText(h.state, present.State(p))
}

// setText is l.SetText when the text changes: a label lays its text out
// again at each SetText, which each streamed chunk paid for three labels
// whose text had not changed (issue 28).
func setText(l *widget.Label, s string) {
	if l.Text != s {
		l.SetText(s)
	}
}

// clear empties the header for the empty pane: the last proposal's notes
// go with it (a dismissed held failure's "its agent waits for you" stayed
// above the hint).
func (h *header) clear() {
	h.title.SetText("")
	h.state.SetText("")
	h.noteBox.Hide()
	h.intent.Hide()
}

// setNote shows s as the note over the view.
func (h *header) setNote(s string) {
	h.note.SetText(s)
	h.noteBox.Show()
}

// hideNote hides the note.
func (h *header) hideNote() { h.noteBox.Hide() }

// setChecks shows the checkers' word in its tone ("" hides it).
func (h *header) setChecks(word string, tone present.Tone) {
	if word != h.checks.Text || importance(tone) != h.checks.Importance {
		// (each j and Page Down asks again: the same word is no refresh)
		h.checks.Text, h.checks.Importance = word, importance(tone)
		h.checks.Refresh()
	}
	vis(h.checks, word != "")
}
