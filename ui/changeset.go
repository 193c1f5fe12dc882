package ui

import (
	"context"
	"fmt"
	"path"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/ui/present"
)

// The changeset of the shown proposal (review.Changeset): every file of
// every proposal of its agent session (and turn), open and recently
// decided, as a tree above the diff, read as one review. j and k go on
// across its files and proposals, ] and [ step through its files, and A
// and R decide every open proposal of it at once.

// changesetTree is the file tree of the shown proposal's changeset; it
// shows only when the changeset has more than one file.
type changesetTree struct {
	paneKit
	deps     treeDeps
	cs       review.Changeset
	title    *widget.Label
	rows     *fyne.Container // VBox of treeRows and directory labels
	scroll   *container.Scroll
	box      *fyne.Container
	sig      string // what refresh last showed (signature)
	question string // what the approve-all question asks, while it is open (A)
}

// treeDeps is what the tree needs beyond its kit.
type treeDeps struct {
	desk interface {
		ChangesetOf(id string) (review.Changeset, bool)
		Get(id string) (review.Proposal, bool)
		Outcome(id string) (review.Outcome, bool)
	}
	relayout     func()               // the pane is laid out again: the tree came, went or grew
	showProposal func(id string) bool // shows proposal id; false when it is no longer at the desk
	showFile     func(i int)          // shows file i of the shown proposal
	kept         keptChoices          // what the person chose on the proposals shown before
}

func newChangesetTree(kit paneKit, deps treeDeps) *changesetTree {
	t := &changesetTree{paneKit: kit, deps: deps}
	t.title = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	t.rows = container.NewVBox()
	t.scroll = container.NewVScroll(t.rows)
	t.box = container.NewBorder(t.title, nil, nil, nil, t.scroll)
	t.box.Hide()
	return t
}

// shown reports whether the tree is on show (the changeset has more than
// one file).
func (t *changesetTree) shown() bool { return len(t.cs.Files) > 1 }

// refresh re-reads the shown proposal's changeset from the desk and draws it.
func (t *changesetTree) refresh() {
	t.cs = review.Changeset{}
	if t.sh.id != "" {
		if cs, ok := t.deps.desk.ChangesetOf(t.sh.id); ok {
			t.cs = cs
		}
	}
	// Each streamed chunk asks again: what would show the same is left as
	// it is (rebuilding it and laying out the pane was half a chunk's work).
	if sig := t.signature() + fmt.Sprint(t.shownRows()); sig != t.sig {
		t.sig = sig
	} else {
		return
	}
	// The tree comes, goes and grows while the person reads: the pane is
	// laid out again each time, or the diff stays where it was, under it.
	defer t.deps.relayout()
	if !t.shown() {
		t.box.Hide()
		return
	}
	cs := t.cs
	t.title.SetText(present.ChangesetTitle(cs))
	var objs []fyne.CanvasObject
	dir := ""
	cur := t.current()
	for i, f := range cs.Files {
		indent := ""
		if dd := path.Dir(f.Rel); dd != "." {
			if dd != dir {
				l := canvas.NewText(dd+"/", theme.Color(theme.ColorNamePlaceHolder))
				l.TextSize = theme.CaptionTextSize() + 1
				objs = append(objs, container.NewPadded(l))
			}
			dir, indent = dd, "    "
		} else {
			dir = ""
		}
		objs = append(objs, newTreeRow(t, i, indent, f, i == cur))
	}
	t.rows.Objects = objs
	t.rows.Refresh()
	h := float32(0)
	for i, o := range objs {
		if i == t.shownRows() {
			break
		}
		h += o.MinSize().Height + theme.Padding()
	}
	t.scroll.SetMinSize(fyne.NewSize(0, h))
	t.box.Show()
	t.reveal(cur)
}

// shownRows is how many of the tree's rows show before it scrolls: 7, and
// fewer in a short window (700 px at FYNE_SCALE=1.5 left the diff about 4
// rows under the header), so the diff keeps most of the height.
func (t *changesetTree) shownRows() int {
	h := t.win.Canvas().Size().Height
	switch {
	case h <= 0 || h >= 800:
		return 7
	case h >= 600:
		return 4
	}
	return 2
}

