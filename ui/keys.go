package ui

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/ui/diffview"
	"github.com/diffdesk/diffdesk/ui/present"
)

// keyBinding is one keyboard action of the main window.
type keyBinding struct {
	r    rune
	key  string // how the keys overlay names it; string(r) if ""
	what string
	do   func(w *Window)
}

// keyBindings are the main window's keys; they act on the Review tab while
// no text field or the editor has the keyboard (then the keys type) and no
// dialog is open.
func keyBindings() []keyBinding {
	b := []keyBinding{
		{'j', "", "next hunk (on to the next file)", func(w *Window) { w.detail.nav.nextHunk() }},
		{'k', "", "previous hunk (back to the previous file)", func(w *Window) { w.detail.nav.prevHunk() }},
		{'J', "", "next change that is not trivial (no whitespace, comment or formatting label)", func(w *Window) { w.detail.nav.nextNonTrivial() }},
		{'u', "", "the first hunk never on screen (in any file of the proposal)", func(w *Window) { w.detail.nav.nextUnseen() }},
		{' ', "Space", "tick / untick the current hunk", func(w *Window) { w.detail.nav.toggleHunk() }},
		{'a', "", "approve (approve edited while editing, approve merged when stale, only the ticked hunks when some are unticked)", func(w *Window) { w.Approve() }},
		{'s', "", "approve the selected (ticked) hunks only", func(w *Window) { w.detail.nav.approveSelected() }},
		{'t', "", "approve the trivial hunks (whitespace, comment, formatting only); all trivial: approve the proposal", func(w *Window) { w.detail.ApproveTrivial() }},
		{'r', "", "reject, with a reason for the agent", func(w *Window) { w.ShowReject() }},
		{'e', "", "edit the proposal (again: cancel the edit)", func(w *Window) { w.Edit() }},
		{'x', "", "edit in the external editor ($VISUAL / $EDITOR)", func(w *Window) { w.detail.edit.external() }},
		{'c', "", "comment on the current hunk's lines, either side; sent to the agent with your decision", func(w *Window) { w.detail.comments.show() }},
		{'g', "", "go to line", func(w *Window) { w.detail.nav.showGoToLine() }},
		{']', "", "next file of the changeset (the agent session's proposals, read as one)", func(w *Window) { w.detail.nav.stepFile(1) }},
		{'[', "", "previous file of the changeset", func(w *Window) { w.detail.nav.stepFile(-1) }},
		{'A', "", "approve every open proposal of the changeset as proposed (asks first when that is more than this one)", func(w *Window) { w.detail.ApproveChangeset() }},
		{'R', "", "reject every open proposal of the changeset, with one reason", func(w *Window) { w.detail.ShowRejectChangeset() }},
		{'H', "", "tick / untick every hunk of the current file (a file with none ticked is not written)", func(w *Window) { w.detail.nav.toggleFileHunks() }},
		{'n', "", "next proposal", func(w *Window) { w.NextProposal() }},
		{'p', "", "previous proposal", func(w *Window) { w.PrevProposal() }},
		{'f', "", "follow the growing edge of a stream", func(w *Window) { toggle(w.detail.bar.follow) }},
		{'w', "", "wrap long lines", func(w *Window) { toggle(w.detail.bar.wrap) }},
		{'i', "", "inline layout (one column) or side by side", func(w *Window) { toggle(w.detail.bar.inline) }},
		{'W', "", "ignore whitespace: fade whitespace-only hunks (still approved unless unticked)", func(w *Window) {
			toggle(w.detail.bar.ignoreWS)
		}},
		{'z', "", "fold unchanged lines (3 either side of a change), or show them all", func(w *Window) { toggle(w.detail.bar.collapse) }},
		{'{', "", "20 more unchanged lines above the current hunk", func(w *Window) { w.detail.nav.expand(w.detail.view.Folds().ExpandAbove) }},
		{'}', "", "20 more unchanged lines below the current hunk", func(w *Window) { w.detail.nav.expand(w.detail.view.Folds().ExpandBelow) }},
		{'m', "", "jump to the other end of a moved block", func(w *Window) { w.detail.nav.jumpMoved() }},
		{'/', "", "search both sides (Ctrl+F too)", func(w *Window) { w.detail.nav.showSearch() }},
		{'v', "", "a re-proposed file: this proposal vs the previous one, and which comments it touched", func(w *Window) { w.detail.inter.show() }},
		{'?', "", "show these keys", func(w *Window) { w.ShowKeys() }},
	}
	for n := 1; n <= pickLimit; n++ {
		b = append(b, keyBinding{rune('0' + n), "1–9", "an edit that did not match: use the lines of candidate 1–9 and review the diff",
			func(w *Window) { w.detail.pick.use(n - 1) }})
	}
	return b
}

