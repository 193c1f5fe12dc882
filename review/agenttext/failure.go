package agenttext

import (
	"fmt"
	"strings"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/internal/fence"
)

// maxEchoLines caps how many lines of a failing search text are echoed back
// to the agent; the agent has the rest.
const maxEchoLines = 40

// failureTexts is the text of each kind of failure (review.FailureKinds),
// as the agent reads it.
var failureTexts = map[review.FailureKind]func(b *strings.Builder, f review.Failure){
	review.FailMatch: func(b *strings.Builder, f review.Failure) { writeMatchFailure(b, f.Path, f.Match) },
	review.FailFormat: func(b *strings.Builder, f review.Failure) {
		fmt.Fprintf(b, "The edit to %s was not applied: it is malformed.\n%s\n", f.Path, f.Format.Error())
		b.WriteString("Nothing was changed. Fix the edit's structure and send it again.\n")
	},
	review.FailContent: func(b *strings.Builder, f review.Failure) {
		fmt.Fprintf(b, "The edit to %s was not applied: %s.\n", f.Path, f.Content.Error())
		b.WriteString("DiffDesk edits text files only; nothing was changed.\n")
	},
	review.FailOther: func(b *strings.Builder, f review.Failure) {
		fmt.Fprintf(b, "The edit to %s was not applied: %s\n", f.Path, f.Err)
	},
	review.FailRefused: writeRefused,
	review.FailPath: func(b *strings.Builder, f review.Failure) {
		switch {
		case f.Rule != "": // the workspace's refusal: its why and what to do
			fmt.Fprintf(b, "The desk refused to write your edit to %s: %s.\n", f.Path, strings.TrimSuffix(f.Err, "."))
		case f.Path != "":
			fmt.Fprintf(b, "The desk refused to write your edit to %s: %s. Nothing was written. Read the file again and propose the edit again if it is still wanted.\n", f.Path, f.Err)
		default: // a desk's from before the path was kept: its words
			b.WriteString("The desk refused to write your edit: " + f.Err + ". Nothing was written. Read the file again and propose the edit again if it is still wanted.\n")
		}
	},
	review.FailNotRecorded: func(b *strings.Builder, f review.Failure) {
		b.WriteString("The desk could not record your edit, so it was not shown for review: " + f.Err)
	},
	review.FailNotWritten: func(b *strings.Builder, f review.Failure) {
		fmt.Fprintf(b, "Approved (%s), but not written: after the agent's tool, %s did not hold the approved text.", f.Verdict, andList(f.Paths))
		if f.Note != "" {
			b.WriteString("\nThe agent said: " + review.PrintableText(f.Note))
		}
		if f.Feedback != "" {
			b.WriteString("\nThe person's note: " + review.PrintableText(f.Feedback))
		}
	},
	review.FailWrite: func(b *strings.Builder, f review.Failure) {
		if f.Stop == "" { // a desk's from before stops had names: its reason alone
			f.Stop = review.WriteOther
		}
		writeStops[f.Stop](b, f)
	},
	review.FailStale: func(b *strings.Builder, f review.Failure) {
		names := f.Paths
		if len(names) == 0 {
			names = []string{"the file"}
		}
		b.WriteString(andList(names) + " changed on disk after you read it, and this desk runs without a person to review your edit against that change")
	},
	review.FailProtected: func(b *strings.Builder, f review.Failure) {
		needsPerson(b, "edits to protected path "+f.Path+" — "+f.Err)
	},
	review.FailCutShort: func(b *strings.Builder, f review.Failure) {
		needsPerson(b, "an edit cut short ("+f.Path+": "+f.Err+")")
	},
	review.FailLoose: func(b *strings.Builder, f review.Failure) {
		needsPerson(b, "an edit that did not match "+f.Path+" exactly")
	},
	review.FailUnattended: func(b *strings.Builder, f review.Failure) {
		b.WriteString("this desk runs without a person and rejects every edit")
	},
	review.FailWithdrawn: func(b *strings.Builder, f review.Failure) { withdrawTexts[f.Why](b, f) },
	review.FailText:      func(b *strings.Builder, f review.Failure) { b.WriteString(f.Text) },
}

