package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/journal"
)

var historyShowCmd = &command{
	name:  "show",
	usage: "ID [flags]",
	short: "one entry: who, when, the decision and reason, the files, the person's edits",
	long: `One entry: who, when, the decision and reason, the files, the person's edits and the
formatter's changes.`,
	flags: func(fl *flag.FlagSet) runFunc {
		journalPath := journalFlag(fl)
		asJSON := fl.Bool("json", false, "print the entry, its files' content hashes and its diffs as JSON")
		return func(ctx context.Context, x *invocation) int { return historyShow(ctx, x, *journalPath, *asJSON) }
	},
}

// historyShow implements `deskctl history show ID`.
func historyShow(ctx context.Context, x *invocation, journalPath string, asJSON bool) int {
	if len(x.args) != 1 {
		return x.usageError("want one ID")
	}
	stdout := x.stdout
	ref, err := journal.ParseRef(x.args[0])
	if err != nil {
		return x.fail(err)
	}
	j, err := openHistoryJournal(ctx, journalPath)
	if err != nil {
		return x.fail(err)
	}
	defer j.Close()
	d, err := j.Detail(ctx, ref)
	if err != nil {
		return x.fail(err)
	}
	sections, err := detailSections(ctx, j, d)
	if err != nil {
		return x.fail(err)
	}
	if asJSON {
		writeJSON(stdout, detailJSON(d, sections))
		return 0
	}
	title := "checkpoint " + string(d.Ref)
	if d.Kind == journal.EntryDecision {
		title = "decision " + string(d.Ref)
	}
	fmt.Fprintf(stdout, "%s · %s", title, d.Kind)
	for _, s := range []string{string(d.Decision), string(d.State)} {
		if s != "" {
			fmt.Fprintf(stdout, " · %s", s)
		}
	}
	fmt.Fprintf(stdout, "\nwhen:     %s\nwho:      %s / session %s\n", d.Time.Local().Format("2006-01-02 15:04:05 MST"), review.Printable(d.Agent), review.Printable(d.Session))
	if d.ProposalID != "" {
		fmt.Fprintf(stdout, "proposal: %s (%s)\n", d.ProposalID, d.Format)
	}
	if d.RestoredFrom != 0 {
		fmt.Fprintf(stdout, "restored: from checkpoint %d\n", d.RestoredFrom)
	}
	for _, kv := range [][2]string{{"decided", decidedBy(d)}, {"note", review.PrintableText(d.Note)}, {"reason", review.PrintableText(d.Feedback)}, {"hunks", strings.Join(d.Hunks, ", ")}} {
		if kv[1] != "" {
			fmt.Fprintf(stdout, "%-9s %s\n", kv[0]+":", kv[1])
		}
	}
	writeSeen(stdout, d.Seen)
	fmt.Fprintln(stdout, "files:")
	for _, f := range d.Files {
		fmt.Fprintf(stdout, "  %s%s\n", shownPath(f.Path), fileStateNote(f))
	}
	writeComments(stdout, d.Comments)
	for _, s := range sections {
		if s.diff.Unified == "" {
			continue
		}
		fmt.Fprintf(stdout, "\n=== %s: %s (+%d −%d)\n%s", s.title, shownPath(s.diff.Path), s.diff.Added, s.diff.Removed, review.PrintableText(s.diff.Unified)) // an agent's text: no terminal control of it runs
	}
	return 0
}

// writeSeen says how many of the lines the proposal changes were never on
// screen before the decision (decision.SeenSummary), and names, per file,
// the hunks not seen whole, with how many of their lines were; nothing
// when that was not tracked.
func writeSeen(w io.Writer, hs []decision.HunkSeen) {
	if hs == nil {
		return
	}
	fmt.Fprintf(w, "seen:     %s before the decision\n", decision.SeenSummary(hs))
	var paths []string
	never := map[string][]string{}
	for _, h := range hs {
		if h.Seen {
			continue
		}
		if never[h.Path] == nil {
			paths = append(paths, h.Path)
		}
		id := review.Printable(h.Hunk)
		if h.Lines > 0 {
			id += fmt.Sprintf(" (%d of %d lines shown)", min(max(h.LinesSeen, 0), h.Lines), h.Lines)
		}
		never[h.Path] = append(never[h.Path], id)
	}
	for _, p := range paths {
		fmt.Fprintf(w, "  not seen whole in %s: %s\n", shownPath(p), strings.Join(never[p], ", "))
	}
}

