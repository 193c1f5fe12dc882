package ui

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/ui/present"
)

// Edit mode is entered on purpose only: e or the Edit button. A double
// click on the proposal's text, the gesture that selects a word everywhere
// else, never makes it an editor (the next a typed an "a" into the file,
// and Ctrl+Enter wrote "pacakage main"); it marks where e puts the cursor.
// And an edit that changes a few characters only, as a stray keystroke
// does, shows the person their own change before it is written.

// strayChars is how many characters an edit may change in all and still
// be asked about before it is written: one or two keys pressed by mistake.
const strayChars = 3

// doubleClicked answers a double click on line, col of the proposal's
// text (0-based) outside edit mode, which selected the word there (the
// view's read-only selection): it says Ctrl+C copies it and that e edits
// there.
func (e *editSession) doubleClicked(line, col int) {
	if e.c.editing || !e.sh.canDecide() {
		return
	}
	e.clickedAt = &[2]int{line, col}
	sel := ""
	if s := e.view.Selection().Text(); s != "" {
		sel = fmt.Sprintf("Selected %q: Ctrl+C copies it. ", present.ShortLine(s))
	}
	e.say(fmt.Sprintf("%sA double click does not edit: e (or Edit) makes the right side an editor, the cursor at line %d.", sel, line+1))
}

// keepEditor is called before the view is given new texts for file f:
// when the editor shows f now (its text about to be replaced by an
// external editor's save, or by the person's edit merged onto a save on
// disk), the returned func puts the cursor back on its line, at the same
// height, after the editor is made again; either way it tells the new
// editor which lines are the person's own (markOwn).
func (e *editSession) keepEditor(f review.File) func() {
	ed := e.view.Editor()
	if ed == nil || e.view.Path() != f.Path {
		return func() { e.markOwn(f) }
	}
	line, col := ed.Cursor()
	y, on := e.view.LineY(line)
	return func() {
		e.markOwn(f)
		ed := e.view.Editor()
		if ed == nil {
			return
		}
		line = min(line, e.view.Lines()-1)
		ed.SetCursor(line, col)
		if on {
			e.view.ShowLineAt(line, y)
		}
	}
}

// markOwn tells the editor showing f the text editing it started from (the
// proposal's ticked hunks, or a stale file's merge), so the person's own
// lines are purple however the editor was made: an editor made again for
// text they already changed took it all for the agent's (QA finding 14).
func (e *editSession) markOwn(f review.File) {
	ed := e.view.Editor()
	if ed == nil || !e.c.editing {
		return
	}
	if f.Stale() {
		ed.SetOwnBase(e.c.merge(f).Text)
		return
	}
	ed.SetOwnBase(e.tickedText(f))
}

// ownChanges lists the changes the person made in dec's edited texts to
// what editing started from (the proposal's ticked hunks), stale files
// aside (their text is the merge), and the characters they change in all.
func (e *editSession) ownChanges(dec review.Decision) ([]present.OwnChange, int) {
	var out []present.OwnChange
	total := 0
	for _, f := range e.sh.p.Files {
		text, ok := dec.Edited[f.Path]
		if !ok || f.Stale() {
			continue
		}
		start := e.tickedText(f)
		if text == start {
			continue
		}
		a, b := engine.SplitLines(start), engine.SplitLines(text)
		for _, h := range engine.Hunks(a, b, engine.DiffLines(a, b), 0) {
			c := h.Change
			was, now := strings.Join(a[c.A0:c.A1], ""), strings.Join(b[c.B0:c.B1], "")
			n := charsChanged(was, now)
			total += n
			out = append(out, present.OwnChange{Rel: f.Rel, Line: c.B0 + 1, Was: was, Now: now})
		}
	}
	return out, total
}

// charsChanged is how many characters differ between was and now once
// their common start and end are set aside: the longer middle.
func charsChanged(was, now string) int {
	for was != "" && now != "" && was[0] == now[0] {
		was, now = was[1:], now[1:]
	}
	for was != "" && now != "" && was[len(was)-1] == now[len(now)-1] {
		was, now = was[:len(was)-1], now[:len(now)-1]
	}
	return max(utf8.RuneCountInString(was), utf8.RuneCountInString(now))
}

// editKey names the edited texts of dec, to know the person confirmed
// exactly these.
func editKey(dec review.Decision) string {
	paths := make([]string, 0, len(dec.Edited))
	for p := range dec.Edited {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var b strings.Builder
	for _, p := range paths {
		b.WriteString(p + "\x00" + dec.Edited[p] + "\x00")
	}
	return b.String()
}

// confirmOwnEdit shows the person's own change before an edit of a few
// characters is written; it reports whether to go ahead now.
func (e *editSession) confirmOwnEdit(dec review.Decision) bool {
	changes, chars := e.ownChanges(dec)
	if chars == 0 || chars > strayChars || e.ownEditOK == editKey(dec) {
		return true
	}
	intro, lines := present.OwnChanges(changes, chars)
	diff := widget.NewLabelWithStyle(lines, fyne.TextAlignLeading, fyne.TextStyle{Monospace: true}) // was and now one under the other, as in the file
	body := container.NewVBox(widget.NewLabel(intro), diff, widget.NewLabel("Write the file with your change?"))
	q := dialog.NewCustomConfirm("Your own change", "Write it (Enter)", "Keep editing (Esc)", body, func(ok bool) {
		if ok {
			e.ownEditOK = editKey(dec)
			e.deps.decide(dec)
			return
		}
		if ed := e.view.Editor(); ed != nil {
			e.focus(ed) // back to the text, to undo it
		}
	}, e.win)
	e.ask(q)
	return false
}