// signature is everything the tree shows: the changeset's counts, each
// file's name, state, lines and mark, the theme's colours.
func (t *changesetTree) signature() string {
	if !t.shown() {
		return "hidden"
	}
	var b strings.Builder
	cs := t.cs
	fmt.Fprint(&b, theme.Color(theme.ColorNameForeground), cs.Open, cs.Added, cs.Removed, len(cs.Proposals), t.current())
	for _, p := range cs.Proposals {
		fmt.Fprint(&b, p.State)
	}
	for _, f := range cs.Files {
		st, col := t.fileState(f)
		fmt.Fprintf(&b, "\x00%s\x00%s\x00%s\x00%v", f.Rel, st, col, []any{f.State, f.Added, f.Removed, f.New, f.Delete})
	}
	return b.String()
}

// current is the index in the changeset's files of the file shown; -1 if
// none.
func (t *changesetTree) current() int {
	for i, f := range t.cs.Files {
		if f.Proposal == t.sh.id && f.Index == t.c.file {
			return i
		}
	}
	return -1
}

// fileState names a changeset file's state for the tree, and its colour
// (present.FileState).
func (t *changesetTree) fileState(f review.ChangesetFile) (string, fyne.ThemeColorName) {
	tf := present.TreeFile{File: f}
	switch f.State {
	case review.StatePending:
		tf.Ticks = t.ticksNote(f)
	case review.StateFailed, review.StateHeld, review.StateStale:
		if p, ok := t.deps.desk.Get(f.Proposal); ok {
			tf.Proposal = &p
		}
	case review.StateStreaming, review.StateDecided, review.StateWithdrawn:
	default:
		if o, ok := t.deps.desk.Outcome(f.Proposal); ok {
			tf.Outcome = &o
		}
	}
	s, tone := present.FileState(tf)
	return s, toneColor(tone)
}

// goTo shows file i of the changeset, at its first change (or its last,
// with last): in the shown proposal, or by showing the proposal it is in.
func (t *changesetTree) goTo(i int, last bool) {
	if i < 0 || i >= len(t.cs.Files) {
		return
	}
	f := t.cs.Files[i]
	if f.Proposal != t.sh.id && !t.deps.showProposal(f.Proposal) {
		t.say("That proposal is no longer at the desk.")
		return
	}
	if f.Index != t.c.file && f.Index < len(t.sh.p.Files) {
		t.deps.showFile(f.Index)
	}
	if last {
		t.view.Nav().LastHunk()
	}
	t.refresh()
	t.counter()
}

// step goes dir files on through the changeset (] and [); it reports
// whether the changeset has more than one file.
func (t *changesetTree) step(dir int, last bool) bool {
	if !t.shown() {
		return false
	}
	i := t.current() + dir
	switch {
	case i < 0:
		t.say("This is the first file of the changeset.")
	case i >= len(t.cs.Files):
		t.say("This is the last file of the changeset.")
	default:
		t.goTo(i, last)
	}
	return true
}

// hunkCount is how many hunks file f of the changeset has.
func (t *changesetTree) hunkCount(f review.ChangesetFile) int {
	for _, p := range t.cs.Proposals {
		if p.ID == f.Proposal && f.Index < len(p.Files) {
			if p.State == review.StateStreaming {
				return 0 // still growing
			}
			return len(p.Files[f.Index].Hunks())
		}
	}
	return 0
}

// place is the shown file's place in the changeset, for the counter: its
// index of the changeset's files, and the hunks before it and in all (n:
// the shown file's, as the view counts them); all zero when the changeset
// has one proposal (the proposal's own counter says it all).
func (t *changesetTree) place(n int) (file, files, before, total int) {
	cur := t.current()
	if len(t.cs.Proposals) < 2 || cur < 0 {
		return 0, 0, 0, 0
	}
	for i, f := range t.cs.Files {
		c := t.hunkCount(f)
		if i == cur {
			c = n
		}
		if i < cur {
			before += c
		}
		total += c
	}
	return cur, len(t.cs.Files), before, total
}

// openProposals are the changeset's proposals that wait for a decision.
func (t *changesetTree) openProposals() []review.Proposal {
	var out []review.Proposal
	for _, p := range t.cs.Proposals {
		if p.State.Open() {
			out = append(out, p)
		}
	}
	return out
}

