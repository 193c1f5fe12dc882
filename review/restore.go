package review

import (
	"context"
	"fmt"

	"github.com/diffdesk/diffdesk/review/journal"
)

// Restore returns the files of a checkpoint to their content before or
// after it (req), as a write of the desk's own, so that the desk stays the
// one writer of its workspace: each file's path must still resolve inside
// the workspace to where it was (no symlink swapped in; a file of another
// workspace is refused); the journal then writes the files atomically as a
// restore checkpoint, refusing a file changed since it last recorded it
// unless req.Force (whose content it keeps). The open proposals of the
// restored files are checked against the disk at once: one the restore
// changed under is stale before anyone can approve it. With apply false it
// is the dry run: the plan, nothing written.
func (d *Desk) Restore(ctx context.Context, req journal.RestoreRequest, apply bool) (journal.RestorePlan, journal.RestoreResult, error) {
	plan, err := d.journal.PlanRestore(ctx, req)
	if err != nil {
		return plan, journal.RestoreResult{}, err
	}
	for _, f := range plan.Files {
		if f.Action == journal.RestoreRefused || f.Action == journal.RestoreUnchanged {
			continue
		}
		t, err := d.ws.Resolve(f.Path)
		if err != nil {
			return plan, journal.RestoreResult{}, fmt.Errorf("review: restore from checkpoint %d: %w", req.Checkpoint, err)
		}
		if t.Abs != f.Path {
			return plan, journal.RestoreResult{}, fmt.Errorf("review: restore from checkpoint %d: %s now leads to %s; nothing was written", req.Checkpoint, f.Path, t.Abs)
		}
	}
	if !apply {
		return plan, journal.RestoreResult{}, nil
	}
	res, err := d.journal.ApplyRestore(ctx, plan)
	for _, f := range plan.Files {
		d.recheck(f.Path)
	}
	return plan, res, err
}
