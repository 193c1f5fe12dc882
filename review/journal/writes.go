package journal

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/diffdesk/diffdesk/review/atomicfile"
)

// WriteState is where a journaled write (a checkpoint, or one of its
// files) stands.
type WriteState string

// The write states. A write is journaled as intended before any file is
// touched; FinishWrite or Recover moves it on.
const (
	WriteIntended    WriteState = "intended"    // journaled; files may or may not be written yet
	WriteWritten     WriteState = "written"     // the new content is on disk
	WriteInterrupted WriteState = "interrupted" // the desk stopped first: the file still has its old content
	WriteConflicted  WriteState = "conflicted"  // the file holds neither old nor new content: someone else changed it
)

// Checkpoint kinds.
const (
	CheckpointWrite   = "write"   // a proposal's approved content was written
	CheckpointRestore = "restore" // files were returned to an earlier checkpoint's content
)

// WriteIntent is a write about to happen: BeginWrite journals it before
// any file is touched.
type WriteIntent struct {
	// ProposalID is the proposal being written; "" for a restore.
	ProposalID string
	// RestoredFrom is, for a restore, the checkpoint whose content the
	// files return to; 0 otherwise.
	RestoredFrom int64
	// Agent and Session say whose change it is; for a proposal "" takes
	// them from the proposal's record.
	Agent, Session string
	Note           string // free text shown in history, e.g. "restore of 3 files"
	Files          []FileWrite
}

// FileWrite is one file of a write: what is on disk now and what will be.
type FileWrite struct {
	Path         string // absolute
	Root         string // the workspace root holding Path
	BeforeExists bool   // false: the file does not exist now; Before is ignored
	Before       []byte // the file's content now (read just before writing)
	Delete       bool   // the write deletes the file; After is ignored
	After        []byte // the content about to be written
}

// FileFinal is how one file of a write ended.
type FileFinal struct {
	Path string
	// Formatted says a formatter ran and FormatterOutput is what it made
	// of After (the desk writes it after After).
	Formatted       bool
	FormatterOutput []byte
	// Final is the file's content on disk when the write finished
	// (formatter and any external format-on-save included); Deleted says
	// there is no file.
	Final   []byte
	Deleted bool
	// CreatedDirs are the directories the write created (SaveFile's
	// created), which undoing it removes again; nil keeps what BeginWrite
	// found missing.
	CreatedDirs []string
}

// BeginWrite journals a write as intended, with each file's content before
// and after, and returns its checkpoint id. It returns only once that is
// durable: call it after the stale check and before touching any file, so
// that a crash at any later point leaves a record Recover can settle.
func (j *Journal) BeginWrite(ctx context.Context, w WriteIntent) (int64, error) {
	what := "begin write of proposal " + w.ProposalID
	kind := CheckpointWrite
	if w.ProposalID == "" {
		kind, what = CheckpointRestore, fmt.Sprintf("begin restore from checkpoint %d", w.RestoredFrom)
	}
	if len(w.Files) == 0 {
		return 0, fmt.Errorf("journal %s: %s: no files", j.path, what)
	}
	var batch blobBatch
	before := make([]string, len(w.Files))
	after := make([]string, len(w.Files))
	dirs := make([][]byte, len(w.Files))
	for i, f := range w.Files {
		var err error
		var missing []string
		if !f.Delete {
			if missing, err = atomicfile.MissingParents(f.Path); err != nil {
				return 0, fmt.Errorf("journal %s: %s: %w", j.path, what, err)
			}
		}
		if dirs[i], err = json.Marshal(nonNil(missing)); err != nil {
			return 0, fmt.Errorf("journal %s: %s: %w", j.path, what, err)
		}
		var base []byte
		if f.BeforeExists {
			if base = f.Before; base == nil {
				base = []byte{}
			}
			if before[i], err = batch.add(ctx, j, base, nil); err != nil {
				return 0, err
			}
		}
		if !f.Delete {
			if after[i], err = batch.add(ctx, j, f.After, base); err != nil {
				return 0, err
			}
		}
	}
	var id int64
	err := j.write(ctx, what, func(tx *sql.Tx) error {
		if err := batch.insert(tx); err != nil {
			return err
		}
		agent, session := w.Agent, w.Session
		var decision sql.NullInt64
		if kind == CheckpointWrite {
			err := tx.QueryRow(`SELECT p.agent, p.session, (SELECT max(d.id) FROM decisions d WHERE d.proposal_id = p.id)
				FROM proposals p WHERE p.id = ?`, w.ProposalID).Scan(&agent, &session, &decision)
			if errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("proposal %s: %w", w.ProposalID, ErrNotJournaled)
			}
			if err != nil {
				return err
			}
			agent, session = firstNonEmpty(w.Agent, agent), firstNonEmpty(w.Session, session)
		}
		res, err := tx.Exec(`INSERT INTO checkpoints(kind, proposal_id, decision_id, restored_from, agent, session, note, state, created)
			VALUES (?, ?, ?, ?, ?, ?, ?, 'intended', ?)`,
			kind, nullIfEmpty(w.ProposalID), decision, sql.NullInt64{Int64: w.RestoredFrom, Valid: w.RestoredFrom != 0},
			agent, session, w.Note, time.Now().UnixNano())
		if err != nil {
			return err
		}
		if id, err = res.LastInsertId(); err != nil {
			return err
		}
		for i, f := range w.Files {
			_, err := tx.Exec(`INSERT INTO checkpoint_files(checkpoint_id, path, root, before, after, created_dirs, state)
				VALUES (?, ?, ?, ?, ?, ?, 'intended')`,
				id, f.Path, f.Root, nullIfEmpty(before[i]), nullIfEmpty(after[i]), string(dirs[i]))
			if err != nil {
				return fmt.Errorf("file %s: %w", f.Path, err)
			}
		}
		return nil
	})
	return id, err
}

