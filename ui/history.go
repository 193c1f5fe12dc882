package ui

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/journal"
	"github.com/diffdesk/diffdesk/ui/diffview"
)

// History filter choices shown in the selects.
const (
	historyAllAgents    = "All agents"
	historyAllSessions  = "All sessions"
	historyAllDecisions = "All decisions"
	historyAllTime      = "All time"
)

// historySince maps the since select's choices to how far back they reach.
var historySince = []struct {
	label string
	d     time.Duration
}{
	{"Last hour", time.Hour},
	{"Last 24 hours", 24 * time.Hour},
	{"Last 7 days", 7 * 24 * time.Hour},
	{historyAllTime, 0},
}

// historyDecisions are the decision select's choices after "All decisions".
var historyDecisions = []string{
	string(decision.Approved), string(decision.Overwritten), string(decision.Partial), string(decision.Rejected),
	string(decision.Withdrawn), string(decision.Failed), string(decision.Stale), journal.EntryRestore,
}

// historyPageSize is how many entries one page of the timeline loads.
const historyPageSize = 100

// historyView is the History tab: the journal's timeline with filters on
// the left, the selected entry's diff on the right, and the compare and
// restore actions. It reads the history through the desk (Desk.History
// and the rest), and restores through it (Desk.Restore): the desk is the
// one writer of its workspace, and History works over --connect. Every
// desk call runs on its own goroutine; results reach the widgets through
// the window's do scheduler. Its parts are the pieces embedded.
type historyView struct {
	*historyTimeline
	*historyEntryPane
	*restoreDialog

	w       *Window
	ctx     context.Context
	cancel  context.CancelFunc
	calls   sync.WaitGroup
	content fyne.CanvasObject
	split   *container.Split
	unsub   func()      // from the desk's events
	pending atomic.Bool // a desk decision is waiting to reach the timeline
}

// historyTimeline is the left of the History tab: the filters and the
// entries, a page at a time.
type historyTimeline struct {
	deskSel               *widget.Select // over several desks: whose history (historydesk.go); nil over one
	agentSel, sessionSel  *widget.Select
	decisionSel, sinceSel *widget.Select
	agents                []journal.Agent
	fileEntry             *widget.Entry
	list                  *widget.List
	more                  *widget.Button
	status                *widget.Label

	entries []journal.Entry
	next    string
	gen     int // bumped by reload: older pages arriving late are dropped
	page    int // entries per page: historyPageSize (tests make it small)
	loaded  bool
	sel     int // index of the selected entry; -1 if none
	want    journal.Ref
	notice  string // said in the status line after the next page, e.g. what a restore did
}

// historyEntryPane is the right of the History tab: the selected entry,
// its files' diffs, and the compare and restore buttons.
type historyEntryPane struct {
	title    *widget.Label
	info     *widget.Label
	fileSel  *widget.Select
	view     *diffview.DiffView
	diffs    []review.HistoryFile
	diffGen  int
	whoGen   int            // bumped per entry selected: who decided an older one arriving late is dropped
	mark     *journal.Entry // the entry marked by "Compare with…"
	compare  *widget.Button
	vsDisk   *widget.Button
	restore  *widget.Button
	restore1 *widget.Button // restores only the file shown
	unmark   *widget.Button
	diffNote *widget.Label
	shown    string // what the diff pane shows: the entry's ref and the mark's
}

// restoreDialog is the restore's dry run, while shown: its buttons are
// fields so tests tap them.
type restoreDialog struct {
	restoreDlg     dialog.Dialog
	restorePlan    journal.RestorePlan
	restoreText    *widget.Label
	restoreConfirm *widget.Button
	restoreForce   *widget.Button
	restoreOthers  *widget.Button // restores the files not refused, leaving the refused ones out
	restoreCancel  *widget.Button
	restoreView    *diffview.DiffView // what the restore does to the file chosen: disk now → restored
	restoreFile    *widget.Select
	restoreWhat    *widget.Label // the direction the view shows
	synchronous    bool          // tests: diff views made later work synchronously (DiffView.SetSynchronous)
	lastRestore    journal.RestoreResult
	lastErr        error
}

