package ui

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"github.com/diffdesk/diffdesk/assets"
	"github.com/diffdesk/diffdesk/review/deskrpc"
	"github.com/diffdesk/diffdesk/review/startup"
)

// AppID is DiffDesk's application id (FyneApp.toml's ID).
const AppID = "io.github.diffdesk.desk"

// AppIcon is DiffDesk's icon, for the window and the system tray.
var AppIcon = fyne.NewStaticResource("diffdesk.png", assets.Icon)

// Main runs the diffdesk command with args and returns its exit code:
// it starts the backend, opens the one window, and when the window closes
// stops the server (in-flight writes finish) and removes the socket.
func Main(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("diffdesk", flag.ContinueOnError)
	fl.SetOutput(stderr)
	var c startup.Options
	c.AddFlags(fl)
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fl.NArg() > 0 {
		fmt.Fprintf(stderr, "diffdesk: unexpected argument %q (workspaces are given with --workspace)\n", fl.Arg(0))
		return 2
	}
	if err := CheckDisplay(os.Getenv); err != nil {
		fmt.Fprintf(stderr, "diffdesk: %v\n", err)
		return 1
	}
	b, err := startup.Start(c)
	if errors.Is(err, deskrpc.ErrDeskRunning) {
		err = fmt.Errorf("%w; see deskctl status, close that desk, or start this one with --socket", err)
	}
	if err != nil {
		fmt.Fprintf(stderr, "diffdesk: %v\n", err)
		return 1
	}
	a := app.NewWithID(AppID)
	a.SetIcon(AppIcon)
	w := NewWindow(a, b.Desk, WindowOptions{Interrupted: b.Interrupted, Socket: b.Socket, Doors: b.DoorStatus, Journal: b.Journal, Log: stderr})
	if err := b.Serve(); err != nil {
		fmt.Fprintf(stderr, "diffdesk: %v\n", err)
	}
	fmt.Fprint(stdout, b.Summary())
	askTrust(w.Win, b, w.setCloser)
	if w.Selected() == "" {
		w.detail.showEmpty() // now with the doors' connect lines
	}
	// SIGINT and SIGTERM close the window as the person would, so the
	// socket is removed and writes in flight finish. The goroutine ends
	// with the first signal or when the app has quit.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	quit := make(chan struct{})
	defer close(quit)
	go func() {
		select {
		case <-sigs:
			fyne.Do(a.Quit)
		case <-quit:
		}
	}()
	w.Win.ShowAndRun()
	w.Close()
	if err := b.Stop(); err != nil {
		fmt.Fprintf(stderr, "diffdesk: %v\n", err)
		return 1
	}
	return 0
}

// fyneDo is how background goroutines reach the UI in the real app.
func fyneDo(f func()) { fyne.Do(f) }