// FinishWrite records how each file of checkpoint id ended and settles
// the checkpoint. Call it after the renames and the formatter, before
// reporting the outcome. A file not listed is taken as written with its
// After content; a listed file whose Final is its Before content (a write
// that failed and was put back) is recorded as interrupted, any other as
// written. A checkpoint already settled (by FinishWrite or Recover) is an
// error.
func (j *Journal) FinishWrite(ctx context.Context, id int64, finals []FileFinal) error {
	cp, err := j.Checkpoint(ctx, id)
	if err != nil {
		return err
	}
	if cp.State != WriteIntended {
		return fmt.Errorf("journal %s: finish write %d: already settled as %s", j.path, id, cp.State)
	}
	byPath := make(map[string]CheckpointFile, len(cp.Files))
	for _, f := range cp.Files {
		byPath[f.Path] = f
	}
	var batch blobBatch
	type fileRow struct {
		path, formatted, final string
		dirs                   []byte
		state                  WriteState
	}
	rows := make([]fileRow, 0, len(finals))
	for _, f := range finals {
		cf, ok := byPath[f.Path]
		if !ok {
			return fmt.Errorf("journal %s: finish write %d: file %s is not part of it", j.path, id, f.Path)
		}
		row := fileRow{path: f.Path, state: WriteWritten}
		if f.Formatted {
			if row.formatted, err = batch.addOnto(ctx, j, f.FormatterOutput, cf.After); err != nil {
				return err
			}
		}
		if !f.Deleted {
			if row.final, err = batch.addOnto(ctx, j, f.Final, cf.After); err != nil {
				return err
			}
		}
		if row.final == cf.Before && cf.Before != cf.After {
			row.state = WriteInterrupted
		}
		if f.CreatedDirs != nil {
			if row.dirs, err = json.Marshal(f.CreatedDirs); err != nil {
				return fmt.Errorf("journal %s: finish write %d: %w", j.path, id, err)
			}
		}
		rows = append(rows, row)
	}
	return j.write(ctx, fmt.Sprintf("finish write %d", id), func(tx *sql.Tx) error {
		if err := batch.insert(tx); err != nil {
			return err
		}
		for _, r := range rows {
			_, err := tx.Exec(`UPDATE checkpoint_files SET formatted = ?, final = ?, created_dirs = coalesce(?, created_dirs), state = ?
				WHERE checkpoint_id = ? AND path = ? AND state = 'intended'`,
				nullIfEmpty(r.formatted), nullIfEmpty(r.final), nullIfEmpty(string(r.dirs)), string(r.state), id, r.path)
			if err != nil {
				return fmt.Errorf("file %s: %w", r.path, err)
			}
		}
		if _, err := tx.Exec(`UPDATE checkpoint_files SET final = after, state = 'written'
			WHERE checkpoint_id = ? AND state = 'intended'`, id); err != nil {
			return err
		}
		return settleCheckpoint(tx, id)
	})
}

// settleCheckpoint sets a checkpoint's state from its files': written if
// all are, conflicted if any is, interrupted otherwise.
func settleCheckpoint(tx *sql.Tx, id int64) error {
	_, err := tx.Exec(`UPDATE checkpoints SET finished = ?, state = (
		SELECT CASE
			WHEN sum(state = 'intended') > 0 THEN 'intended'
			WHEN sum(state = 'conflicted') > 0 THEN 'conflicted'
			WHEN sum(state = 'interrupted') > 0 THEN 'interrupted'
			ELSE 'written' END
		FROM checkpoint_files WHERE checkpoint_id = ?) WHERE id = ?`,
		time.Now().UnixNano(), id, id)
	return err
}

// Interrupted is a write that was still intended when the desk stopped,
// as Recover found it.
type Interrupted struct {
	Checkpoint int64
	ProposalID string     // "" for a restore
	State      WriteState // the checkpoint's state after recovery
	Files      []RecoveredFile
}

