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
	var connect []string
	fl.Func("connect", "review the desk on another machine, `ssh://[user@]host[:port][/path/to/desk.sock]`, over your own ssh (it runs deskctl bridge there), or in a container, docker://[user@]container[/socket] or podman://…, or this machine's (local, unix:///path/to/desk.sock), or a label of your config's [[connect]]; give it several times to review several desks in one queue; no desk starts here",
		func(v string) error { connect = append(connect, v); return nil })
	desks := fl.Bool("desks", false, "review every desk your user config lists ([[connect]]: label, address) in one queue, with any --connect")
	hf := addHubFlags(fl)
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fl.NArg() > 0 {
		fmt.Fprintf(stderr, "diffdesk: unexpected argument %q (workspaces are given with --workspace; diffdesk OLD NEW compares two files)\n", fl.Arg(0))
		return 2
	}
	if err := CheckDisplay(os.Getenv); err != nil {
		fmt.Fprintf(stderr, "diffdesk: %v\n", err)
		return 1
	}
	if len(connect) > 0 || *desks || hf.url != "" {
		deskFlags := false
		fl.Visit(func(f *flag.Flag) { deskFlags = deskFlags || !elsewhereFlag(f.Name) })
		if deskFlags {
			fmt.Fprintln(stderr, "diffdesk: --connect reviews a desk that runs elsewhere; --workspace, --socket, --journal and --config belong to that desk (give its socket in the address: ssh://host/path/to/desk.sock)")
			return 2
		}
		if hf.url != "" {
			return mainHub(hf, len(connect) > 0 || *desks, stdout, stderr)
		}
		return mainDesks(connect, *desks, stdout, stderr)
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
	w := NewWindow(a, b.Desk, WindowOptions{Interrupted: b.Interrupted, Socket: b.Socket, Doors: b.DoorStatus, History: true, Log: stderr})
	if err := b.Serve(); err != nil {
		fmt.Fprintf(stderr, "diffdesk: %v\n", err)
	}
	fmt.Fprint(stdout, b.Summary())
	askTrust(w.Win, b, w.setCloser)
	asked := askedAbout(b.Untrusted())
	stopWatch, err := b.WatchConfig(func(r startup.Reloaded, err error) {
		fmt.Fprint(stderr, b.ReloadText(r, err))
		fyne.Do(func() { w.configReloaded(b, asked, r, err) })
	})
	if err != nil {
		fmt.Fprintf(stderr, "diffdesk: not watching the config files (edit them, then restart): %v\n", err)
		stopWatch = func() {}
	}
	if w.Selected() == "" {
		w.detail.showEmpty() // now with the doors' connect lines
	}
	defer stopOnSignal(a)()
	w.Win.ShowAndRun()
	stopWatch()
	w.Close()
	if err := b.Stop(); err != nil {
		fmt.Fprintf(stderr, "diffdesk: %v\n", err)
		return 1
	}
	return 0
}

// stopOnSignal makes SIGINT and SIGTERM close the window as the person
// would, so the socket is removed and writes in flight finish; call the
// func it returns once the app has quit. The goroutine ends with the first
// signal or then.
func stopOnSignal(a fyne.App) (stop func()) {
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
