package journal

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/diffdesk/diffdesk/review/atomicfile"
)

// RestoreTarget says which content of a checkpoint a restore returns to.
type RestoreTarget string

// The restore targets. Restoring to before a restore checkpoint undoes
// that restore.
const (
	RestoreBefore RestoreTarget = "before" // what the files held just before the checkpoint: undo it (and later changes)
	RestoreAfter  RestoreTarget = "after"  // what they held right after it
)

// RestoreRequest asks to return files to a checkpoint's content.
type RestoreRequest struct {
	Checkpoint int64
	Target     RestoreTarget // "" means RestoreBefore
	Paths      []string      // only these absolute paths of the checkpoint; nil for all its files
	// Force restores files that changed on disk since the journal last
	// recorded them. Their current content is not lost: the restore
	// checkpoint keeps it as its "before", so restoring to before that
	// checkpoint brings it back.
	Force bool
	// Agent and Session name who restores, for history; "" gives
	// "person" and "history".
	Agent, Session string
}

// RestoreAction is what a restore does to one file.
type RestoreAction string

// The restore actions.
const (
	RestoreWrite     RestoreAction = "write"     // the file gets the checkpoint's content
	RestoreCreate    RestoreAction = "create"    // the file is missing and is created
	RestoreDelete    RestoreAction = "delete"    // the file did not exist then and is removed
	RestoreUnchanged RestoreAction = "unchanged" // it already has that content
	RestoreRefused   RestoreAction = "refused"   // left alone; Reason says why and what to do
)

// RestoreFile is one file of a restore plan.
type RestoreFile struct {
	Path   string
	Root   string
	Action RestoreAction
	Reason string // why refused, or for a forced file what happens to its current content
	// Changed says the disk differs from the journal's last record of the
	// file (checkpoint LastCheckpoint): someone changed it outside the desk.
	Changed        bool
	LastCheckpoint int64
	Disk           atomicfile.Snapshot // the file as it is now
	TargetExists   bool                // false: the restore removes the file
	Target         []byte              // the content the file returns to
	Added, Removed int                 // lines, from the disk's content to the target
	// RemoveDirs are directories the checkpoint created for the file that
	// a RestoreDelete removes again when they are left empty.
	RemoveDirs []string
}

// RestorePlan is a dry run: what a restore would do to each file. Apply
// it with Journal.ApplyRestore.
type RestorePlan struct {
	Request RestoreRequest
	Files   []RestoreFile
}

// Refused returns the files the plan refuses.
func (p RestorePlan) Refused() []RestoreFile {
	var out []RestoreFile
	for _, f := range p.Files {
		if f.Action == RestoreRefused {
			out = append(out, f)
		}
	}
	return out
}

// RestoreRefusedError is returned by ApplyRestore when the plan refuses a
// file: nothing was written.
type RestoreRefusedError struct {
	Checkpoint int64
	Files      []RestoreFile // the refused files, each with its Reason
}

// Error names the checkpoint and each refused file with its reason.
func (e *RestoreRefusedError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "restore from checkpoint %d: nothing written; refused", e.Checkpoint)
	for i, f := range e.Files {
		if i > 0 {
			b.WriteString(";")
		}
		fmt.Fprintf(&b, " %s: %s", f.Path, f.Reason)
	}
	return b.String()
}

// PlanRestore works out what restoring req would do, touching nothing: the
// dry run. A file inside a .git directory, one a write is still in progress
// on (or was interrupted on: the desk's Recover settles it at start), and
// one that changed on disk since the journal last recorded it (unless
// req.Force) are refused.
func (j *Journal) PlanRestore(ctx context.Context, req RestoreRequest) (RestorePlan, error) {
	plan := RestorePlan{Request: req}
	if req.Target == "" {
		plan.Request.Target = RestoreBefore
	}
	what := fmt.Sprintf("restore to %s checkpoint %d", plan.Request.Target, req.Checkpoint)
	if plan.Request.Target != RestoreBefore && plan.Request.Target != RestoreAfter {
		return plan, fmt.Errorf("%s: unknown target %q; want before or after", what, req.Target)
	}
	cp, err := j.Checkpoint(ctx, req.Checkpoint)
	if err != nil {
		return plan, err
	}
	if plan.Request.Target == RestoreAfter && cp.State == WriteIntended {
		return plan, fmt.Errorf("%s: it is still being written (or was interrupted; the desk settles it at start); restore to before it, or retry later", what)
	}
	for _, p := range req.Paths {
		if !slices.ContainsFunc(cp.Files, func(f CheckpointFile) bool { return f.Path == p }) {
			return plan, fmt.Errorf("%s: it did not touch %s; it touched %s", what, p, checkpointPaths(cp))
		}
	}
	for _, cf := range cp.Files {
		if req.Paths != nil && !slices.Contains(req.Paths, cf.Path) {
			continue
		}
		f, err := j.planRestoreFile(ctx, plan.Request, cf)
		if err != nil {
			return plan, err
		}
		plan.Files = append(plan.Files, f)
	}
	return plan, nil
}

