package ui

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
	"syscall"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/journal"
	"github.com/diffdesk/diffdesk/review/startup"
	"github.com/diffdesk/diffdesk/ui/present"
)

// WindowOptions tunes a Window; the zero value is what diffdesk uses.
type WindowOptions struct {
	// Do schedules a func on the UI goroutine; fyne.Do if nil. Tests pass
	// a pump they drain on the test goroutine (under the test driver
	// fyne.Do runs inline on the caller, which would race).
	Do func(func())
	// Now is the clock for ages; time.Now if nil.
	Now func() time.Time
	// AfterFunc calls f on its own goroutine after d, unless the func it
	// returns (time.Timer's Stop) is called first: the pause in typing
	// before the person's edit is checked. time.AfterFunc if nil.
	AfterFunc func(d time.Duration, f func()) (stop func() bool)
	// NotifyDelay is how long a burst of new proposals is gathered into one
	// desktop notification; 1.5 s if zero, none if negative.
	NotifyDelay time.Duration
	// Editor is the external editor command (the file is appended);
	// $VISUAL, $EDITOR or "code --wait" if nil.
	Editor []string
	// Interrupted are writes Recover settled at start-up; the window says so.
	Interrupted []journal.Interrupted
	// Doors reports the agent front doors that are open (the Claude Code
	// and Gemini CLI IDE doors); the empty queue shows how to connect.
	Doors func() []review.DoorStatus
	// Socket is where agents connect, for the empty queue's hint.
	Socket string
	// AgeTick is how often ages in the queue are refreshed; 20 s if zero,
	// never if negative.
	AgeTick time.Duration
	// History gives the window a History tab: the desk's history, read
	// and restored through the desk (diffdesk's own and --connect's).
	History bool
	// Remote names the desk on another machine the window reviews
	// (diffdesk --connect), for the title; "" for the window's own desk.
	Remote string
	// ArmDelay is how long the decision controls of a proposal that has
	// just been shown stay unarmed, so the second click of a double-click
	// or a key meant for the previous proposal decides nothing unseen;
	// 600 ms if zero, none if negative.
	ArmDelay time.Duration
	// Log is where the window says what goes wrong around it (no desktop
	// notification service, for one); discarded if nil.
	Log io.Writer
}

// Window is DiffDesk's main window: the queue of proposals on the left, the
// selected proposal with its decision bar on the right. Its actions (Approve,
// Reject, Edit, NextProposal, …) are plain methods, bound to buttons and
// keys, so tests call them directly.
type Window struct {
	Win  fyne.Window
	app  fyne.App
	desk Desk
	opts WindowOptions
	do   func(func())
	now  func() time.Time

	queue  *queueView
	detail *detail
	pump   *eventPump
	unsub  func()
	leave  func() // the person is at the desk while the window is open (review.Desk.Attend)
	split  *container.Split

	tabs    *container.AppTabs // Review and History; nil without History (WindowOptions)
	history *historyView

	queued    // what the queue holds
	announced // the tray and the desktop notifications
	overlays  // the dialogs and text boxes over the window

	decisions sync.WaitGroup // deciding goroutines
	stop      chan struct{}
	closeOnce sync.Once
}

// queued is what the window's queue holds, and which proposal shows.
type queued struct {
	items     map[string]review.Proposal // shown in the queue: open, and failed until dismissed
	dismissed map[string]bool
	waiting   int
	// autoPicked says the shown proposal was the window's choice
	// (pickProposal), not the person's: it may give way to one that needs
	// the person more, until the person selects or decides.
	autoPicked bool
}

// overlays are what lies over the window and takes the keys first.
type overlays struct {
	keysOverlay dialog.Dialog
	typing      *typingMode   // the open text box the keys type into (ui/typing.go); nil if none
	dialogs     []openDialog  // the dialogs open over the window, the one on top last (keys.go)
	interrupted dialog.Dialog // tells of writes Recover settled; nil if none
}