// withdrawTexts is the text of each review.WithdrawReason: why the
// proposal was withdrawn, as its outcome's reason (feedback) and the
// history say it.
var withdrawTexts = map[review.WithdrawReason]func(b *strings.Builder, f review.Failure){
	review.WithdrawCancelled: func(b *strings.Builder, f review.Failure) {
		if f.Note == "" {
			b.WriteString("the agent cancelled the proposal")
			return
		}
		b.WriteString(review.PrintableText(f.Note))
	},
	review.WithdrawAnswered: func(b *strings.Builder, f review.Failure) {
		b.WriteString("answered in the " + tool(f.Door) + " terminal")
	},
	review.WithdrawClosedDiffs: func(b *strings.Builder, f review.Failure) { b.WriteString(tool(f.Door) + " closed its diffs") },
	review.WithdrawReopened: func(b *strings.Builder, f review.Failure) {
		b.WriteString(tool(f.Door) + " reopened the tab " + review.Printable(f.Path))
	},
	review.WithdrawNewerDiff: func(b *strings.Builder, f review.Failure) {
		b.WriteString(tool(f.Door) + " opened a newer diff of " + review.Printable(f.Path))
	},
	review.WithdrawStoppedWaiting: func(b *strings.Builder, f review.Failure) { b.WriteString(tool(f.Door) + " stopped waiting") },
	review.WithdrawDisconnected:   func(b *strings.Builder, f review.Failure) { b.WriteString(tool(f.Door) + " disconnected") },
	review.WithdrawDeskClosed: func(b *strings.Builder, f review.Failure) {
		b.WriteString("the desk closed before it was decided: nothing was written")
	},
	review.WithdrawBudget: writeRefused,
}

// tool names the agent's tool by its door ("the agent" over the protocol).
func tool(door string) string {
	if door == "" {
		return "the agent"
	}
	return door
}

// writeRefused says which limit a streamed edit passed, in the words its
// sender was answered with when the desk refused the chunk
// (review.BudgetError, workspace.RefusalError).
func writeRefused(b *strings.Builder, f review.Failure) {
	if be := f.Budget; be != nil {
		fmt.Fprintf(b, "%s holds %d proposals (%s of text) awaiting a decision or their agent, at its budget of %d proposals or %s; the stream to %s is stopped: wait for the outcomes (or cancel proposals) before proposing more",
			be.Scope, be.Count, mib(be.Bytes), be.MaxCount, mib(be.MaxBytes), be.StreamPath)
		return
	}
	if f.Limit == 0 { // a desk's from before the limit was kept: its words
		b.WriteString(f.Err)
		return
	}
	fmt.Fprintf(b, "refused: %s: the streamed edit passed %d bytes, over twice the %d-byte file limit; stop sending, and raise [limits] max_file_bytes or edit a smaller file",
		f.Path, f.Streamed, f.Limit)
}

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// stillWaits ends what a write that stopped says: nothing was written (or
// what was, put back), and the proposal waits for a decision again.
const stillWaits = " Nothing was written; the proposal still waits for a decision.\n"

// writeStops is the text of each review.WriteStop: what stopped the
// write, where, and what to do.
var writeStops = map[review.WriteStop]func(b *strings.Builder, f review.Failure){
	review.WriteStale: func(b *strings.Builder, f review.Failure) {
		b.WriteString("The write stopped: " + andList(f.Paths) + " changed on disk since the proposal arrived." + stillWaits)
		b.WriteString("Review base / disk / proposal and decide again.\n")
	},
	review.WriteRefused: func(b *strings.Builder, f review.Failure) {
		fmt.Fprintf(b, "The write stopped: the desk refused to write %s (%s): %s.%s", f.Path, f.Rule, strings.TrimSuffix(f.Err, "."), stillWaits)
	},
	review.WriteIO: func(b *strings.Builder, f review.Failure) {
		if len(f.Paths) > 0 {
			fmt.Fprintf(b, "Writing %s failed: %s. %s, written before it, could not be put back as %s (%s as the approval left %s); the proposal still waits for a decision.\n",
				f.Path, f.Err, andList(f.Paths), plural(len(f.Paths), "it was", "they were"), plural(len(f.Paths), "it is", "they are"), plural(len(f.Paths), "it", "them"))
		} else {
			fmt.Fprintf(b, "Writing %s failed: %s. Nothing was written: the files of the proposal written before it were put back as they were; the proposal still waits for a decision.\n", f.Path, f.Err)
		}
		b.WriteString("Fix the cause (space, permissions) and decide again.\n")
	},
	review.WriteJournal: func(b *strings.Builder, f review.Failure) {
		b.WriteString("The journal could not record the decision, and the desk writes nothing it has not recorded: " + f.Err + "." + stillWaits)
		b.WriteString("Decide again once the journal can be written.\n")
	},
	review.WriteUnfinished: func(b *strings.Builder, f review.Failure) {
		b.WriteString("The files were written, but the journal could not record that the write finished: " + f.Err + ". The proposal still waits for a decision, and its agent has not been told.\n")
	},
	review.WriteOther: func(b *strings.Builder, f review.Failure) {
		b.WriteString("The decision was not carried out: " + strings.TrimSuffix(f.Err, ".") + "." + stillWaits)
	},
}

