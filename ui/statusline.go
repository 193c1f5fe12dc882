package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/ui/present"
)

// statusLine is what is said under the decision bar: a brief answer to a
// key (message), which hunk j and k went to (counter) and who has the
// keyboard on one row; below it the status line, what became of the
// proposal (an error in red).
type statusLine struct {
	message, counter, keyboard, status *widget.Label
	row                                *fyne.Container // message, counter and keyboard
	counterW                           steadyWidth     // the counter's slot, as wide as it has been
}

func newStatusLine() *statusLine {
	l := &statusLine{message: widget.NewLabel(""), counter: widget.NewLabel(""), keyboard: widget.NewLabel(""), status: widget.NewLabel("")}
	l.message.Wrapping = fyne.TextWrapWord // a hint cut off at "…" could not be read (real window)
	l.status.Wrapping = fyne.TextWrapWord
	l.row = container.NewBorder(nil, nil, nil, container.NewHBox(container.New(&l.counterW, l.counter), l.keyboard), l.message)
	return l
}

// setStatus shows s on the status line, red when isErr.
func (l *statusLine) setStatus(s string, isErr bool) {
	l.status.SetText(strings.TrimRight(s, "\n"))
	l.status.Importance = importance(present.StatusTone(isErr))
	l.status.Refresh()
}

// say shows a brief answer to a key ("" clears it).
func (l *statusLine) say(s string) { l.message.SetText(s) }

// setCounter says where the view is among the hunks ("" says nothing).
func (l *statusLine) setCounter(s string) {
	if s == "" {
		l.counterW.reset()
	}
	if s != l.counter.Text {
		l.counter.SetText(s)
	}
}

// setKeyboard says who has the keyboard.
func (l *statusLine) setKeyboard(s string) { l.keyboard.SetText(s) }
