package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/hub"
	"github.com/diffdesk/diffdesk/review/hub/hubserver"
)

var hubCmd = &command{
	name:  "hub",
	usage: "COMMAND [flags] [arguments]",
	short: "a team queue on NATS JetStream: run a hub, issue its users, review every desk on it",
	long: `A team queue: desks started with 'deskctl serve --hub URL' publish their queues to a hub, and
reviewers anywhere decide; the desk that holds the files stays the only writer and the only judge
of staleness, and the first decision of a round wins (exactly one write). The hub is an embedded
nats-server with JetStream; its users are NATS NKeys with per-user permissions: a desk publishes
only its own proposals and never decides, a reviewer decides and publishes nothing else.
Off this machine the hub and its clients speak TLS only. docs/security.md says what the hub
trusts.`,
	subs: []*command{hubInitCmd, hubAddCmd, hubServeCmd, hubConfigCmd, hubReviewCmd},
}

var hubDirFlag = func(fl *flag.FlagSet) *string {
	return fl.String("dir", "", "the hub `DIR`ectory (users.json, creds/, jetstream/; mode 0700)")
}

var hubInitCmd = &command{
	name:  "init",
	usage: "--dir DIR",
	short: "make a hub directory (users file, route secret)",
	flags: func(fl *flag.FlagSet) runFunc {
		dir := hubDirFlag(fl)
		return func(ctx context.Context, x *invocation) int {
			if *dir == "" {
				return x.usageError("--dir is required")
			}
			if err := hubserver.Init(*dir); err != nil {
				return x.fail(err)
			}
			fmt.Fprintf(x.stdout, "hub directory %s ready; add desks and reviewers with deskctl hub add\n", *dir)
			return 0
		}
	},
}

var hubAddCmd = &command{
	name:  "add",
	usage: "--dir DIR --role desk|reviewer NAME",
	short: "issue a desk's or a reviewer's credentials (an NKey seed file)",
	long: `Issue a user of the hub: a fresh NKey whose public key joins the users file, and whose seed is
written (0600) to DIR/creds/NAME.nk. Give the seed file to that desk or reviewer only, over a
channel you trust; restart the hub to let it in. A desk named NAME publishes only under its own
name; a reviewer decides.`,
	flags: func(fl *flag.FlagSet) runFunc {
		dir := hubDirFlag(fl)
		role := fl.String("role", "", "`desk` or `reviewer`")
		return func(ctx context.Context, x *invocation) int {
			if *dir == "" || len(x.args) != 1 {
				return x.usageError("give --dir and one NAME")
			}
			seed, err := hubserver.AddUser(*dir, x.args[0], *role)
			if err != nil {
				return x.fail(err)
			}
			fmt.Fprintf(x.stdout, "%s %s: credentials in %s (restart the hub to let it in)\n", *role, x.args[0], seed)
			return 0
		}
	},
}

// hubServerFlags are the flags of a hub server (serve, config).
func hubServerFlags(fl *flag.FlagSet) func() (hubserver.Options, error) {
	var o hubserver.Options
	fl.StringVar(&o.Dir, "dir", "", "the hub `DIR`ectory")
	listen := fl.String("listen", "127.0.0.1:4222", "client `HOST:PORT`; off loopback needs --tls-cert and --tls-key")
	fl.StringVar(&o.TLSCert, "tls-cert", "", "the server's certificate `FILE` (PEM)")
	fl.StringVar(&o.TLSKey, "tls-key", "", "the server's private key `FILE` (PEM)")
	fl.StringVar(&o.TLSCA, "tls-ca", "", "the CA `FILE` verifying the other servers of a cluster off loopback")
	fl.StringVar(&o.ServerName, "name", "", "this server's `NAME` in its cluster")
	fl.StringVar(&o.StoreDir, "store", "", "where JetStream keeps the messages: a `DIR` of this server's own (default DIR/jetstream)")
	fl.StringVar(&o.Cluster.Name, "cluster", "", "join the cluster `NAME` (three servers replicate every message)")
	clusterListen := fl.String("cluster-listen", "127.0.0.1:6222", "the cluster's route `HOST:PORT`")
	var routes stringList
	fl.Var(&routes, "route", "another server's route `HOST:PORT` (repeatable)")
	return func() (hubserver.Options, error) {
		if o.Dir == "" {
			return o, fmt.Errorf("--dir is required")
		}
		var err error
		if o.Host, o.Port, err = hostPort(*listen); err != nil {
			return o, err
		}
		if o.Cluster.Name != "" {
			if o.Cluster.Host, o.Cluster.Port, err = hostPort(*clusterListen); err != nil {
				return o, err
			}
			o.Cluster.Routes = routes
		}
		return o, nil
	}
}

