// Package startup is the one way a desk starts, for the window (diffdesk)
// and the headless desk (deskctl serve) alike: claim the socket, load the
// config (a workspace's .diffdesk.toml rules only as far as the trust store
// beside the user config trusts it), open the journal, settle writes a
// crash interrupted, start the desk; then open the agent doors and serve
// the native protocol. Trust turns a file's rules on while the desk runs.
//
// The socket comes first. A second desk started on the socket of a live
// one stops there, before it reads the config or touches the journal the
// live desk owns (recovering that journal would settle the live desk's
// writes in flight as if it had crashed).
package startup

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/config"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/deskrpc"
	"github.com/diffdesk/diffdesk/review/ide"
	"github.com/diffdesk/diffdesk/review/journal"
)

// Options says where a desk's state lives and who decides; "" picks the
// default.
type Options struct {
	Roots   []string // workspace roots; none means the current directory
	Socket  string   // the native protocol's socket; deskrpc.DefaultSocketPath() if ""
	Journal string   // journal.DefaultPath() if ""
	Config  string   // the user config file; config.DefaultPath() if ""
	// Unattended, when not empty, decides without a person
	// (review.Options.Unattended).
	Unattended decision.Verdict
	// Doors overrides where the IDE doors write their lock and discovery
	// files (tests); the config says which doors open.
	Doors ide.Options
}

// AddFlags defines on fs the flags every desk takes — --workspace
// (repeatable), --socket, --journal, --config — filling c.
func (c *Options) AddFlags(fs *flag.FlagSet) {
	fs.Var((*rootList)(&c.Roots), "workspace", "a workspace root `DIR` the desk serves (repeatable; default: the current directory)")
	fs.StringVar(&c.Socket, "socket", deskrpc.DefaultSocketPath(), "the socket `PATH` agents connect to")
	fs.StringVar(&c.Journal, "journal", "", "the journal database `FILE` (default $XDG_DATA_HOME/diffdesk/journal.db)")
	fs.StringVar(&c.Config, "config", "", "the user config `FILE` (default $XDG_CONFIG_HOME/diffdesk/config.toml)")
}

// rootList is the repeatable --workspace flag.
type rootList []string

func (l *rootList) String() string     { return strings.Join(*l, ",") }
func (l *rootList) Set(v string) error { *l = append(*l, v); return nil }

// Backend is a started desk: the desk, its journal and its socket, and
// once Serve is called the doors and the protocol server.
type Backend struct {
	Desk    *review.Desk
	Journal *journal.Journal
	Socket  string // the socket's path
	// Unattended is who decides (Options.Unattended).
	Unattended decision.Verdict
	// Interrupted lists the writes a previous desk left unfinished, as
	// Recover settled them.
	Interrupted []journal.Interrupted

	mu       sync.Mutex    // guards cfg and seen
	cfg      config.Config // the config in force; Trust turns more on, Reload reads it again
	seen     string        // the config files' content when last read (fingerprint)
	userFile string        // the user config file; the trust store is beside it
	roots    []string      // the workspace roots as given, for Reload
	// resolvedRoots are the roots absolute and symlink-resolved, where
	// their .diffdesk.toml files are.
	resolvedRoots  []string
	startRetention journal.RetentionPolicy // [history] as the desk started

	doors    *ide.Doors
	doorOpts ide.Options
	listener *net.UnixListener
	ctx      context.Context
	cancel   context.CancelFunc
	served   chan error
	serving  bool
	once     sync.Once
	err      error
}

// Start claims the socket (a live desk already on it is an error wrapping
// deskrpc.ErrDeskRunning, and nothing else is touched), loads the config,
// opens the journal, settles interrupted writes and starts the desk.
// Agents are served once Serve is called, so a window can subscribe to the
// desk first and see every proposal.
func Start(c Options) (*Backend, error) {
	var err error
	if len(c.Roots) == 0 {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		c.Roots = []string{wd}
	}
	if c.Socket == "" {
		c.Socket = deskrpc.DefaultSocketPath()
	}
	if c.Config == "" {
		if c.Config, err = config.DefaultPath(); err != nil {
			return nil, err
		}
	}
	if c.Journal == "" {
		if c.Journal, err = journal.DefaultPath(); err != nil {
			return nil, err
		}
	}
	l, err := deskrpc.Listen(c.Socket)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	b := &Backend{Socket: c.Socket, Unattended: c.Unattended, doorOpts: c.Doors, listener: l,
		ctx: ctx, cancel: cancel, served: make(chan error, 1)}
	fail := func(err error) (*Backend, error) {
		cancel()
		l.Close()
		os.Remove(c.Socket)
		if b.Journal != nil {
			b.Journal.Close()
		}
		return nil, err
	}
	b.userFile, b.roots = c.Config, c.Roots
	for _, r := range c.Roots {
		abs, err := config.ResolveRoot(r)
		if err != nil {
			return fail(err)
		}
		b.resolvedRoots = append(b.resolvedRoots, abs)
	}
	if b.cfg, err = b.load(); err != nil {
		return fail(err)
	}
	b.doorOpts.Doors, b.startRetention = b.cfg.Doors, b.cfg.Retention
	if b.Journal, err = journal.Open(ctx, c.Journal); err != nil {
		return fail(err)
	}
	if b.Interrupted, err = b.Journal.Recover(ctx); err != nil {
		return fail(err)
	}
	// The desk's own files are protected whatever the workspace: a home
	// directory as workspace holds the user config, and --config may
	// point into one (an approved edit adding a formatter ran its command
	// on the next approval).
	own := []string{c.Config, config.TrustPath(c.Config), c.Socket, filepath.Join(filepath.Dir(c.Socket), "hook-reports")}
	if def, err := config.DefaultPath(); err == nil {
		own = append(own, def, config.TrustPath(def))
	}
	b.Desk, err = review.NewDesk(review.Options{FailureText: agenttext.Failure, Roots: c.Roots, Config: b.cfg, Journal: b.Journal, Unattended: c.Unattended, Own: own})
	if err != nil {
		return fail(err)
	}
	return b, nil
}