// RecoveredFile is one file of an interrupted write.
type RecoveredFile struct {
	Path      string
	State     WriteState // written, interrupted or conflicted
	DiskSHA   string     // SHA-256 of what is on disk now; "" if no file
	TempFiles []string   // leftover temporary files of a killed SaveFile, now removed
	// RemovedDirs are the empty directories an interrupted write of a new
	// file had created, now removed.
	RemovedDirs []string
}

// Recover settles every write left intended by a desk that stopped (a
// crash, kill -9, power loss). For each file it compares the disk with the
// journaled content: the new content (or the formatter's output) means
// written, the old content means interrupted — SaveFile never leaves a
// partial file, so the write simply did not happen — and anything else
// means conflicted (someone changed the file since; its content is kept in
// the journal). It removes temporary files a killed SaveFile left beside
// those files. Call it once at start-up, before accepting proposals, from
// the one desk that owns the journal; it returns what it settled, for the
// desk to tell the person and the agents.
func (j *Journal) Recover(ctx context.Context) ([]Interrupted, error) {
	ids, err := j.intendedCheckpoints(ctx)
	if err != nil {
		return nil, err
	}
	var out []Interrupted
	for _, id := range ids {
		it, err := j.recoverOne(ctx, id)
		if err != nil {
			return out, err
		}
		out = append(out, it)
	}
	return out, nil
}

func (j *Journal) intendedCheckpoints(ctx context.Context) ([]int64, error) {
	rows, err := j.db.QueryContext(ctx, `SELECT id FROM checkpoints WHERE state = 'intended' ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("journal %s: find interrupted writes: %w", j.path, err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("journal %s: find interrupted writes: %w", j.path, err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("journal %s: find interrupted writes: %w", j.path, err)
	}
	return ids, nil
}

func (j *Journal) recoverOne(ctx context.Context, id int64) (Interrupted, error) {
	cp, err := j.Checkpoint(ctx, id)
	if err != nil {
		return Interrupted{}, err
	}
	it := Interrupted{Checkpoint: id, ProposalID: cp.ProposalID}
	var batch blobBatch
	finals := make([]string, len(cp.Files))
	for i, f := range cp.Files {
		rf := RecoveredFile{Path: f.Path, State: f.State}
		if f.State == WriteIntended {
			if rf.TempFiles, err = atomicfile.RemoveTemps(f.Path); err != nil {
				return it, fmt.Errorf("journal %s: recover write %d: %w", j.path, id, err)
			}
			disk, err := atomicfile.ReadSnapshot(f.Path)
			if err != nil {
				return it, fmt.Errorf("journal %s: recover write %d: %w", j.path, id, err)
			}
			rf.DiskSHA = disk.SHA256
			switch {
			case sameContent(disk, f.After) || (f.Formatted != "" && sameContent(disk, f.Formatted)):
				rf.State = WriteWritten
			case sameContent(disk, f.Before):
				rf.State = WriteInterrupted
				if rf.RemovedDirs, err = removeEmptyDirs(f.CreatedDirs); err != nil {
					return it, fmt.Errorf("journal %s: recover write %d: %w", j.path, id, err)
				}
			default:
				rf.State = WriteConflicted
			}
			if disk.Exists {
				if finals[i], err = batch.add(ctx, j, disk.Content, nil); err != nil {
					return it, err
				}
			}
		}
		it.Files = append(it.Files, rf)
	}
	err = j.write(ctx, fmt.Sprintf("recover write %d", id), func(tx *sql.Tx) error {
		if err := batch.insert(tx); err != nil {
			return err
		}
		for i, rf := range it.Files {
			if cp.Files[i].State != WriteIntended {
				continue
			}
			_, err := tx.Exec(`UPDATE checkpoint_files SET final = ?, state = ? WHERE checkpoint_id = ? AND path = ? AND state = 'intended'`,
				nullIfEmpty(finals[i]), string(rf.State), id, rf.Path)
			if err != nil {
				return fmt.Errorf("file %s: %w", rf.Path, err)
			}
		}
		if err := settleCheckpoint(tx, id); err != nil {
			return err
		}
		return tx.QueryRow(`SELECT state FROM checkpoints WHERE id = ?`, id).Scan(&it.State)
	})
	return it, err
}

// sameContent reports whether the disk snapshot holds the blob hash ("" =
// no file).
func sameContent(disk atomicfile.Snapshot, hash string) bool {
	if hash == "" {
		return !disk.Exists
	}
	return disk.Exists && disk.SHA256 == hash
}

// removeEmptyDirs removes those of dirs (outermost first) that exist and
// are empty, innermost first, and returns them.
func removeEmptyDirs(dirs []string) ([]string, error) {
	var removed []string
	for i := len(dirs) - 1; i >= 0; i-- {
		if entries, err := os.ReadDir(dirs[i]); err != nil || len(entries) > 0 {
			continue
		}
		if err := atomicfile.RemoveCreatedDirs(dirs[i : i+1]); err != nil {
			return removed, err
		}
		removed = append(removed, dirs[i])
	}
	return removed, nil
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