// TypeKey performs the action bound to r, as typing it in the window does
// while no text field has the keyboard; it reports whether r is bound.
// Only ? acts while a dialog is open or the History tab shows: the other
// keys act on the proposal, which is then not what the person looks at.
func (w *Window) TypeKey(r rune) bool {
	if w.typeRune(r) { // a search or comment box is open: r is text
		return true
	}
	for _, k := range keyBindings() {
		if k.r != r {
			continue
		}
		if d := w.detail; d != nil {
			d.bar.closeViewOptions() // the View pop-up is no dialog: the key closes it and acts
		}
		if r != '?' && (w.modal() || !w.reviewShown()) {
			return true
		}
		w.detail.line.say("")
		k.do(w)
		return true
	}
	return false
}

// modal reports whether a dialog covers the window.
func (w *Window) modal() bool { return w.Win.Canvas().Overlays().Top() != nil }

// reviewShown reports whether the Review tab (queue and proposal) shows.
func (w *Window) reviewShown() bool { return w.tabs == nil || w.tabs.SelectedIndex() == 0 }

// bindKeys routes typed runes and keys (when no widget has the focus) to
// the key bindings, Enter and Esc to the dialog on top, and Ctrl+Enter to
// approve (or to the dialog on top: ctrlEnter).
func (w *Window) bindKeys() {
	c := w.Win.Canvas()
	c.SetOnTypedRune(func(r rune) { w.TypeKey(r) })
	c.SetOnTypedKey(func(ev *fyne.KeyEvent) {
		if w.typeKey(ev) {
			return
		}
		switch ev.Name {
		case fyne.KeyReturn, fyne.KeyEnter:
			if top, ok := w.topDialog(); ok && top.keys.enter != nil {
				top.keys.enter()
			}
		case fyne.KeyEscape:
			if top, ok := w.topDialog(); ok {
				top.d.Hide()
				return
			}
			if w.detail.bar.closeViewOptions() {
				return
			}
			if !w.modal() {
				w.detail.edit.cancel()
			}
		case fyne.KeyDown:
			if !w.modal() && w.reviewShown() {
				w.NextProposal()
			}
		case fyne.KeyUp:
			if !w.modal() && w.reviewShown() {
				w.PrevProposal()
			}
		case fyne.KeyPageDown, fyne.KeyPageUp, fyne.KeyHome, fyne.KeyEnd:
			if !w.modal() && w.reviewShown() && w.detail.view.Visible() {
				pageKey(w.detail.view, ev.Name)
			}
		case fyne.KeyF3:
			if !w.modal() && w.reviewShown() && w.detail.view.Search().Open() {
				if d, ok := fyne.CurrentApp().Driver().(desktop.Driver); ok && d.CurrentKeyModifiers()&fyne.KeyModifierShift != 0 {
					w.detail.view.Search().Prev()
				} else {
					w.detail.view.Search().Next()
				}
			}
		}
	})
	c.AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyF, Modifier: fyne.KeyModifierShortcutDefault}, func(fyne.Shortcut) { w.detail.nav.showSearch() })
	c.AddShortcut(&fyne.ShortcutCopy{}, w.copySelection)
	c.AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyReturn, Modifier: fyne.KeyModifierShortcutDefault}, func(fyne.Shortcut) { w.ctrlEnter() })
	c.AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyEnter, Modifier: fyne.KeyModifierShortcutDefault}, func(fyne.Shortcut) { w.ctrlEnter() })
	// The editor gains or loses the keyboard (Esc): the line says who has
	// it (showKeyboard knows the canvas still names the editor meanwhile).
	w.detail.view.OnEditorFocus = func(bool) { w.detail.showKeyboard() }
	w.detail.view.OnShortcut = func(s fyne.Shortcut) { // Ctrl+Enter and Ctrl+F: those it passes on
		if cs, ok := s.(*desktop.CustomShortcut); ok && cs.KeyName == fyne.KeyF {
			w.detail.nav.showSearch()
			return
		}
		w.ctrlEnter()
	}
}