// ApproveChangeset approves every open proposal of the shown changeset as
// proposed (A). When that is more than the shown proposal, it asks first:
// Enter approves, Esc cancels.
func (d *detail) ApproveChangeset() {
	t := d.tree
	t.refresh()
	open := t.openProposals()
	switch {
	case d.id == "" || d.deciding:
		return
	case len(open) == 0:
		d.line.say("Nothing in this changeset waits for a decision.")
		return
	case len(open) == 1 && open[0].ID == d.id:
		d.Approve() // just the shown one: as a does, ticks and edits included
		return
	case d.canDecide() && (d.editing || len(d.edited) > 0 || d.someRejected()):
		// Approving all as proposed would drop what the person did here.
		d.line.say("You edited this proposal or unticked hunks: approve it with a first, then A approves the rest as proposed.")
		return
	case d.kept.choiceIn(open, d.id) != "":
		d.line.say("You edited or unticked hunks of " + d.kept.choiceIn(open, d.id) + ": approve it with a first, then A approves the rest as proposed.")
		return
	}
	u, _ := d.onScreen.changeset(open)
	if !d.bar.askUnseen.Checked {
		u = review.Unseen{}
	}
	title, msg := present.ApproveAll(open, u)
	t.question = msg
	dlg := dialog.NewConfirm(title, msg, func(ok bool) {
		t.question = ""
		if ok {
			d.decideChangeset(review.ChangesetDecision{Verdict: decision.Approved, Shown: shownVersions(open)})
		}
	}, d.w.Win)
	dlg.SetConfirmText("Approve all (Enter)")
	dlg.SetDismissText("Cancel (Esc)")
	t.ask(dlg)
}

// ShowRejectChangeset opens the reject dialog for every open proposal of
// the shown changeset, with one reason for them all (R).
func (d *detail) ShowRejectChangeset() {
	d.tree.refresh()
	open := d.tree.openProposals()
	switch {
	case d.id == "" || d.deciding:
	case len(open) == 0:
		d.line.say("Nothing in this changeset waits for a decision.")
	default:
		d.rejectBox.show(true, fmt.Sprintf("Reject all %d open %s of this changeset?", len(open), present.Plural(len(open), "proposal", "proposals")))
	}
}

// decideChangeset carries out a whole-changeset decision off the UI
// goroutine; each proposal is decided on its own and its agent told.
func (d *detail) decideChangeset(dec review.ChangesetDecision) {
	if wait := d.shownAt.Add(d.w.opts.ArmDelay).Sub(d.w.now()); wait > 0 {
		d.line.setStatus("This proposal has just appeared: look at it, then decide.", false)
		return
	}
	key, id := d.tree.cs.Key, d.id
	shownOpen := d.canDecide()
	open := d.tree.openProposals()
	if dec.Shown == nil {
		dec.Shown = shownVersions(open)
	}
	_, dec.Seen = d.onScreen.changeset(open) // the journal keeps what was on screen
	dec.SeenLines = d.onScreen.changesetLines(open)
	// Each proposal's comments go with its own outcome.
	for _, p := range open {
		if cs := d.comments.of(p.ID); len(cs) > 0 {
			if dec.Comments == nil {
				dec.Comments = map[string][]decision.Comment{}
			}
			dec.Comments[p.ID] = cs
		}
	}
	if shownOpen {
		d.deciding = true
		d.updateBar()
	}
	d.w.autoPicked = false
	d.line.setStatus("Deciding the changeset…", false)
	d.w.background(func() func() {
		res, err := d.w.desk.DecideChangeset(context.Background(), key, dec)
		return func() { d.changesetDecided(id, shownOpen, res, err) }
	})
}

// changesetDecided shows what a whole-changeset decision did.
func (d *detail) changesetDecided(id string, shownOpen bool, res review.ChangesetResult, err error) {
	for _, o := range res.Decided {
		d.comments.sent(o.ID)
	}
	if id != d.id {
		return
	}
	if shownOpen {
		d.deciding = false
		var mine *review.Outcome
		for i := range res.Decided {
			if res.Decided[i].ID == id {
				mine = &res.Decided[i]
			}
		}
		if mine != nil {
			d.decided(id, *mine, nil)
		} else if p, ok := d.w.desk.Get(id); ok {
			d.p = p
			d.shownKey = ""
			d.render()
		}
	}
	if err != nil {
		d.line.setStatus("The changeset was not decided: "+err.Error(), true)
		return
	}
	d.line.setStatus(present.ChangesetDecided(res, d.w.proposalName), len(res.Skipped) > 0)
	d.tree.refresh()
	d.w.refreshQueue()
}

// protected reports whether the changeset's file f is protected.
func (t *changesetTree) protected(f review.ChangesetFile) bool {
	for _, p := range t.cs.Proposals {
		if p.ID == f.Proposal && f.Index < len(p.Files) {
			return !p.Files[f.Index].Protected.IsZero()
		}
	}
	return false
}

// treeRow is one file of the changeset tree: a click shows it.
type treeRow struct {
	widget.BaseWidget
	t       *changesetTree
	i       int
	content *fyne.Container
}

