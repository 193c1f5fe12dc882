package journal

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/diffdesk/diffdesk/review/decision"
)

// Checkpoint is one journaled write or restore, as history shows it.
type Checkpoint struct {
	ID           int64
	Kind         string           // CheckpointWrite or CheckpointRestore
	ProposalID   string           // "" for a restore
	Decision     decision.Verdict // the proposal's decision when it was written; "" for a restore
	RestoredFrom int64            // for a restore, the checkpoint returned to; 0 otherwise
	Agent        string
	Session      string
	Note         string
	State        WriteState
	Created      time.Time // when the write was journaled as intended
	Finished     time.Time // when it was settled; zero while intended
	Files        []CheckpointFile
}

// CheckpointFile is one file of a checkpoint. Each content field is a blob
// hash (read it with Journal.Blob); "" means no file.
type CheckpointFile struct {
	Path        string
	Root        string
	Before      string // content before the write; "" if the file was missing
	After       string // content the desk wrote; "" if it deleted the file
	Formatted   string // the formatter's output; "" if none ran
	Final       string // content on disk when settled; "" if no file or still intended
	CreatedDirs []string
	State       WriteState
}

// CheckpointFilter selects checkpoints; zero fields do not filter.
type CheckpointFilter struct {
	Agent    string
	Session  string
	Path     string // only checkpoints that touched this absolute path
	Decision decision.Verdict
	State    WriteState // e.g. WriteConflicted
	Since    time.Time  // created at or after
	Until    time.Time  // created before
	BeforeID int64      // only ids below this: the cursor for the next page
	Limit    int        // at most this many; 0 means 100
}

// Checkpoints returns the checkpoints matching f, newest first, with their
// files.
func (j *Journal) Checkpoints(ctx context.Context, f CheckpointFilter) ([]Checkpoint, error) {
	var where []string
	var args []any
	add := func(cond string, arg any) {
		where = append(where, cond)
		args = append(args, arg)
	}
	if f.Agent != "" {
		add("c.agent = ?", f.Agent)
	}
	if f.Session != "" {
		add("c.session = ?", f.Session)
	}
	if f.Path != "" {
		add("EXISTS (SELECT 1 FROM checkpoint_files cf WHERE cf.checkpoint_id = c.id AND cf.path = ?)", f.Path)
	}
	if f.Decision != "" {
		add("d.decision = ?", f.Decision)
	}
	if f.State != "" {
		add("c.state = ?", string(f.State))
	}
	if !f.Since.IsZero() {
		add("c.created >= ?", f.Since.UnixNano())
	}
	if !f.Until.IsZero() {
		add("c.created < ?", f.Until.UnixNano())
	}
	if f.BeforeID != 0 {
		add("c.id < ?", f.BeforeID)
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 100
	}
	q := checkpointSelect
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY c.created DESC, c.id DESC LIMIT ?"
	args = append(args, limit)
	cps, err := j.queryCheckpoints(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	for i := range cps {
		if cps[i].Files, err = j.checkpointFiles(ctx, cps[i].ID); err != nil {
			return nil, err
		}
	}
	return cps, nil
}

// Checkpoint returns one checkpoint with its files; an unknown id gives an
// error wrapping ErrNotJournaled.
func (j *Journal) Checkpoint(ctx context.Context, id int64) (Checkpoint, error) {
	cps, err := j.queryCheckpoints(ctx, checkpointSelect+" WHERE c.id = ?", id)
	if err != nil {
		return Checkpoint{}, err
	}
	if len(cps) == 0 {
		return Checkpoint{}, fmt.Errorf("journal %s: checkpoint %d: %w", j.path, id, ErrNotJournaled)
	}
	cp := cps[0]
	if cp.Files, err = j.checkpointFiles(ctx, id); err != nil {
		return Checkpoint{}, err
	}
	return cp, nil
}

const checkpointSelect = `SELECT c.id, c.kind, coalesce(c.proposal_id, ''), coalesce(d.decision, ''),
	coalesce(c.restored_from, 0), c.agent, c.session, c.note, c.state, c.created, coalesce(c.finished, 0)
	FROM checkpoints c LEFT JOIN decisions d ON d.id = c.decision_id`

func (j *Journal) queryCheckpoints(ctx context.Context, q string, args ...any) ([]Checkpoint, error) {
	rows, err := j.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("journal %s: read checkpoints: %w", j.path, err)
	}
	defer rows.Close()
	var out []Checkpoint
	for rows.Next() {
		var cp Checkpoint
		var created, finished int64
		if err := rows.Scan(&cp.ID, &cp.Kind, &cp.ProposalID, &cp.Decision, &cp.RestoredFrom,
			&cp.Agent, &cp.Session, &cp.Note, &cp.State, &created, &finished); err != nil {
			return nil, fmt.Errorf("journal %s: read checkpoints: %w", j.path, err)
		}
		cp.Created = time.Unix(0, created)
		if finished != 0 {
			cp.Finished = time.Unix(0, finished)
		}
		out = append(out, cp)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("journal %s: read checkpoints: %w", j.path, err)
	}
	return out, nil
}

