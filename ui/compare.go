package ui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/ui/diffview"
	"github.com/diffdesk/diffdesk/ui/present"
)

// CompareSide is one file of a read-only comparison (`diffdesk OLD NEW`,
// git difftool): its name as given, its text, and whether it is missing
// (/dev/null: the file is added, or deleted).
type CompareSide struct {
	Name    string
	Text    string
	Missing bool
}

// Compare is the window of a read-only comparison: the review window's
// side-by-side view (highlighting, folds, search, moves, wrap, inline) of
// two files, with no desk behind it: nothing is approved, rejected, edited
// or written, and the keys that would say so only say that.
type Compare struct {
	Win     fyne.Window
	app     fyne.App
	view    *diffview.DiffView
	old     CompareSide
	new     CompareSide
	title   *widget.Label
	note    *widget.Label
	counter *widget.Label
	message *widget.Label
}

// A comparison's own wrap and inline settings, remembered from one
// comparison to the next (git difftool opens one per file): a comparison
// never writes the review window's (prefWrap, prefInline).
const (
	prefCompareWrap   = "compare.wrap"
	prefCompareInline = "compare.inline"
)

// compareReadOnly is what a key of the review window that decides or
// edits says in a comparison.
const compareReadOnly = "Read-only comparison: nothing here is approved, rejected, edited or written (diffdesk OLD NEW only shows the difference)."

// compareBinding is a key of the comparison window.
type compareBinding struct {
	r    rune
	what string
	do   func(c *Compare)
}

// compareBindings are the comparison's keys: the review window's keys that
// read a diff, with the same runes.
func compareBindings() []compareBinding {
	return []compareBinding{
		{'j', "next change", func(c *Compare) { c.step(c.view.Nav().NextHunk, "No change below.") }},
		{'k', "previous change", func(c *Compare) { c.step(c.view.Nav().PrevHunk, "No change above.") }},
		{'z', "fold unchanged lines (3 either side of a change), or show them all", func(c *Compare) { c.view.Folds().Collapse(c.view.Folds().Count() == 0) }},
		{'{', "20 more unchanged lines above the current change", func(c *Compare) { c.step(c.view.Folds().ExpandAbove, "Nothing collapsed there.") }},
		{'}', "20 more unchanged lines below the current change", func(c *Compare) { c.step(c.view.Folds().ExpandBelow, "Nothing collapsed there.") }},
		{'w', "wrap long lines", func(c *Compare) { c.toggle(prefCompareWrap, c.view.SetWrap) }},
		{'i', "inline layout (one column) or side by side", func(c *Compare) { c.toggle(prefCompareInline, c.view.SetInline) }},
		{'W', "ignore whitespace: fade whitespace-only changes", func(c *Compare) { c.view.SetIgnoreWhitespace(!c.view.IgnoreWhitespace()) }},
		{'m', "jump to the other end of a moved block", func(c *Compare) {
			c.step(c.view.JumpMoved, "No moved lines here: moved blocks are the teal lines.")
		}},
		{'/', "search both sides (Ctrl+F too)", func(c *Compare) { c.view.Search().Show() }},
		{'g', "go to line (of the new file)", func(c *Compare) { c.showGoToLine() }},
		{'q', "close", func(c *Compare) { c.Win.Close() }},
		{'?', "show these keys", func(c *Compare) { c.showKeys() }},
	}
}

// compareRefused are the review window's keys that decide, tick or edit
// (keys.go): in a comparison they only say it is read-only.
const compareRefused = "asStrRAeHxc 123456789"

// compareElsewhere are the review window's keys that go to other files or
// proposals, or read the review's record (keys.go): a comparison has one
// pair of files.
const compareElsewhere = "uJvnp[]"

// NewCompare opens the comparison of old and new in a window of a; note,
// when not "", is said above the diff (e.g. bytes that are not UTF-8).
func NewCompare(a fyne.App, old, new CompareSide, note string) *Compare {
	return newCompare(a, old, new, note, false)
}

