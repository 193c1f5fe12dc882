package ui

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/config"
	"github.com/diffdesk/diffdesk/review/remote"
	"github.com/diffdesk/diffdesk/ui/present"
)

// RunDesks runs the window over the desks --connect and --desks name,
// as one queue (remote.Fleet): each proposal labelled with its desk, each
// decision sent to the desk that holds it; a desk that drops is shown
// unreachable and reached again by itself.
func RunDesks(values []string, all bool, stdout, stderr io.Writer) int {
	var list []config.ConnectEntry
	if all || slices.ContainsFunc(values, func(v string) bool { return v != "local" && !strings.Contains(v, "://") }) {
		file, err := config.DefaultPath()
		if err == nil {
			var c config.Config
			c, err = config.Load(file, nil)
			list = c.Connect
		}
		if err != nil {
			fmt.Fprintf(stderr, "diffdesk: the desks your config lists: %v\n", err)
			return 2
		}
	}
	addrs, err := remote.Addresses(values, all, list)
	if err != nil {
		fmt.Fprintf(stderr, "diffdesk: %v\n", err)
		return 2
	}
	var w *Window
	var fleet *remote.Fleet
	started := make(chan struct{})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // ssh may ask for a password
	f, err := remote.NewFleet(ctx, remote.Specs(addrs, remote.SSHOptions{Stderr: stderr}), remote.FleetOptions{
		OnState: func(label string, err error) {
			if err != nil {
				fmt.Fprintf(stderr, "diffdesk: %s: %v (trying again)\n", label, err)
			} else {
				fmt.Fprintf(stderr, "diffdesk: reached the desk %s\n", label)
			}
			go func() { // the window exists once NewFleet has returned
				<-started
				fyne.Do(func() { w.desksChanged(fleet) })
			}()
		},
	})
	cancel()
	if err != nil {
		fmt.Fprintf(stderr, "diffdesk: %v\n", err)
		return 1
	}
	defer f.Close()
	a := NewApp()
	w, fleet = NewWindow(a, f, WindowOptions{Remote: present.FleetTitle(f.Labels(), f.Reachable()), History: true}), f
	close(started)
	w.askFleetTrust(f, stderr)
	for _, d := range f.Desks() {
		if d.Err == nil {
			fmt.Fprintf(stdout, "diffdesk: reviewing the desk at %s (%s)\n", d.Where, d.Label)
		}
	}
	fmt.Fprintf(stdout, "diffdesk: workspaces %s\n", strings.Join(f.Roots(), ", "))
	defer QuitOnSignal(a)()
	w.Win.ShowAndRun()
	w.Close()
	return 0
}

// desksChanged shows in the title which desks the window reaches now.
func (w *Window) desksChanged(f *remote.Fleet) {
	w.opts.Remote = present.FleetTitle(f.Labels(), f.Reachable())
	w.Win.SetTitle(Title(w.waiting) + w.placeTitle())
}

// askFleetTrust asks, desk by desk, about each repository config waiting
// for trust on the desks the window reaches at start (untrusted, over the
// protocol); Trust trusts it on that desk alone, exactly the content shown.
// What a far desk sends is shown escaped.
func (w *Window) askFleetTrust(f *remote.Fleet, stderr io.Writer) {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		desks, errs := f.Untrusted(ctx)
		for _, err := range errs {
			fmt.Fprintf(stderr, "diffdesk: not asking about repository rules: %v\n", err)
		}
		items := fleetTrustItems(desks, func(err error) {
			fyne.Do(func() { dialog.ShowError(err, w.Win) })
		})
		if len(items) > 0 {
			fyne.Do(func() { askTrustItems(w.Win, items, w.setCloser) })
		}
	}()
}

// fleetTrustItems are the trust questions of each desk's untrusted
// configs; trusting one calls that desk (off the UI goroutine), and a
// failure is told to fail.
func fleetTrustItems(desks []remote.DeskTrust, fail func(error)) []trustItem {
	var items []trustItem
	for _, dt := range desks {
		for _, tf := range dt.Files {
			var rules []string
			for _, r := range tf.Rules {
				rules = append(rules, review.Printable(r))
			}
			items = append(items, trustItem{file: review.Printable(tf.File) + " on the desk " + dt.Label, rules: rules,
				command: "deskctl trust " + review.Printable(tf.Root) + " (on " + dt.Label + ")",
				trust: func() error {
					go func() {
						ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
						defer cancel()
						if err := dt.Trust(ctx, tf); err != nil {
							fail(err)
						}
					}()
					return nil
				}})
		}
	}
	return items
}