// writeComments lists an entry's line comments: where, the lines, the
// text, all escaped for the terminal.
func writeComments(w io.Writer, cs []decision.Comment) {
	if len(cs) == 0 {
		return
	}
	lines := func(s string) []string {
		return strings.Split(strings.TrimSuffix(strings.ReplaceAll(s, "\r\n", "\n"), "\n"), "\n")
	}
	fmt.Fprintln(w, "comments:")
	for _, c := range cs {
		fmt.Fprintf(w, "  %s, %s side, line %s:\n", shownPath(c.Path), c.Side, c.Lines())
		for _, l := range lines(c.Quote) {
			fmt.Fprintf(w, "    | %s\n", review.Printable(strings.ReplaceAll(l, "\t", "    ")))
		}
		for _, l := range lines(c.Text) {
			fmt.Fprintf(w, "    %s\n", review.Printable(strings.ReplaceAll(l, "\t", "    ")))
		}
	}
}

// fileStateNote says how a file of an entry ended, when that is not plain.
func fileStateNote(f journal.DetailFile) string {
	switch {
	case f.State == "" || f.State == journal.WriteWritten && !f.Deleted:
		return ""
	case f.State == journal.WriteWritten:
		return "  (deleted)"
	}
	return "  (" + string(f.State) + ")"
}

// detailSection is one titled diff of show.
type detailSection struct {
	title string
	diff  journal.FileDiff
}

// detailSections are the diffs show prints for each file: the change (or
// for a decision, the proposal), the person's edits and the formatter's.
func detailSections(ctx context.Context, j *journal.Journal, d journal.Detail) ([]detailSection, error) {
	var out []detailSection
	change, err := j.DiffEntry(ctx, d.Ref, nil)
	if err != nil {
		return nil, err
	}
	title := "the change"
	if d.Kind == journal.EntryDecision {
		title = "the proposal"
	}
	for i, f := range d.Files {
		if i < len(change) {
			out = append(out, detailSection{title, change[i]})
		}
		stages := []struct{ title, oldLabel, old, newLabel, new string }{
			{"the person's edits", "proposed", f.Proposed, "approved", f.Approved},
			{"the formatter's changes", "approved", f.Approved, "formatted", f.Formatted},
		}
		for _, s := range stages {
			if s.old == "" || s.new == "" || s.old == s.new {
				continue
			}
			fd, err := j.DiffStage(ctx, f.Path, s.oldLabel, s.old, s.newLabel, s.new)
			if err != nil {
				return nil, err
			}
			out = append(out, detailSection{s.title, fd})
		}
	}
	return out, nil
}

// detailFileJSON is a file of show --json: each stage's content hash.
type detailFileJSON struct {
	Path      string `json:"path"`
	Root      string `json:"root"`
	Base      string `json:"base,omitempty"`
	Proposed  string `json:"proposed,omitempty"`
	Approved  string `json:"approved,omitempty"`
	Deleted   bool   `json:"deleted,omitempty"`
	Before    string `json:"before,omitempty"`
	After     string `json:"after,omitempty"`
	Formatted string `json:"formatted,omitempty"`
	Final     string `json:"final,omitempty"`
	State     string `json:"state,omitempty"`
}

func detailJSON(d journal.Detail, sections []detailSection) any {
	files := make([]detailFileJSON, len(d.Files))
	for i, f := range d.Files {
		files[i] = detailFileJSON{Path: f.Path, Root: f.Root, Base: f.Base, Proposed: f.Proposed, Approved: f.Approved,
			Deleted: f.Deleted, Before: f.Before, After: f.After, Formatted: f.Formatted, Final: f.Final, State: string(f.State)}
	}
	type diffJSON struct {
		Title   string `json:"title"`
		Path    string `json:"path"`
		Added   int    `json:"added"`
		Removed int    `json:"removed"`
		Unified string `json:"unified"`
	}
	diffs := []diffJSON{}
	for _, s := range sections {
		diffs = append(diffs, diffJSON{s.title, s.diff.Path, s.diff.Added, s.diff.Removed, s.diff.Unified})
	}
	return struct {
		entryJSON
		Format   string              `json:"format,omitempty"`
		Payload  string              `json:"payload,omitempty"`
		Hunks    []string            `json:"hunks,omitempty"`
		Comments []decision.Comment  `json:"comments,omitempty"`
		Seen     []decision.HunkSeen `json:"seen,omitempty"` // absent: not tracked
		Decided  string              `json:"decidedBy,omitempty"`
		ByRule   bool                `json:"decidedByRule,omitempty"` // decidedBy names a rule, not a person
		Outcome  json.RawMessage     `json:"outcome,omitempty"`
		Files    []detailFileJSON    `json:"files"`
		Diffs    []diffJSON          `json:"diffs"`
	}{historyEntryJSON(d.Entry), d.Format, string(d.Payload), d.Hunks, d.Comments, d.Seen, d.DecidedBy, d.DecidedByRule, d.Outcome, files, diffs}
}

