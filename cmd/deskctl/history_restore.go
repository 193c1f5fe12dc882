package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/diffdesk/diffdesk/review/journal"
)

// historyRestore implements `deskctl history restore ID`: a dry run
// unless --apply. It exits 1 when a file is refused.
func historyRestore(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fl, journalPath := historyFlags("restore", stderr)
	var files stringList
	fl.Var(&files, "file", "only this file of the checkpoint (repeatable)")
	to := fl.String("to", "before", "before: undo the checkpoint; after: its content right after it")
	force := fl.Bool("force", false, "restore files changed since the journal last saw them (their content is kept in the journal)")
	apply := fl.Bool("apply", false, "write the files (without it: a dry run)")
	asJSON := fl.Bool("json", false, "print the plan (and result) as JSON")
	showDiff := fl.Bool("diff", false, "also print what each file would change, as unified diffs")
	if err := parseFlags(fl, args); err != nil {
		return 2
	}
	if fl.NArg() != 1 {
		fmt.Fprintln(stderr, "deskctl history restore: want one checkpoint: deskctl history restore ID [--file PATH] [--apply]")
		return 2
	}
	ref, err := journal.ParseRef(fl.Arg(0))
	if err != nil {
		return historyFail(stderr, "restore", err)
	}
	if ref.Checkpoint() == 0 {
		return historyFail(stderr, "restore", fmt.Errorf("%s is a decision that wrote nothing, so there is nothing to restore; pick a checkpoint from deskctl history list", ref))
	}
	paths, err := absPaths(files)
	if err != nil {
		return historyFail(stderr, "restore", err)
	}
	j, err := openHistoryJournal(ctx, *journalPath)
	if err != nil {
		return historyFail(stderr, "restore", err)
	}
	defer j.Close()
	req := journal.RestoreRequest{Checkpoint: ref.Checkpoint(), Target: journal.RestoreTarget(*to), Paths: paths,
		Force: *force, Agent: "person", Session: "deskctl"}
	plan, err := j.PlanRestore(ctx, req)
	if err != nil {
		return historyFail(stderr, "restore", err)
	}
	var res journal.RestoreResult
	if *apply {
		res, err = j.ApplyRestore(ctx, plan)
	}
	if *asJSON {
		writeJSON(stdout, restoreJSON(plan, res, *apply, err))
	} else {
		printRestore(stdout, plan, res, *apply, err)
		for _, f := range plan.Files {
			if *showDiff && f.Action != journal.RestoreRefused && f.Action != journal.RestoreUnchanged {
				fmt.Fprint(stdout, f.Diff().Unified)
			}
		}
	}
	var refused *journal.RestoreRefusedError
	switch {
	case errors.As(err, &refused):
		fmt.Fprintf(stderr, "deskctl history restore: nothing written: %d file(s) refused (see above); use --force, or --file to leave them out\n", len(refused.Files))
		return 1
	case err != nil:
		return historyFail(stderr, "restore", err)
	case !*apply && len(plan.Refused()) > 0:
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

// historyPrune implements `deskctl history prune`.
func historyPrune(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fl, journalPath := historyFlags("prune", stderr)
	olderThan := fl.String("older-than", "", "drop history older than this age (e.g. 90d, 2w, 36h)")
	maxSize := fl.String("max-size", "", "drop the oldest history until the stored content is at most this (e.g. 2GB, 500MiB)")
	dryRun := fl.Bool("dry-run", false, "report what would be dropped, drop nothing")
	asJSON := fl.Bool("json", false, "print the report as JSON")
	if err := parseFlags(fl, args); err != nil {
		return 2
	}
	if fl.NArg() != 0 || *olderThan == "" && *maxSize == "" {
		fmt.Fprintln(stderr, "deskctl history prune: want --older-than AGE and/or --max-size SIZE (history is kept forever otherwise)")
		return 2
	}
	policy, err := journal.ParseRetentionPolicy(*olderThan, *maxSize)
	if err != nil {
		fmt.Fprintf(stderr, "deskctl history prune: %v\n", err)
		return 2
	}
	j, err := openHistoryJournal(ctx, *journalPath)
	if err != nil {
		return historyFail(stderr, "prune", err)
	}
	defer j.Close()
	rep, err := j.Prune(ctx, policy, *dryRun)
	if err != nil {
		return historyFail(stderr, "prune", err)
	}
	if *asJSON {
		writeJSON(stdout, rep)
		return 0
	}
	verb := "dropped"
	if *dryRun {
		verb = "dry run: would drop"
	}
	fmt.Fprintf(stdout, "%s %d checkpoint(s), %d decision(s), %d proposal(s) and %d blob(s) (%d stored bytes); %d kept blob(s) re-stored in full; %d stored bytes left\n",
		verb, rep.Checkpoints, rep.Decisions, rep.Proposals, rep.Blobs, rep.BlobBytes, rep.Rebased, rep.StoredBytes)
	return 0
}
