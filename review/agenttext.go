package review

import (
	"errors"
	"fmt"
	"strings"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/internal/fence"
)

// maxEchoLines caps how many lines of a failing search text are echoed back
// to the agent; the agent has the rest.
const maxEchoLines = 40

// FailureText renders an edit that did not apply as the concise text an
// agent reads: what failed and where, the failing search text, the closest
// real lines, what did match, and one instruction. path names the file (or,
// for a patch, the directory it applies to).
func FailureText(path string, err error) string {
	var b strings.Builder
	var me *engine.MatchError
	var fe *engine.FormatError
	var ce *engine.ContentError
	switch {
	case errors.As(err, &me):
		writeMatchFailure(&b, path, me)
	case errors.As(err, &fe):
		fmt.Fprintf(&b, "The edit to %s was not applied: it is malformed.\n%s\n", path, fe.Error())
		b.WriteString("Nothing was changed. Fix the edit's structure and send it again.\n")
	case errors.As(err, &ce):
		fmt.Fprintf(&b, "The edit to %s was not applied: %s.\n", path, ce.Error())
		b.WriteString("DiffDesk edits text files only; nothing was changed.\n")
	default:
		fmt.Fprintf(&b, "The edit to %s was not applied: %v\n", path, err)
	}
	return b.String()
}

// refusedWriteText tells the agent its approved edit was not written: the
// file's path no longer leads where it did (err says how).
func refusedWriteText(err error) string {
	return "The desk refused to write your edit: " + err.Error() + ". Nothing was written. Read the file again and propose the edit again if it is still wanted.\n"
}

// notRecordedText tells the agent its edit failed because the journal
// could not record it.
func notRecordedText(err error) string {
	return "The desk could not record your edit, so it was not shown for review: " + err.Error()
}

// notWrittenText says an approval whose agent writes its files (status)
// was not written: the files missing did not hold the approved text after
// the agent's tool; note is what the agent said (capped, "" if nothing).
func notWrittenText(status decision.Verdict, missing []string, note string) string {
	why := fmt.Sprintf("Approved (%s), but not written: after the agent's tool, %s did not hold the approved text.", status, andList(missing))
	if note != "" {
		why += "\nThe agent said: " + PrintableText(note)
	}
	return why
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

// ErrorJSON returns the structured form of an edit error for JSON output:
// {"kind": …, "message": …} plus the engine's typed fields.
func ErrorJSON(err error) map[string]any {
	out := map[string]any{"message": err.Error()}
	var me *engine.MatchError
	var fe *engine.FormatError
	var ce *engine.ContentError
	switch {
	case errors.As(err, &me):
		out["kind"] = "match"
		out["match"] = me
	case errors.As(err, &fe):
		out["kind"] = "format"
		out["block"], out["line"] = fe.Block, fe.Line
	case errors.As(err, &ce):
		out["kind"] = "content"
		out["line"], out["offset"] = ce.Line, ce.Offset
	default:
		out["kind"] = "other"
	}
	return out
}
