package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/hub"
)

// linkHub puts desk's queue on the hub c names (deskctl serve --hub) and
// returns how to unlink it; with no --hub it does nothing and no NATS code
// runs.
func linkHub(desk *review.Desk, c hubClientFlags, stdout io.Writer) (unlink func(), err error) {
	if c.url == "" {
		if c.creds != "" || c.name != "" || c.ca != "" {
			return nil, fmt.Errorf("--hub-creds, --hub-name and --hub-ca go with --hub URL")
		}
		return func() {}, nil
	}
	o := c.options()
	o.OnState = func(state string, err error) {
		if err != nil {
			fmt.Fprintf(stdout, "hub: %s: %v\n", state, err)
		} else {
			fmt.Fprintf(stdout, "hub: %s\n", state)
		}
	}
	nc, err := hub.Dial(o)
	if err != nil {
		return nil, err // bad flags or credentials: said at once
	}
	logf := func(f string, a ...any) { fmt.Fprintf(stdout, f+"\n", a...) }
	ctx, cancel := context.WithCancel(context.Background())
	linked := make(chan *hub.Link, 1)
	// The desk serves its agents whether or not the hub answers: it links
	// as soon as it can, and says so.
	go func() {
		defer close(linked)
		for wait := time.Second; ; wait = min(2*wait, 30*time.Second) {
			cctx, ccancel := context.WithTimeout(ctx, 15*time.Second)
			l, err := hub.Connect(cctx, desk, nc, hub.LinkOptions{Name: o.Creds.Name, Logf: logf})
			ccancel()
			if err == nil {
				fmt.Fprintf(stdout, "hub: the queue is on %s as desk %s; decisions are taken from it\n", c.url, o.Creds.Name)
				linked <- l
				return
			}
			if ctx.Err() != nil {
				return
			}
			fmt.Fprintf(stdout, "hub: not linked yet (%v); agents are served here meanwhile; trying again in %v\n", err, wait)
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
		}
	}()
	return func() {
		cancel()
		if l := <-linked; l != nil {
			l.Close(2 * time.Second)
		}
		nc.Close()
	}, nil
}
