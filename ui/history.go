package ui

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"slices"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/journal"
	"github.com/diffdesk/diffdesk/ui/diffview"
	"github.com/diffdesk/diffdesk/ui/present"
)

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

	deps    historyDeps
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
	deskSel               *widget.Select // over several desks: whose history; nil over one
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

// historyDeps is what the History tab needs of the window: the desk's
// history and its restore, and the window's scheduler, clock, app, keys
// and dialogs — not the window.
type historyDeps struct {
	desk     historyDesk
	win      fyne.Window
	app      fyne.App // its theme and preferences
	do       func(func())
	now      func() time.Time
	shown    func() bool           // the History tab is the one on show
	keysBack func()                // the keyboard back to the window's keys
	open     func(d dialog.Dialog) // over the window: Esc closes it
}

func newHistoryView(deps historyDeps) *historyView {
	keysBack := deps.keysBack
	h := &historyView{deps: deps, historyTimeline: &historyTimeline{sel: -1, page: historyPageSize}, historyEntryPane: &historyEntryPane{}, restoreDialog: &restoreDialog{}}
	h.ctx, h.cancel = context.WithCancel(context.Background())

	reload := thenKeysBack(keysBack, func(string) { h.reload() })
	h.agentSel = widget.NewSelect([]string{present.AllAgents}, thenKeysBack(keysBack, func(string) {
		h.sessionSel.Selected = present.AllSessions // a session belongs to one agent
		h.setSessions()
		h.reload()
	}))
	h.agentSel.Selected = present.AllAgents
	h.sessionSel = widget.NewSelect([]string{present.AllSessions}, reload)
	h.sessionSel.Selected = present.AllSessions
	h.decisionSel = widget.NewSelect(append([]string{present.AllDecisions}, present.HistoryDecisions...), reload)
	h.decisionSel.Selected = present.AllDecisions
	var since []string
	for _, s := range present.HistorySince {
		since = append(since, s.Label)
	}
	h.sinceSel = widget.NewSelect(since, reload)
	h.sinceSel.Selected = present.AllTime
	h.fileEntry = widget.NewEntry()
	h.fileEntry.SetPlaceHolder("File or pattern, e.g. *.go")
	h.fileEntry.OnSubmitted = func(string) { h.reload() }

	h.list = widget.NewList(func() int { return len(h.entries) }, newHistoryRow, func(i widget.ListItemID, o fyne.CanvasObject) {
		if i < len(h.entries) {
			h.fillRow(o, h.entries[i])
		}
	})
	h.list.OnSelected = thenKeysBack(keysBack, h.selectIndex)
	h.list.OnHighlighted = func(widget.ListItemID) { keysBack() } // a click on the selected entry
	h.more = widget.NewButton("Load more", h.loadMore)
	h.more.Hide()
	h.status = widget.NewLabel("")
	h.status.Wrapping = fyne.TextWrapWord

	filters := container.NewVBox(
		container.NewGridWithColumns(2, h.agentSel, h.sessionSel, h.decisionSel, h.sinceSel),
		h.fileEntry,
	)
	if sel := h.deskSelect(); sel != nil { // a window over several desks: one desk's history at a time
		filters.Objects = append([]fyne.CanvasObject{sel}, filters.Objects...)
	}
	left := container.NewBorder(filters, container.NewVBox(h.more, h.status), nil, nil, h.list)

	h.title = widget.NewLabelWithStyle("Select an entry of the history", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	h.title.Truncation = fyne.TextTruncateEllipsis
	h.info = widget.NewLabel("")
	h.info.Wrapping = fyne.TextWrapWord
	h.diffNote = widget.NewLabel("")
	h.fileSel = widget.NewSelect(nil, thenKeysBack(keysBack, func(string) { h.showFile() }))
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
	h.view.SetDark(isDark(deps.app))
	deps.app.Settings().AddListener(func(fyne.Settings) { deps.do(func() { h.view.SetDark(isDark(deps.app)) }) })
	// A decision adds to the history: reload while the tab shows, once per burst.
	h.unsub = deps.desk.Subscribe(func(ev review.Event) {
		if ev.Kind == review.EventDecided && h.pending.CompareAndSwap(false, true) {
			deps.do(h.decided)
		}
	})

	bar := newFlow(false, h.compare, h.unmark, h.vsDisk, h.restore, h.restore1) // wraps in a narrow window (flow.go)
	top := container.NewVBox(h.title, h.info, container.NewBorder(nil, nil, widget.NewLabel("File"), nil, h.fileSel), h.diffNote)
	right := container.NewBorder(top, bar, nil, nil, h.view)

	h.split = container.NewHSplit(left, right)
	h.split.Offset = deps.app.Preferences().FloatWithFallback(prefHistoryWidth, 0.38)
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
		h.deps.do(apply)
	}()
}

