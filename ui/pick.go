package ui

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/ui/present"
)

// pickLimit is how many candidates the picker lists: the keys 1–9.
const pickLimit = 9

// picker lets the person place a block that failed (its closest lines, or
// every place an ambiguous block fits) or matched loosely (Mark lines…
// on the loose-match card): the desk applies the edit there
// (review.Desk.Place) and the window shows the resulting diff, decided as
// any other. A failed block is placed only while the desk holds the
// failure for the person (review.StateHeld): its agent still waits.
// Dismiss sends the failure instead (dismiss).
type picker struct {
	paneKit
	deps      pickDeps
	box       *fyne.Container // above the failed edit's agent text
	title     *widget.Label
	rows      *fyne.Container
	mark      *widget.Button
	looseMark *widget.Button // on the loose-match card
	block     int
	cands     []engine.Candidate
	// from and to are the Mark lines… dialog's line boxes, while it is open;
	// markUse its Use these lines button, markProblem what is wrong with
	// the lines typed.
	from, to    *dialogEntry
	markUse     *widget.Button
	markProblem *widget.Label
	// kept are, per proposal placed, the candidates it was placed from:
	// after the pick the person may go back to them (again) and pick
	// others (choosing, with back to leave the list for the diff); the
	// list and Dismiss were gone once a candidate was used.
	kept     map[string]keptPick
	again    *widget.Button
	againBox *fyne.Container // again, at its own width above the diff
	back     *widget.Button
	choosing bool
}

// keptPick is a placed proposal's choice: its block, the candidates and
// what the picker said of them.
type keptPick struct {
	block int
	cands []engine.Candidate
	what  string
}

// pickDeps is what the picker needs beyond its kit.
type pickDeps struct {
	desk       placeDesk
	looseBlock func() int                           // the block the loose-match card shows
	placed     func(p review.Proposal, said string) // the desk placed a block: show p, saying said
}

// placeDesk is what the picker asks of the desk.
type placeDesk interface {
	Place(ctx context.Context, id, path string, block int, r engine.Region) (review.Proposal, error)
	Dismiss(ctx context.Context, id string) error
}

func newPicker(kit paneKit, deps pickDeps) *picker {
	k := &picker{paneKit: kit, deps: deps, title: widget.NewLabel(""), rows: container.NewVBox()}
	k.title.Wrapping = fyne.TextWrapWord
	k.title.Importance = widget.WarningImportance
	k.mark = widget.NewButton("Mark lines…", func() { k.showMark(k.block) })
	k.looseMark = widget.NewButton("Mark other lines…", func() { k.showMark(deps.looseBlock()) })
	k.kept = map[string]keptPick{}
	k.again = widget.NewButton("Back to the candidates…", k.reopen)
	k.againBox = container.NewHBox(k.again)
	k.againBox.Hide()
	k.back = widget.NewButton("Back to the diff", k.close)
	k.back.Hide()
	k.box = container.NewVBox(k.title, k.rows, container.NewHBox(k.mark, k.back))
	k.box.Hide()
	return k
}

// reopen lists again the candidates the shown proposal was placed from:
// 1–9 (or Use these lines) places the block there instead.
func (k *picker) reopen() {
	id := k.sh.id
	kp, ok := k.kept[id]
	if !ok || !k.sh.canDecide() {
		return
	}
	k.choosing = true
	k.block, k.cands = kp.block, kp.cands
	k.list("You placed block " + strconv.Itoa(kp.block) + ". " + kp.what + " (Reject sends the agent a rejection; Back to the diff keeps your pick.)")
	k.redraw(false)
	k.keysBack()
}

// close leaves the candidates listed again for the diff as placed.
func (k *picker) close() {
	k.choosing = false
	k.redraw(true)
	k.keysBack()
}

// placeable reports whether the person can place blocks of p.
func placeable(p review.Proposal) bool {
	switch p.Format {
	case engine.FormatSearchReplace, engine.FormatEdit, engine.FormatMultiEdit, engine.FormatSmartEdit:
		return len(p.Files) == 1 && p.Files[0].Base.Exists
	}
	return false
}