// copySelection copies the word double-clicked in the diff on show, the
// Review tab's or the History tab's (Ctrl+C while no text field has the
// keyboard).
func (w *Window) copySelection(s fyne.Shortcut) {
	var cb fyne.Clipboard
	if c, ok := s.(*fyne.ShortcutCopy); ok {
		cb = c.Clipboard
	}
	v := w.detail.view
	if !w.reviewShown() {
		if w.history == nil {
			return
		}
		v = w.history.view
	}
	if text := v.Selection().Text(); v.Selection().Copy(cb) && w.reviewShown() {
		w.detail.line.say(fmt.Sprintf("Copied %q.", present.ShortLine(text)))
	}
}

// pageKey moves the diff a screen down or up (Page Down, Page Up), or to
// its top or end (Home, End).
func pageKey(v *diffview.DiffView, k fyne.KeyName) {
	switch k {
	case fyne.KeyPageDown:
		v.Nav().PageDown()
	case fyne.KeyPageUp:
		v.Nav().PageUp()
	case fyne.KeyHome:
		v.Nav().Home()
	case fyne.KeyEnd:
		v.Nav().End()
	}
}

// ctrlEnter sends the dialog on top when it sends on Ctrl+Enter (the
// reject box, the comment box), and otherwise, with no dialog open,
// approves (approve edited while editing: the editor passes Ctrl+Enter on).
func (w *Window) ctrlEnter() {
	if top, ok := w.topDialog(); ok {
		if top.keys.ctrlEnter != nil {
			top.keys.ctrlEnter()
		}
		return
	}
	if !w.modal() && w.reviewShown() {
		w.Approve()
	}
}

// keysBack gives the keyboard back to the window after a click on a
// control: Fyne gives it to the check box, radio option, select or list
// clicked, which then swallows j, a, r, ? and w silently. Every control of
// the window calls it after a click. Text fields and the editor keep the
// keyboard: what takes text takes clipboard shortcuts (fyne.Shortcutable),
// and nothing else does.
func (w *Window) keysBack() {
	c := w.Win.Canvas()
	if f := c.Focused(); f != nil {
		if _, text := f.(fyne.Shortcutable); !text {
			c.Unfocus()
		}
	}
	if w.detail != nil {
		w.detail.showKeyboard()
	}
}

// thenKeysBack returns f followed by keysBack, for a control's callback.
func thenKeysBack[T any](keysBack func(), f func(T)) func(T) {
	return func(v T) {
		f(v)
		keysBack()
	}
}

// openDialog is a dialog open over the window. While it is on top, Esc
// closes it and its keys answer it: only the question the person sees on
// top, never one under the keys overlay, one closed meanwhile, or one
// about a proposal no longer shown (about: closeBoundDialog).
type openDialog struct {
	d     dialog.Dialog
	keys  dialogKeys
	about string // the proposal it asks about; "" if none
}