var historyDiffCmd = &command{
	name:  "diff",
	usage: "ID [ID2 | --disk] [flags]",
	short: "what a checkpoint changed, two checkpoints, or a checkpoint against the disk",
	long: `What checkpoint ID changed; or the files between checkpoints ID and ID2; or checkpoint ID
against the files on disk now — as unified diffs, or with --json as a list of files, each with
"path", "old" and "new" (the two sides' labels), "oldExists", "newExists", "added", "removed",
"binary", "unified" (the diff, "" when the same) and "oldContent"/"newContent" (absent for a
binary file or a side with no file).`,
	flags: func(fl *flag.FlagSet) runFunc {
		var o historyDiffOptions
		journalPath := journalFlag(fl)
		fl.BoolVar(&o.json, "json", false, "print the files' diffs as JSON")
		fl.BoolVar(&o.disk, "disk", false, "compare with the files on disk now")
		fl.Var(&o.files, "file", "only this `PATH` (repeatable)")
		return func(ctx context.Context, x *invocation) int {
			o.journal = *journalPath
			return historyDiff(ctx, x, o)
		}
	},
}

// historyDiffOptions are the flags of deskctl history diff.
type historyDiffOptions struct {
	journal    string
	disk, json bool
	files      stringList
}

// historyFileDiffJSON is one file of history diff --json.
type historyFileDiffJSON struct {
	Path       string  `json:"path"`
	Old        string  `json:"old"`
	New        string  `json:"new"`
	OldExists  bool    `json:"oldExists"`
	NewExists  bool    `json:"newExists"`
	Added      int     `json:"added"`
	Removed    int     `json:"removed"`
	Binary     bool    `json:"binary"`
	Unified    string  `json:"unified"`
	OldContent *string `json:"oldContent,omitempty"`
	NewContent *string `json:"newContent,omitempty"`
}

func fileDiffJSON(d journal.FileDiff) historyFileDiffJSON {
	out := historyFileDiffJSON{Path: d.Path, Old: d.OldLabel, New: d.NewLabel, OldExists: d.OldExists, NewExists: d.NewExists,
		Added: d.Added, Removed: d.Removed, Binary: d.Binary, Unified: d.Unified}
	if !d.Binary && d.OldExists {
		s := string(d.Old)
		out.OldContent = &s
	}
	if !d.Binary && d.NewExists {
		s := string(d.New)
		out.NewContent = &s
	}
	return out
}

// historyDiff implements `deskctl history diff ID [ID2|--disk]`.
func historyDiff(ctx context.Context, x *invocation, o historyDiffOptions) int {
	if n := len(x.args); n < 1 || n > 2 || o.disk && n != 1 {
		return x.usageError("want ID, ID ID2, or ID --disk")
	}
	var refs []journal.Ref
	for _, a := range x.args {
		ref, err := journal.ParseRef(a)
		if err != nil {
			return x.fail(err)
		}
		if (len(x.args) == 2 || o.disk) && ref.Checkpoint() == 0 {
			return x.fail(fmt.Errorf("%s is a decision that wrote nothing; compare checkpoints (see deskctl history list)", ref))
		}
		refs = append(refs, ref)
	}
	paths, err := absPaths(o.files)
	if err != nil {
		return x.fail(err)
	}
	j, err := openHistoryJournal(ctx, o.journal)
	if err != nil {
		return x.fail(err)
	}
	defer j.Close()
	var diffs []journal.FileDiff
	switch {
	case o.disk:
		diffs, err = j.DiffDisk(ctx, refs[0].Checkpoint(), paths)
	case len(refs) == 2:
		diffs, err = j.DiffPoints(ctx, refs[0].Checkpoint(), refs[1].Checkpoint(), paths)
	default:
		diffs, err = j.DiffEntry(ctx, refs[0], paths)
	}
	if err != nil {
		return x.fail(err)
	}
	if o.json {
		out := []historyFileDiffJSON{}
		for _, d := range diffs {
			out = append(out, fileDiffJSON(d))
		}
		writeJSON(x.stdout, out)
		return 0
	}
	same := true
	for _, d := range diffs {
		io.WriteString(x.stdout, d.Unified)
		same = same && d.Unified == ""
	}
	if same {
		fmt.Fprintf(x.stderr, "no differences (%s)\n", describeDiff(refs, o.disk))
	}
	return 0
}

// describeDiff names what a diff compared.
func describeDiff(refs []journal.Ref, disk bool) string {
	switch {
	case disk:
		return "checkpoint " + string(refs[0]) + " and the disk"
	case len(refs) == 2:
		return "checkpoints " + string(refs[0]) + " and " + string(refs[1])
	}
	return "entry " + strconv.Quote(string(refs[0])) + " changed nothing"
}

// decidedBy says who decided an entry, a rule or a person, from the
// journal's own record of which (a person's name saying "rule: …" reads
// as the person's).
func decidedBy(d journal.Detail) string {
	switch {
	case d.DecidedBy == "":
		return ""
	case d.DecidedByRule:
		return "a rule, no person: " + review.Printable(d.DecidedBy)
	}
	return "the person " + review.Printable(d.DecidedBy)
}