// needsPerson says the unattended policy rejected what only a person may
// approve.
func needsPerson(b *strings.Builder, what string) {
	b.WriteString("a person must review " + what + "; this desk runs without a person and approves only what a rule may approve")
}

// Failure renders f as the concise text an agent reads: for an edit that
// did not apply, what failed and where, the failing search text, the
// closest real lines, what did match, and one instruction. "" for nil.
func Failure(f *review.Failure) string {
	if f == nil {
		return ""
	}
	var b strings.Builder
	write, ok := failureTexts[f.Kind]
	switch {
	case ok && complete(*f):
		write(&b, *f)
	case f.Text != "":
		b.WriteString(f.Text)
	default: // a kind this desk does not know, or its facts lost
		fmt.Fprintf(&b, "The edit was not applied (%s)", f.Kind)
		if f.Err != "" {
			b.WriteString(": " + f.Err)
		}
		b.WriteString(". Nothing was written.\n")
	}
	return b.String()
}

// complete reports whether f holds the facts its kind's text needs.
func complete(f review.Failure) bool {
	switch f.Kind {
	case review.FailRefused:
		return f.Budget != nil || f.Limit > 0 || f.Err != ""
	case review.FailWrite:
		return writeStops[f.Stop] != nil || f.Stop == "" && f.Err != ""
	case review.FailWithdrawn:
		return withdrawTexts[f.Why] != nil && (f.Why != review.WithdrawBudget || f.Budget != nil)
	case review.FailMatch:
		return f.Match != nil
	case review.FailFormat:
		return f.Format != nil
	case review.FailContent:
		return f.Content != nil
	}
	return true
}

func writeMatchFailure(b *strings.Builder, path string, e *engine.MatchError) {
	if e.Path != "" {
		path = e.Path
	}
	if e.Format == engine.FormatPatch && e.Block == 0 {
		writePatchFileFailure(b, path, e)
		return
	}
	what := blockName(e)
	fmt.Fprintf(b, "The edit to %s was not applied: %s %s.\n", path, what, failureSummary(e))
	if e.Search != "" {
		b.WriteString("\nSearched for:\n")
		fence.Write(b, echo(e.Search))
	}
	if len(e.Tried) > 0 {
		names := make([]string, len(e.Tried))
		for i, s := range e.Tried {
			names[i] = string(s)
		}
		fmt.Fprintf(b, "\nMatching tried: %s.\n", strings.Join(names, ", "))
	}
	switch e.Kind {
	case engine.FailAmbiguous, engine.FailCount:
		if len(e.Places) > 0 {
			fmt.Fprintf(b, "\nIt occurs at:\n")
			for _, p := range e.Places {
				fmt.Fprintf(b, "- %s\n", lineRange(p.StartLine, p.EndLine))
			}
		}
	default:
		if len(e.Closest) == 0 && e.Kind == engine.FailNoMatch {
			fmt.Fprintf(b, "\nNo lines in %s came close to it.\n", path)
		}
		if len(e.Closest) > 0 {
			c := e.Closest[0]
			fmt.Fprintf(b, "\nThe closest text in %s is at %s (%.0f%% similar):\n", path, lineRange(c.StartLine, c.EndLine), 100*c.Similarity)
			var nb strings.Builder
			for i, l := range c.Lines {
				fmt.Fprintf(&nb, "%d\t%s\n", c.StartLine+i, l)
			}
			fence.Write(b, nb.String())
		}
	}
	if len(e.Applied) > 0 {
		nums := make([]string, len(e.Applied))
		for i, m := range e.Applied {
			nums[i] = fmt.Sprint(m.Block)
		}
		unit := "Block"
		switch e.Format {
		case engine.FormatMultiEdit:
			unit = "Edit"
		case engine.FormatPatch:
			unit = "Chunk"
		}
		fmt.Fprintf(b, "\n%s %s matched, but nothing was written: an edit applies completely or not at all.\n",
			plural(len(nums), unit, unit+"s"), andList(nums))
	} else {
		b.WriteString("\nNothing was written.\n")
	}
	if e.Hint != "" {
		fmt.Fprintf(b, "%s\n", capitalize(strings.TrimSuffix(e.Hint, ".")+"."))
	} else {
		fmt.Fprintf(b, "Send the edit again with %s copied exactly from the file's current lines.\n", what)
	}
}