// NewWindow builds the main window over desk, subscribes to its events and
// shows what it already holds. It does not show the window.
func NewWindow(a fyne.App, desk Desk, o WindowOptions) *Window {
	w := &Window{
		app: a, desk: desk, opts: o, do: o.Do, now: o.Now,
		queued: queued{items: map[string]review.Proposal{}, dismissed: map[string]bool{}}, stop: make(chan struct{}),
	}
	if w.do == nil {
		w.do = fyneDo
	}
	if w.now == nil {
		w.now = time.Now
	}
	if w.opts.AfterFunc == nil {
		w.opts.AfterFunc = func(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }
	}
	if w.opts.NotifyDelay == 0 {
		w.opts.NotifyDelay = 1500 * time.Millisecond
	}
	if w.opts.ArmDelay == 0 {
		w.opts.ArmDelay = 600 * time.Millisecond
	}
	if w.opts.Log == nil {
		w.opts.Log = io.Discard
	}
	w.desktop = newDesktopNotifier(w.opts.Log, func(id string) { w.do(func() { w.OpenFromNotification(id) }) })
	w.notify = w.desktop.send
	w.settled = w.desktop.settled
	w.Win = newAppWindow(a, "DiffDesk"+remoteTitle(o.Remote))
	w.Win.SetMaster()
	w.queue = newQueueView(w.now, w.opts.AfterFunc, w.do)
	w.queue.workspaces = present.WorkspaceLabels(desk.Roots(), userHome())
	w.queue.onSelected = w.Select
	w.queue.onTapped = w.keysBack
	w.queue.list.escape = w.keysBack
	w.queue.list.focusChanged = func() {
		w.do(func() { // once the keyboard has moved (a Tab: the canvas names the list while it loses it)
			if w.detail != nil {
				w.detail.showKeyboard()
			}
		})
	}
	w.detail = newDetail(w)

	queueTitle := widget.NewLabelWithStyle("Queue", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	left := container.NewBorder(queueTitle, nil, nil, nil, w.queue.content)
	w.split = container.NewHSplit(left, w.detail.content)
	w.split.Offset = a.Preferences().FloatWithFallback(prefQueueWidth, 0.27)
	if o.History {
		w.Win.SetContent(w.historyTabs(w.split))
	} else {
		w.Win.SetContent(w.split)
	}
	w.Win.Resize(fyne.NewSize(1400, 900))
	w.fitToScreen(a, fyne.NewSize(1400, 900)) // screen.go
	w.restoreViewPrefs()

	w.setupTray()
	w.bindKeys()
	w.detail.showKeyboard()
	w.watchTheme()

	// Subscribe first: a proposal that arrives meanwhile is both listed and
	// announced, which is harmless (apply re-reads it).
	pumpDo := w.do
	if o.Do == nil {
		// The desk emits events with its lock held; once Fyne's loop has
		// stopped, fyne.Do runs its func inline, and apply's reads of the
		// desk would wait for that lock forever (a TERM meeting a
		// withdrawal). So the pump schedules from a goroutine of its own.
		pumpDo = offThread(w.do)
	}
	w.pump = newEventPump(pumpDo, w.apply)
	w.unsub = desk.Subscribe(w.pump.push)
	w.leave = desk.Attend() // failed edits wait for the person (hold.go)
	for _, p := range desk.List() {
		w.items[p.ID] = p
	}
	w.refreshQueue()
	if t := startup.InterruptedText(o.Interrupted); t != "" {
		w.interrupted = dialog.NewInformation("Interrupted writes", t, w.Win)
		w.setCloser(w.interrupted, nil)
		w.interrupted.Show()
	}
	w.startAgeTicker()
	return w
}

// Close unsubscribes from the desk and waits for decisions being carried
// out to finish. Call it on the UI goroutine, or after the app has quit.
// The window itself is closed by the person (or Win.Close).
func (w *Window) Close() {
	w.closeOnce.Do(func() {
		close(w.stop)
		w.unsub()
		defer w.leave() // after the dismissals under way: held failures left are sent
		if w.notifyTimer != nil {
			w.notifyTimer.Stop()
		}
		w.decisions.Wait()
		w.desktop.close()
		if w.history != nil {
			w.history.close()
		}
		w.detail.edit.closeExternal()
		w.keepPrefs()
	})
}

// restoreViewPrefs sets the Wrap and Inline boxes as the person left them,
// unless the window that left them ended without closing (a crash): a view
// setting in force then may be what crashed it, and restoring it would
// crash the window again at the first proposal, with no key pressed.
func (w *Window) restoreViewPrefs() {
	p := w.app.Preferences()
	if pid := p.Int(prefOpenBy); pid != 0 && pid != os.Getpid() && !processAlive(pid) {
		fmt.Fprintf(w.opts.Log, "diffdesk: the window (pid %d) ended without closing last time: wrap and inline layout start off\n", pid)
		p.SetBool(prefWrap, false)
		p.SetBool(prefInline, false)
	}
	p.SetInt(prefOpenBy, os.Getpid())
	w.detail.bar.wrap.SetChecked(p.Bool(prefWrap))
	w.detail.bar.inline.SetChecked(p.Bool(prefInline))
	// Fyne writes the preferences one last time after the app's stopped
	// hook; what Close sets after the loop has ended is never written (QA
	// in the real window: every quit read as a crash next time, and the
	// queue's width was never kept).
	w.app.Lifecycle().SetOnStopped(w.keepPrefs)
}

// keepPrefs saves the layout and marks the window closed, for the next
// start (Close does too, for a window closed without the app stopping).
func (w *Window) keepPrefs() {
	w.savePrefs()
	w.app.Preferences().SetInt(prefOpenBy, 0)
}

// processAlive reports whether process pid still runs (false where that
// cannot be told).
func processAlive(pid int) bool {
	proc, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = proc.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, syscall.EPERM)
}

