package journal

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/atomicfile"
	"github.com/diffdesk/diffdesk/review/decision"
)

// historyDiffContext is how many unchanged lines history's unified diffs
// show around each change.
const historyDiffContext = 3

// FileDiff is one file compared between two points: of history, or a point
// and the disk.
type FileDiff struct {
	Path      string
	OldLabel  string // what the old side is, e.g. "before checkpoint 42"
	NewLabel  string // e.g. "after checkpoint 42", "disk"
	OldExists bool   // false: no file on the old side
	NewExists bool
	Old, New  []byte
	Added     int    // lines added from Old to New
	Removed   int    // lines removed
	Binary    bool   // a side is not text: Unified only says they differ
	Unified   string // the unified diff, headers "--- PATH\tOLDLABEL"; "" when the same
	// NotApplied says the entry is a decision on an edit that did not
	// apply: it proposed no text, and both sides are the file's base.
	NotApplied bool
}

// Same reports whether both sides hold the same content (or both no file).
func (d FileDiff) Same() bool {
	return d.OldExists == d.NewExists && bytes.Equal(d.Old, d.New)
}

// newFileDiff compares two versions of path.
func newFileDiff(path, oldLabel, newLabel string, old, new []byte, oldExists, newExists bool) FileDiff {
	d := FileDiff{Path: path, OldLabel: oldLabel, NewLabel: newLabel, OldExists: oldExists, NewExists: newExists, Old: old, New: new}
	if d.Same() {
		return d
	}
	if bytes.IndexByte(old, 0) >= 0 || bytes.IndexByte(new, 0) >= 0 {
		d.Binary = true
		d.Unified = fmt.Sprintf("Binary file %s differs (%s, %s)\n", path, oldLabel, newLabel)
		return d
	}
	a, b := engine.SplitLines(string(old)), engine.SplitLines(string(new))
	d.Added, d.Removed = engine.CountLines(engine.DiffLines(a, b))
	oldName, newName := path+"\t"+oldLabel, path+"\t"+newLabel
	if !oldExists {
		oldName = "/dev/null\t" + oldLabel
	}
	if !newExists {
		newName = "/dev/null\t" + newLabel
	}
	d.Unified = engine.Unified(oldName, newName, string(old), string(new), historyDiffContext)
	if d.Unified == "" { // same text, but the file appeared or went away
		d.Unified = fmt.Sprintf("--- %s\n+++ %s\n", oldName, newName)
	}
	return d
}

// DiffEntry returns what a history entry changed, per file: for a
// checkpoint, each file from before the write to its settled content (what
// was written while it is still intended); for a decision that wrote
// nothing, each file from its base to what was proposed (for an edit that
// did not apply, which proposed nothing, its base on both sides). paths limits it to
// those absolute paths (nil: all the entry's files).
func (j *Journal) DiffEntry(ctx context.Context, ref Ref, paths []string) ([]FileDiff, error) {
	d, err := j.Detail(ctx, ref)
	if err != nil {
		return nil, err
	}
	if err := checkEntryPaths(d.Entry, paths); err != nil {
		return nil, err
	}
	unapplied := d.Kind == EntryDecision && notApplied(d)
	var out []FileDiff
	for _, f := range d.Files {
		if paths != nil && !slices.Contains(paths, f.Path) {
			continue
		}
		oldHash, newHash := f.Before, f.Final
		oldLabel, newLabel := "before checkpoint "+string(ref), "after checkpoint "+string(ref)
		switch {
		case unapplied:
			// The edit did not apply: it proposed no text for the file
			// (its empty "proposed" text is not a deletion).
			oldHash, newHash = f.Base, f.Base
			oldLabel, newLabel = "base", "not applied ("+string(d.Decision)+"): nothing proposed"
		case d.Kind == EntryDecision:
			oldHash, newHash = f.Base, f.Proposed
			oldLabel, newLabel = "base", "proposed ("+string(d.Decision)+")"
		case f.State == WriteIntended:
			newHash, newLabel = f.After, "being written by checkpoint "+string(ref)
		}
		fd, err := j.diffHashes(ctx, f.Path, oldLabel, newLabel, oldHash, newHash)
		if err != nil {
			return nil, err
		}
		fd.NotApplied = unapplied
		out = append(out, fd)
	}
	return out, nil
}