func hostPort(s string) (string, int, error) {
	h, p, err := net.SplitHostPort(s)
	if err != nil {
		return "", 0, fmt.Errorf("%q is not HOST:PORT", s)
	}
	n, err := strconv.Atoi(p)
	if err != nil || n < 0 || n > 65535 {
		return "", 0, fmt.Errorf("%q: the port is not a number from 0 to 65535", s)
	}
	return h, n, nil
}

var hubServeCmd = &command{
	name:  "serve",
	usage: "--dir DIR [flags]",
	short: "run the hub: an embedded nats-server with JetStream, until interrupted",
	flags: func(fl *flag.FlagSet) runFunc {
		opts := hubServerFlags(fl)
		return func(ctx context.Context, x *invocation) int {
			o, err := opts()
			if err != nil {
				return x.usageError("%v", err)
			}
			o.Log = true
			h, err := hubserver.Start(o)
			if err != nil {
				return x.fail(err)
			}
			fmt.Fprintf(x.stdout, "hub: serving on %s (stream %s, decisions %s)\n", h.ClientURL(), hub.Stream, hub.Bucket)
			ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
			defer stop()
			<-ctx.Done()
			h.Shutdown()
			return 0
		}
	},
}

var hubConfigCmd = &command{
	name:  "config",
	usage: "--dir DIR [flags]",
	short: "print the hub's nats-server configuration, to run the hub as plain NATS",
	long: `Print the nats-server configuration 'deskctl hub serve' runs with the same flags: the account,
each user's NKey and permissions, JetStream, TLS and the cluster. Run it with a plain nats-server,
then create the stream and bucket once with an administrator's connection (hub.Provision).`,
	flags: func(fl *flag.FlagSet) runFunc {
		opts := hubServerFlags(fl)
		return func(ctx context.Context, x *invocation) int {
			o, err := opts()
			if err != nil {
				return x.usageError("%v", err)
			}
			u, err := hubserver.LoadUsers(o.Dir)
			if err != nil {
				return x.fail(err)
			}
			conf, err := hubserver.Config(o, u, "")
			if err != nil {
				return x.fail(err)
			}
			fmt.Fprint(x.stdout, conf)
			return 0
		}
	},
}

// hubClientFlags are how a client reaches the hub: --hub, --hub-creds,
// --hub-name, --hub-ca.
type hubClientFlags struct {
	url, creds, name, ca string
}

func (h *hubClientFlags) add(fl *flag.FlagSet, whose string) {
	fl.StringVar(&h.url, "hub", "", "the hub `URL`s: nats://127.0.0.1:4222 on this machine, tls://HOST:PORT off it (comma-separated for a cluster)")
	fl.StringVar(&h.creds, "hub-creds", "", "the `FILE` with "+whose+"'s NKey seed, from deskctl hub add")
	fl.StringVar(&h.name, "hub-name", "", "the `NAME` the credentials were issued for (default: the seed file's name without .nk)")
	fl.StringVar(&h.ca, "hub-ca", "", "the CA `FILE` that signed the hub's certificate (default: the system's roots)")
}

func (h *hubClientFlags) options() hub.DialOptions {
	name := h.name
	if name == "" {
		base := h.creds[strings.LastIndex(h.creds, "/")+1:]
		name = strings.TrimSuffix(base, ".nk")
	}
	return hub.DialOptions{URL: h.url, Creds: hub.Credentials{Name: name, Seed: h.creds}, CA: h.ca}
}