// newCompare is NewCompare with the view's work on the calling goroutine
// from the start when synchronous (tests: the highlighter would otherwise
// call fyne.Do inline off the test's goroutine while the view opens).
func newCompare(a fyne.App, old, new CompareSide, note string, synchronous bool) *Compare {
	c := &Compare{app: a, old: old, new: new, view: diffview.NewDiffView()}
	c.view.SetSynchronous(synchronous)
	c.view.ReadOnly = true
	c.Win = newAppWindow(a, "DiffDesk — "+compareTitle(old, new)+" (read-only)")
	c.title = widget.NewLabelWithStyle(compareTitle(old, new), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	c.title.Truncation = fyne.TextTruncateEllipsis
	c.note = widget.NewLabel("")
	c.note.Wrapping = fyne.TextWrapWord
	c.counter = widget.NewLabel("")
	c.message = widget.NewLabel("Read-only: j/k changes · / search · z fold · w wrap · i inline · m moved · q close · ? keys")
	c.message.Wrapping = fyne.TextWrapWord
	c.note.SetText(present.CompareNote(old.Missing, new.Missing, old.Text == new.Text, note))
	vis(c.note, c.note.Text != "")
	top := container.NewVBox(c.title, c.note, c.counter)
	c.Win.SetContent(container.NewBorder(top, c.message, nil, nil, c.view))
	c.Win.Resize(fyne.NewSize(1100, 750))
	p := a.Preferences()
	c.view.SetWrap(p.Bool(prefCompareWrap))
	c.view.SetInline(p.Bool(prefCompareInline))
	c.view.SetDark(isDark(a))
	c.view.SetTexts(comparePath(old, new), old.Text, new.Text)
	c.view.Folds().Collapse(true)
	c.view.Nav().NextHunk() // open at the first change
	c.view.Search().OnClosed = func() { c.Win.Canvas().Unfocus() }
	c.bindKeys()
	c.updateCounter()
	return c
}

// compareTitle names the two files: "OLD  vs  NEW", a missing one as "(none)".
func compareTitle(old, new CompareSide) string {
	name := func(s CompareSide) string {
		if s.Missing {
			return "(none)"
		}
		return s.Name
	}
	return name(old) + "  vs  " + name(new)
}

// comparePath is the name the view highlights by: the new file's, or the
// old one's when the new one is missing.
func comparePath(old, new CompareSide) string {
	if new.Missing {
		return old.Name
	}
	return new.Name
}

// TypeKey does what typing r in the window does; it reports whether r is
// one of the comparison's keys or one of the review's it refuses.
func (c *Compare) TypeKey(r rune) bool {
	if c.Win.Canvas().Overlays().Top() != nil {
		return false
	}
	for _, k := range compareBindings() {
		if k.r == r {
			c.say("")
			k.do(c)
			c.updateCounter()
			return true
		}
	}
	if strings.ContainsRune(compareRefused, r) {
		c.say(compareReadOnly)
		return true
	}
	if strings.ContainsRune(compareElsewhere, r) {
		c.say(fmt.Sprintf("%c works in the review: a comparison shows one pair of files and has no proposals.", r))
		return true
	}
	return false
}

func (c *Compare) say(s string) {
	if s == "" {
		s = "Read-only: j/k changes · / search · z fold · w wrap · i inline · m moved · q close · ? keys"
	}
	c.message.SetText(s)
}

// step runs a move of the view, saying why not when it cannot.
func (c *Compare) step(move func() bool, why string) {
	if !move() {
		c.say(why)
	}
}

// toggle flips a view option kept in the preferences (the review window's
// Wrap and Inline).
func (c *Compare) toggle(pref string, set func(bool)) {
	on := !c.app.Preferences().Bool(pref)
	c.app.Preferences().SetBool(pref, on)
	set(on)
}

// updateCounter says where the view is: "change 2 of 5", or that there
// are none.
func (c *Compare) updateCounter() {
	cur, n, _ := c.view.Nav().HunkCount()
	c.counter.SetText(present.CompareCounter(cur, n))
}

// bindKeys routes typed runes and keys to the comparison's keys.
func (c *Compare) bindKeys() {
	cv := c.Win.Canvas()
	cv.SetOnTypedRune(func(r rune) { c.TypeKey(r) })
	cv.SetOnTypedKey(func(ev *fyne.KeyEvent) {
		switch ev.Name {
		case fyne.KeyEscape:
			c.view.Search().Close()
		case fyne.KeyPageDown, fyne.KeyPageUp, fyne.KeyHome, fyne.KeyEnd:
			pageKey(c.view, ev.Name)
		case fyne.KeyDown:
			c.step(c.view.Nav().NextHunk, "No change below.")
			c.updateCounter()
		case fyne.KeyUp:
			c.step(c.view.Nav().PrevHunk, "No change above.")
			c.updateCounter()
		case fyne.KeyF3:
			if c.view.Search().Open() {
				c.view.Search().Next()
			}
		}
	})
	find := &desktop.CustomShortcut{KeyName: fyne.KeyF, Modifier: fyne.KeyModifierShortcutDefault}
	cv.AddShortcut(find, func(fyne.Shortcut) { c.view.Search().Show() })
	c.view.OnShortcut = func(s fyne.Shortcut) {
		if cs, ok := s.(*desktop.CustomShortcut); ok && cs.KeyName == fyne.KeyF {
			c.view.Search().Show()
		}
	}
}

// showGoToLine asks for a line of the new file and goes to it (g), as the
// review's g does (goToLine).
func (c *Compare) showGoToLine() {
	n := c.view.Lines()
	if n == 0 {
		c.say("The new file has no lines to go to.")
		return
	}
	dlg, entry, _ := goToLine(c.view, fmt.Sprintf("Line of the new file (1–%d):", n), c.Win, c.say, func() {
		c.updateCounter()
		c.Win.Canvas().Unfocus()
	})
	dlg.Show()
	c.Win.Canvas().Focus(entry)
}

// showKeys lists the comparison's keys in a dialog.
func (c *Compare) showKeys() {
	var b strings.Builder
	for _, k := range compareBindings() {
		fmt.Fprintf(&b, "%c\t%s\n", k.r, k.what)
	}
	b.WriteString("Page Up/Down, Home, End\tscroll\nEsc\tclose the search\n\n" + compareReadOnly)
	dialog.ShowInformation("Keys", b.String(), c.Win)
}

// CompareMain shows the comparison of old and new until its window is
// closed, and returns the exit code.
func CompareMain(old, new CompareSide, note string) int {
	a := NewApp()
	c := NewCompare(a, old, new, note)
	defer QuitOnSignal(a)()
	c.Win.ShowAndRun()
	return 0
}