// appliedFailures are the kinds of a failed outcome (review.FailureKind,
// as the outcome's JSON keeps it) whose edit did apply: approved, then not
// written. Every other kind the desk knows is an edit that did not apply,
// whose files the journal holds with no proposed text.
var appliedFailures = map[string]bool{"not-written": true, "path": true, "write": true}

// notAppliedKinds are the other kinds of a failed outcome: the edit did not
// apply, or the desk refused it before it was shown.
var notAppliedKinds = map[string]bool{"match": true, "format": true, "content": true, "other": true,
	"refused": true, "not-recorded": true}

// notApplied reports whether decision entry d is of an edit that did not
// apply. Its outcome's failure kind says so. A journal older than failure
// kinds (its outcome kept only the words its agent read), or a failure
// kept as words only, says it by what it holds, as the desk journaled such
// an edit: a failed decision with no approved text, and for each file the
// empty text as proposed (never a deletion). An approval turned failed
// (journal.NotWritten) keeps its approved text, and an approval whose
// write was refused the text proposed; only such a refusal of an edit
// that emptied every file it touched reads as not applied.
func notApplied(d Detail) bool {
	if d.Decision != decision.Failed {
		return false
	}
	var o struct {
		Failure *struct {
			Kind string `json:"kind"`
		} `json:"failure"`
	}
	if len(d.Outcome) > 0 && json.Unmarshal(d.Outcome, &o) == nil && o.Failure != nil {
		if appliedFailures[o.Failure.Kind] {
			return false
		}
		if notAppliedKinds[o.Failure.Kind] {
			return true
		}
	}
	for _, f := range d.Files {
		if f.Approved != "" || f.Deleted || f.Proposed != emptyText {
			return false
		}
	}
	return len(d.Files) > 0
}

// emptyText is the hash of the empty text.
var emptyText = atomicfile.Hash(nil)

// DiffStage returns one file's change between two stages of a history
// entry as Detail reports them (e.g. f.Proposed to f.Approved: the
// person's edits; f.Approved to f.Formatted: the formatter's), labelled
// with the stage names given.
func (j *Journal) DiffStage(ctx context.Context, path, oldLabel, oldHash, newLabel, newHash string) (FileDiff, error) {
	return j.diffHashes(ctx, path, oldLabel, newLabel, oldHash, newHash)
}

// DiffPoints compares two points of history: each file any checkpoint
// after the earlier and up to the later one touched, as it was right
// after checkpoint from and right after checkpoint to. paths limits it to
// those absolute paths (nil: all). Files the same at both points are
// left out.
func (j *Journal) DiffPoints(ctx context.Context, from, to int64, paths []string) ([]FileDiff, error) {
	for _, id := range []int64{from, to} {
		if _, err := j.Checkpoint(ctx, id); err != nil {
			return nil, err
		}
	}
	lo, hi := min(from, to), max(from, to)
	touched, err := j.pathsBetween(ctx, lo, hi)
	if err != nil {
		return nil, err
	}
	var out []FileDiff
	for _, path := range touched {
		if paths != nil && !slices.Contains(paths, path) {
			continue
		}
		old, oldExists, err := j.contentAt(ctx, path, from)
		if err != nil {
			return nil, err
		}
		new, newExists, err := j.contentAt(ctx, path, to)
		if err != nil {
			return nil, err
		}
		fd := newFileDiff(path, fmt.Sprint("after checkpoint ", from), fmt.Sprint("after checkpoint ", to), old, new, oldExists, newExists)
		if !fd.Same() {
			out = append(out, fd)
		}
	}
	return out, nil
}