// The preferences the window keeps across restarts.
const (
	prefWrap         = "wrap"               // the Wrap box
	prefInline       = "inline"             // the Inline box: one column instead of side by side
	prefQueueWidth   = "layout.queue"       // the queue's share of the window's width
	prefHistoryWidth = "layout.historyList" // the history timeline's share of the History tab
	prefOpenBy       = "session.pid"        // the pid of the window that has not closed yet (0: it closed)
)

// savePrefs keeps the layout the person left (the Wrap box is kept as it
// is clicked).
func (w *Window) savePrefs() {
	p := w.app.Preferences()
	p.SetFloat(prefQueueWidth, w.split.Offset)
	if w.history != nil {
		p.SetFloat(prefHistoryWidth, w.history.split.Offset)
	}
}

// apply runs on the UI goroutine with a burst of events: it re-reads the
// proposals they name and refreshes the queue, the title, the tray and the
// selected proposal once.
func (w *Window) apply(batch map[string]review.EventKind) {
	var needPerson []string
	for id, kind := range batch {
		p, ok := w.desk.Get(id)
		switch {
		case !ok:
			delete(w.items, id)
		case p.State.Open() || p.State == review.StateDecided || p.State.DidNotApply() && !w.dismissed[id]:
			w.items[id] = p
		default:
			delete(w.items, id)
		}
		if ok && (kind == review.EventPending && p.AutoRule == "" && p.State.Open() || kind == review.EventAdded && p.State == review.StateHeld) {
			needPerson = append(needPerson, id)
		}
		if !ok || !p.State.Waiting() {
			w.settled(id)
		}
		if ok && id == w.detail.id {
			w.detail.update(p)
		}
	}
	if w.detail.id != "" { // another proposal of the shown changeset may have come or gone
		w.detail.refreshFiles()
		w.detail.updateCounter()
	}
	w.refreshQueue()
	if len(needPerson) > 0 {
		w.notifyLater(needPerson)
	}
}

// refreshQueue redraws the queue, the title and the tray from w.items.
func (w *Window) refreshQueue() {
	ps := make([]review.Proposal, 0, len(w.items))
	w.waiting = 0
	for _, p := range w.items {
		ps = append(ps, p)
		if p.State.Waiting() {
			w.waiting++
		}
	}
	if i := slices.Index(w.queue.ids(), w.detail.id); i >= 0 {
		w.detail.queuePos = i // where n and p go on from if it leaves the queue
	}
	w.queue.setProposals(ps)
	switch {
	case w.detail.id == "" || w.autoPicked && !needsPerson(w.items[w.detail.id]):
		// The person has not chosen, and what the window chose no longer
		// waits for them: show what does. This never raises or focuses the
		// window, and never takes a pending proposal away from the person.
		if id := pickProposal(ps, w.queue.ids()); id != "" && id != w.detail.id {
			w.show(id)
		}
		w.autoPicked = w.detail.id != ""
	case w.detail.done():
		// The shown proposal is decided: the next one that waits takes the
		// pane (one arriving later too), never a failed or decided one:
		// the next of its changeset while one waits, so that a session's
		// edits are read together, then the oldest.
		id := pickProposal(sameChangeset(ps, w.detail.p), nil)
		if id == "" || !w.items[id].State.Waiting() {
			id = pickProposal(ps, nil)
		}
		if id != "" && id != w.detail.id && w.items[id].State.Waiting() {
			w.show(id)
			w.autoPicked = true
		}
	}
	w.queue.selectID(w.detail.id)
	w.Win.SetTitle(Title(w.waiting) + w.placeTitle())
	w.updateTray()
	if len(ps) == 0 && w.detail.id == "" {
		w.detail.showEmpty()
	}
}

// Title is the window title for n proposals waiting.
func Title(n int) string {
	if n == 0 {
		return "DiffDesk"
	}
	return fmt.Sprintf("DiffDesk — %d waiting", n)
}

// placeTitle is the title's note of where the desk is: the workspaces it
// serves, and the machine of a desk elsewhere.
func (w *Window) placeTitle() string {
	return present.WorkspaceTitle(w.desk.Roots(), userHome()) + remoteTitle(w.opts.Remote)
}

// remoteTitle is the title's note of a desk on another machine.
func remoteTitle(where string) string {
	if where == "" {
		return ""
	}
	return " · " + where
}

// needsPerson reports whether p waits for the person's decision now.
func needsPerson(p review.Proposal) bool {
	return p.State == review.StatePending || p.State == review.StateStale || p.State == review.StateHeld
}