var hubReviewCmd = &command{
	name:  "review",
	usage: "list|show DESK/ID|decide DESK/ID approve|reject --hub URL --hub-creds FILE",
	short: "as a reviewer: list every desk's queue on the hub, show a proposal's diff, decide it",
	long: `As a reviewer of the hub: 'list' the proposals waiting on it (every desk's), with their desk,
files and changes; 'show DESK/ID' prints one's diff (its texts checked against their SHA-256);
'decide DESK/ID approve|reject [--feedback TEXT] [--version V]' decides it. ID is the hub id as
listed (a unique prefix will do). show prints the version of the texts it shows: decide --version V
decides only that version, and sends nothing if the proposal's texts have changed since (a file
changed on disk). The first decision of a round wins; decide says whether it was yours, and then
what the desk did.`,
	flags: func(fl *flag.FlagSet) runFunc {
		var c hubClientFlags
		c.add(fl, "the reviewer")
		feedback := fl.String("feedback", "", "the reason or note the agent reads")
		version := fl.String("version", "", "decide only this version of the proposal's texts (as show prints it)")
		all := fl.Bool("all", false, "list decided proposals too")
		return func(ctx context.Context, x *invocation) int {
			if len(x.args) == 0 {
				x.args = []string{"list"}
			}
			switch {
			case x.args[0] == "list" && len(x.args) == 1:
			case x.args[0] == "show" && len(x.args) == 2:
			case x.args[0] == "decide" && len(x.args) == 3:
			default:
				return x.usageError("say list, show DESK/ID, or decide DESK/ID approve|reject")
			}
			o := c.options()
			nc, err := hub.Dial(o)
			if err != nil {
				return x.fail(err)
			}
			defer nc.Close()
			ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
			defer cancel()
			r, err := hub.NewReviewer(ctx, nc, o.Creds.Name+"@"+hostname())
			if err != nil {
				return x.fail(err)
			}
			q, err := r.Queue(ctx, func(subj string, err error) { fmt.Fprintf(x.stderr, "skipped %s: %v\n", subj, err) })
			if err != nil {
				return x.fail(err)
			}
			switch x.args[0] {
			case "list":
				printHubQueue(x, q, *all)
				return 0
			case "show":
				return hubShow(ctx, x, r, q, x.args[1])
			}
			return hubDecide(ctx, x, r, q, x.args[1], x.args[2], *feedback, *version)
		}
	},
}

func hostname() string {
	h, err := os.Hostname()
	if err != nil {
		return "unknown-host"
	}
	return h
}

func printHubQueue(x *invocation, q []hub.Item, all bool) {
	n := 0
	for _, it := range q {
		if !it.Open() && !all {
			continue
		}
		n++
		state := "waiting"
		if it.Outcome != nil {
			state = review.Printable(it.Outcome.Status)
			if it.Outcome.By != "" {
				state += " by " + review.Printable(it.Outcome.By)
			}
		}
		if it.Proposal == nil {
			fmt.Fprintf(x.stdout, "%s/%s  %s\n", review.Printable(it.Desk), review.Printable(it.Hub), state)
			continue
		}
		p := it.Proposal
		fmt.Fprintf(x.stdout, "%s/%s  %s  %s  round %d  agent %s\n", review.Printable(p.Desk), review.Printable(p.Hub), review.Printable(p.State), state, p.Round, review.Printable(p.Agent))
		for _, f := range p.Files {
			fmt.Fprintf(x.stdout, "    %s  +%d −%d  (%s)\n", review.Printable(f.Rel), f.Added, f.Removed, review.Printable(f.Root))
		}
		if p.Note != "" {
			fmt.Fprintf(x.stdout, "    note: %s\n", review.Printable(p.Note))
		}
	}
	if n == 0 {
		fmt.Fprintln(x.stdout, "nothing waiting on the hub")
	}
}

// findHub is the one waiting proposal which (DESK/ID, ID a prefix) names.
func findHub(q []hub.Item, which string) (hub.Proposal, error) {
	desk, id, ok := strings.Cut(which, "/")
	if !ok || id == "" {
		return hub.Proposal{}, fmt.Errorf("%q: name a proposal as DESK/ID, as deskctl hub review list shows it", which)
	}
	var found []hub.Proposal
	for _, it := range q {
		if it.Open() && it.Desk == desk && strings.HasPrefix(it.Hub, id) {
			found = append(found, *it.Proposal)
		}
	}
	switch len(found) {
	case 0:
		return hub.Proposal{}, fmt.Errorf("no proposal %s waits on the hub (decided, withdrawn, or never there): see deskctl hub review list --all", which)
	case 1:
		return found[0], nil
	}
	return hub.Proposal{}, fmt.Errorf("%s names %d proposals: give more of the id", which, len(found))
}

