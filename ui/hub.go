package ui

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"

	"errors"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/hub"
	"github.com/diffdesk/diffdesk/review/journal"
)

// HubOptions are how the window reaches a team hub (diffdesk --hub,
// --hub-creds, --hub-name, --hub-ca, as deskctl hub review takes them).
type HubOptions struct {
	URL   string // the hub's URLs, comma-separated for a cluster
	Creds string // the reviewer's NKey seed file
	Name  string // the name the credentials were issued for; "" for the seed file's name without .nk
	CA    string // the CA file that signed the hub's certificate; "" for the system's roots
}

func (h HubOptions) options() hub.DialOptions {
	name := h.Name
	if name == "" {
		name = strings.TrimSuffix(h.Creds[strings.LastIndex(h.Creds, "/")+1:], ".nk")
	}
	return hub.DialOptions{URL: h.URL, Creds: hub.Credentials{Name: name, Seed: h.Creds}, CA: h.CA}
}

// RunHub runs the window over every desk on the hub (hub.View): each
// proposal under its desk's name, each decision a create of its round's
// key, the first of which the desk carries out. It returns the exit code.
func RunHub(h HubOptions, stdout, stderr io.Writer) int {
	if h.Creds == "" {
		fmt.Fprintln(stderr, "diffdesk: --hub needs --hub-creds FILE, a reviewer's seed file from deskctl hub add --role reviewer")
		return 2
	}
	o := h.options()
	var w *Window
	started := make(chan struct{})
	// The hub is unreachable while the connection is down, or while the
	// view, connected, cannot follow it (its JetStream unavailable).
	var mu sync.Mutex
	var cut, unfollowed bool
	show := func(set func()) {
		mu.Lock()
		set()
		mu.Unlock()
		go func() { // the window exists once the hub is open
			<-started
			fyne.Do(func() {
				mu.Lock()
				down := cut || unfollowed
				mu.Unlock()
				w.hubState(h.URL, down)
			})
		}()
	}
	o.OnState = func(state string, err error) {
		if err != nil {
			fmt.Fprintf(stderr, "diffdesk: hub %s: %v\n", state, err)
		} else {
			fmt.Fprintf(stderr, "diffdesk: hub %s\n", state)
		}
		if state != "disconnected" && state != "reconnected" {
			return
		}
		show(func() { cut = state == "disconnected" })
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
	v.OnReach(func(err error) { show(func() { unfollowed = err != nil }) })
	a := NewApp()
	w = NewWindow(a, hubDesk{v}, WindowOptions{Remote: "hub " + h.URL})
	close(started)
	fmt.Fprintf(stdout, "diffdesk: reviewing every desk on the hub %s as %s\n", h.URL, o.Creds.Name)
	defer QuitOnSignal(a)()
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

// hubDesk is a team hub's view (diffdesk --hub) as the window's Desk: the
// hub holds no desk's history (each desk's journal is on its machine),
// and approves no proposal without a person's decision of it, so the
// History tab is off and t's sweep of a changeset says where to go.
type hubDesk struct{ *hub.View }

var errHubHistory = errors.New("a team hub keeps no history: deskctl history on the desk's machine reads it")

func (hubDesk) History(context.Context, journal.Filter) (journal.Page, error) {
	return journal.Page{}, errHubHistory
}

func (hubDesk) HistoryAgents(context.Context) ([]journal.Agent, error) { return nil, errHubHistory }

func (hubDesk) HistoryDetail(context.Context, journal.Ref) (journal.Detail, error) {
	return journal.Detail{}, errHubHistory
}

func (hubDesk) HistoryDiff(context.Context, review.HistoryCompare) ([]review.HistoryFile, error) {
	return nil, errHubHistory
}

func (hubDesk) Restore(context.Context, journal.RestoreRequest, bool) (journal.RestorePlan, journal.RestoreResult, error) {
	return journal.RestorePlan{}, journal.RestoreResult{}, errHubHistory
}

func (hubDesk) ApproveTrivial(context.Context, string, review.ChangesetDecision, ...string) (review.TrivialApproval, error) {
	return review.TrivialApproval{}, errors.New("over a team hub, t approves the shown proposal's trivial hunks only: open each of the others and press t")
}