// pickProposal is the proposal the window shows while the person has not
// chosen one: the oldest pending proposal, else the oldest stale one, else
// the oldest still streaming; failed and decided proposals only when
// nothing else is there (then the first in the queue, queueIDs[0]).
func pickProposal(ps []review.Proposal, queueIDs []string) string {
	for _, st := range []review.State{review.StatePending, review.StateStale, review.StateStreaming} {
		var best *review.Proposal
		for i := range ps {
			if (ps[i].State == st || st == review.StatePending && ps[i].State == review.StateHeld) && (best == nil || ps[i].Before(*best)) {
				best = &ps[i]
			}
		}
		if best != nil {
			return best.ID
		}
	}
	if len(queueIDs) > 0 {
		return queueIDs[0]
	}
	return ""
}

// sameChangeset returns the proposals of ps in p's changeset.
func sameChangeset(ps []review.Proposal, p review.Proposal) []review.Proposal {
	key := review.ChangesetKey(p)
	var out []review.Proposal
	for _, q := range ps {
		if review.ChangesetKey(q) == key {
			out = append(out, q)
		}
	}
	return out
}

// Select shows proposal id on the right: the person's choice, which the
// window keeps until the person chooses another.
func (w *Window) Select(id string) {
	w.autoPicked = false
	w.show(id)
}

// show shows proposal id on the right.
func (w *Window) show(id string) {
	p, ok := w.items[id]
	if !ok {
		if p, ok = w.desk.Get(id); !ok {
			return
		}
	}
	w.detail.show(p)
	w.queue.selectID(id)
}

// Selected returns the id of the proposal shown on the right ("" if none).
func (w *Window) Selected() string { return w.detail.id }

// NextProposal shows the proposal after the selected one in the queue.
func (w *Window) NextProposal() { w.step(1) }

// PrevProposal shows the proposal before the selected one in the queue.
func (w *Window) PrevProposal() { w.step(-1) }

func (w *Window) step(dir int) {
	ids := w.queue.ids()
	if len(ids) == 0 {
		w.detail.line.say("The queue is empty.")
		return
	}
	if slices.Index(ids, w.detail.id) < 0 { // the shown proposal left the queue: go from where it was
		pos := min(w.detail.queuePos, len(ids))
		if dir > 0 {
			w.Select(ids[min(pos, len(ids)-1)])
		} else {
			w.Select(ids[max(pos-1, 0)])
		}
		return
	}
	next := slices.Index(ids, w.detail.id) + dir
	switch {
	case len(ids) == 1:
		w.detail.line.say("This is the only proposal in the queue.")
		return
	case next < 0:
		w.detail.line.say("This is the first proposal in the queue (the oldest).")
		return
	case next >= len(ids):
		w.detail.line.say("This is the last proposal in the queue (the newest).")
		return
	}
	w.Select(ids[next])
}

// OpenFromNotification is the person clicking a desktop notification: the
// window shows its Review tab with proposal id selected, and is shown and
// raised — the one time the window takes the keyboard, because the person
// asked. A proposal decided meanwhile leaves the selection as it is.
func (w *Window) OpenFromNotification(id string) {
	w.ShowReview()
	if _, ok := w.items[id]; ok {
		w.Select(id)
		fmt.Fprintf(w.opts.Log, "diffdesk: notification clicked: showing proposal %s\n", id)
	} else {
		w.detail.line.say("The proposal that notification named is no longer waiting.")
		fmt.Fprintf(w.opts.Log, "diffdesk: notification clicked: proposal %s no longer waits\n", id)
	}
	w.Win.Show()
	w.Win.RequestFocus()
}

// startAgeTicker refreshes the queue's ages now and then; its goroutine
// ends when the window is closed.
func (w *Window) startAgeTicker() {
	d := w.opts.AgeTick
	if d == 0 {
		d = 20 * time.Second
	}
	if d < 0 {
		return
	}
	go func() {
		t := time.NewTicker(d)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				w.do(w.queue.list.Refresh)
			case <-w.stop:
				return
			}
		}
	}()
}

// background runs work off the UI goroutine (Close waits for it), then
// the func it returns, if any, back on the UI goroutine.
func (w *Window) background(work func() func()) {
	w.decisions.Add(1)
	go func() {
		defer w.decisions.Done()
		if then := work(); then != nil {
			w.do(then)
		}
	}()
}

// userHome is the person's home directory ("" when not known), written ~
// in the title and the queue.
func userHome() string {
	home, _ := os.UserHomeDir()
	return home
}

// proposalName names proposal id by its files, or by its id once the desk
// no longer has it.
func (w *Window) proposalName(id string) string {
	if p, ok := w.desk.Get(id); ok {
		return present.FileNames(p)
	}
	return id
}
