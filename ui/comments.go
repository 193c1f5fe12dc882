package ui

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/ui/diffview"
	"github.com/diffdesk/diffdesk/ui/present"
)

// comments are the person's line comments on the proposals waiting: made
// with c, listed under the diff with Delete, and sent with the proposal's
// next decision, whatever it is. Lines are the proposal's as the agent
// sent it ("new") or the file's before it ("old"), as the desk quotes them
// (review.File.Quote), whatever the view shows.
type comments struct {
	paneKit
	deps    commentDeps
	pending map[string][]decision.Comment // proposal id → its comments, in the order made
	box     *fyne.Container               // the shown proposal's comments

	// The comment dialog's parts, while it is open.
	dialog dialog.Dialog
	save   func()       // saves its comment
	text   *dialogEntry // the comment
	lines  *dialogEntry // its lines: "12" or "12-14"
	hint   *widget.Label
}

// The sides as the dialog offers them.
const (
	sideNewLabel = "new: the proposal"
	sideOldLabel = "old: the file before it"
)

// commentDeps is what the comments need beyond their kit: where a comment
// starts, its drafts and its dialog.
type commentDeps struct {
	drafts *drafts     // the comment box's draft, kept when it closes unsent
	plain  func() bool // the view shows its base against the proposal as sent
	// openTyping shows dlg bound to the shown proposal, typing into box
	// while open() holds; closed runs when it closes.
	openTyping func(dlg dialog.Dialog, box *dialogEntry, what string, open func() bool, closed func())
}

func newComments(kit paneKit, drafts *drafts, plain func() bool, openTyping func(dlg dialog.Dialog, box *dialogEntry, what string, open func() bool, closed func())) *comments {
	c := &comments{paneKit: kit, deps: commentDeps{drafts, plain, openTyping}, pending: map[string][]decision.Comment{}, box: container.NewVBox()}
	c.box.Hide()
	return c
}

// of returns proposal id's comments, to send with its decision.
func (c *comments) of(id string) []decision.Comment { return c.pending[id] }

// sent forgets proposal id's comments once a decision carried them.
func (c *comments) sent(id string) {
	delete(c.pending, id)
	c.refresh()
}