// hubShow prints a waiting proposal's files as unified diffs (and, for a
// stale file, the disk's change since the base).
func hubShow(ctx context.Context, x *invocation, r *hub.Reviewer, q []hub.Item, which string) int {
	p, err := findHub(q, which)
	if err != nil {
		return x.fail(err)
	}
	fmt.Fprintf(x.stdout, "%s/%s  %s  round %d  version %s  agent %s\n", review.Printable(p.Desk), review.Printable(p.Hub), review.Printable(p.State), p.Round, p.Version, review.Printable(p.Agent))
	if p.Note != "" {
		fmt.Fprintf(x.stdout, "note: %s\n", review.Printable(p.Note))
	}
	for i, f := range p.Files {
		base, err := r.Text(ctx, p, i, hub.TextBase)
		if err != nil {
			return x.fail(err)
		}
		proposed, err := r.Text(ctx, p, i, hub.TextProposed)
		if err != nil {
			return x.fail(err)
		}
		if f.Protected != "" {
			fmt.Fprintf(x.stdout, "protected: %s\n", review.Printable(f.Protected))
		}
		// The agent's text, escaped: a terminal control in it could hide
		// lines of the version decide --version approves.
		fmt.Fprint(x.stdout, review.PrintableText(engine.Unified("a/"+f.Rel, "b/"+f.Rel, base, proposed, 3)))
		if f.Disk != nil {
			disk, err := r.Text(ctx, p, i, hub.TextDisk)
			if err != nil {
				return x.fail(err)
			}
			fmt.Fprintf(x.stdout, "stale: %s changed on disk since the proposal came:\n", review.Printable(f.Rel))
			fmt.Fprint(x.stdout, review.PrintableText(engine.Unified("base/"+f.Rel, "disk/"+f.Rel, base, disk, 3)))
		}
	}
	return 0
}

func hubDecide(ctx context.Context, x *invocation, r *hub.Reviewer, q []hub.Item, which, verdict, feedback, version string) int {
	p, err := findHub(q, which)
	if err != nil {
		return x.fail(err)
	}
	if version != "" && version != p.Version {
		return x.fail(fmt.Errorf("%s/%s changed since you saw version %s (a file changed on disk): it is version %s now; nothing was sent — show it again and decide", review.Printable(p.Desk), review.Printable(p.Hub), review.Printable(version), p.Version))
	}
	res, err := r.Decide(ctx, p, hub.Decision{Verdict: verdict, Feedback: feedback})
	if err != nil {
		return x.fail(err)
	}
	if !res.Won {
		fmt.Fprintf(x.stdout, "%s/%s was decided first by %s (%s); yours was not taken\n", review.Printable(p.Desk), review.Printable(p.Hub), review.Printable(res.Winner.By), review.Printable(res.Winner.Verdict))
	}
	o, next, err := r.Await(ctx, p)
	if err != nil {
		return x.fail(fmt.Errorf("waiting for desk %s to carry out the decision: %w", review.Printable(p.Desk), err))
	}
	if next != nil {
		fmt.Fprintf(x.stdout, "desk %s did not carry out the decision: %s; see it again with deskctl hub review list\n", review.Printable(p.Desk), review.Printable(next.Note))
		return 1
	}
	mine := o.Nonce != "" && o.Nonce == res.Winner.Nonce && res.Won
	fmt.Fprintf(x.stdout, "desk %s: %s", review.Printable(p.Desk), review.Printable(o.Status))
	if o.By != "" {
		fmt.Fprintf(x.stdout, " by %s", review.Printable(o.By))
	}
	if mine {
		fmt.Fprint(x.stdout, " (your decision)")
	}
	fmt.Fprintln(x.stdout)
	for _, f := range o.Files {
		if f.Written {
			fmt.Fprintf(x.stdout, "    wrote %s\n", review.Printable(f.Path))
		}
	}
	if res.Won && !mine {
		return 1
	}
	return 0
}
