package ui

import (
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/systray"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/ui/present"
)

// announced is how the window tells of work outside itself: the tray's
// count and the desktop notifications gathered per burst.
type announced struct {
	tray      *fyne.Menu
	trayCount *fyne.MenuItem

	notifyIDs   []string
	notifyTimer *time.Timer
	notify      func(present.Notice) // desktop.send; tests record instead
	settled     func(string)         // desktop.settled: a proposal no longer waits; tests record instead
	desktop     *desktopNotifier
}

// setupTray puts the waiting count and a Show item in the system tray, where
// the app is a desktop.App (not under the test driver).
func (w *Window) setupTray() {
	da, ok := w.app.(desktop.App)
	if !ok {
		return
	}
	w.trayCount = fyne.NewMenuItem(Title(0), nil)
	w.trayCount.Disabled = true
	show := fyne.NewMenuItem("Show", func() { w.Win.Show(); w.Win.RequestFocus() })
	w.tray = fyne.NewMenu("DiffDesk", w.trayCount, show)
	// The icon first: with none, Fyne's tray goroutine renders its SVG
	// fallback through a canvas whose caches the UI goroutine also uses (a
	// "concurrent map iteration and map write" crash seen under Xvfb).
	da.SetSystemTrayIcon(AppIcon)
	da.SetSystemTrayMenu(w.tray)
}

func (w *Window) updateTray() {
	if w.tray == nil {
		return
	}
	label := "Nothing waiting"
	if w.waiting > 0 {
		label = fmt.Sprintf("%d waiting", w.waiting)
	}
	if w.trayCount.Label != label {
		w.trayCount.Label = label
		w.tray.Refresh()
		// The tray item's tooltip (StatusNotifierItem's ToolTip) says it
		// too; Fyne's desktop.App has no call for it, its systray has.
		systray.SetTooltip(Title(w.waiting))
	}
}

// notifyLater gathers proposals that need a person into one desktop
// notification sent after NotifyDelay (a burst of proposals is one
// notification). It never raises or focuses the window.
func (w *Window) notifyLater(ids []string) {
	if w.opts.NotifyDelay < 0 {
		return
	}
	w.notifyIDs = append(w.notifyIDs, ids...)
	if w.notifyTimer != nil {
		return
	}
	// The timer's func only schedules the send on the UI goroutine.
	w.notifyTimer = time.AfterFunc(w.opts.NotifyDelay, func() { w.do(w.sendNotification) })
}

// sendNotification sends the gathered notification, leaving out proposals
// decided meanwhile (auto-approved ones, for instance); a failure held for
// the person is one that needs them.
func (w *Window) sendNotification() {
	w.notifyTimer = nil
	ids := w.notifyIDs
	w.notifyIDs = nil
	var ps []review.Proposal
	seen := map[string]bool{}
	for _, id := range ids {
		p, ok := w.desk.Get(id)
		if !ok || seen[id] || !p.State.Waiting() || p.AutoRule != "" { // a held failure waits for the person too
			continue
		}
		seen[id] = true
		ps = append(ps, p)
	}
	if len(ps) == 0 {
		return
	}
	w.notify(present.NoticeFor(ps))
}
