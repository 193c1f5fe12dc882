package ui

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"github.com/diffdesk/diffdesk/assets"
	"github.com/diffdesk/diffdesk/review/startup"
)

// AppID is DiffDesk's application id (FyneApp.toml's ID).
const AppID = "io.github.diffdesk.desk"

// AppIcon is DiffDesk's icon, for the window and the system tray.
var AppIcon = fyne.NewStaticResource("diffdesk.png", assets.Icon)

// NewApp is DiffDesk's Fyne app: its id (where the preferences are kept)
// and its icon. cmd/diffdesk makes one per run.
func NewApp() fyne.App {
	a := app.NewWithID(AppID)
	a.SetIcon(AppIcon)
	return a
}

// Follow makes the window follow the desk this process started (b): it
// asks about the workspace configs not yet trusted, puts a config saved
// again in force and says so (on the window, and what changed on
// WindowOptions.Log), and shows the empty pane with the doors' connect
// lines once b serves. Call it on the UI goroutine after b.Serve; the
// func it returns stops following.
func (w *Window) Follow(b *startup.Backend) (stop func()) {
	askTrust(w.Win, b, w.setCloser)
	asked := askedAbout(b.Untrusted())
	stopWatch, err := b.WatchConfig(func(r startup.Reloaded, err error) {
		fmt.Fprint(w.opts.Log, b.ReloadText(r, err))
		fyne.Do(func() { w.configReloaded(b, asked, r, err) })
	})
	if err != nil {
		fmt.Fprintf(w.opts.Log, "diffdesk: not watching the config files (edit them, then restart): %v\n", err)
		stopWatch = func() {}
	}
	if w.Selected() == "" {
		w.detail.showEmpty() // now with the doors' connect lines
	}
	return stopWatch
}

// QuitOnSignal makes SIGINT and SIGTERM close the window as the person
// would, so the socket is removed and writes in flight finish; call the
// func it returns once the desk has stopped. The goroutine ends with the
// first signal or then.
func QuitOnSignal(a fyne.App) (stop func()) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	quit := make(chan struct{})
	go func() {
		select {
		case <-sigs:
			fyne.Do(a.Quit)
		case <-quit:
		}
	}()
	return func() {
		signal.Stop(sigs)
		close(quit)
	}
}

// fyneDo is how background goroutines reach the UI in the real app.
func fyneDo(f func()) { fyne.Do(f) }
