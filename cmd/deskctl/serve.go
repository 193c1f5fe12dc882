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

	"github.com/diffdesk/diffdesk/review/deskrpc"
	"github.com/diffdesk/diffdesk/review/journal"
	"github.com/diffdesk/diffdesk/review/startup"
)

// runServe implements `deskctl serve`: the desk without a window, on the
// same socket and rules, started the way the window starts it.
func runServe(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("deskctl serve", flag.ContinueOnError)
	fl.SetOutput(stderr)
	var c startup.Config
	c.AddFlags(fl)
	decide := fl.String("decide", "", "decide without a person: approve (what rules may approve; the rest is rejected) or reject")
	if err := parseFlags(fl, args); err != nil {
		return 2
	}
	if *decide != "" {
		v, err := journal.ParseVerdict(*decide)
		if err != nil || (v != journal.Approved && v != journal.Rejected) {
			fmt.Fprintf(stderr, "deskctl serve: --decide must be approve or reject, not %q\n", *decide)
			return 2
		}
		c.Unattended = v
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := serve(ctx, c, stdout); err != nil {
		fmt.Fprintf(stderr, "deskctl serve: %v\n", err)
		return 1
	}
	return 0
}

// serve runs a desk until ctx ends, then finishes in-flight writes and
// removes its socket.
func serve(ctx context.Context, c startup.Config, stdout io.Writer) error {
	b, err := startup.Start(c)
	if errors.Is(err, deskrpc.ErrDeskRunning) {
		return fmt.Errorf("%w; see deskctl status, stop that desk, or start this one with --socket", err)
	}
	if err != nil {
		return err
	}
	serveErr := b.Serve()
	fmt.Fprint(stdout, b.Summary())
	if serveErr != nil {
		b.Stop()
		return serveErr
	}
	<-ctx.Done()
	return b.Stop()
}