// checkpointFiles returns a checkpoint's files in the order they were
// journaled.
func (j *Journal) checkpointFiles(ctx context.Context, id int64) ([]CheckpointFile, error) {
	rows, err := j.db.QueryContext(ctx, `SELECT path, root, coalesce(before, ''), coalesce(after, ''),
		coalesce(formatted, ''), coalesce(final, ''), created_dirs, state
		FROM checkpoint_files WHERE checkpoint_id = ? ORDER BY rowid`, id)
	if err != nil {
		return nil, fmt.Errorf("journal %s: read files of checkpoint %d: %w", j.path, id, err)
	}
	defer rows.Close()
	var out []CheckpointFile
	for rows.Next() {
		var f CheckpointFile
		var dirs string
		if err := rows.Scan(&f.Path, &f.Root, &f.Before, &f.After, &f.Formatted, &f.Final, &dirs, &f.State); err != nil {
			return nil, fmt.Errorf("journal %s: read files of checkpoint %d: %w", j.path, id, err)
		}
		if err := json.Unmarshal([]byte(dirs), &f.CreatedDirs); err != nil {
			return nil, fmt.Errorf("journal %s: checkpoint %d file %s: created_dirs: %w", j.path, id, f.Path, err)
		}
		out = append(out, f)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("journal %s: read files of checkpoint %d: %w", j.path, id, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("journal %s: checkpoint %d: %w", j.path, id, ErrNotJournaled)
	}
	return out, nil
}

// ProposalStatus returns a proposal's latest lifecycle state and reason
// as journaled; an unknown id gives an error wrapping ErrNotJournaled.
func (j *Journal) ProposalStatus(ctx context.Context, id string) (status, reason string, err error) {
	err = j.db.QueryRowContext(ctx, `SELECT status, reason FROM proposals WHERE id = ?`, id).Scan(&status, &reason)
	if errors.Is(err, sql.ErrNoRows) {
		return "", "", fmt.Errorf("journal %s: proposal %s: %w", j.path, id, ErrNotJournaled)
	}
	if err != nil {
		return "", "", fmt.Errorf("journal %s: read proposal %s: %w", j.path, id, err)
	}
	return status, reason, nil
}

// FileAt returns what the journal knows path held right after checkpoint
// id: the final content of the latest settled checkpoint at or before id
// that touched path. exists is false when the file was deleted (or missing
// after an interrupted new file). A path no settled checkpoint up to id
// touched gives an error wrapping ErrNotJournaled. Comparing two FileAt
// results diffs any two points of history; writing one back restores it.
func (j *Journal) FileAt(ctx context.Context, path string, id int64) (content []byte, exists bool, err error) {
	var final sql.NullString
	err = j.db.QueryRowContext(ctx, `SELECT final FROM checkpoint_files
		WHERE path = ? AND checkpoint_id <= ? AND state != 'intended'
		ORDER BY checkpoint_id DESC LIMIT 1`, path, id).Scan(&final)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, fmt.Errorf("journal %s: %s as of checkpoint %d: %w", j.path, path, id, ErrNotJournaled)
	}
	if err != nil {
		return nil, false, fmt.Errorf("journal %s: %s as of checkpoint %d: %w", j.path, path, id, err)
	}
	if !final.Valid {
		return nil, false, nil
	}
	content, err = j.Blob(ctx, final.String)
	return content, err == nil, err
}
