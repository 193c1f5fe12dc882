package ui

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/hub"
)

// hubFlags are how the window reaches a hub: --hub, --hub-creds,
// --hub-name, --hub-ca (as deskctl hub review takes them).
type hubFlags struct{ url, creds, name, ca string }

func addHubFlags(fl *flag.FlagSet) *hubFlags {
	h := &hubFlags{}
	fl.StringVar(&h.url, "hub", "", "review every desk on a team hub: its `URL`s, nats://127.0.0.1:4222 on this machine, tls://HOST:PORT off it (comma-separated for a cluster); with --hub-creds; no desk starts here")
	fl.StringVar(&h.creds, "hub-creds", "", "the `FILE` with your reviewer's NKey seed, from deskctl hub add --role reviewer")
	fl.StringVar(&h.name, "hub-name", "", "the `NAME` the credentials were issued for (default: the seed file's name without .nk)")
	fl.StringVar(&h.ca, "hub-ca", "", "the CA `FILE` that signed the hub's certificate (default: the system's roots)")
	return h
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

func (h *hubFlags) options() hub.DialOptions {
	name := h.name
	if name == "" {
		name = strings.TrimSuffix(h.creds[strings.LastIndex(h.creds, "/")+1:], ".nk")
	}
	return hub.DialOptions{URL: h.url, Creds: hub.Credentials{Name: name, Seed: h.creds}, CA: h.ca}
}

// mainHub runs the window over every desk on the hub (hub.View): each
// proposal under its desk's name, each decision a create of its round's
// key, the first of which the desk carries out.
func mainHub(h *hubFlags, withConnect bool, stdout, stderr io.Writer) int {
	if withConnect {
		fmt.Fprintln(stderr, "diffdesk: give --hub or --connect/--desks, not both: a hub already carries every desk linked to it")
		return 2
	}
	if h.creds == "" {
		fmt.Fprintln(stderr, "diffdesk: --hub needs --hub-creds FILE, a reviewer's seed file from deskctl hub add --role reviewer")
		return 2
	}
	o := h.options()
	var w *Window
	started := make(chan struct{})
	o.OnState = func(state string, err error) {
		if err != nil {
			fmt.Fprintf(stderr, "diffdesk: hub %s: %v\n", state, err)
		} else {
			fmt.Fprintf(stderr, "diffdesk: hub %s\n", state)
		}
		if state != "disconnected" && state != "reconnected" {
			return
		}
		go func() { // the window exists once the hub is open
			<-started
			fyne.Do(func() { w.hubState(h.url, state == "disconnected") })
		}()
	}
	nc, err := hub.Dial(o)
	if err != nil {
		fmt.Fprintf(stderr, "diffdesk: %v\n", err)
		return 1
	}
	defer nc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	host, _ := os.Hostname()
	r, err := hub.NewReviewer(ctx, nc, o.Creds.Name+"@"+host)
	var v *hub.View
	if err == nil {
		v, err = hub.OpenView(ctx, r, hub.ViewLimits{})
	}
	cancel()
	if err != nil {
		fmt.Fprintf(stderr, "diffdesk: %v\n", err)
		return 1
	}
	defer v.Close()
	v.OnNotice(func(s string) { fmt.Fprintf(stderr, "diffdesk: %s\n", review.Printable(s)) })
	a := app.NewWithID(AppID)
	a.SetIcon(AppIcon)
	w = NewWindow(a, hubDesk{v}, WindowOptions{Remote: "hub " + h.url})
	close(started)
	fmt.Fprintf(stdout, "diffdesk: reviewing every desk on the hub %s as %s\n", h.url, o.Creds.Name)
	defer stopOnSignal(a)()
	w.Win.ShowAndRun()
	w.Close()
	return 0
}

// hubState shows in the title whether the hub is reached now: while it is
// not, nothing can be decided (decisions fail, saying so) and the queue is
// as last read; the connection comes back by itself.
func (w *Window) hubState(url string, down bool) {
	w.opts.Remote = "hub " + url
	if down {
		w.opts.Remote += " (unreachable, reconnecting)"
	}
	w.Win.SetTitle(Title(w.waiting) + w.placeTitle())
}
