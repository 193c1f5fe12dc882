package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/diffdesk/diffdesk/review/journal"
)

var historyRestoreCmd = &command{
	name:  "restore",
	usage: "ID [flags]",
	short: "return the files of a checkpoint to their content before it (undo) or after it",
	long: `Return the files of checkpoint ID to their content right before it (undo; the default) or
right after it; a dry run unless --apply. Files changed since the journal last saw them are
refused unless --force (their content is kept in the journal); a refusal exits 1. A restore is a
checkpoint too: restore it to undo it. With a desk running (--socket) and no --journal, the desk
restores them itself, and its waiting proposals of those files turn stale at once.`,
	flags: func(fl *flag.FlagSet) runFunc {
		var o restoreOptions
		journalPath := journalFlag(fl)
		socket := socketFlag(fl)
		fl.Var(&o.files, "file", "only this `PATH` of the checkpoint (repeatable)")
		to := fl.String("to", "before", "restore the content right `before|after` the checkpoint (before: undo it)")
		fl.BoolVar(&o.force, "force", false, "restore files changed since the journal last saw them (their content is kept in the journal)")
		fl.BoolVar(&o.apply, "apply", false, "write the files (without it: a dry run)")
		fl.BoolVar(&o.json, "json", false, "print the plan (and result) as JSON")
		fl.BoolVar(&o.diff, "diff", false, "also print what each file would change, as unified diffs")
		return func(ctx context.Context, x *invocation) int {
			o.journal, o.to, o.socket = *journalPath, journal.RestoreTarget(*to), *socket
			return historyRestore(ctx, x, o)
		}
	},
}

// restoreOptions are the flags of deskctl history restore.
type restoreOptions struct {
	journal, socket          string
	files                    stringList
	to                       journal.RestoreTarget
	force, apply, json, diff bool
}

// historyRestore implements `deskctl history restore ID`: a dry run
// unless --apply. It exits 1 when a file is refused.
func historyRestore(ctx context.Context, x *invocation, o restoreOptions) int {
	if len(x.args) != 1 {
		return x.usageError("want one checkpoint ID")
	}
	ref, err := journal.ParseRef(x.args[0])
	if err != nil {
		return x.fail(err)
	}
	if ref.Checkpoint() == 0 {
		return x.fail(fmt.Errorf("%s is a decision that wrote nothing, so there is nothing to restore; pick a checkpoint from deskctl history list", ref))
	}
	paths, err := absPaths(o.files)
	if err != nil {
		return x.fail(err)
	}
	req := journal.RestoreRequest{Checkpoint: ref.Checkpoint(), Target: o.to, Paths: paths,
		Force: o.force, Agent: "person", Session: "deskctl"}
	var plan journal.RestorePlan
	var res journal.RestoreResult
	if cl, derr := dialReviewer(ctx, o.socket); derr == nil && o.journal == "" {
		// A desk runs: it restores, the one writer of its workspace.
		defer cl.Close()
		a, err := cl.Restore(ctx, req, o.apply)
		if err != nil {
			return x.fail(err)
		}
		plan, res = a.Plan, a.Result
		if a.Refused != "" {
			err = &journal.RestoreRefusedError{Checkpoint: req.Checkpoint, Files: plan.Refused()}
		}
		return restoreDone(x, o, plan, res, err)
	} else if derr == nil {
		cl.Close()
	}
	j, err := openHistoryJournal(ctx, o.journal)
	if err != nil {
		return x.fail(err)
	}
	defer j.Close()
	if plan, err = j.PlanRestore(ctx, req); err != nil {
		return x.fail(err)
	}
	if o.apply {
		res, err = j.ApplyRestore(ctx, plan)
	}
	return restoreDone(x, o, plan, res, err)
}

// restoreDone prints a restore's plan and result, and exits as
// historyRestore says.
func restoreDone(x *invocation, o restoreOptions, plan journal.RestorePlan, res journal.RestoreResult, err error) int {
	if o.json {
		writeJSON(x.stdout, restoreJSON(plan, res, o.apply, err))
	} else {
		printRestore(x.stdout, plan, res, o.apply, err)
		for _, f := range plan.Files {
			if o.diff && f.Action != journal.RestoreRefused && f.Action != journal.RestoreUnchanged {
				fmt.Fprint(x.stdout, f.Diff().Unified)
			}
		}
	}
	var refused *journal.RestoreRefusedError
	switch {
	case errors.As(err, &refused):
		return x.fail(fmt.Errorf("nothing written: %d file(s) refused (see above); use --force, or --file to leave them out", len(refused.Files)))
	case err != nil:
		return x.fail(err)
	case !o.apply && len(plan.Refused()) > 0:
		return 1
	}
	return 0
}

