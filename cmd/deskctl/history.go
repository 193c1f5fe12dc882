package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/diffdesk/diffdesk/review/journal"
)

const historyUsage = `deskctl history — browse, compare and restore checkpoints

Usage:
  deskctl history list [--agent A] [--session S] [--file GLOB] [--since T] [--until T]
                       [--decision D] [--limit N] [--page CURSOR] [--json]
        the timeline, newest first: every write, restore and decision
        D: approved | approved-edited | partial | rejected | withdrawn | failed | stale | restore
        T: RFC 3339 (2026-11-22T09:00:00Z), a date (2026-11-22), or an age (2h, 3d, 1w)
        GLOB: a path or pattern, relative to the current directory; * crosses directories
  deskctl history show ID [--json]
        one entry: who, when, the decision and reason, the files, the person's edits
        and the formatter's changes
  deskctl history diff ID [ID2 | --disk] [--file PATH]
        what checkpoint ID changed; or the files between two checkpoints; or a
        checkpoint against the files on disk now (unified diffs)
  deskctl history restore ID [--file PATH]... [--to before|after] [--force] [--apply] [--diff] [--json]
        return the files of checkpoint ID to their content before it (undo; the
        default) or right after it; a dry run unless --apply. Files changed since the
        journal last saw them are refused unless --force (their content is kept in the
        journal). A restore is a checkpoint too: restore it to undo it.
  deskctl history prune [--older-than AGE] [--max-size SIZE] [--dry-run] [--json]
        drop history older than AGE, or the oldest until the journal holds SIZE
        (e.g. 2GB, 500MiB); content still referenced is never lost

ID is a checkpoint number (as outcomes report it) or dN for a decision that wrote
nothing. Every command takes --journal PATH (default $XDG_DATA_HOME/diffdesk/journal.db).
`

// runHistory implements `deskctl history SUBCOMMAND …`. It exits 0 on
// success, 1 on an error (named on stderr), 2 on a usage error.
func runHistory(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, historyUsage)
		return 2
	}
	sub := map[string]func(context.Context, []string, io.Writer, io.Writer) int{
		"list": historyList, "show": historyShow, "diff": historyDiff,
		"restore": historyRestore, "prune": historyPrune,
	}[args[0]]
	switch {
	case args[0] == "help" || args[0] == "-h" || args[0] == "--help":
		fmt.Fprint(stdout, historyUsage)
		return 0
	case sub == nil:
		fmt.Fprintf(stderr, "deskctl history: unknown subcommand %q\n\n%s", args[0], historyUsage)
		return 2
	}
	return sub(context.Background(), args[1:], stdout, stderr)
}

// historyFlags is a flag set with --journal.
func historyFlags(name string, stderr io.Writer) (*flag.FlagSet, *string) {
	fl := flag.NewFlagSet("deskctl history "+name, flag.ContinueOnError)
	fl.SetOutput(stderr)
	return fl, fl.String("journal", "", "the journal database (default $XDG_DATA_HOME/diffdesk/journal.db)")
}

// openHistoryJournal opens an existing journal: path, or the default.
func openHistoryJournal(ctx context.Context, path string) (*journal.Journal, error) {
	if path == "" {
		var err error
		if path, err = journal.DefaultPath(); err != nil {
			return nil, err
		}
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("journal %s: %w", path, err)
	}
	if _, err := os.Stat(abs); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("no journal at %s: no desk has recorded anything there yet; pass --journal PATH to use another", abs)
	}
	return journal.Open(ctx, abs)
}

// historyFail prints err for command name and returns exit code 1.
func historyFail(stderr io.Writer, name string, err error) int {
	fmt.Fprintf(stderr, "deskctl history %s: %v\n", name, err)
	return 1
}

// parseSince reads a --since/--until value: RFC 3339, a date (local
// midnight), or an age before now.
func parseSince(s string, now time.Time) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if t, err := time.ParseInLocation("2006-01-02", s, time.Local); err == nil {
		return t, nil
	}
	if d, err := journal.ParseAge(s); err == nil {
		return now.Add(-d), nil
	}
	return time.Time{}, fmt.Errorf("time %q: want RFC 3339 (2026-11-22T09:00:00Z), a date (2026-11-22) or an age (2h, 3d, 1w)", s)
}

// absPaths makes each path absolute against the current directory.
func absPaths(paths []string) ([]string, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	out := make([]string, len(paths))
	for i, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, fmt.Errorf("path %s: %w", p, err)
		}
		out[i] = abs
	}
	return out, nil
}

// shownPath is path relative to the current directory when it is inside
// it, else absolute.
func shownPath(path string) string {
	wd, err := os.Getwd()
	if err != nil {
		return path
	}
	if rel, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return path
}
