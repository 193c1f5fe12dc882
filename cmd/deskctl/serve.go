package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/deskrpc"
	"github.com/diffdesk/diffdesk/review/startup"
)

var serveCmd = &command{
	name:  "serve",
	usage: "[flags]",
	short: "run the desk without a window, on the same socket and rules",
	long: `Run the desk without a window, on the same socket and rules, started the way the diffdesk
window starts it: for CI and remote machines. It serves until interrupted, then finishes
in-flight writes and removes its socket. With --decide approve every proposal a rule may approve
is approved unchanged; protected paths (.git, the agents' settings such as .claude/ and .mcp.json,
editor tasks, CI workflows, .env*, keys, lockfiles, …) are rejected with the reason a person is
needed. With --hub the queue is also put on a team hub (deskctl hub), whose reviewers decide;
this desk still writes every file and judges staleness.`,
	flags: func(fl *flag.FlagSet) runFunc {
		var c startup.Options
		c.AddFlags(fl)
		decide := fl.String("decide", "", "decide without a person: `approve|reject` — approve what rules may approve (the rest is rejected), or reject all")
		var h hubClientFlags
		h.add(fl, "this desk")
		return func(ctx context.Context, x *invocation) int { return runServe(ctx, x, c, *decide, h) }
	},
}

// runServe implements `deskctl serve`: c is the desk's start-up, decide
// who decides ("" = a person).
func runServe(ctx context.Context, x *invocation, c startup.Options, decide string, h hubClientFlags) int {
	if decide != "" {
		v, err := decision.ParseVerdict(decide)
		if err != nil || (v != decision.Approved && v != decision.Rejected) {
			return x.usageError("--decide must be approve or reject, not %q", decide)
		}
		c.Unattended = v
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := serveLinked(ctx, c, x.stdout, h); err != nil {
		return x.fail(err)
	}
	return 0
}

// serve runs a desk until ctx ends, then finishes in-flight writes and
// removes its socket.
func serve(ctx context.Context, c startup.Options, stdout io.Writer) error {
	return serveLinked(ctx, c, stdout, hubClientFlags{})
}

// serveLinked is serve, with the queue on the hub h names (none if its
// URL is "").
func serveLinked(ctx context.Context, c startup.Options, stdout io.Writer, h hubClientFlags) error {
	b, err := startup.Start(c)
	if errors.Is(err, deskrpc.ErrDeskRunning) {
		return fmt.Errorf("%w; see deskctl status, stop that desk, or start this one with --socket", err)
	}
	if err != nil {
		return err
	}
	if err := b.Serve(); err != nil {
		// A door that did not open: the socket and the other doors are
		// served; the summary says which door and why.
		fmt.Fprintf(stdout, "deskctl: %v\n", err)
	}
	fmt.Fprint(stdout, b.Summary())
	unlink, err := linkHub(b.Desk, h, stdout)
	if err != nil {
		b.Stop()
		return err
	}
	stopWatch, err := b.WatchConfig(func(r startup.Reloaded, err error) {
		fmt.Fprint(stdout, b.ReloadText(r, err))
	})
	if err != nil {
		fmt.Fprintf(stdout, "not watching the config files (edit them, then restart the desk): %v\n", err)
		stopWatch = func() {}
	}
	<-ctx.Done()
	stopWatch()
	err = b.Stop()
	unlink() // after the agents' calls ended: their outcomes reach the hub
	return err
}