// show lists the candidates of p's failed block, or hides the picker when
// p has none to place; the loose card's Mark button shows for a waiting p.
func (k *picker) show(p review.Proposal) {
	vis(k.looseMark, placeable(p) && p.State.Open() && p.State != review.StateStreaming)
	_, kept := k.kept[p.ID]
	decided := k.sh.outcome != nil
	vis(k.againBox, kept && !k.choosing && p.State.Open() && p.State != review.StateFailed && !decided)
	if k.choosing && kept && p.State.Open() && !decided {
		k.back.Show()
		k.box.Show()
		return
	}
	k.choosing = false
	k.back.Hide()
	me := p.Mismatch
	if p.State != review.StateHeld || me == nil || !placeable(p) {
		k.cands = nil
		k.box.Hide()
		return
	}
	k.block, k.cands = me.Block, likely(me.Closest)
	what := fmt.Sprintf("Block %d did not match %s. Pick the lines it was meant for, or mark them, and review the diff:", me.Block, p.Files[0].Rel)
	if len(me.Places) > 0 {
		k.cands = me.Places
		what = fmt.Sprintf("Block %d fits %d places in %s. Pick the one it was meant for, and review the diff:", me.Block, len(me.Places), p.Files[0].Rel)
	}
	if len(k.cands) > pickLimit {
		k.cands = k.cands[:pickLimit]
	}
	if len(k.cands) == 0 {
		what = fmt.Sprintf("Block %d did not match %s, and nothing in it came close. Mark the lines it was meant for:", me.Block, p.Files[0].Rel)
	}
	k.list(what)
}

// list shows what and a row per candidate.
func (k *picker) list(what string) {
	k.title.SetText(what)
	k.rows.Objects = nil
	for i, c := range k.cands {
		k.rows.Add(k.row(i, c))
	}
	k.rows.Refresh()
	k.box.Show()
}

