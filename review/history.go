package review

import (
	"context"
	"errors"

	"github.com/diffdesk/diffdesk/review/journal"
)

// The history reads of the desk: what the window's History tab shows and
// a reviewer reads over the protocol (deskrpc's history methods), from the
// desk's own journal. Restore (restore.go) is their one write.

// HistoryCompare names one of history's comparisons: exactly one of Entry,
// From and To together, or Disk.
type HistoryCompare struct {
	// Entry: what the entry changed (journal.DiffEntry).
	Entry journal.Ref `json:"entry,omitempty"`
	// From and To: the files after checkpoint From against after
	// checkpoint To (journal.DiffPoints).
	From int64 `json:"from,omitempty"`
	To   int64 `json:"to,omitempty"`
	// Disk: the files after checkpoint Disk against the disk now
	// (journal.DiffDisk).
	Disk int64 `json:"disk,omitempty"`
	// Paths limits the comparison to these absolute paths; none: all.
	Paths []string `json:"paths,omitempty"`
}

// HistoryFile is one file of a history comparison. Omitted says its texts
// were left out (Old and New nil, the counts kept): an answer over the
// protocol carries texts up to a limit.
type HistoryFile struct {
	journal.FileDiff
	Omitted bool `json:"omitted,omitempty"`
}

// History returns a page of the history, newest first (journal.History).
func (d *Desk) History(ctx context.Context, f journal.Filter) (journal.Page, error) {
	return d.journal.History(ctx, f)
}

// HistoryAgents returns the agents the history holds, with their
// sessions, for its filters (journal.Agents).
func (d *Desk) HistoryAgents(ctx context.Context) ([]journal.Agent, error) {
	return d.journal.Agents(ctx)
}

// HistoryDetail returns what the history holds about the entry ref names:
// who decided it among the rest (journal.Detail).
func (d *Desk) HistoryDetail(ctx context.Context, ref journal.Ref) (journal.Detail, error) {
	return d.journal.Detail(ctx, ref)
}

// HistoryDiff returns the files of comparison c.
func (d *Desk) HistoryDiff(ctx context.Context, c HistoryCompare) ([]HistoryFile, error) {
	var diffs []journal.FileDiff
	var err error
	switch {
	case c.Entry != "" && c.From == 0 && c.To == 0 && c.Disk == 0:
		diffs, err = d.journal.DiffEntry(ctx, c.Entry, c.Paths)
	case c.Entry == "" && c.From > 0 && c.To > 0 && c.Disk == 0:
		diffs, err = d.journal.DiffPoints(ctx, c.From, c.To, c.Paths)
	case c.Entry == "" && c.From == 0 && c.To == 0 && c.Disk > 0:
		diffs, err = d.journal.DiffDisk(ctx, c.Disk, c.Paths)
	default:
		return nil, errors.New("review: a history comparison names an entry, two checkpoints (from and to) or a checkpoint against the disk: exactly one of them")
	}
	if err != nil {
		return nil, err
	}
	out := make([]HistoryFile, len(diffs))
	for i, f := range diffs {
		out[i] = HistoryFile{FileDiff: f}
	}
	return out, nil
}
