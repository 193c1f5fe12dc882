package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/review/config"
	"github.com/diffdesk/diffdesk/review/startup"
)

// trustQuestion asks the person, once per start and one file at a time,
// whether to trust each repository .diffdesk.toml whose rules are off,
// showing exactly what each formatter runs and what each auto_approve rule
// lets through. Keep off is the default; Trust turns the file's rules on
// in the running desk.
type trustQuestion struct {
	win   fyne.Window
	files []trustItem
	// closer, when set, is the window's: Esc closes the dialog it is
	// given, which answers Keep off (Window.setCloser).
	closer func(d dialog.Dialog, closed func())

	at       int                  // the file asked about
	dlg      *dialog.CustomDialog // shown; nil once every file is answered
	rules    *fyne.Container      // the shown file's text, one label a line
	trustBtn *widget.Button
	keepOff  *widget.Button
}

// trustItem is one file the question asks about: the path shown, the rules
// it would turn on, the deskctl command that trusts it without the window,
// and trusting it (exactly the content shown).
type trustItem struct {
	file, command string
	rules         []string
	trust         func() error
}

// trustDesk is what the question needs of the desk (startup.Backend).
type trustDesk interface {
	Untrusted() []config.WorkspaceFile
	Trust(f config.WorkspaceFile) error // exactly the content shown
	TrustCommand(root string) string    // the deskctl command that does the same
}

// configReloaded tells the person what a reload of the config files did
// (startup.Backend.WatchConfig): a file that did not load in a dialog,
// since the config they just saved is not in force; otherwise under the
// decision bar. Repository rules the reload found off, with content not
// asked about yet, are asked about as at start.
func (w *Window) configReloaded(desk trustDesk, asked map[string]bool, r startup.Reloaded, err error) {
	if err != nil {
		d := dialog.NewError(fmt.Errorf("The config was not read again: %w\n\nThe config in force is unchanged. Fix the file and save it again.", err), w.Win)
		w.setCloser(d, nil)
		d.Show()
		return
	}
	w.detail.line.say(r.String())
	if r.Untrusted {
		askTrust(w.Win, newUntrusted{desk, asked}, w.setCloser)
	}
}

// askedAbout is the untrusted files' contents the person was asked about.
func askedAbout(files []config.WorkspaceFile) map[string]bool {
	m := map[string]bool{}
	for _, f := range files {
		m[f.ContentKey()] = true
	}
	return m
}

// newUntrusted is a desk's untrusted files less those whose content the
// person was asked about already; asking marks them.
type newUntrusted struct {
	trustDesk
	asked map[string]bool
}

func (n newUntrusted) Untrusted() []config.WorkspaceFile {
	var out []config.WorkspaceFile
	for _, f := range n.trustDesk.Untrusted() {
		if k := f.ContentKey(); !n.asked[k] {
			n.asked[k] = true
			out = append(out, f)
		}
	}
	return out
}

// askTrust starts asking about desk's untrusted files (none: nothing is
// shown); closer, if not nil, lets the window close the question with
// Esc, as Keep off.
func askTrust(win fyne.Window, desk trustDesk, closer func(dialog.Dialog, func())) *trustQuestion {
	var items []trustItem
	for _, f := range desk.Untrusted() {
		items = append(items, trustItem{file: f.File, command: desk.TrustCommand(f.Root), rules: f.Rules(), trust: func() error { return desk.Trust(f) }})
	}
	return askTrustItems(win, items, closer)
}

// askTrustItems asks about each of items in turn (none: nothing is shown).
func askTrustItems(win fyne.Window, items []trustItem, closer func(dialog.Dialog, func())) *trustQuestion {
	q := &trustQuestion{win: win, files: items, closer: closer}
	q.show()
	return q
}

// show asks about files[at], or ends.
func (q *trustQuestion) show() {
	if q.at >= len(q.files) {
		q.dlg = nil
		return
	}
	f := q.files[q.at]
	q.rules = container.NewVBox(wrapped(fmt.Sprintf(
		"%s is not trusted. A repository's config may run programs and approve edits without you, "+
			"so what it holds stays off until you trust this exact content:", f.file), fyne.TextStyle{}))
	for _, r := range f.rules {
		q.rules.Add(wrapped("• "+r, fyne.TextStyle{Monospace: true}))
	}
	q.rules.Add(wrapped("Any change to the file makes it untrusted again. Without the window: "+f.command, fyne.TextStyle{Italic: true}))
	scroll := container.NewVScroll(q.rules)
	scroll.SetMinSize(fyne.NewSize(720, 420))
	q.keepOff = widget.NewButton("Keep off", func() { q.answer(false) })
	q.keepOff.Importance = widget.HighImportance
	q.trustBtn = widget.NewButton("Trust", func() { q.answer(true) })
	q.trustBtn.Importance = widget.WarningImportance
	body := container.NewBorder(nil, container.NewHBox(q.keepOff, q.trustBtn), nil, nil, scroll)
	dlg := dialog.NewCustomWithoutButtons("Trust this repository's rules? (Esc: keep off)", body, q.win)
	q.dlg = dlg
	closed := func() { // closed unanswered (Esc): Keep off
		if q.dlg == dlg {
			q.next()
		}
	}
	if q.closer != nil {
		q.closer(dlg, closed)
	} else {
		dlg.SetOnClosed(closed)
	}
	dlg.Show()
}

// answer closes the shown question, trusts its file if asked to, and
// asks about the next.
func (q *trustQuestion) answer(trust bool) {
	dlg := q.dlg
	q.dlg = nil // answered: closing it is not a Keep off of the next one
	dlg.Hide()
	if trust {
		if err := q.files[q.at].trust(); err != nil {
			dialog.ShowError(err, q.win)
		}
	}
	q.next()
}

// next asks about the next file, or ends.
func (q *trustQuestion) next() {
	q.at++
	q.show()
}

// wrapped is a word-wrapped label.
func wrapped(text string, style fyne.TextStyle) *widget.Label {
	l := widget.NewLabelWithStyle(text, fyne.TextAlignLeading, style)
	l.Wrapping = fyne.TextWrapWord
	return l
}