// writePatchFileFailure explains a patch refused for a whole file: it adds
// (or moves onto) a file that exists, or changes one that does not.
func writePatchFileFailure(b *strings.Builder, path string, e *engine.MatchError) {
	switch e.Kind {
	case engine.FailFileExists:
		fmt.Fprintf(b, "The patch was not applied: it creates %s, which already exists; nothing was written.\n", path)
	case engine.FailFileMissing:
		fmt.Fprintf(b, "The patch was not applied: it changes %s, which does not exist; nothing was written.\n", path)
	default:
		fmt.Fprintf(b, "The patch was not applied at %s (%s); nothing was written.\n", path, e.Kind)
	}
	if e.Hint != "" {
		fmt.Fprintf(b, "%s\n", capitalize(strings.TrimSuffix(e.Hint, ".")+"."))
	}
}

func blockName(e *engine.MatchError) string {
	switch e.Format {
	case engine.FormatSearchReplace:
		return fmt.Sprintf("SEARCH block %d", e.Block)
	case engine.FormatEdit, engine.FormatSmartEdit:
		return "old_string"
	case engine.FormatMultiEdit:
		return fmt.Sprintf("edit %d's old_string", e.Block)
	case engine.FormatPatch:
		return fmt.Sprintf("patch chunk %d", e.Block)
	}
	return fmt.Sprintf("block %d", e.Block)
}

func failureSummary(e *engine.MatchError) string {
	switch e.Kind {
	case engine.FailNoMatch:
		return "does not match the file"
	case engine.FailAmbiguous:
		return fmt.Sprintf("matches %d places equally well", len(e.Places))
	case engine.FailCount:
		return fmt.Sprintf("was expected %s but occurs %s", times(e.Want), times(e.Found))
	case engine.FailNoChange:
		return "is identical to its replacement, so the edit changes nothing"
	case engine.FailEmptySearch:
		return "is empty but the file is not"
	case engine.FailFileExists:
		return "is empty, which creates a file, but the file already exists"
	case engine.FailFileMissing:
		return "cannot match: the file does not exist"
	case engine.FailLineNumbers:
		return "carries line-number prefixes copied from a read tool"
	case engine.FailOverlap:
		return "overlaps the text another block replaces"
	case engine.FailPlaceholder:
		return "has a replacement that contains an omission placeholder"
	}
	return "did not apply (" + string(e.Kind) + ")"
}

func lineRange(start, end int) string {
	if start == end {
		return fmt.Sprintf("line %d", start)
	}
	return fmt.Sprintf("lines %d-%d", start, end)
}

// andList joins items as "1", "1 and 2" or "1, 2 and 3".
func andList(items []string) string {
	if len(items) <= 1 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

func times(n int) string {
	if n == 1 {
		return "once"
	}
	return fmt.Sprintf("%d times", n)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// echo returns s cut to maxEchoLines lines, saying how many were left out.
func echo(s string) string {
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) <= maxEchoLines {
		return s
	}
	return strings.Join(lines[:maxEchoLines], "") + fmt.Sprintf("… (%d more lines)\n", len(lines)-maxEchoLines)
}

// ForWire is o as the protocol and the hub carry it: a failure's text in
// Error, the desk's reason for a rule's rejection or a stale proposal
// given up in Feedback (review.Outcome.WithFailureText), where an agent
// (and a client of an older desk) reads it.
func ForWire(o review.Outcome) review.Outcome {
	return o.WithFailureText(Failure(o.Failure))
}

// failureOf is the text of o's failure: its Failure rendered, or the
// words an older desk or journal sent (Error).
func failureOf(o review.Outcome) string {
	if o.Failure != nil {
		return Failure(o.Failure)
	}
	return o.Error
}

// Reason is the reason o gives beside its verdict: the person's words,
// or the desk's own for what its rule rejected or gave up as stale
// (Failure rendered); "" if none.
func Reason(o review.Outcome) string {
	if o.Failure != nil && o.Status != decision.Failed {
		return Failure(o.Failure)
	}
	return o.Feedback
}
