package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"fyne.io/fyne/v2"

	"github.com/diffdesk/diffdesk/review/deskrpc"
	"github.com/diffdesk/diffdesk/review/startup"
	"github.com/diffdesk/diffdesk/ui"
)

// run runs the diffdesk command with args and returns its exit code: it
// starts the desk, opens the one window, and when the window closes stops
// the server (in-flight writes finish) and removes the socket; with
// --connect, --desks or --hub, the window over desks elsewhere, no desk
// here.
func run(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("diffdesk", flag.ContinueOnError)
	fl.SetOutput(stderr)
	var c startup.Options
	c.AddFlags(fl)
	var connect []string
	fl.Func("connect", "review the desk on another machine, `ssh://[user@]host[:port][/path/to/desk.sock]`, over your own ssh (it runs deskctl bridge there), or in a container, docker://[user@]container[/socket] or podman://…, or this machine's (local, unix:///path/to/desk.sock), or a label of your config's [[connect]]; give it several times to review several desks in one queue; no desk starts here",
		func(v string) error { connect = append(connect, v); return nil })
	desks := fl.Bool("desks", false, "review every desk your user config lists ([[connect]]: label, address) in one queue, with any --connect")
	var h ui.HubOptions
	fl.StringVar(&h.URL, "hub", "", "review every desk on a team hub: its `URL`s, nats://127.0.0.1:4222 on this machine, tls://HOST:PORT off it (comma-separated for a cluster); with --hub-creds; no desk starts here")
	fl.StringVar(&h.Creds, "hub-creds", "", "the `FILE` with your reviewer's NKey seed, from deskctl hub add --role reviewer")
	fl.StringVar(&h.Name, "hub-name", "", "the `NAME` the credentials were issued for (default: the seed file's name without .nk)")
	fl.StringVar(&h.CA, "hub-ca", "", "the CA `FILE` that signed the hub's certificate (default: the system's roots)")
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
	if err := ui.CheckDisplay(os.Getenv); err != nil {
		fmt.Fprintf(stderr, "diffdesk: %v\n", err)
		return 1
	}
	if len(connect) > 0 || *desks || h.URL != "" {
		deskFlags := false
		fl.Visit(func(f *flag.Flag) { deskFlags = deskFlags || !elsewhereFlag(f.Name) })
		if deskFlags {
			fmt.Fprintln(stderr, "diffdesk: --connect reviews a desk that runs elsewhere; --workspace, --socket, --journal and --config belong to that desk (give its socket in the address: ssh://host/path/to/desk.sock)")
			return 2
		}
		if h.URL == "" {
			return ui.RunDesks(connect, *desks, stdout, stderr)
		}
		if len(connect) > 0 || *desks {
			fmt.Fprintln(stderr, "diffdesk: give --hub or --connect/--desks, not both: a hub already carries every desk linked to it")
			return 2
		}
		return ui.RunHub(h, stdout, stderr)
	}
	return runDesk(c, stdout, stderr)
}

// elsewhereFlag reports whether a flag is one of a window over desks that
// run elsewhere (the others belong to a desk of the window's own).
func elsewhereFlag(name string) bool {
	switch name {
	case "connect", "desks", "hub", "hub-creds", "hub-name", "hub-ca":
		return true
	}
	return false
}

// runDesk starts the desk c says, and runs the window over it until the
// person closes it; then the desk stops. Started with no --workspace in
// the home directory or / (from the applications menu), it asks which
// folder to serve first (runChoosing).
func runDesk(c startup.Options, stdout, stderr io.Writer) int {
	home, _ := os.UserHomeDir()
	wd, _ := os.Getwd()
	if ui.AskForWorkspace(c.Roots, wd, home) {
		return runChoosing(c, wd, home, stdout, stderr)
	}
	a := ui.NewApp()
	d, err := openDesk(a, c, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "diffdesk: %v\n", err)
		return 1
	}
	defer ui.QuitOnSignal(a)()
	d.w.Win.ShowAndRun()
	return d.stop(stderr)
}

// openedDesk is a desk started here and its window.
type openedDesk struct {
	b             *startup.Backend
	w             *ui.Window
	stopFollowing func()
}

// openDesk starts the desk c says and its window in a (not yet shown).
func openDesk(a fyne.App, c startup.Options, stdout, stderr io.Writer) (*openedDesk, error) {
	b, err := startup.Start(c)
	if errors.Is(err, deskrpc.ErrDeskRunning) {
		err = fmt.Errorf("%w; see deskctl status, close that desk, or start this one with --socket", err)
	}
	if err != nil {
		return nil, err
	}
	w := ui.NewWindow(a, b.Desk, ui.WindowOptions{Interrupted: b.Interrupted, Socket: b.Socket, Doors: b.DoorStatus, History: true, Log: stderr})
	if err := b.Serve(); err != nil {
		fmt.Fprintf(stderr, "diffdesk: %v\n", err)
	}
	fmt.Fprint(stdout, b.Summary())
	return &openedDesk{b: b, w: w, stopFollowing: w.Follow(b)}, nil
}

// stop stops the desk once its window has closed; it returns the exit
// code.
func (d *openedDesk) stop(stderr io.Writer) int {
	d.stopFollowing()
	d.w.Close()
	if err := d.b.Stop(); err != nil {
		fmt.Fprintf(stderr, "diffdesk: %v\n", err)
		return 1
	}
	return 0
}

// runChoosing asks which folder to serve (ui.ShowWorkspaceChooser), then
// runs the desk on it as runDesk does; closed without a choice, nothing
// is served.
func runChoosing(c startup.Options, wd, home string, stdout, stderr io.Writer) int {
	a := ui.NewApp()
	var d *openedDesk
	ui.ShowWorkspaceChooser(a, home, func(dir string) error {
		c.Roots = []string{dir}
		var err error
		if d, err = openDesk(a, c, stdout, stderr); err != nil {
			return err
		}
		d.w.Win.Show()
		return nil
	})
	fmt.Fprintf(stdout, "diffdesk: started in %s with no --workspace: asking which folder to serve\n", wd)
	defer ui.QuitOnSignal(a)()
	a.Run()
	if d == nil {
		fmt.Fprintln(stderr, "diffdesk: no workspace chosen; nothing was served")
		return 0
	}
	return d.stop(stderr)
}