// printRestore prints the plan, one file a line, and what was done.
func printRestore(w io.Writer, plan journal.RestorePlan, res journal.RestoreResult, applied bool, err error) {
	fmt.Fprintf(w, "restore to %s checkpoint %d:\n", plan.Request.Target, plan.Request.Checkpoint)
	for _, f := range plan.Files {
		line := fmt.Sprintf("  %-9s %s", f.Action, shownPath(f.Path))
		if f.Action != journal.RestoreUnchanged && f.Action != journal.RestoreRefused {
			line += fmt.Sprintf(" (+%d −%d)", f.Added, f.Removed)
		}
		if f.Reason != "" {
			line += ": " + f.Reason
		}
		fmt.Fprintln(w, line)
	}
	switch {
	case err != nil:
	case !applied:
		fmt.Fprintln(w, "dry run: nothing written; add --apply to restore")
	case res.Checkpoint == 0:
		fmt.Fprintln(w, "nothing to do: every file already has that content")
	default:
		fmt.Fprintf(w, "restored %d file(s) as checkpoint %d; undo with: deskctl history restore %d --apply\n", len(res.Files), res.Checkpoint, res.Checkpoint)
		for _, k := range res.Kept {
			fmt.Fprintf(w, "kept the replaced content of %s in the journal (blob sha256 %s, the \"before\" of checkpoint %d); bring it back with: deskctl history restore %d --file %s --apply\n",
				shownPath(k.Path), k.SHA256, k.Checkpoint, k.Checkpoint, k.Path)
		}
	}
}

func restoreJSON(plan journal.RestorePlan, res journal.RestoreResult, applied bool, err error) any {
	type fileJSON struct {
		Path    string `json:"path"`
		Action  string `json:"action"`
		Reason  string `json:"reason,omitempty"`
		Changed bool   `json:"changedSinceJournal,omitempty"`
		Added   int    `json:"added"`
		Removed int    `json:"removed"`
		Unified string `json:"unified,omitempty"`
	}
	type keptJSON struct {
		Path       string `json:"path"`
		SHA256     string `json:"sha256"`
		Checkpoint int64  `json:"checkpoint"`
	}
	out := struct {
		Checkpoint int64      `json:"checkpoint"`
		Target     string     `json:"target"`
		Applied    bool       `json:"applied"`
		Restore    int64      `json:"restoreCheckpoint,omitempty"`
		Files      []fileJSON `json:"files"`
		Kept       []keptJSON `json:"kept,omitempty"`
		Error      string     `json:"error,omitempty"`
	}{Checkpoint: plan.Request.Checkpoint, Target: string(plan.Request.Target), Applied: applied && err == nil && res.Checkpoint != 0,
		Restore: res.Checkpoint, Files: []fileJSON{}}
	for _, f := range plan.Files {
		out.Files = append(out.Files, fileJSON{f.Path, string(f.Action), f.Reason, f.Changed, f.Added, f.Removed, f.Diff().Unified})
	}
	for _, k := range res.Kept {
		out.Kept = append(out.Kept, keptJSON{k.Path, k.SHA256, k.Checkpoint})
	}
	if err != nil {
		out.Error = err.Error()
	}
	return out
}

var historyPruneCmd = &command{
	name:  "prune",
	usage: "--older-than AGE | --max-size SIZE [flags]",
	short: "drop old history; content still referenced is never lost",
	long: `Drop history older than AGE, or the oldest until the journal holds SIZE, or both; content
still referenced is never lost. Without either, history is kept forever.`,
	flags: func(fl *flag.FlagSet) runFunc {
		var o pruneOptions
		journalPath := journalFlag(fl)
		fl.StringVar(&o.olderThan, "older-than", "", "drop history older than `AGE` (e.g. 90d, 2w, 36h)")
		fl.StringVar(&o.maxSize, "max-size", "", "drop the oldest history until the stored content is at most `SIZE` (e.g. 2GB, 500MiB)")
		fl.BoolVar(&o.dryRun, "dry-run", false, "report what would be dropped, drop nothing")
		fl.BoolVar(&o.json, "json", false, "print the report as JSON")
		return func(ctx context.Context, x *invocation) int {
			o.journal = *journalPath
			return historyPrune(ctx, x, o)
		}
	},
}

// pruneOptions are the flags of deskctl history prune.
type pruneOptions struct {
	journal, olderThan, maxSize string
	dryRun, json                bool
}

// historyPrune implements `deskctl history prune`.
func historyPrune(ctx context.Context, x *invocation, o pruneOptions) int {
	if len(x.args) != 0 || o.olderThan == "" && o.maxSize == "" {
		return x.usageError("want --older-than AGE and/or --max-size SIZE (history is kept forever otherwise)")
	}
	policy, err := journal.ParseRetentionPolicy(o.olderThan, o.maxSize)
	if err != nil {
		return x.usageError("%v", err)
	}
	j, err := openHistoryJournal(ctx, o.journal)
	if err != nil {
		return x.fail(err)
	}
	defer j.Close()
	rep, err := j.Prune(ctx, policy, o.dryRun)
	if err != nil {
		return x.fail(err)
	}
	if o.json {
		writeJSON(x.stdout, rep)
		return 0
	}
	verb := "dropped"
	if o.dryRun {
		verb = "dry run: would drop"
	}
	fmt.Fprintf(x.stdout, "%s %d checkpoint(s), %d decision(s), %d proposal(s) and %d blob(s) (%d stored bytes); %d kept blob(s) re-stored in full; %d stored bytes left\n",
		verb, rep.Checkpoints, rep.Decisions, rep.Proposals, rep.Blobs, rep.BlobBytes, rep.Rebased, rep.StoredBytes)
	return 0
}