// planRestoreFile plans one file.
func (j *Journal) planRestoreFile(ctx context.Context, req RestoreRequest, cf CheckpointFile) (RestoreFile, error) {
	f := RestoreFile{Path: cf.Path, Root: cf.Root}
	target := cf.Before
	if req.Target == RestoreAfter {
		target = cf.Final
	} else {
		f.RemoveDirs = cf.CreatedDirs
	}
	if why := moved(cf.Root, cf.Path); why != "" {
		f.Action, f.Reason = RestoreRefused, why
		return f, nil
	}
	var err error
	if f.Disk, err = atomicfile.ReadSnapshot(cf.Path); err != nil {
		f.Action, f.Reason = RestoreRefused, err.Error()
		return f, nil
	}
	if f.TargetExists = target != ""; f.TargetExists {
		if f.Target, err = j.Blob(ctx, target); err != nil {
			return f, err
		}
	}
	if insideGit(cf.Path) {
		// Read, never written: the plan still shows what the file holds
		// and what it held, for the person to restore by hand.
		fd := newFileDiff(f.Path, "", "", f.Disk.Content, f.Target, f.Disk.Exists, f.TargetExists)
		f.Added, f.Removed = fd.Added, fd.Removed
		f.Action, f.Reason = RestoreRefused, gitRefusal(req, f, fd.Same())
		return f, nil
	}
	last, err := j.lastWrite(ctx, cf.Path)
	if err != nil {
		return f, err
	}
	f.LastCheckpoint = last.id
	if last.state == WriteIntended {
		f.Action = RestoreRefused
		f.Reason = fmt.Sprintf("checkpoint %d is still writing it, or was interrupted (the desk settles interrupted writes when it starts); retry once it is settled", last.id)
		return f, nil
	}
	f.Changed = !sameContent(f.Disk, last.final)
	fd := newFileDiff(f.Path, "", "", f.Disk.Content, f.Target, f.Disk.Exists, f.TargetExists)
	f.Added, f.Removed = fd.Added, fd.Removed
	switch {
	case fd.Same():
		f.Action = RestoreUnchanged
		return f, nil
	case !f.TargetExists:
		f.Action = RestoreDelete
	case !f.Disk.Exists:
		f.Action = RestoreCreate
	default:
		f.Action = RestoreWrite
	}
	if f.Changed {
		if !req.Force {
			f.Action = RestoreRefused
			f.Reason = fmt.Sprintf("changed on disk since checkpoint %d, the journal's last record of it; restore with force to replace it anyway (its current content is then kept in the journal), or leave it out", last.id)
			return f, nil
		}
		f.Reason = fmt.Sprintf("changed on disk since checkpoint %d; its current content (sha256 %s) will be kept in the journal as the restore checkpoint's \"before\"", last.id, shortHash(f.Disk.SHA256))
	}
	return f, nil
}

// lastWrite is the latest checkpoint that touched a path.
type lastWrite struct {
	id    int64
	state WriteState
	final string // blob hash; "" for no file
}

func (j *Journal) lastWrite(ctx context.Context, path string) (lastWrite, error) {
	var w lastWrite
	var final sql.NullString
	err := j.db.QueryRowContext(ctx, `SELECT checkpoint_id, state, final FROM checkpoint_files
		WHERE path = ? ORDER BY checkpoint_id DESC LIMIT 1`, path).Scan(&w.id, &w.state, &final)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return w, fmt.Errorf("journal %s: last write of %s: %w", j.path, path, err)
	}
	w.final = final.String
	return w, nil
}

// moved says why a restore must not write path, recorded inside root, when
// a symlink now sends it elsewhere (a directory or the file replaced by a
// link since the journal recorded it); "" if it still leads to itself.
func moved(root, path string) string {
	real, err := atomicfile.Resolve(path)
	switch {
	case err != nil:
		return err.Error()
	case real == path:
		return ""
	}
	where := "elsewhere in the workspace"
	if rel, err := filepath.Rel(root, real); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		where = "outside the workspace root " + root
	}
	return fmt.Sprintf("a symlink now sends it to %s, %s, since the journal recorded it; restore never follows it: look at what changed there, and restore by hand if it is right", real, where)
}

// gitRefusal says why a file inside .git is refused and how to restore it
// by hand: git does not version its own directory, so "use git" would not
// bring back a hook or a config.
func gitRefusal(req RestoreRequest, f RestoreFile, same bool) string {
	const why = "inside a .git directory, which history never writes (and git does not version .git itself)"
	when := fmt.Sprintf("%s checkpoint %d", req.Target, req.Checkpoint)
	switch {
	case same:
		return why + "; it already holds its content " + when
	case !f.TargetExists:
		return why + "; it did not exist " + when + ": remove it by hand if it should go"
	default:
		return why + "; restore it by hand: the diff shows its content " + when
	}
}

// insideGit reports whether path has a ".git" component.
func insideGit(path string) bool {
	return slices.Contains(strings.Split(filepath.ToSlash(path), "/"), ".git")
}

func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// Diff is what restoring the file would change: from the disk to the
// target content (nothing for a refused file without a target read).
func (f RestoreFile) Diff() FileDiff {
	return newFileDiff(f.Path, "disk", "restored", f.Disk.Content, f.Target, f.Disk.Exists, f.TargetExists)
}

// checkpointPaths lists the files a checkpoint touched, for messages.
func checkpointPaths(cp Checkpoint) string {
	paths := make([]string, len(cp.Files))
	for i, f := range cp.Files {
		paths[i] = f.Path
	}
	return strings.Join(paths, ", ")
}