func newTreeRow(t *changesetTree, i int, indent string, f review.ChangesetFile, current bool) *treeRow {
	r := &treeRow{t: t, i: i}
	mark := "  "
	if current {
		mark = "▸ "
	}
	name := canvas.NewText(indent+mark+path.Base(f.Rel), theme.Color(theme.ColorNameForeground))
	name.TextStyle.Bold = current
	st, col := t.fileState(f)
	state := canvas.NewText(st, theme.Color(col))
	state.TextSize = theme.CaptionTextSize()
	state.TextStyle.Bold = true
	added := canvas.NewText(fmt.Sprintf("+%d", f.Added), theme.Color(theme.ColorNameSuccess))
	removed := canvas.NewText(fmt.Sprintf("−%d", f.Removed), theme.Color(theme.ColorNameError))
	added.TextStyle.Monospace, removed.TextStyle.Monospace = true, true
	left := container.NewHBox(name)
	if f.New {
		n := canvas.NewText("new", theme.Color(theme.ColorNamePlaceHolder))
		n.TextSize = theme.CaptionTextSize()
		left.Add(n)
	}
	if f.Delete {
		n := canvas.NewText("deleted", theme.Color(theme.ColorNameError))
		n.TextSize = theme.CaptionTextSize()
		left.Add(n)
	}
	if t.protected(f) { // as the queue badges it (protected.go)
		n := canvas.NewText("protected", theme.Color(theme.ColorNameError))
		n.TextSize = theme.CaptionTextSize()
		n.TextStyle.Bold = true
		left.Add(n)
	}
	// Inset on the right: the counts stay clear of the pane's edge and of
	// the tree's scroll bar.
	right := container.NewHBox(state, added, removed)
	if f.State == review.StateStreaming {
		right = container.NewHBox(state) // its lines are not counted yet
	}
	r.content = container.New(layout.NewCustomPaddedLayout(0, 0, 0, 3*theme.Padding()),
		container.NewBorder(nil, nil, left, right))
	r.ExtendBaseWidget(r)
	return r
}

// CreateRenderer is part of fyne.Widget.
func (r *treeRow) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(r.content) }

// Tapped shows the row's file; part of fyne.Tappable.
func (r *treeRow) Tapped(*fyne.PointEvent) {
	r.t.goTo(r.i, false)
	r.t.keysBack()
}

// shownVersions maps each of the proposals the window shows to the
// version of it shown (ChangesetDecision.Shown): one that joins the
// changeset later, or changes, is not approved with the rest.
func shownVersions(ps []review.Proposal) map[string]string {
	m := make(map[string]string, len(ps))
	for _, p := range ps {
		m[p.ID] = review.ShownVersion(p)
	}
	return m
}

// ticksNote is what the changeset tree adds to a waiting file's state when
// the person unticked some of its hunks ("1 of 2 ticked", "none ticked"),
// "" otherwise: across a many-file changeset, the files a would write only
// in part could not be told from the rest (real window, a 6-file patch).
func (t *changesetTree) ticksNote(f review.ChangesetFile) string {
	var ids []string
	var ok bool
	if f.Proposal == t.sh.id {
		ids, ok = t.c.accepted[f.Path]
	} else if k, kept := t.deps.kept[f.Proposal]; kept {
		ids, ok = k.accepted[f.Path]
	}
	if !ok {
		return "" // never ticked or unticked: every hunk is
	}
	return present.TicksNote(len(ids), t.hunkCount(f))
}

// ticksChanged redraws the tree's states after the person ticked or
// unticked hunks of the shown file.
func (t *changesetTree) ticksChanged() {
	if t.shown() {
		t.refresh()
	}
}

// reveal scrolls the changeset tree so the row of the file shown is in
// sight: with more files than the tree has room for, ] and [ (and j, k
// across files) went on to files below its fold while the tree still showed
// the first ones, and no row said which file the diff is of.
func (t *changesetTree) reveal(cur int) {
	var row fyne.CanvasObject
	y := float32(0)
	for _, o := range t.rows.Objects {
		if r, ok := o.(*treeRow); ok && r.i == cur {
			row = o
			break
		}
		y += o.MinSize().Height + theme.Padding()
	}
	if row == nil {
		return
	}
	view := max(t.scroll.Size().Height, t.scroll.MinSize().Height)
	off := t.scroll.Offset.Y
	switch h := row.MinSize().Height; {
	case y < off:
		off = y
	case y+h > off+view:
		off = y + h - view
	default:
		return
	}
	t.scroll.ScrollToOffset(fyne.NewPos(0, off))
}
