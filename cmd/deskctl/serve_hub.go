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
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	l, err := hub.Connect(ctx, desk, nc, hub.LinkOptions{Name: o.Creds.Name, Logf: func(f string, a ...any) { fmt.Fprintf(stdout, f+"\n", a...) }})
	if err != nil {
		nc.Close()
		return nil, err
	}
	fmt.Fprintf(stdout, "hub: the queue is on %s as desk %s; decisions are taken from it\n", c.url, o.Creds.Name)
	return func() {
		l.Close(2 * time.Second)
		nc.Close()
	}, nil
}
