package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/journal"
)

var historyCmd = &command{
	name:  "history",
	usage: "COMMAND [flags] [arguments]",
	short: "browse, compare and restore checkpoints; prune the journal",
	long: `Browse the journal's history, compare any two points or a point with the disk, restore (a dry
run until --apply; undoable), prune. ID is a checkpoint number (as outcomes report it) or dN for
a decision that wrote nothing.`,
	subs: []*command{historyListCmd, historyShowCmd, historyDiffCmd, historyRestoreCmd, historyPruneCmd},
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
		return review.Printable(path)
	}
	if rel, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(rel, "..") {
		return review.Printable(rel)
	}
	return review.Printable(path)
}
