package ui

import "fyne.io/fyne/v2"

// typingMode is a text box the window's keys type into while it is open:
// the search bar (/, Ctrl+F) and the comment box (c). It starts on the
// key that opens the box, before anything else can run, and ends when the
// box closes; meanwhile a letter that reaches the window instead of the box
// — the box not focused yet, or its focus lost to a click, a late event or
// a synthetic key — is typed into the box and never acts as a review key
// (the "a" of a search word must not approve).
type typingMode struct {
	box      fyne.Focusable
	what     string      // "the search box"
	open     func() bool // whether the box is still open
	inDialog bool        // the box is in a dialog (else under the Review tab, where a dialog or the History tab hides it)
}

// startTyping routes the window's keys to box until it closes (or
// stopTyping), and gives it the keyboard.
func (w *Window) startTyping(box fyne.Focusable, what string, inDialog bool, open func() bool) {
	w.typing = &typingMode{box: box, what: what, open: open, inDialog: inDialog}
	if w.Win.Canvas().Focused() != box {
		w.Win.Canvas().Focus(box)
	}
	w.detail.showKeyboard()
}

// stopTyping ends typing into box (it closed).
func (w *Window) stopTyping(box fyne.Focusable) {
	if w.typing != nil && w.typing.box == box {
		w.typing = nil
	}
}

// typingInto returns the open box the window's keys type into, or nil: none
// while a dialog or the History tab covers the search bar (the keys then
// do what they do there).
func (w *Window) typingInto() *typingMode {
	if w.typing != nil && !w.typing.open() {
		w.typing = nil
	}
	if t := w.typing; t != nil && !t.inDialog && (w.modal() || !w.reviewShown()) {
		return nil
	}
	return w.typing
}

// typeRune types r into the open box, giving it the keyboard back; it
// reports false when no box is open (r is then a review key).
func (w *Window) typeRune(r rune) bool {
	t := w.typingInto()
	if t == nil {
		return false
	}
	w.refocus(t)
	t.box.TypedRune(r)
	return true
}

// typeKey is typeRune for a key without a character (Esc closes the box,
// Enter goes to the next match, Backspace deletes).
func (w *Window) typeKey(ev *fyne.KeyEvent) bool {
	t := w.typingInto()
	if t == nil {
		return false
	}
	w.refocus(t)
	t.box.TypedKey(ev)
	return true
}

func (w *Window) refocus(t *typingMode) {
	if c := w.Win.Canvas(); c.Focused() != t.box {
		c.Focus(t.box)
		w.detail.showKeyboard()
	}
}
