package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/diffdesk/diffdesk/review"
)

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return fmt.Sprint(*l) }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

// runServe implements `deskctl serve`: the desk without a window, on the
// same socket and rules.
func runServe(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("deskctl serve", flag.ContinueOnError)
	fl.SetOutput(stderr)
	var roots stringList
	fl.Var(&roots, "workspace", "a workspace root the desk serves (repeatable; default: the current directory)")
	decide := fl.String("decide", "", "decide without a person: approve (what rules may approve) or reject")
	socket := fl.String("socket", review.DefaultSocketPath(), "the socket to listen on")
	journal := fl.String("journal", "", "the journal database (default $XDG_DATA_HOME/diffdesk/journal.db)")
	config := fl.String("config", "", "the user config file (default $XDG_CONFIG_HOME/diffdesk/config.toml)")
	if err := parseFlags(fl, args); err != nil {
		return 2
	}
	if len(roots) == 0 {
		wd, err := os.Getwd()
		if err != nil {
			fmt.Fprintf(stderr, "deskctl serve: %v\n", err)
			return 1
		}
		roots = append(roots, wd)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := serve(ctx, serveOptions{roots: roots, decide: *decide, socket: *socket, journal: *journal, config: *config}, stdout); err != nil {
		fmt.Fprintf(stderr, "deskctl serve: %v\n", err)
		return 1
	}
	return 0
}

type serveOptions struct {
	roots                   []string
	decide                  string
	socket, journal, config string
}

// serve runs a desk until ctx ends, then finishes in-flight writes and
// removes its socket.
func serve(ctx context.Context, o serveOptions, stdout io.Writer) error {
	var err error
	if o.config == "" {
		if o.config, err = review.DefaultConfigPath(); err != nil {
			return err
		}
	}
	if o.journal == "" {
		if o.journal, err = review.DefaultJournalPath(); err != nil {
			return err
		}
	}
	cfg, err := review.LoadConfig(o.config, o.roots)
	if err != nil {
		return err
	}
	j, err := review.OpenJournal(ctx, o.journal)
	if err != nil {
		return err
	}
	defer j.Close()
	recovered, err := j.Recover(ctx)
	if err != nil {
		return err
	}
	for _, r := range recovered {
		fmt.Fprintf(stdout, "diffdesk: settled a write interrupted by a crash: checkpoint %d (proposal %s) is now %s\n", r.Checkpoint, r.ProposalID, r.State)
	}
	desk, err := review.NewDesk(review.Options{Roots: o.roots, Config: cfg, Journal: j, Decide: o.decide})
	if err != nil {
		return err
	}
	defer desk.Close()
	l, err := review.Listen(o.socket)
	if err != nil {
		return err
	}
	defer os.Remove(o.socket)
	mode := "a person decides (use the diffdesk window, or the decide method)"
	if o.decide != "" {
		mode = "--decide " + o.decide
	}
	fmt.Fprintf(stdout, "diffdesk: listening on %s\nworkspaces: %v\njournal: %s\ndecisions: %s\n", o.socket, desk.Roots(), o.journal, mode)
	doors, err := review.StartDoors(ctx, desk, review.DoorOptions{Doors: cfg.Doors})
	if err != nil {
		return err
	}
	defer doors.Close()
	for _, d := range doors.Status() {
		fmt.Fprintf(stdout, "door %s: %s (%s)\n  connect: %s\n", d.Name, d.Addr, d.File, d.Connect)
	}
	srv := review.NewServer(desk)
	srv.ShowDoors(doors.Status)
	return srv.Serve(ctx, l)
}