// DiffDisk compares the files checkpoint id touched, as they were right
// after it, with the files on disk now. paths limits it to those absolute
// paths (nil: all). Files that are the same are left out.
func (j *Journal) DiffDisk(ctx context.Context, id int64, paths []string) ([]FileDiff, error) {
	cp, err := j.Checkpoint(ctx, id)
	if err != nil {
		return nil, err
	}
	var out []FileDiff
	for _, f := range cp.Files {
		if paths != nil && !slices.Contains(paths, f.Path) {
			continue
		}
		old, oldExists, err := j.contentAt(ctx, f.Path, id)
		if err != nil {
			return nil, err
		}
		disk, err := atomicfile.ReadSnapshot(f.Path)
		if err != nil {
			return nil, err
		}
		fd := newFileDiff(f.Path, fmt.Sprint("after checkpoint ", id), "disk", old, disk.Content, oldExists, disk.Exists)
		if !fd.Same() {
			out = append(out, fd)
		}
	}
	return out, nil
}

// diffHashes compares two blobs ("" = no file).
func (j *Journal) diffHashes(ctx context.Context, path, oldLabel, newLabel, oldHash, newHash string) (FileDiff, error) {
	var old, new []byte
	var err error
	if oldHash != "" {
		if old, err = j.Blob(ctx, oldHash); err != nil {
			return FileDiff{}, err
		}
	}
	if newHash != "" {
		if new, err = j.Blob(ctx, newHash); err != nil {
			return FileDiff{}, err
		}
	}
	return newFileDiff(path, oldLabel, newLabel, old, new, oldHash != "", newHash != ""), nil
}

// contentAt returns what path held right after checkpoint id: the settled
// content of the latest checkpoint up to id that touched it, or, when none
// did, its content before the first later checkpoint that touched it (the
// journal's earliest knowledge of it).
func (j *Journal) contentAt(ctx context.Context, path string, id int64) ([]byte, bool, error) {
	content, exists, err := j.FileAt(ctx, path, id)
	if !errors.Is(err, ErrNotJournaled) {
		return content, exists, err
	}
	var before sql.NullString
	err = j.db.QueryRowContext(ctx, `SELECT before FROM checkpoint_files WHERE path = ? AND checkpoint_id > ?
		ORDER BY checkpoint_id LIMIT 1`, path, id).Scan(&before)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, fmt.Errorf("journal %s: %s as of checkpoint %d: %w", j.path, path, id, ErrNotJournaled)
	}
	if err != nil {
		return nil, false, fmt.Errorf("journal %s: %s as of checkpoint %d: %w", j.path, path, id, err)
	}
	if !before.Valid {
		return nil, false, nil
	}
	content, err = j.Blob(ctx, before.String)
	return content, err == nil, err
}

// pathsBetween returns the paths checkpoints lo+1 … hi touched, sorted.
func (j *Journal) pathsBetween(ctx context.Context, lo, hi int64) ([]string, error) {
	rows, err := j.db.QueryContext(ctx, `SELECT DISTINCT path FROM checkpoint_files
		WHERE checkpoint_id > ? AND checkpoint_id <= ? ORDER BY path`, lo, hi)
	if err != nil {
		return nil, fmt.Errorf("journal %s: files touched by checkpoints %d to %d: %w", j.path, lo+1, hi, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, fmt.Errorf("journal %s: files touched by checkpoints %d to %d: %w", j.path, lo+1, hi, err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// checkEntryPaths refuses paths the entry did not touch.
func checkEntryPaths(e Entry, paths []string) error {
	for _, p := range paths {
		if !slices.Contains(e.Paths, p) {
			return fmt.Errorf("history entry %s: it did not touch %s (its files: %v)", e.Ref, p, e.Paths)
		}
	}
	return nil
}
