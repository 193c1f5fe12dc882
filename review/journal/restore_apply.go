package journal

import (
	"context"
	"errors"
	"fmt"

	"github.com/diffdesk/diffdesk/review/atomicfile"
)

// RestoreResult is what ApplyRestore did.
type RestoreResult struct {
	// Checkpoint is the restore's own checkpoint (restore to before it to
	// undo the restore); 0 when every file already had its content.
	Checkpoint int64
	Files      []RestoreFile // the files written, created or removed
	Kept       []KeptContent // content replaced although it had changed since the journal saw it
}

// KeptContent says where the journal keeps a file's replaced content.
type KeptContent struct {
	Path   string
	SHA256 string // the blob's hash: Journal.Blob reads it back
	// Checkpoint is the restore checkpoint whose "before" it is: restoring
	// to before it (with Paths {Path}) puts the content back.
	Checkpoint int64
}

// ApplyRestore carries out a plan from PlanRestore: it journals the
// restore as a checkpoint (kind restore) before touching any file, writes
// each file atomically with SaveFile (or removes it), and settles the
// checkpoint. A crash at any point leaves each file with its old or its
// new content, and the checkpoint for the desk's Recover to settle. It
// writes nothing, and returns a *RestoreRefusedError, when the plan
// refuses a file; and it refuses (an error naming the file) a file that
// changed since the plan was made. If writing a file fails, the files
// already written are put back and the checkpoint records them as
// interrupted. It never touches .git or branches: only the plan's files.
func (j *Journal) ApplyRestore(ctx context.Context, plan RestorePlan) (RestoreResult, error) {
	req := plan.Request
	what := fmt.Sprintf("restore to %s checkpoint %d", req.Target, req.Checkpoint)
	if refused := plan.Refused(); len(refused) > 0 {
		return RestoreResult{}, &RestoreRefusedError{Checkpoint: req.Checkpoint, Files: refused}
	}
	var res RestoreResult
	intent := WriteIntent{RestoredFrom: req.Checkpoint, Agent: firstNonEmpty(req.Agent, "person"),
		Session: firstNonEmpty(req.Session, "history")}
	for _, f := range plan.Files {
		if f.Action == RestoreUnchanged {
			continue
		}
		now, err := atomicfile.ReadSnapshot(f.Path)
		if err != nil {
			return res, fmt.Errorf("%s: %w", what, err)
		}
		if f.Disk.Changed(now) {
			return res, fmt.Errorf("%s: %s changed since the dry run; nothing written; make a new plan", what, f.Path)
		}
		res.Files = append(res.Files, f)
		intent.Files = append(intent.Files, FileWrite{Path: f.Path, Root: f.Root, BeforeExists: f.Disk.Exists,
			Before: f.Disk.Content, Delete: !f.TargetExists, After: f.Target})
	}
	if len(res.Files) == 0 {
		return res, nil
	}
	intent.Note = fmt.Sprintf("restore of %d file(s) to %s checkpoint %d", len(res.Files), req.Target, req.Checkpoint)
	id, err := j.BeginWrite(ctx, intent)
	if err != nil {
		return res, err
	}
	res.Checkpoint = id
	finals := make([]FileFinal, len(res.Files))
	for i, f := range res.Files {
		created, err := restoreOne(f)
		if err != nil {
			putBack(res.Files[:i+1])
			if ferr := j.FinishWrite(ctx, id, diskFinals(res.Files)); ferr != nil {
				err = errors.Join(err, ferr)
			}
			return res, fmt.Errorf("%s: %s: %w; the files already restored were put back (checkpoint %d records it)", what, f.Path, err, id)
		}
		finals[i] = FileFinal{Path: f.Path, Final: f.Target, Deleted: !f.TargetExists, CreatedDirs: nonNil(created)}
		if f.Changed {
			res.Kept = append(res.Kept, KeptContent{Path: f.Path, SHA256: f.Disk.SHA256, Checkpoint: id})
		}
	}
	if err := j.FinishWrite(ctx, id, finals); err != nil {
		return res, err
	}
	return res, nil
}

// restoreOne writes (or removes) one file and returns the directories it
// created; never through a symlink leading out of its workspace root.
func restoreOne(f RestoreFile) ([]string, error) {
	if f.TargetExists {
		return atomicfile.SaveIn(f.Root, f.Path, f.Target, f.Disk.Mode)
	}
	if err := atomicfile.RemoveIn(f.Root, f.Path); err != nil {
		return nil, err
	}
	return nil, atomicfile.RemoveCreatedDirs(f.RemoveDirs)
}

// putBack returns files to the content the plan found on disk, as well as
// it can; what it cannot is recorded by diskFinals.
func putBack(files []RestoreFile) {
	for _, f := range files {
		if f.Disk.Exists {
			atomicfile.SaveIn(f.Root, f.Path, f.Disk.Content, f.Disk.Mode)
		} else {
			atomicfile.RemoveIn(f.Root, f.Path)
		}
	}
}

// diskFinals is each file's FileFinal as the disk has it now (a file that
// cannot be read is taken as put back).
func diskFinals(files []RestoreFile) []FileFinal {
	out := make([]FileFinal, 0, len(files))
	for _, f := range files {
		now, err := atomicfile.ReadSnapshot(f.Path)
		if err != nil {
			now = f.Disk
		}
		out = append(out, FileFinal{Path: f.Path, Final: now.Content, Deleted: !now.Exists})
	}
	return out
}