func newHistoryView(w *Window) *historyView {
	h := &historyView{w: w, historyTimeline: &historyTimeline{sel: -1, page: historyPageSize}, historyEntryPane: &historyEntryPane{}, restoreDialog: &restoreDialog{}}
	h.ctx, h.cancel = context.WithCancel(context.Background())

	reload := thenKeysBack(w, func(string) { h.reload() })
	h.agentSel = widget.NewSelect([]string{historyAllAgents}, thenKeysBack(w, func(string) {
		h.sessionSel.Selected = historyAllSessions // a session belongs to one agent
		h.setSessions()
		h.reload()
	}))
	h.agentSel.Selected = historyAllAgents
	h.sessionSel = widget.NewSelect([]string{historyAllSessions}, reload)
	h.sessionSel.Selected = historyAllSessions
	h.decisionSel = widget.NewSelect(append([]string{historyAllDecisions}, historyDecisions...), reload)
	h.decisionSel.Selected = historyAllDecisions
	var since []string
	for _, s := range historySince {
		since = append(since, s.label)
	}
	h.sinceSel = widget.NewSelect(since, reload)
	h.sinceSel.Selected = historyAllTime
	h.fileEntry = widget.NewEntry()
	h.fileEntry.SetPlaceHolder("File or pattern, e.g. *.go")
	h.fileEntry.OnSubmitted = func(string) { h.reload() }

	h.list = widget.NewList(func() int { return len(h.entries) }, newHistoryRow, func(i widget.ListItemID, o fyne.CanvasObject) {
		if i < len(h.entries) {
			h.fillRow(o, h.entries[i])
		}
	})
	h.list.OnSelected = thenKeysBack(w, h.selectIndex)
	h.list.OnHighlighted = func(widget.ListItemID) { w.keysBack() } // a click on the selected entry
	h.more = widget.NewButton("Load more", h.loadMore)
	h.more.Hide()
	h.status = widget.NewLabel("")
	h.status.Wrapping = fyne.TextWrapWord

	filters := container.NewVBox(
		container.NewGridWithColumns(2, h.agentSel, h.sessionSel, h.decisionSel, h.sinceSel),
		h.fileEntry,
	)
	if sel := historyDeskSelect(w, h); sel != nil { // a window over several desks: one desk's history at a time
		filters.Objects = append([]fyne.CanvasObject{sel}, filters.Objects...)
	}
	left := container.NewBorder(filters, container.NewVBox(h.more, h.status), nil, nil, h.list)

	h.title = widget.NewLabelWithStyle("Select an entry of the history", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	h.title.Truncation = fyne.TextTruncateEllipsis
	h.info = widget.NewLabel("")
	h.info.Wrapping = fyne.TextWrapWord
	h.diffNote = widget.NewLabel("")
	h.fileSel = widget.NewSelect(nil, thenKeysBack(w, func(string) { h.showFile() }))
	h.fileSel.PlaceHolder = "(no files)"
	h.view = diffview.NewDiffView()
	h.view.ReadOnly = true // the past: nothing to tick
	h.compare = widget.NewButton("Compare with…", h.MarkCompare)
	h.unmark = widget.NewButton("Stop comparing", h.Unmark)
	h.unmark.Hide()
	h.vsDisk = widget.NewButton("vs disk", h.CompareDisk)
	h.restore = widget.NewButton("Restore…", h.ShowRestore)
	h.restore1 = widget.NewButton("Restore this file…", h.ShowRestoreFile)
	h.setActions()
	h.view.SetDark(isDark(w.app))
	w.app.Settings().AddListener(func(fyne.Settings) { w.do(func() { h.view.SetDark(isDark(w.app)) }) })
	// A decision adds to the history: reload while the tab shows, once per burst.
	h.unsub = w.desk.Subscribe(func(ev review.Event) {
		if ev.Kind == review.EventDecided && h.pending.CompareAndSwap(false, true) {
			w.do(h.decided)
		}
	})

	bar := newFlow(false, h.compare, h.unmark, h.vsDisk, h.restore, h.restore1) // wraps in a narrow window (flow.go)
	top := container.NewVBox(h.title, h.info, container.NewBorder(nil, nil, widget.NewLabel("File"), nil, h.fileSel), h.diffNote)
	right := container.NewBorder(top, bar, nil, nil, h.view)

	h.split = container.NewHSplit(left, right)
	h.split.Offset = w.app.Preferences().FloatWithFallback(prefHistoryWidth, 0.38)
	h.content = h.split
	return h
}

// close cancels the journal calls in flight and waits for them.
func (h *historyView) close() {
	h.unsub()
	h.cancel()
	h.calls.Wait()
}

// run calls f off the UI goroutine and then applies its result with the
// window's scheduler (unless the window closed meanwhile).
func (h *historyView) run(f func(ctx context.Context) func()) {
	h.calls.Add(1)
	go func() {
		defer h.calls.Done()
		apply := f(h.ctx)
		if h.ctx.Err() != nil || apply == nil {
			return
		}
		h.w.do(apply)
	}()
}

// decided reloads the timeline after desk decisions if the History tab is
// showing (otherwise selecting the tab reloads it).
func (h *historyView) decided() {
	h.pending.Store(false)
	if h.w.tabs != nil && h.w.tabs.Selected() != nil && h.w.tabs.Selected().Content == h.content {
		h.reload()
	}
}

// filter is the filter the widgets say, for the first page.
func (h *historyView) filter() journal.Filter {
	f := journal.Filter{File: strings.TrimSpace(h.fileEntry.Text), Limit: h.page}
	if a := h.agentSel.Selected; a != "" && a != historyAllAgents {
		f.Agent = a
	}
	if s := h.sessionSel.Selected; s != "" && s != historyAllSessions {
		f.Session = s
	}
	if d := h.decisionSel.Selected; d != "" && d != historyAllDecisions {
		f.Decision = d
	}
	for _, s := range historySince {
		if s.label == h.sinceSel.Selected && s.d > 0 {
			f.Since = h.w.now().Add(-s.d)
		}
	}
	return f
}

// reload loads the newest page of the timeline afresh (and the agents for
// the filter), keeping the selected entry selected if it is still listed.
func (h *historyView) reload() {
	if h.agentSel == nil || h.sessionSel == nil || h.sinceSel == nil || h.fileEntry == nil {
		return // still being built: the selects' callbacks fire on Selected changes
	}
	h.loaded = true
	h.gen++
	gen := h.gen
	f := h.filter()
	if h.sel >= 0 && h.sel < len(h.entries) && h.want == "" {
		h.want = h.entries[h.sel].Ref
	}
	h.status.SetText("Loading…")
	h.run(func(ctx context.Context) func() {
		page, err := h.w.desk.History(ctx, f)
		agents, aerr := h.w.desk.HistoryAgents(ctx)
		return func() {
			if gen != h.gen {
				return
			}
			if aerr == nil {
				h.setAgents(agents)
			}
			if err != nil {
				h.status.SetText("Could not read the history: " + err.Error())
				return
			}
			h.entries = page.Entries
			h.next = page.Next
			h.sel = -1
			h.list.UnselectAll()
			h.afterPage()
		}
	})
}

// loadMore appends the next (older) page.
func (h *historyView) loadMore() {
	if h.next == "" {
		return
	}
	gen := h.gen
	f := h.filter()
	f.Cursor = h.next
	h.more.Disable()
	h.run(func(ctx context.Context) func() {
		page, err := h.w.desk.History(ctx, f)
		return func() {
			h.more.Enable()
			if gen != h.gen {
				return
			}
			if err != nil {
				h.status.SetText("Could not read the history: " + err.Error())
				return
			}
			h.entries = append(h.entries, page.Entries...)
			h.next = page.Next
			h.afterPage()
		}
	})
}

// afterPage refreshes the list, the "load more" button and the status, and
// selects the entry that should be selected.
func (h *historyView) afterPage() {
	h.list.Refresh()
	if h.next != "" {
		h.more.Show()
	} else {
		h.more.Hide()
	}
	switch n := len(h.entries); {
	case n == 0:
		h.status.SetText("No history matches these filters.")
	case h.next != "":
		h.status.SetText(fmt.Sprintf("%d entries shown; older ones with Load more.", n))
	default:
		h.status.SetText(fmt.Sprintf("%d %s.", n, plural(n, "entry", "entries")))
	}
	if h.notice != "" {
		h.status.SetText(h.notice + " " + h.status.Text)
		h.notice = ""
	}
	if h.want != "" {
		want := h.want
		h.want = ""
		for i, e := range h.entries {
			if e.Ref == want {
				h.list.Select(i)
				h.list.ScrollTo(i)
				return
			}
		}
	}
	if h.sel < 0 && len(h.entries) > 0 {
		h.list.Select(0)
	}
}

func (h *historyView) setAgents(agents []journal.Agent) {
	opts := []string{historyAllAgents}
	for _, a := range agents {
		opts = append(opts, a.Agent)
	}
	h.agentSel.Options = opts
	h.agentSel.Refresh()
	h.agents = agents
	h.setSessions()
}

// setSessions offers the sessions of the selected agent (of every agent
// when none is selected), newest first.
func (h *historyView) setSessions() {
	opts := []string{historyAllSessions}
	seen := map[string]bool{}
	for _, a := range h.agents {
		if h.agentSel.Selected != historyAllAgents && a.Agent != h.agentSel.Selected {
			continue
		}
		for _, s := range a.Sessions {
			if !seen[s] {
				seen[s] = true
				opts = append(opts, s)
			}
		}
	}
	h.sessionSel.Options = opts
	h.sessionSel.Refresh()
}

// newHistoryRow is the list's row template: time, agent/session, decision
// badge and the files.
func newHistoryRow() fyne.CanvasObject {
	when := widget.NewLabel("2006-01-02 15:04")
	who := widget.NewLabel("agent/session")
	badge := widget.NewLabelWithStyle("approved", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	files := widget.NewLabel("files")
	files.Truncation = fyne.TextTruncateEllipsis
	return container.NewBorder(nil, nil, container.NewHBox(when, badge, who), nil, files)
}

func (h *historyView) fillRow(o fyne.CanvasObject, e journal.Entry) {
	c := o.(*fyne.Container)
	files := c.Objects[0].(*widget.Label)
	left := c.Objects[1].(*fyne.Container)
	when, badge, who := left.Objects[0].(*widget.Label), left.Objects[1].(*widget.Label), left.Objects[2].(*widget.Label)
	when.SetText(historyTime(e.Time, h.w.now()))
	who.SetText(agentSession(e.Agent, e.Session))
	text, imp := historyBadge(e)
	badge.Importance = imp
	badge.SetText(text)
	files.SetText(h.fileList(e.Paths))
}

// historyTime shows t as a clock time today, or with its date otherwise.
func historyTime(t, now time.Time) string {
	t = t.Local()
	if y, m, d := t.Date(); func() bool { y2, m2, d2 := now.Local().Date(); return y == y2 && m == m2 && d == d2 }() {
		return t.Format("15:04:05")
	}
	return t.Format("2006-01-02 15:04")
}

// historyBadge is the decision badge of an entry and its colour.
func historyBadge(e journal.Entry) (string, widget.Importance) {
	if e.Kind == journal.EntryRestore {
		return "restore", widget.HighImportance
	}
	switch e.Decision {
	case decision.Approved, decision.Partial:
		return string(e.Decision), widget.SuccessImportance
	case decision.Rejected, decision.Failed:
		return string(e.Decision), widget.DangerImportance
	case decision.Stale, decision.Withdrawn:
		return string(e.Decision), widget.WarningImportance
	}
	if e.Decision == "" {
		return e.Kind, widget.MediumImportance
	}
	return string(e.Decision), widget.MediumImportance
}

// rel shows path relative to the workspace root holding it.
func (h *historyView) rel(path string) string {
	for _, r := range h.w.desk.Roots() {
		if p, err := filepath.Rel(r, path); err == nil && !strings.HasPrefix(p, "..") {
			return filepath.ToSlash(p)
		}
	}
	return path
}

func (h *historyView) fileList(paths []string) string {
	var names []string
	for _, p := range paths {
		names = append(names, h.rel(p))
	}
	return strings.Join(names, ", ")
}

// selected returns the selected entry.
func (h *historyView) selected() (journal.Entry, bool) {
	if h.sel < 0 || h.sel >= len(h.entries) {
		return journal.Entry{}, false
	}
	return h.entries[h.sel], true
}

// selectIndex shows entry i: its diff, or the comparison with the marked
// entry while one is marked.
func (h *historyView) selectIndex(i int) {
	if i < 0 || i >= len(h.entries) {
		return
	}
	h.sel = i
	e := h.entries[i]
	h.title.SetText(entryTitle(e, journal.Detail{}))
	if e.Kind != journal.EntryRestore {
		h.loadDecider(e)
	}
	h.info.SetText(entryInfo(e))
	h.setActions()
	shown := string(e.Ref)
	if h.mark != nil {
		shown += "|" + string(h.mark.Ref)
	}
	if shown == h.shown {
		return // a reload selected it again: keep the diff where it is
	}
	h.shown = shown
	if h.mark != nil && h.mark.Ref != e.Ref && e.Ref.Checkpoint() > 0 {
		h.showComparison(*h.mark, e)
		return
	}
	ref := e.Ref
	what := fmt.Sprintf("What %s changed", describeRef(ref))
	if ref.Checkpoint() == 0 {
		what = fmt.Sprintf("What was proposed (%s: nothing was written)", e.Decision)
	}
	h.loadDiffs(what, func(ctx context.Context) ([]review.HistoryFile, error) {
		return h.w.desk.HistoryDiff(ctx, review.HistoryCompare{Entry: ref})
	})
}

func describeRef(r journal.Ref) string {
	if c := r.Checkpoint(); c > 0 {
		return fmt.Sprintf("checkpoint %d", c)
	}
	return fmt.Sprintf("decision %d", r.Decision())
}

// entryTitle is the heading of entry e: what was decided and by whom (the
// person or a rule, as det says, once read: "" before), and which agent
// proposed it; a restore is the person's, by the name it was made under.
func entryTitle(e journal.Entry, det journal.Detail) string {
	badge, _ := historyBadge(e)
	when := e.Time.Local().Format("2006-01-02 15:04:05")
	if e.Kind == journal.EntryRestore {
		return fmt.Sprintf("%s — %s by %s, %s", describeRef(e.Ref), badge, agentSession(e.Agent, e.Session), when)
	}
	switch {
	case det.DecidedBy == "":
	case det.DecidedByRule:
		badge += " by the rule " + review.Printable(det.DecidedBy)
	default:
		badge += " by the person (" + review.Printable(det.DecidedBy) + ")"
	}
	return fmt.Sprintf("%s — %s — proposed by %s, %s", describeRef(e.Ref), badge, agentSession(e.Agent, e.Session), when)
}

// loadDecider reads who decided entry e (Desk.HistoryDetail) and says it
// in the heading while e is still the one shown.
func (h *historyView) loadDecider(e journal.Entry) {
	h.whoGen++
	gen := h.whoGen
	h.run(func(ctx context.Context) func() {
		det, err := h.w.desk.HistoryDetail(ctx, e.Ref)
		return func() {
			if err == nil && gen == h.whoGen {
				h.title.SetText(entryTitle(e, det))
				h.showSeen(e, det) // historyseen.go
			}
		}
	})
}

// agentSession names who made an entry: "agent/session", or the agent
// alone when it gave no session.
func agentSession(agent, session string) string {
	if session == "" {
		return agent
	}
	return agent + "/" + session
}

// writeStateText says how a checkpoint's write ended.
var writeStateText = map[journal.WriteState]string{
	journal.WriteIntended:    "write begun, not known to have finished",
	journal.WriteWritten:     "written to disk",
	journal.WriteInterrupted: "write interrupted: the files kept their old content",
	journal.WriteConflicted:  "write conflicted: the files hold neither the old nor the new content",
}

// entryInfo is the decision's text: feedback, what a restore did, the
// proposal and the write's state.
func entryInfo(e journal.Entry) string {
	var parts []string
	if e.ProposalID != "" {
		parts = append(parts, "Proposal "+e.ProposalID)
	}
	if e.RestoredFrom > 0 {
		parts = append(parts, fmt.Sprintf("Restored to before checkpoint %d", e.RestoredFrom))
	}
	if e.State != "" {
		parts = append(parts, writeStateText[e.State])
	}
	s := strings.Join(parts, " · ")
	if e.Feedback != "" {
		s += "\nFeedback: " + e.Feedback
	}
	if e.Note != "" {
		s += "\n" + e.Note
	}
	return strings.TrimSpace(s)
}

// setActions enables the buttons the selected entry allows.
func (h *historyView) setActions() {
	e, ok := h.selected()
	cp := ok && e.Ref.Checkpoint() > 0
	for _, b := range []*widget.Button{h.compare, h.vsDisk, h.restore, h.restore1} {
		if cp {
			b.Enable()
		} else {
			b.Disable()
		}
	}
	if h.mark != nil {
		// The note above the diff says which checkpoint is marked and what
		// to do next; a button saying so made the bar wider than a small
		// screen's window, pushing the diff past its right edge.
		h.compare.Hide()
		h.unmark.Show()
	} else {
		h.compare.Show()
		h.unmark.Hide()
	}
}

// MarkCompare marks the selected entry: selecting another entry then shows
// the files as they were after the marked one against after that one.
func (h *historyView) MarkCompare() {
	e, ok := h.selected()
	if !ok || e.Ref.Checkpoint() == 0 {
		return
	}
	h.mark = &e
	h.shown = string(e.Ref) + "|" + string(e.Ref)
	h.setActions()
	h.diffNote.SetText(fmt.Sprintf("Marked checkpoint %d: select another entry to compare with it.", e.Ref.Checkpoint()))
}

// Unmark stops comparing and shows the selected entry's own diff again.
func (h *historyView) Unmark() {
	h.mark = nil
	h.shown = ""
	h.setActions()
	if h.sel >= 0 {
		h.selectIndex(h.sel)
	}
}

func (h *historyView) showComparison(from, to journal.Entry) {
	a, b := from.Ref.Checkpoint(), to.Ref.Checkpoint()
	if a > b {
		a, b = b, a
	}
	h.loadDiffs(fmt.Sprintf("After checkpoint %d vs after checkpoint %d", a, b), func(ctx context.Context) ([]review.HistoryFile, error) {
		return h.w.desk.HistoryDiff(ctx, review.HistoryCompare{From: a, To: b})
	})
}

// CompareDisk shows the selected entry's files as it left them against the
// disk now.
func (h *historyView) CompareDisk() {
	e, ok := h.selected()
	if !ok || e.Ref.Checkpoint() == 0 {
		return
	}
	id := e.Ref.Checkpoint()
	h.shown = "disk"
	h.loadDiffs(fmt.Sprintf("After checkpoint %d vs the disk now", id), func(ctx context.Context) ([]review.HistoryFile, error) {
		return h.w.desk.HistoryDiff(ctx, review.HistoryCompare{Disk: id})
	})
}

// loadDiffs runs get off the UI goroutine and shows its files.
func (h *historyView) loadDiffs(what string, get func(ctx context.Context) ([]review.HistoryFile, error)) {
	h.diffGen++
	gen := h.diffGen
	h.diffNote.SetText(what + ": loading…")
	h.run(func(ctx context.Context) func() {
		diffs, err := get(ctx)
		return func() {
			if gen != h.diffGen {
				return
			}
			if err != nil {
				h.diffNote.SetText(what + ": " + err.Error())
				h.setDiffs(nil)
				return
			}
			if len(diffs) == 0 {
				h.diffNote.SetText(what + ": no differences.")
			} else {
				h.diffNote.SetText(what + ".")
			}
			h.setDiffs(diffs)
		}
	})
}

func (h *historyView) setDiffs(diffs []review.HistoryFile) {
	h.diffs = diffs
	var opts []string
	for _, d := range diffs {
		opts = append(opts, fmt.Sprintf("%s  +%d −%d", h.rel(d.Path), d.Added, d.Removed))
	}
	h.fileSel.Options = opts
	if len(opts) > 0 {
		h.fileSel.SetSelectedIndex(0) // calls showFile
	} else {
		h.fileSel.ClearSelected()
		h.view.SetTexts("", "", "")
	}
	h.fileSel.Refresh()
}

// showFile shows the file the file select names.
func (h *historyView) showFile() {
	i := h.fileSel.SelectedIndex()
	if i < 0 || i >= len(h.diffs) {
		return
	}
	d := h.diffs[i]
	if d.Omitted {
		note := "(too large to send over the connection: not shown; deskctl history on the desk's machine shows it)\n"
		h.view.SetTexts(d.Path, note, note)
		return
	}
	if d.Binary {
		h.view.SetTexts(d.Path, "(binary: not shown)\n", "(binary: not shown)\n")
		return
	}
	h.view.SetTexts(d.Path, string(d.Old), string(d.New))
	h.view.NextHunk() // open at the first change
}

// ShowRestore works out (off the UI goroutine) what restoring the selected
// entry's files to before it would do, and shows that dry run in a dialog
// before anything is written.
func (h *historyView) ShowRestore() {
	e, ok := h.selected()
	if !ok || e.Ref.Checkpoint() == 0 {
		return
	}
	h.planRestore(journal.RestoreRequest{Checkpoint: e.Ref.Checkpoint(), Target: journal.RestoreBefore})
}

// ShowRestoreFile is ShowRestore for the file shown only (the entry's
// other files are left as they are).
func (h *historyView) ShowRestoreFile() {
	e, ok := h.selected()
	i := h.fileSel.SelectedIndex()
	if !ok || e.Ref.Checkpoint() == 0 || i < 0 || i >= len(h.diffs) || h.shown != string(e.Ref) {
		return // a comparison is shown: its files need not be the entry's
	}
	h.planRestore(journal.RestoreRequest{Checkpoint: e.Ref.Checkpoint(), Target: journal.RestoreBefore, Paths: []string{h.diffs[i].Path}})
}

func (h *historyView) planRestore(req journal.RestoreRequest) {
	h.restore.Disable()
	h.restore1.Disable()
	h.run(func(ctx context.Context) func() {
		plan, _, err := h.w.desk.Restore(ctx, req, false)
		return func() {
			h.setActions()
			if err != nil {
				h.lastErr = err
				dialog.ShowError(err, h.w.Win)
				return
			}
			h.showPlan(plan)
		}
	})
}

// RestorePlanText is the dry run as the dialog lists it: one line per file
// with its action, lines added and removed, and the reason.
func RestorePlanText(plan journal.RestorePlan, rel func(string) string) string {
	var b strings.Builder
	what := "before"
	if plan.Request.Target != "" {
		what = string(plan.Request.Target)
	}
	fmt.Fprintf(&b, "Restore these files to their content %s checkpoint %d:\n\n", what, plan.Request.Checkpoint)
	for _, f := range plan.Files {
		fmt.Fprintf(&b, "%-8s %s  +%d −%d", f.Action, rel(f.Path), f.Added, f.Removed)
		if f.Reason != "" {
			fmt.Fprintf(&b, "\n         %s", f.Reason)
		}
		b.WriteString("\n")
	}
	if refused := plan.Refused(); len(refused) > 0 {
		var names []string
		for _, f := range refused {
			names = append(names, rel(f.Path))
		}
		fmt.Fprintf(&b, "\nRefused: %s. Nothing is written while a file is refused; Force… restores them anyway (their current content is kept in the journal)", strings.Join(names, ", "))
		if len(refused) < len(plan.Files) {
			b.WriteString(", or leave them out and restore the others")
		}
		b.WriteString(".")
	} else if plan.Request.Force {
		b.WriteString("\nForced: files changed since the journal saw them are replaced; their current content is kept in the journal.")
	}
	return b.String()
}

func (h *historyView) showPlan(plan journal.RestorePlan) {
	h.hidePlan()
	h.restorePlan = plan
	h.restoreText = widget.NewLabel(RestorePlanText(plan, h.rel))
	h.restoreText.TextStyle.Monospace = true
	h.restoreText.Wrapping = fyne.TextWrapWord
	h.restoreCancel = widget.NewButton("Cancel", h.hidePlan)
	h.restoreConfirm = widget.NewButton("Restore", func() { h.applyRestore(h.restorePlan) })
	h.restoreConfirm.Importance = widget.DangerImportance
	h.restoreForce = widget.NewButton("Force…", func() {
		req := h.restorePlan.Request
		req.Force = true
		h.hidePlan()
		h.planRestore(req)
	})
	var others []string // the files not refused
	for _, f := range plan.Files {
		if f.Action != journal.RestoreRefused {
			others = append(others, f.Path)
		}
	}
	h.restoreOthers = widget.NewButton(fmt.Sprintf("Leave refused out (restore %d %s)", len(others), plural(len(others), "file", "files")), func() {
		req := h.restorePlan.Request
		req.Paths = others
		h.hidePlan()
		h.planRestore(req)
	})
	if len(others) < len(plan.Files) {
		h.restoreConfirm.Disable()
	} else {
		h.restoreForce.Hide()
	}
	if len(others) == 0 || len(others) == len(plan.Files) {
		h.restoreOthers.Hide()
	}
	buttons := container.NewHBox(h.restoreCancel, h.restoreOthers, h.restoreForce, h.restoreConfirm)
	h.restoreView = diffview.NewDiffView()
	h.restoreView.ReadOnly = true
	h.restoreView.SetDark(isDark(h.w.app))
	h.restoreView.SetSynchronous(h.synchronous)
	h.restoreWhat = widget.NewLabel("")
	h.restoreWhat.Wrapping = fyne.TextWrapWord
	var names []string
	for _, f := range plan.Files {
		names = append(names, h.rel(f.Path))
	}
	h.restoreFile = widget.NewSelect(names, func(string) { h.showRestoreFile() })
	text := container.NewVScroll(h.restoreText)
	text.SetMinSize(fyne.NewSize(0, 120))
	diff := container.NewBorder(container.NewVBox(container.NewBorder(nil, nil, widget.NewLabel("File"), nil, h.restoreFile), h.restoreWhat), nil, nil, nil, h.restoreView)
	body := container.NewBorder(text, container.NewCenter(buttons), nil, nil, diff)
	title := "Restore checkpoint " + strconv.FormatInt(plan.Request.Checkpoint, 10) + "?"
	if plan.Request.Force {
		title = "Force the restore of checkpoint " + strconv.FormatInt(plan.Request.Checkpoint, 10) + "?"
	}
	h.restoreDlg = dialog.NewCustomWithoutButtons(title, body, h.w.Win)
	h.restoreDlg.Resize(fyne.NewSize(1000, 640))
	h.w.setCloser(h.restoreDlg, nil)
	h.restoreDlg.Show()
	if len(names) > 0 {
		h.restoreFile.SetSelectedIndex(0) // showRestoreFile
	}
}

// showRestoreFile shows, for the file chosen in the restore dialog, what
// the restore does to it: the disk now on the left, the file restored on
// the right.
func (h *historyView) showRestoreFile() {
	i := h.restoreFile.SelectedIndex()
	if i < 0 || i >= len(h.restorePlan.Files) {
		return
	}
	f := h.restorePlan.Files[i]
	now, then := string(f.Disk.Content), string(f.Target)
	h.restoreWhat.SetText(RestoreDirection(f, h.restorePlan.Request, h.rel))
	if !utf8.Valid(f.Disk.Content) || !utf8.Valid(f.Target) {
		now, then = "(binary: not shown)\n", "(binary: not shown)\n"
	}
	h.restoreView.SetTexts(f.Path, now, then)
	h.restoreView.NextHunk() // open at the first change
}

// RestoreDirection says which way the restore dialog's diff of f reads:
// the disk now on the left, what the restore leaves on the right.
func RestoreDirection(f journal.RestoreFile, req journal.RestoreRequest, rel func(string) string) string {
	what := "before"
	if req.Target != "" {
		what = string(req.Target)
	}
	to := fmt.Sprintf("%s as it was %s checkpoint %d", rel(f.Path), what, req.Checkpoint)
	switch f.Action {
	case journal.RestoreDelete:
		to = fmt.Sprintf("nothing: %s did not exist %s checkpoint %d, and is removed", rel(f.Path), what, req.Checkpoint)
	case journal.RestoreUnchanged:
		return fmt.Sprintf("%s already holds its content %s checkpoint %d: the restore leaves it as it is.", rel(f.Path), what, req.Checkpoint)
	}
	from := rel(f.Path) + " on disk now"
	if !f.Disk.Exists {
		from = rel(f.Path) + ": missing on disk now"
	}
	return "Left: " + from + ". Right: after the restore, " + to + "."
}

func (h *historyView) hidePlan() {
	if h.restoreDlg != nil {
		h.restoreDlg.Hide()
		h.restoreDlg = nil
	}
}

// applyRestore carries out a confirmed plan, then refreshes the timeline
// and selects the restore's own entry (restoring it undoes the restore).
func (h *historyView) applyRestore(plan journal.RestorePlan) {
	h.restoreConfirm.Disable()
	h.run(func(ctx context.Context) func() {
		_, res, err := h.w.desk.Restore(ctx, plan.Request, true)
		return func() {
			h.hidePlan()
			h.lastErr = err
			var refused *journal.RestoreRefusedError
			switch {
			case errors.As(err, &refused):
				// The disk changed since the dry run: show the new plan.
				h.planRestore(plan.Request)
				return
			case err != nil:
				dialog.ShowError(err, h.w.Win)
				return
			}
			h.lastRestore = res
			if res.Checkpoint > 0 {
				h.want = journal.Ref(strconv.FormatInt(res.Checkpoint, 10))
				h.notice = fmt.Sprintf("Restored %d %s: checkpoint %d (restore it to undo).", len(res.Files), plural(len(res.Files), "file", "files"), res.Checkpoint)
			} else {
				h.notice = "Every file already had that content: nothing was written."
			}
			h.mark = nil
			h.sel = -1
			h.reload()
		}
	})
}

// ShowHistory switches the window to its History tab (which loads the
// timeline afresh). It does nothing without one (WindowOptions.History).
func (w *Window) ShowHistory() {
	if w.tabs == nil {
		return
	}
	w.tabs.SelectIndex(1)
}

// ShowReview switches the window back to the queue and the proposal.
func (w *Window) ShowReview() {
	if w.tabs != nil {
		w.tabs.SelectIndex(0)
	}
}

// historyTabs puts the review split and the History tab under a tab bar.
func (w *Window) historyTabs(review fyne.CanvasObject) fyne.CanvasObject {
	w.history = newHistoryView(w)
	w.tabs = container.NewAppTabs(
		container.NewTabItem("Review", review),
		container.NewTabItem("History", w.history.content),
	)
	w.tabs.OnSelected = thenKeysBack(w, func(t *container.TabItem) {
		if t.Content == w.history.content {
			w.history.reload()
		}
	})
	return w.tabs
}