// dialogKeys are what a dialog on top does with Enter and Ctrl+Enter:
// each presses the button labelled with it (its confirm button: "Approve
// anyway (Enter)", "Reject (Ctrl+Enter)"); nil, the key does nothing
// there. A dialog owns its keys: the window only hands them to the one on
// top.
type dialogKeys struct {
	enter, ctrlEnter func()
}

// setCloser opens d over the window, with no keys of its own but Esc; when
// d closes, closed runs (if not nil) and the keyboard goes back to the
// window.
func (w *Window) setCloser(d dialog.Dialog, closed func()) { w.openOver(openDialog{d: d}, closed) }

// openOver puts o on top of the dialogs open over the window (opening it
// again raises it); when it closes, it leaves them, closed runs (if not
// nil) and the keyboard goes back to the window.
func (w *Window) openOver(o openDialog, closed func()) {
	w.dropDialog(o.d)
	w.dialogs = append(w.dialogs, o)
	o.d.SetOnClosed(func() {
		w.dropDialog(o.d)
		if closed != nil {
			closed()
		}
		w.keysBack()
	})
}

// dropDialog forgets d, closed.
func (w *Window) dropDialog(d dialog.Dialog) {
	w.dialogs = slices.DeleteFunc(w.dialogs, func(o openDialog) bool { return o.d == d })
}

// topDialog is the dialog on top of the window, if one is open.
func (w *Window) topDialog() (openDialog, bool) {
	if len(w.dialogs) == 0 {
		return openDialog{}, false
	}
	return w.dialogs[len(w.dialogs)-1], true
}

// KeysText lists the keys, one per line: the key, two spaces, what it does.
func KeysText() string {
	var b strings.Builder
	last := ""
	for _, k := range keyBindings() {
		key := k.key
		if key == "" {
			key = string(k.r)
		}
		if key != last { // 1–9: one line
			b.WriteString(key + "  " + k.what + "\n")
		}
		last = key
	}
	b.WriteString("Ctrl+F  search both sides: Enter or F3 next, Shift+Enter or Shift+F3 previous, Esc closes\n" +
		"Ctrl+Enter  approve (in the editor: approve edited; in the reject dialog: reject; in the comment dialog: save)\n" +
		"Esc  leave the editor (keeps your text); again: leave edit mode; in a dialog: close it\n" +
		"↑/↓  previous / next proposal\n" +
		"PgDn/PgUp  next / previous screen of the diff; Home/End: its top / its end\n")
	return b.String()
}

// ShowKeys shows the keys overlay (?).
func (w *Window) ShowKeys() {
	if w.keysOverlay != nil {
		w.keysOverlay.Hide()
	}
	var rows []fyne.CanvasObject
	for _, line := range strings.Split(strings.TrimSpace(KeysText()), "\n") {
		key, what, _ := strings.Cut(line, "  ")
		// Plain monospace: the theme has no bold monospace (Fyne drew
		// it regular), and a style of its own made Fyne parse its fonts
		// again, about 6 MB of heap kept (issue 28).
		k := widget.NewLabelWithStyle(key, fyne.TextAlignTrailing, fyne.TextStyle{Monospace: true})
		rows = append(rows, k, widget.NewLabel(what))
	}
	note := widget.NewLabel("The keys act on the Review tab while no text box or the editor has the keyboard: the line under the buttons says which has it.")
	note.Wrapping = fyne.TextWrapWord
	about := widget.NewLabel(AboutText())
	about.Wrapping = fyne.TextWrapWord
	// The list is taller than a small window: it scrolls, the note stays.
	form := container.New(layout.NewFormLayout(), rows...)
	list := container.NewVScroll(form)
	list.SetMinSize(fyne.NewSize(0, min(form.MinSize().Height, max(w.Win.Canvas().Size().Height-220, 200))))
	d := dialog.NewCustom("Keys · About DiffDesk", "Close", container.NewBorder(nil, container.NewVBox(note, about), nil, nil, list), w.Win)
	d.Resize(fyne.NewSize(760, 0))
	w.setCloser(d, func() { w.keysOverlay = nil })
	w.keysOverlay = d
	d.Show()
}