// refresh lists the shown proposal's comments under the diff, each with
// Delete, while it waits for a decision.
func (c *comments) refresh() {
	p, waiting := c.sh.p, c.sh.outcome == nil && c.sh.p.State.Open()
	cs := c.pending[p.ID]
	c.box.Objects = nil
	if len(cs) == 0 || !waiting {
		c.box.Hide()
		return
	}
	c.box.Add(widget.NewLabelWithStyle(present.CommentsHeading(p, len(cs)), fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
	for i, cm := range cs {
		first, _, more := strings.Cut(cm.Text, "\n")
		if more {
			first += " …"
		}
		l := widget.NewLabel(fmt.Sprintf("%s · %s %s: %s", present.RelOf(p, cm.Path), cm.Side, cm.Lines(), first))
		l.Truncation = fyne.TextTruncateEllipsis
		del := widget.NewButton("Delete", func() {
			c.pending[p.ID] = append(cs[:i:i], cs[i+1:]...)
			c.refresh()
			c.keysBack()
		})
		c.box.Add(container.NewBorder(nil, nil, nil, del, l))
	}
	c.box.Show()
	c.box.Refresh()
}

// show opens the comment dialog (c) on the lines of the current hunk of
// the shown file: its new lines, or the old ones of a deletion. The person
// may change the side and the lines; the dialog quotes them as the agent
// will read them. Ctrl+Enter saves, Esc cancels.
func (c *comments) show() {
	p := c.sh.p
	switch {
	case !c.sh.canDecide() || len(p.Files) == 0:
		c.say("Comments go with a decision: choose a proposal waiting for one.")
		return
	case c.dialog != nil:
		return
	}
	f, side, line, end := c.start()
	var dlg dialog.Dialog
	var preview func()
	sides := newChoice(c.keysBack, []string{sideNewLabel, sideOldLabel}, func(string) { preview() })
	lines := newDialogEntry(false, func() { dlg.Hide() }, func() { c.save() })
	c.lines = lines
	lines.SetText(strconv.Itoa(line))
	if end > line {
		lines.SetText(fmt.Sprintf("%d-%d", line, end))
	}
	quote := widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
	quoteScroll := container.NewScroll(quote)
	quoteScroll.SetMinSize(fyne.NewSize(0, 110))
	hint := widget.NewLabel("")
	hint.Importance = widget.DangerImportance
	c.hint = hint
	c.text = newDialogEntry(true, func() { dlg.Hide() }, func() { c.save() })
	c.text.SetPlaceHolder("What should the agent know about these lines?")
	c.text.setDraft(c.deps.drafts.get("comment", c.sh.id))
	c.text.SetMinRowsVisible(3)
	picked := func() (decision.Side, int, int, string, error) {
		s := decision.SideNew
		if sides.Selected == sideOldLabel {
			s = decision.SideOld
		}
		l, e, err := present.ParseLines(lines.Text)
		if err != nil {
			return s, 0, 0, "", err
		}
		q, err := f.Quote(s, l, e)
		return s, l, e, q, err
	}
	preview = func() {
		_, _, _, q, err := picked()
		if err != nil {
			quote.SetText("")
			hint.SetText(err.Error())
			return
		}
		quote.SetText(strings.TrimSuffix(q, "\n"))
		hint.SetText("")
	}
	sides.choose(map[decision.Side]string{decision.SideNew: sideNewLabel, decision.SideOld: sideOldLabel}[side])
	lines.OnChanged = func(string) { preview() }
	c.save = func() {
		s, l, e, q, err := picked()
		text := strings.TrimSpace(c.text.Text)
		switch {
		case err != nil:
			hint.SetText(err.Error())
			return
		case text == "":
			hint.SetText("Type the comment: what the agent should know about these lines.")
			return
		}
		c.pending[p.ID] = append(c.pending[p.ID], decision.Comment{Path: f.Path, Side: s, Line: l, EndLine: e, Quote: q, Text: text})
		c.text.SetText("") // saved: no draft left
		dlg.Hide()
		c.refresh()
		c.say(present.CommentKept(p))
	}
	preview()
	save := widget.NewButton("Save comment (Ctrl+Enter)", func() { c.save() })
	save.Importance = widget.HighImportance
	cancel := widget.NewButton("Cancel (Esc)", func() { dlg.Hide() })
	form := container.NewBorder(nil, nil, widget.NewLabel("Lines (12 or 12-14):"), nil, lines)
	top := container.NewVBox(widget.NewLabel(present.CommentIntro(p, f.Rel)), sides, form, quoteScroll, hint)
	body := container.NewBorder(top, container.NewHBox(cancel, save), nil, nil, c.text)
	dlg = dialog.NewCustomWithoutButtons("Comment for the agent", body, c.win)
	dlg.Resize(fyne.NewSize(640, 460))
	c.dialog = dlg
	text := c.text
	c.deps.openTyping(dlg, text, "the comment box", func() bool { return c.text == text }, func() {
		c.deps.drafts.keep("comment", c.sh.id, text.Text, "c") // Esc or Cancel: the comment stays a draft
		c.dialog, c.save, c.text, c.lines, c.hint = nil, nil, nil, nil, nil
	})
}

// start is the file shown and where a new comment on it starts
// (commentPlace) while the view shows the base against the proposal as
// sent; else line 1 of the proposal (of the base, for a file the
// proposal deletes).
func (c *comments) start() (review.File, decision.Side, int, int) {
	f := c.cur()
	if f.Delete {
		return f, decision.SideOld, 1, 1
	}
	if c.deps.plain() {
		if side, line, end, ok := commentPlace(c.view); ok {
			return f, side, line, end
		}
	}
	return f, decision.SideNew, 1, 1
}

// commentPlace is where a new comment starts in v, showing the base
// against the proposal: the lines of the change j/k went to (its old lines
// for a deletion) while it is on screen, from the first of them on screen;
// else the first line of the proposal on screen alone (c on a long file
// scrolled down quoted line 1). ok is false when v shows no line.
func commentPlace(v *diffview.DiffView) (side decision.Side, line, end int, ok bool) {
	// The first line on screen: a row cut off by less than a pixel counts.
	top := sort.Search(v.Lines(), func(i int) bool { y, _ := v.LineY(i); return y >= -1 })
	if hs, k := v.Hunks(), v.Nav().CurrentHunk(); k >= 0 && k < len(hs) && v.CurrentOnScreen() {
		ch := hs[k].Change
		if ch.B1 == ch.B0 {
			return decision.SideOld, ch.A0 + 1, min(ch.A1, ch.A0+review.MaxCommentLines), true
		}
		from := max(ch.B0, min(top, ch.B1-1)) // its start may have scrolled off the top
		return decision.SideNew, from + 1, min(ch.B1, from+review.MaxCommentLines), true
	}
	if top >= v.Lines() {
		return decision.SideNew, 0, 0, false
	}
	return decision.SideNew, top + 1, top + 1, true
}