// Serve opens the agent doors the config enables and serves the native
// protocol on the socket, until Stop. A door that cannot open is an
// error, and DoorStatus lists it with the reason; the socket and the
// other doors are served all the same.
func (b *Backend) Serve() error {
	if b.serving {
		return nil
	}
	b.serving = true
	var err error
	b.doors, err = ide.Start(b.ctx, b.Desk, b.doorOpts)
	srv := deskrpc.NewServer(b.Desk)
	srv.ShowDoors(b.DoorStatus)
	srv.ShowTrust(b)
	// The server's goroutine ends when Stop cancels ctx and the requests
	// in flight are answered.
	go func() { b.served <- srv.Serve(b.ctx, b.listener) }()
	return err
}

// DoorStatus reports the open front doors; none before Serve.
func (b *Backend) DoorStatus() []review.DoorStatus {
	if b.doors == nil {
		return nil
	}
	return b.doors.Status()
}

// Stop closes the doors (withdrawing the reviews they wait on), stops
// serving (requests in flight, writes included, finish first), removes the
// socket and closes the desk and the journal. It is safe to call more than
// once.
func (b *Backend) Stop() error {
	b.once.Do(func() {
		if b.doors != nil {
			b.err = b.doors.Close()
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

// Summary is what a desk prints when it starts: the writes it settled,
// where it listens, its workspaces and journal, who decides (a person, and
// the auto_approve rules in force), the checkers in force, the repository
// rules that are off until trusted, and (after Serve) its doors and how
// agents connect.
func (b *Backend) Summary() string {
	var s strings.Builder
	s.WriteString(InterruptedText(b.Interrupted))
	cfg := b.Config()
	decides := "a person decides"
	if len(cfg.AutoApproveRules) > 0 {
		decides += ", except on edits these auto_approve rules approve: " + ruleOrigins(cfg.AutoApproveRules)
	}
	switch b.Unattended {
	case decision.Approved:
		decides = "no person: edits a rule may approve are approved, the rest rejected"
	case decision.Rejected:
		decides = "no person: every edit is rejected"
	}
	fmt.Fprintf(&s, "diffdesk: listening on %s\nworkspaces: %v\njournal: %s\ndecisions: %s\n",
		b.Socket, b.Desk.Roots(), b.Journal.Path(), decides)
	s.WriteString(checkersText(cfg))
	s.WriteString(trustText(cfg, b.userFile))
	for _, d := range b.DoorStatus() {
		if d.Error != "" {
			fmt.Fprintf(&s, "door %s: not open: %s\n", d.Name, d.Error)
			continue
		}
		fmt.Fprintf(&s, "door %s: %s (%s)\n  connect: %s\n", d.Name, d.Addr, d.File, d.Connect)
	}
	return s.String()
}

// checkersText lists the checkers in force, each with its files and
// exact command; "" if none.
func checkersText(c config.Config) string {
	var s strings.Builder
	for _, k := range c.Checkers {
		fmt.Fprintf(&s, "  %q (%s): on files matching %q runs %q\n", k.Name, k.Origin, k.Glob, k.Command)
	}
	if s.Len() == 0 {
		return ""
	}
	return "checkers (run on each proposal while you review it):\n" + s.String()
}

// InterruptedText describes interrupted writes for the person; "" if none.
func InterruptedText(in []journal.Interrupted) string {
	if len(in) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "DiffDesk stopped during %d write(s) last time; the journal settled them:\n", len(in))
	for _, w := range in {
		for _, f := range w.Files {
			what := map[journal.WriteState]string{
				journal.WriteWritten:     "was written in full",
				journal.WriteInterrupted: "kept its old content (the write had not happened)",
				journal.WriteConflicted:  "was changed by someone else since; both versions are in the journal",
			}[f.State]
			if what == "" {
				what = string(f.State)
			}
			fmt.Fprintf(&b, "  %s %s (checkpoint %d)\n", f.Path, what, w.Checkpoint)
		}
	}
	return b.String()
}