// dialogEntry is a text box in a dialog that answers the dialog's keys:
// Esc cancels, Ctrl+Enter submits (Enter too, in a one-line box), and Tab
// moves the focus on to the buttons instead of typing a tab.
type dialogEntry struct {
	widget.Entry
	onCancel, onSubmit func()
	selectOnFocus      bool // its text is an offer (Mark lines…'s numbers): what is typed replaces it
}

// FocusGained is part of fyne.Focusable: an offered text is selected, so
// that typing replaces it (a 5 typed over the 5 offered read 55).
func (e *dialogEntry) FocusGained() {
	e.Entry.FocusGained()
	if e.selectOnFocus {
		e.TypedShortcut(&fyne.ShortcutSelectAll{})
	}
}

func newDialogEntry(multiLine bool, cancel, submit func()) *dialogEntry {
	e := &dialogEntry{onCancel: cancel, onSubmit: submit}
	e.MultiLine = multiLine
	if multiLine {
		e.Wrapping = fyne.TextWrapWord
	} else {
		e.OnSubmitted = func(string) { submit() }
	}
	e.ExtendBaseWidget(e)
	return e
}

// AcceptsTab is part of fyne.Tabbable: Tab moves the focus.
func (e *dialogEntry) AcceptsTab() bool { return false }

// setDraft fills the entry with a kept draft, the cursor after its last
// character: what the person types next goes on from where they stopped
// (QA in the real window: the cursor stood at the start, and " please"
// typed after "use a timeout constant" reached the agent as
// " pleaseuse a timeout constant").
func (e *dialogEntry) setDraft(text string) {
	e.SetText(text)
	lines := strings.Split(text, "\n")
	e.CursorRow = len(lines) - 1
	e.CursorColumn = utf8.RuneCountInString(lines[len(lines)-1])
	e.Refresh()
}

// TypedKey closes the dialog on Esc; other keys edit.
func (e *dialogEntry) TypedKey(k *fyne.KeyEvent) {
	if k.Name == fyne.KeyEscape {
		e.onCancel()
		return
	}
	e.Entry.TypedKey(k)
}

// TypedShortcut submits on Ctrl+Enter; other shortcuts edit.
func (e *dialogEntry) TypedShortcut(s fyne.Shortcut) {
	if cs, ok := s.(*desktop.CustomShortcut); ok && (cs.KeyName == fyne.KeyReturn || cs.KeyName == fyne.KeyEnter) &&
		cs.Modifier == fyne.KeyModifierShortcutDefault {
		e.onSubmit()
		return
	}
	e.Entry.TypedShortcut(s)
}

// Approve approves the selected proposal (a).
func (w *Window) Approve() { w.detail.Approve() }

// ShowReject opens the reject dialog (r).
func (w *Window) ShowReject() { w.detail.ShowReject() }

// Edit toggles edit mode (e).
func (w *Window) Edit() { w.detail.edit.toggle() }

// choice is a horizontal radio group that always keeps one option chosen
// yet answers every click, one on the chosen option included (a Required
// group ignores that click, and the keyboard would stay with the option):
// after each, the keyboard goes back to the window.
type choice struct {
	widget.RadioGroup
	chosen string
}

// newChoice returns a choice of opts calling changed when another option
// is chosen, and keysBack after every click.
func newChoice(keysBack func(), opts []string, changed func(string)) *choice {
	c := &choice{}
	c.Options, c.Horizontal = opts, true
	c.OnChanged = func(s string) {
		if s == "" { // the chosen option, clicked again: it stays chosen
			c.Selected = c.chosen // the group refreshes after this callback
		} else if s != c.chosen {
			c.chosen = s
			changed(s)
		}
		keysBack()
	}
	c.ExtendBaseWidget(c)
	return c
}

// choose chooses s without calling changed.
func (c *choice) choose(s string) {
	c.chosen, c.Selected = s, s
	c.Refresh()
}
