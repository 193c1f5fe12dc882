package ui

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"github.com/diffdesk/diffdesk/review"
)

// AppID is DiffDesk's application id (FyneApp.toml's ID).
const AppID = "io.github.diffdesk.desk"

// BackendConfig says where the desk's state lives; "" picks the default.
type BackendConfig struct {
	Roots   []string // workspace roots; at least one
	Socket  string   // the native protocol's socket; review.DefaultSocketPath() if ""
	Journal string   // review.DefaultJournalPath() if ""
	Config  string   // the user config file; review.DefaultConfigPath() if ""
}

// Backend is a running desk with its native socket server: everything of
// diffdesk except the window.
type Backend struct {
	Desk    *review.Desk
	Journal *review.Journal
	Socket  string
	// Interrupted lists the writes a previous desk left unfinished, as
	// Recover settled them; the window tells the person.
	Interrupted []review.Interrupted

	// Doors are the agent front doors, open once Serve is called.
	Doors *review.OpenDoors

	cfg      review.Config
	listener *net.UnixListener
	ctx      context.Context
	cancel   context.CancelFunc
	served   chan error
	serving  bool
	once     sync.Once
	err      error
}

// StartBackend claims the socket (a live desk already on it is an error
// wrapping review.ErrDeskRunning), loads the config, opens the journal and
// settles interrupted writes, and starts the desk. Agents are served once
// Serve is called: after the window has subscribed to the desk, so it sees
// every proposal (a failed one is over as soon as it arrives).
func StartBackend(c BackendConfig) (*Backend, error) {
	var err error
	if len(c.Roots) == 0 {
		return nil, errors.New("diffdesk: no workspace root")
	}
	if c.Socket == "" {
		c.Socket = review.DefaultSocketPath()
	}
	if c.Config == "" {
		if c.Config, err = review.DefaultConfigPath(); err != nil {
			return nil, err
		}
	}
	if c.Journal == "" {
		if c.Journal, err = review.DefaultJournalPath(); err != nil {
			return nil, err
		}
	}
	// The socket first: a second desk must not recover the journal the
	// running one owns.
	l, err := review.Listen(c.Socket)
	if err != nil {
		if errors.Is(err, review.ErrDeskRunning) {
			return nil, fmt.Errorf("a desk is already running on %s (see deskctl status); close it, or start this one with --socket: %w", c.Socket, err)
		}
		return nil, err
	}
	b := &Backend{Socket: c.Socket, served: make(chan error, 1)}
	fail := func(err error) (*Backend, error) {
		l.Close()
		os.Remove(c.Socket)
		if b.Journal != nil {
			b.Journal.Close()
		}
		return nil, err
	}
	cfg, err := review.LoadConfig(c.Config, c.Roots)
	if err != nil {
		return fail(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if b.Journal, err = review.OpenJournal(ctx, c.Journal); err != nil {
		cancel()
		return fail(err)
	}
	if b.Interrupted, err = b.Journal.Recover(ctx); err != nil {
		cancel()
		return fail(err)
	}
	if b.Desk, err = review.NewDesk(review.Options{Roots: c.Roots, Config: cfg, Journal: b.Journal}); err != nil {
		cancel()
		return fail(err)
	}
	b.ctx, b.cancel, b.listener, b.cfg = ctx, cancel, l, cfg
	return b, nil
}

// Serve starts serving the native protocol on the socket, and opens the
// agent front doors the config enables, until Stop. A door that cannot open
// is an error; the socket is served all the same.
func (b *Backend) Serve() error {
	if b.serving {
		return nil
	}
	b.serving = true
	var err error
	b.Doors, err = review.StartDoors(b.ctx, b.Desk, review.DoorOptions{Doors: b.cfg.Doors})
	// The server's goroutine ends when Stop cancels ctx and the requests
	// in flight are answered.
	srv := review.NewServer(b.Desk)
	if b.Doors != nil {
		srv.ShowDoors(b.Doors.Status)
	}
	go func() { b.served <- srv.Serve(b.ctx, b.listener) }()
	return err
}

// DoorStatus reports the open front doors; none before Serve.
func (b *Backend) DoorStatus() []review.DoorStatus {
	if b.Doors == nil {
		return nil
	}
	return b.Doors.Status()
}

// Stop stops serving (requests in flight, writes included, finish first),
// removes the socket and closes the desk and the journal. It is safe to call
// more than once.
func (b *Backend) Stop() error {
	b.once.Do(func() {
		if b.Doors != nil {
			b.err = b.Doors.Close() // withdraws the reviews the doors wait on
		}
		b.cancel()
		if b.serving {
			b.err = errors.Join(b.err, <-b.served)
		} else {
			b.listener.Close()
		}
		os.Remove(b.Socket)
		b.err = errors.Join(b.err, b.Desk.Close(), b.Journal.Close())
	})
	return b.err
}

// InterruptedText describes interrupted writes for the person; "" if none.
func InterruptedText(in []review.Interrupted) string {
	if len(in) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "DiffDesk stopped during %d write(s) last time; the journal settled them:\n", len(in))
	for _, w := range in {
		for _, f := range w.Files {
			what := map[review.WriteState]string{
				review.WriteWritten:     "was written in full",
				review.WriteInterrupted: "kept its old content (the write had not happened)",
				review.WriteConflicted:  "was changed by someone else since; both versions are in the journal",
			}[f.State]
			if what == "" {
				what = string(f.State)
			}
			fmt.Fprintf(&b, "  %s %s (checkpoint %d)\n", f.Path, what, w.Checkpoint)
		}
	}
	return b.String()
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

// Main runs the diffdesk command with args and returns its exit code:
// it starts the backend, opens the one window, and when the window closes
// stops the server (in-flight writes finish) and removes the socket.
func Main(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("diffdesk", flag.ContinueOnError)
	fl.SetOutput(stderr)
	var c BackendConfig
	fl.Var((*stringList)(&c.Roots), "workspace", "a workspace root the desk serves (repeatable; default: the current directory)")
	fl.StringVar(&c.Socket, "socket", review.DefaultSocketPath(), "the socket agents connect to")
	fl.StringVar(&c.Journal, "journal", "", "the journal database (default $XDG_DATA_HOME/diffdesk/journal.db)")
	fl.StringVar(&c.Config, "config", "", "the user config file (default $XDG_CONFIG_HOME/diffdesk/config.toml)")
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fl.NArg() > 0 {
		fmt.Fprintf(stderr, "diffdesk: unexpected argument %q (workspaces are given with --workspace)\n", fl.Arg(0))
		return 2
	}
	if len(c.Roots) == 0 {
		wd, err := os.Getwd()
		if err != nil {
			fmt.Fprintf(stderr, "diffdesk: %v\n", err)
			return 1
		}
		c.Roots = []string{wd}
	}
	if err := CheckDisplay(os.Getenv); err != nil {
		fmt.Fprintf(stderr, "diffdesk: %v\n", err)
		return 1
	}
	b, err := StartBackend(c)
	if err != nil {
		fmt.Fprintf(stderr, "diffdesk: %v\n", err)
		return 1
	}
	if t := InterruptedText(b.Interrupted); t != "" {
		fmt.Fprint(stdout, t)
	}
	fmt.Fprintf(stdout, "diffdesk: listening on %s\nworkspaces: %v\n", b.Socket, b.Desk.Roots())
	a := app.NewWithID(AppID)
	w := NewWindow(a, b.Desk, WindowOptions{Interrupted: b.Interrupted, Socket: b.Socket, Doors: b.DoorStatus, Journal: b.Journal})
	if err := b.Serve(); err != nil {
		fmt.Fprintf(stderr, "diffdesk: %v\n", err)
	}
	for _, d := range b.DoorStatus() {
		fmt.Fprintf(stdout, "door %s: %s (%s)\n  connect: %s\n", d.Name, d.Addr, d.File, d.Connect)
	}
	if w.Selected() == "" {
		w.detail.showEmpty() // now with the doors' connect lines
	}
	// SIGINT and SIGTERM close the window as the person would, so the
	// socket is removed and writes in flight finish. The goroutine ends
	// with the first signal or when the app has quit.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	quit := make(chan struct{})
	defer close(quit)
	go func() {
		select {
		case <-sigs:
			fyne.Do(a.Quit)
		case <-quit:
		}
	}()
	w.Win.ShowAndRun()
	w.Close()
	if err := b.Stop(); err != nil {
		fmt.Fprintf(stderr, "diffdesk: %v\n", err)
		return 1
	}
	return 0
}

// fyneDo is how background goroutines reach the UI in the real app.
func fyneDo(f func()) { fyne.Do(f) }
