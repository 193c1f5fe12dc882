package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
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
	l.status.Hide()
	l.keyboard.Truncation = fyne.TextTruncateEllipsis // whole where there is room (statusRowLayout)
	l.row = container.New(&statusRowLayout{}, l.message, container.New(&l.counterW, l.counter), l.keyboard)
	return l
}

// setStatus shows s on the status line, red when isErr.
func (l *statusLine) setStatus(s string, isErr bool) {
	l.status.SetText(strings.TrimRight(s, "\n"))
	vis(l.status, l.status.Text != "") // an empty line leaves its height to the diff
	l.status.Importance = importance(present.StatusTone(isErr))
	l.status.Refresh()
}

// say shows a brief answer to a key ("" clears it); the same answer again
// leaves the label as it is (each key clears it: a refresh for nothing).
func (l *statusLine) say(s string) {
	if s != l.message.Text {
		l.message.SetText(s)
	}
}

// setCounter says where the view is among the hunks ("" says nothing).
// Its slot is as wide as the line with every number as wide as the
// longest in it ("hunk 9 of 500" as "hunk 000 of 000"), so j and Page Down
// through the hunks do not widen it: a wider slot lays the window out
// again while the frame is drawn, which draws a second frame (issue 28).
func (l *statusLine) setCounter(s string) {
	if s == "" {
		l.counterW.reset()
	}
	if s != l.counter.Text {
		l.counterW.widest(widestDigits(s), l.counter.TextStyle)
		l.counter.SetText(s)
	}
}

// widestDigits returns s with every run of digits as long as the longest
// run in s, all zeros (the theme's font draws its digits equally wide).
func widestDigits(s string) string {
	longest, run := 0, 0
	for _, r := range s {
		if r >= '0' && r <= '9' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	if longest == 0 {
		return s
	}
	var b strings.Builder
	in := false
	for _, r := range s {
		if r >= '0' && r <= '9' {
			if !in {
				b.WriteString(strings.Repeat("0", longest))
			}
			in = true
			continue
		}
		in = false
		b.WriteRune(r)
	}
	return b.String()
}

// setKeyboard says who has the keyboard.
func (l *statusLine) setKeyboard(s string) { setText(l.keyboard, s) }

// statusRowLayout puts the message, the counter and the keyboard line on
// one row: the counter whole, the keyboard line as wide as its text when
// there is room, else cut short with "…" (its Truncation), the message
// (wrapping) in the rest; so the row never makes the window wider
// (FYNE_SCALE=1.5: it held the window 1,289 px wide) nor taller.
type statusRowLayout struct{}

// keyboardWidth is the width the keyboard line's text needs whole.
func keyboardWidth(kb *widget.Label) float32 {
	if kb.Text == "" || !kb.Visible() {
		return 0
	}
	t := fyne.MeasureText(kb.Text, theme.TextSize(), kb.TextStyle)
	return t.Width + 2*theme.InnerPadding()
}

func (statusRowLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var h float32
	for _, o := range objects {
		h = max(h, o.MinSize().Height)
	}
	return fyne.NewSize(objects[0].MinSize().Width+objects[1].MinSize().Width, h)
}

func (statusRowLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	msg, counter, kb := objects[0], objects[1], objects[2].(*widget.Label)
	cw := counter.MinSize().Width
	kw := min(keyboardWidth(kb), max(0, size.Width-cw-size.Width/3))
	if kw < 120 && kw < keyboardWidth(kb) {
		kw = 0 // a few letters and "…" say nothing: the line goes until there is room
	}
	kb.Move(fyne.NewPos(size.Width-kw, 0))
	kb.Resize(fyne.NewSize(kw, size.Height))
	counter.Move(fyne.NewPos(size.Width-kw-cw, 0))
	counter.Resize(fyne.NewSize(cw, size.Height))
	msg.Move(fyne.NewPos(0, 0))
	msg.Resize(fyne.NewSize(max(0, size.Width-kw-cw), size.Height))
}

// steadyWidth lays out one object at the widest it has been since reset:
// the hunk counter's text grows and shrinks by a few pixels at every j,
// which moved the keyboard label beside it, and Fyne draws another whole
// frame when it finds a widget moved while it lays out a frame (under the
// software renderer each frame is the window's whole cost).
type steadyWidth struct{ w float32 }

func (s *steadyWidth) MinSize(objs []fyne.CanvasObject) fyne.Size {
	m := objs[0].MinSize()
	s.w = max(s.w, m.Width)
	return fyne.NewSize(s.w, m.Height)
}

func (s *steadyWidth) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	objs[0].Move(fyne.Position{})
	objs[0].Resize(size)
}

// widest makes the slot at least as wide as a label of text needs.
func (s *steadyWidth) widest(text string, style fyne.TextStyle) {
	if text != "" {
		s.w = max(s.w, fyne.MeasureText(text, theme.TextSize(), style).Width+2*theme.InnerPadding())
	}
}

// reset lets the width shrink to the object's own at the next layout.
func (s *steadyWidth) reset() { s.w = 0 }