// row is candidate i: its lines and similarity, the button and a preview.
func (k *picker) row(i int, c engine.Candidate) fyne.CanvasObject {
	head := widget.NewLabelWithStyle(fmt.Sprintf("%d.  %s", i+1, present.CandidateText(c)), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	use := widget.NewButton(fmt.Sprintf("Use these lines (%d)", i+1), func() { k.use(i) })
	preview := widget.NewLabelWithStyle(present.CardText(strings.Join(c.Lines, "\n")), fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
	preview.Truncation = fyne.TextTruncateEllipsis
	return container.NewVBox(container.NewHBox(head, use), preview)
}

// likely drops the closest lines far less like the block than the best
// (under half its similarity): noise beside the lines that were meant.
func likely(cs []engine.Candidate) []engine.Candidate {
	if len(cs) == 0 {
		return cs
	}
	best, out := cs[0].Similarity, cs[:0:0]
	for _, c := range cs {
		if c.Similarity >= best/2 {
			out = append(out, c)
		}
	}
	return out
}

// use places the failed block at candidate i (0-based): the keys 1–9 and
// the buttons. It says so when there is no such candidate.
func (k *picker) use(i int) {
	if i >= len(k.cands) || !k.box.Visible() {
		k.say(fmt.Sprintf("No candidate %d to pick here: the keys 1–9 pick the lines listed for an edit that did not match.", i+1))
		return
	}
	c := k.cands[i]
	if !k.choosing { // listed again, the first list's words are kept
		id := k.sh.id
		k.kept[id] = keptPick{block: k.block, cands: k.cands, what: k.title.Text}
	}
	k.place(k.block, engine.Region{StartLine: c.StartLine, EndLine: c.EndLine})
}

// dismiss sends the held failure id to its agent, off the UI goroutine:
// Dismiss on a failure the window holds. The queue drops it at once; the
// desk's event follows.
func (k *picker) dismiss(id string) {
	k.run(func() func() {
		if err := k.deps.desk.Dismiss(context.Background(), id); err != nil {
			return func() { k.setStatus("Not dismissed: "+err.Error(), true) }
		}
		return nil
	})
}

// place asks the desk, off the UI goroutine, to apply the shown proposal
// with block at lines r, and shows the resulting diff.
func (k *picker) place(block int, r engine.Region) {
	id, shown := k.sh.id, k.sh.p
	path := ""
	if len(shown.Files) == 1 {
		path = shown.Files[0].Path
	}
	k.say(fmt.Sprintf("Placing block %d at %s…", block, r))
	k.run(func() func() {
		p, err := k.deps.desk.Place(context.Background(), id, path, block, r)
		return func() { k.placed(id, block, r, p, err) }
	})
}

// placed shows the proposal the desk placed, or why it could not.
func (k *picker) placed(id string, block int, r engine.Region, p review.Proposal, err error) {
	if id != k.sh.id {
		return
	}
	if err != nil {
		k.setStatus("Not placed: "+err.Error(), true)
		return
	}
	k.choosing = false
	said := fmt.Sprintf("Block %d placed at %s: review the diff, then decide.", block, r)
	if p.State.DidNotApply() {
		said = fmt.Sprintf("Block %d placed at %s; block %d still does not match.", block, r, p.Mismatch.Block)
	}
	k.deps.placed(p, said)
}

// showMark opens the Mark lines… dialog for block: a first and last line
// of the file, the lines they take shown as they are typed.
func (k *picker) showMark(block int) {
	id, p := k.sh.id, k.sh.p
	if id == "" || !placeable(p) || block < 1 {
		k.say("Nothing to mark lines for: only an edit with blocks, of a file that exists, can be placed.")
		return
	}
	lines := strings.Split(strings.TrimSuffix(strings.ReplaceAll(p.Files[0].BaseText(), "\r\n", "\n"), "\n"), "\n")
	preview := widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
	// The problem wraps in a label of its own: in the monospaced preview
	// it widened the dialog past the window's edge. The dialog keeps its
	// own buttons, so that lines not in the file keep it open with the
	// problem shown (a confirm dialog closed first, and the click did
	// nothing the person could see).
	problem := widget.NewLabel("")
	problem.Wrapping = fyne.TextWrapWord
	problem.Importance = widget.DangerImportance
	var dlg dialog.Dialog
	cancel := func() { dlg.Hide() }
	check := func() (engine.Region, bool) {
		r, err := present.MarkedRegion(k.from.Text, k.to.Text, len(lines))
		if err != nil {
			preview.SetText("")
			problem.SetText(err.Error())
			problem.Show()
			return r, false
		}
		problem.Hide()
		preview.SetText(present.CardText(strings.Join(lines[r.StartLine-1:r.EndLine], "\n")))
		return r, true
	}
	submit := func() {
		r, ok := check()
		if !ok {
			return
		}
		dlg.Hide()
		k.place(block, r)
	}
	k.from, k.to = newDialogEntry(false, cancel, submit), newDialogEntry(false, cancel, submit)
	k.from.selectOnFocus, k.to.selectOnFocus = true, true
	if c := k.firstCandidate(); c != nil {
		k.from.SetText(strconv.Itoa(c.StartLine))
		k.to.SetText(strconv.Itoa(c.EndLine))
	}
	update := func(string) { check() }
	k.from.OnChanged, k.to.OnChanged = update, update
	update("")
	k.markProblem = problem
	k.markUse = widget.NewButtonWithIcon("Use these lines", theme.ConfirmIcon(), submit)
	k.markUse.Importance = widget.HighImportance
	form := container.NewVBox(
		widget.NewLabel(fmt.Sprintf("The lines of %s that block %d replaces (1–%d):", p.Files[0].Rel, block, len(lines))),
		container.NewGridWithColumns(4, widget.NewLabel("From line"), k.from, widget.NewLabel("to line"), k.to),
		preview, problem,
		container.NewHBox(layout.NewSpacer(), widget.NewButtonWithIcon("Cancel", theme.CancelIcon(), cancel), k.markUse, layout.NewSpacer()))
	dlg = dialog.NewCustomWithoutButtons("Mark lines", form, k.win)
	dlg.Resize(fyne.NewSize(640, 0))
	k.open(dlg, k.from, dialogKeys{}, func() { k.from, k.to, k.markUse, k.markProblem = nil, nil, nil, nil })
}

// firstCandidate is the first listed candidate, if any.
func (k *picker) firstCandidate() *engine.Candidate {
	if len(k.cands) == 0 || !k.box.Visible() {
		return nil
	}
	return &k.cands[0]
}
