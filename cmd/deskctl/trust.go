package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/diffdesk/diffdesk/review/atomicfile"
	"github.com/diffdesk/diffdesk/review/config"
)

var trustCmd = &command{
	name:  "trust",
	usage: "[PATH] [flags] | --list [--json] | --revoke PATH",
	short: "trust a repository's .diffdesk.toml, so its formatters and rules apply",
	long: `Show the commands and rules a workspace's .diffdesk.toml holds and trust them. A repository's
config may run programs (formatters) and approve edits without you (auto_approve rules); the desk
keeps them off until you trust that exact content. Changing one byte of the file makes it
untrusted again. Protected paths and a lower file-size limit apply without trust.

PATH is the workspace root or its .diffdesk.toml (default: the current directory). On a
terminal trust asks before recording; a script passes --yes. Trust is kept in trusted.json beside
the user config (0600). A running desk applies it at its next start; the window asks by itself.`,
	flags: func(fl *flag.FlagSet) runFunc {
		userConfig := fl.String("config", "", "the user config `FILE`; the trust store is trusted.json beside it (default $XDG_CONFIG_HOME/diffdesk/config.toml)")
		list := fl.Bool("list", false, "list the trusted files, and whether each still has the trusted content")
		asJSON := fl.Bool("json", false, "with --list: print the list as JSON")
		revoke := fl.Bool("revoke", false, "forget the trust in PATH's file: its rules are off from the next start")
		yes := fl.Bool("yes", false, "trust without asking (for scripts)")
		return func(ctx context.Context, x *invocation) int {
			return runTrust(x, trustOptions{config: *userConfig, list: *list, revoke: *revoke, yes: *yes, json: *asJSON})
		}
	},
}

// trustOptions are deskctl trust's flags.
type trustOptions struct {
	config            string
	list, revoke, yes bool
	json              bool
}

// isTerminal reports whether r is a terminal a person answers at.
var isTerminal = func(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// runTrust implements deskctl trust.
func runTrust(x *invocation, o trustOptions) int {
	switch {
	case o.list && (o.revoke || o.yes || len(x.args) > 0):
		return x.usageError("--list takes no PATH, --revoke or --yes")
	case o.json && !o.list:
		return x.usageError("--json goes with --list")
	case o.revoke && len(x.args) != 1:
		return x.usageError("--revoke wants the PATH of one workspace")
	case len(x.args) > 1:
		return x.usageError("want one PATH, got %d", len(x.args))
	}
	if o.config == "" {
		var err error
		if o.config, err = config.DefaultPath(); err != nil {
			return x.fail(err)
		}
	}
	store, err := config.ReadTrust(config.TrustPath(o.config))
	if err != nil {
		return x.fail(err)
	}
	path := "."
	if len(x.args) == 1 {
		path = x.args[0]
	}
	switch {
	case o.list && o.json:
		listTrustJSON(x.stdout, store)
		return 0
	case o.list:
		listTrust(x.stdout, store)
		return 0
	case o.revoke:
		return revokeTrust(x, store, path)
	}
	return trustFile(x, store, o, path)
}

// trustRoot is the workspace root PATH names: the directory, or the
// directory of a .diffdesk.toml.
func trustRoot(path string) (string, error) {
	if filepath.Base(path) == config.FileName {
		if fi, err := os.Stat(path); err == nil && !fi.IsDir() {
			path = filepath.Dir(path)
		}
	}
	return config.ResolveRoot(path)
}

// trustFile shows PATH's rules, asks (or takes --yes) and records trust.
func trustFile(x *invocation, store *config.TrustStore, o trustOptions, path string) int {
	root, err := trustRoot(path)
	if err != nil {
		return x.fail(err)
	}
	cfg, err := config.LoadTrusting(o.config, []string{root}, store.Trusts)
	if err != nil {
		return x.fail(err)
	}
	if len(cfg.WorkspaceFiles) == 0 {
		return x.fail(fmt.Errorf("%s has no %s: nothing to trust", root, config.FileName))
	}
	f := cfg.WorkspaceFiles[0]
	if !f.NeedsTrust() {
		fmt.Fprintf(x.stdout, "%s holds only protections (and limits no higher than yours), which apply without trust: nothing to trust.\n", f.File)
		return 0
	}
	if f.Trusted {
		rec, _ := store.Record(root)
		fmt.Fprintf(x.stdout, "%s is trusted, in this content, since %s:\n", f.File, rec.Trusted.Local().Format(time.DateTime))
		writeRules(x.stdout, f.Rules())
		return 0
	}
	fmt.Fprintf(x.stdout, "%s (sha256 %s) turns on, once trusted:\n", f.File, f.SHA256)
	writeRules(x.stdout, f.Rules())
	if !o.yes {
		if !isTerminal(x.stdin) {
			return x.fail(errors.New("not trusted: run it on a terminal to be asked, or pass --yes"))
		}
		fmt.Fprint(x.stdout, "Trust this exact content? [y/N] ")
		answer, _ := bufio.NewReader(x.stdin).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
			fmt.Fprintln(x.stdout, "Not trusted; its rules stay off.")
			return 1
		}
	}
	if err := config.UpdateTrust(store.Path, func(s *config.TrustStore) error {
		s.Add(f, time.Now())
		return nil
	}); err != nil {
		return x.fail(err)
	}
	fmt.Fprintf(x.stdout, "Trusted %s (in %s). A running desk applies it when it next starts; any change to the file needs trust again.\n", f.File, store.Path)
	return 0
}