// decided reloads the timeline after desk decisions if the History tab is
// showing (otherwise selecting the tab reloads it).
func (h *historyView) decided() {
	h.pending.Store(false)
	if h.deps.shown() {
		h.reload()
	}
}

// filter is the filter the widgets say, for the first page.
func (h *historyView) filter() journal.Filter {
	f := journal.Filter{File: strings.TrimSpace(h.fileEntry.Text), Limit: h.page}
	if a := h.agentSel.Selected; a != "" && a != present.AllAgents {
		f.Agent = a
	}
	if s := h.sessionSel.Selected; s != "" && s != present.AllSessions {
		f.Session = s
	}
	if d := h.decisionSel.Selected; d != "" && d != present.AllDecisions {
		f.Decision = d
	}
	for _, s := range present.HistorySince {
		if s.Label == h.sinceSel.Selected && s.D > 0 {
			f.Since = h.deps.now().Add(-s.D)
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
		page, err := h.deps.desk.History(ctx, f)
		agents, aerr := h.deps.desk.HistoryAgents(ctx)
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
		page, err := h.deps.desk.History(ctx, f)
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
	vis(h.more, h.next != "")
	switch n := len(h.entries); {
	case n == 0:
		h.status.SetText("No history matches these filters.")
	case h.next != "":
		h.status.SetText(fmt.Sprintf("%d entries shown; older ones with Load more.", n))
	default:
		h.status.SetText(fmt.Sprintf("%d %s.", n, present.Plural(n, "entry", "entries")))
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
	opts := []string{present.AllAgents}
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
	opts := []string{present.AllSessions}
	seen := map[string]bool{}
	for _, a := range h.agents {
		if h.agentSel.Selected != present.AllAgents && a.Agent != h.agentSel.Selected {
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
	when.SetText(present.HistoryTime(e.Time, h.deps.now()))
	who.SetText(present.AgentSession(e.Agent, e.Session))
	text, tone := present.HistoryBadge(e)
	badge.Importance = importance(tone)
	badge.SetText(text)
	files.SetText(h.fileList(e.Paths))
}

// rel shows path relative to the workspace root holding it.
func (h *historyView) rel(path string) string {
	for _, r := range h.deps.desk.Roots() {
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

// ShowReview switches the window back to the queue and the proposal.
func (w *Window) ShowReview() {
	if w.tabs != nil {
		w.tabs.SelectIndex(0)
	}
}

// historyTabs puts the review split and the History tab under a tab bar.
func (w *Window) historyTabs(review fyne.CanvasObject) fyne.CanvasObject {
	w.history = newHistoryView(historyDeps{desk: w.desk, win: w.Win, app: w.app, do: w.do, now: w.now, keysBack: w.keysBack,
		shown: func() bool { return w.tabs.Selected() != nil && w.tabs.Selected().Content == w.history.content },
		open:  func(d dialog.Dialog) { w.setCloser(d, nil) }})
	w.tabs = container.NewAppTabs(
		container.NewTabItem("Review", review),
		container.NewTabItem("History", w.history.content),
	)
	w.tabs.OnSelected = thenKeysBack(w.keysBack, func(t *container.TabItem) {
		if t.Content == w.history.content {
			w.history.reload()
		}
	})
	return w.tabs
}

// historyDesks is a desk over several whose History tab shows one desk's
// history at a time (remote.Fleet): its entries, and a restore, are that
// desk's alone.
type historyDesks interface {
	HistoryDesks() (labels []string, shown int)
	SetHistoryDesk(i int) error
}

// deskSelect is the History tab's choice of desk, over several (nil over
// one). Choosing another desk forgets the entry marked for a comparison
// and the agent and session filters, which were the other desk's, and
// loads the chosen desk's history.
func (h *historyView) deskSelect() fyne.CanvasObject {
	hd, ok := h.deps.desk.(historyDesks)
	if !ok {
		return nil
	}
	labels, shown := hd.HistoryDesks()
	if len(labels) < 2 {
		return nil
	}
	sel := widget.NewSelect(labels, nil)
	sel.Selected = labels[shown]
	sel.OnChanged = thenKeysBack(h.deps.keysBack, func(label string) {
		i := slices.Index(labels, label)
		if i < 0 || hd.SetHistoryDesk(i) != nil {
			return
		}
		h.mark, h.shown, h.want, h.sel = nil, "", "", -1
		h.agentSel.Selected, h.sessionSel.Selected = present.AllAgents, present.AllSessions
		h.setActions()
		h.reload()
	})
	h.deskSel = sel
	return container.NewBorder(nil, nil, widget.NewLabel("Desk"), nil, sel)
}