// writeRules writes one rule a line, indented.
func writeRules(w io.Writer, rules []string) {
	for _, r := range rules {
		fmt.Fprintf(w, "  %s\n", r)
	}
}

// listTrust writes every record and whether the file on disk still has the
// trusted content.
func listTrust(w io.Writer, store *config.TrustStore) {
	if len(store.Records) == 0 {
		fmt.Fprintf(w, "No repository config is trusted (%s).\n", store.Path)
		return
	}
	for _, r := range store.Records {
		_, state := trustState(r)
		fmt.Fprintf(w, "%s (sha256 %s), trusted %s; %s\n", r.File, r.SHA256, r.Trusted.Local().Format(time.DateTime), state)
		writeRules(w, r.Rules)
	}
}

// trustState says whether r's file still has the trusted content: a word
// ("matches", "changed", "gone", "unreadable") and a sentence.
func trustState(r config.TrustRecord) (string, string) {
	switch data, err := os.ReadFile(r.File); {
	case errors.Is(err, os.ErrNotExist):
		return "gone", "the file is gone"
	case err != nil:
		return "unreadable", "the file cannot be read: " + err.Error()
	case atomicfile.Hash(data) != r.SHA256:
		return "changed", "the file has changed since: untrusted until trusted again"
	}
	return "matches", "the file has this content"
}

// listTrustJSON writes the records as JSON: the trust store's own fields
// and "state", whether the file still has the trusted content.
func listTrustJSON(w io.Writer, store *config.TrustStore) {
	type record struct {
		config.TrustRecord
		State string `json:"state"` // matches, changed, gone, unreadable
	}
	out := []record{}
	for _, r := range store.Records {
		state, _ := trustState(r)
		out = append(out, record{r, state})
	}
	writeJSON(w, out)
}

// revokeTrust forgets the trust in PATH's file.
func revokeTrust(x *invocation, store *config.TrustStore, path string) int {
	root, err := trustRoot(path)
	if err != nil {
		// A workspace that is gone may still be revoked by its path.
		if root, err = filepath.Abs(path); err != nil {
			return x.fail(err)
		}
	}
	if err := config.UpdateTrust(store.Path, func(s *config.TrustStore) error {
		if !s.Revoke(root) {
			return fmt.Errorf("no trust is recorded for %s (see deskctl trust --list)", root)
		}
		return nil
	}); err != nil {
		return x.fail(err)
	}
	fmt.Fprintf(x.stdout, "Revoked the trust in %s; its rules are off from the desk's next start.\n", filepath.Join(root, config.FileName))
	return 0
}
