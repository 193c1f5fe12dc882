package agenttext

import (
	"fmt"
	"strings"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/internal/fence"
)

// Outcome renders o as the concise text an agent reads: what was
// saved, the person's and the formatter's patches, the final content, and
// that later edits must be based on it and nothing must be resent; last,
// what the desk's journal could not record of it.
func Outcome(o review.Outcome) string {
	text := outcomeText(o)
	if len(o.Unrecorded) == 0 {
		return text
	}
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	for _, g := range o.Unrecorded {
		text += journalGap(g) + "\n"
	}
	return text
}

// journalGap says what the desk's journal could not record (the agent's
// outcome was delivered all the same).
func journalGap(g review.JournalGap) string {
	what := "this outcome; the desk's history may lack it"
	if g.What == review.GapArrived {
		what = "what had arrived of your edit before it was withdrawn"
	}
	return fmt.Sprintf("The desk's journal could not record %s (%s).", what, g.Err)
}

func outcomeText(o review.Outcome) string {
	var b strings.Builder
	switch o.Status {
	case decision.Failed:
		return failureOf(o)
	case decision.Rejected:
		if o.DecidedBy == review.DecidedByRule {
			fmt.Fprintf(&b, "No person reviewed this edit: %s rejected it; nothing was written.\n", o.Rule)
			if reason := Reason(o); reason != "" {
				fmt.Fprintf(&b, "The reason: %s\n", reason)
			}
		} else {
			b.WriteString("The person reviewing this edit rejected it")
			if o.Unfinished {
				b.WriteString(" while you were still sending it, having seen what had arrived")
			}
			b.WriteString("; nothing was written.\n")
			if o.Feedback != "" {
				fmt.Fprintf(&b, "Their reason: %s\n", o.Feedback)
			}
		}
		writeComments(&b, o.Comments)
		writeChosenRejected(&b, o.Files)
		switch {
		case len(o.Comments) > 0:
			fmt.Fprintf(&b, "\nTake %s into account before proposing another edit to these files.\n", answerTo(o))
		case Reason(o) == "":
			b.WriteString("No reason was given. Do not send the same edit again; ask the user what they want changed if it is not clear.\n")
		default:
			b.WriteString("Take the reason into account before proposing another edit to these files.\n")
		}
		return b.String()
	case decision.Withdrawn:
		b.WriteString("The edit was withdrawn before a decision; nothing was written.\n")
		return b.String()
	case decision.Stale:
		reason := Reason(o)
		if reason == "" {
			reason = "the file changed on disk after you read it"
		}
		fmt.Fprintf(&b, "Your edit was not applied: %s. Nothing was written.\n", reason)
		b.WriteString("Read the file again and redo the edit against its current content.\n")
		return b.String()
	}
	if o.DecidedBy == review.DecidedByRule {
		fmt.Fprintf(&b, "No person reviewed this edit: %s approved it.\n\n", o.Rule)
	}
	for i, f := range o.Files {
		if i > 0 {
			b.WriteString("\n")
		}
		writeFile(&b, o, f)
	}
	if o.Feedback != "" {
		fmt.Fprintf(&b, "\nThe person's note: %s\n", o.Feedback)
	}
	writeComments(&b, o.Comments)
	if len(o.Comments) > 0 {
		b.WriteString("\nAddress each comment in your next steps: answer what it asks, and make the changes it asks for as new edits.\n")
	}
	shown := false
	for _, f := range o.Files {
		shown = shown || !f.AsProposed() || o.Status == decision.Partial || f.BOM != "" || f.LineEndings != nil
	}
	applied := "it has been applied"
	if o.AgentWrites {
		applied = "it was approved"
	}
	if o.Status == decision.Partial {
		b.WriteString("\nThe hunks the person did not accept were not applied; do not send them again unless asked.")
		fmt.Fprintf(&b, "\nDo not resend the rest: %s. Base any further edit on ", applied)
	} else {
		fmt.Fprintf(&b, "\nDo not resend this edit: %s. Base any further edit on ", applied)
	}
	switch {
	case shown:
		b.WriteString("the final content above")
	case o.AgentWrites:
		b.WriteString("the content as approved")
	default:
		b.WriteString("the content as saved")
	}
	b.WriteString(" (SEARCH and old_string text must match it exactly).\n")
	return b.String()
}

func writeFile(b *strings.Builder, o review.Outcome, f review.FileOutcome) {
	verb := "saved"
	if o.AgentWrites {
		verb = "approved"
	}
	overwrote := o.Status == decision.Overwritten && f.DiskEdits != ""
	acc, all := f.Accepted()
	partial := o.Status == decision.Partial && acc < all
	switch {
	case o.Status == decision.Partial && acc == 0:
		fmt.Fprintf(b, "Your edit to %s was not applied: the person accepted none of its %d hunks, a rejection of this file; it was left as it was.\n", f.Path, all)
		return
	case f.Deleted && overwrote:
		fmt.Fprintf(b, "Someone else changed %s on disk while your edit waited for review; the person reviewing it chose to overwrite their change: the file was deleted as you proposed.\n", f.Path)
		writeDiskEdits(b, f)
		return
	case f.Deleted:
		fmt.Fprintf(b, "%s was deleted.\n", f.Path)
		writeDiskEdits(b, f)
		return
	case partial && f.DiskEdits != "":
		fmt.Fprintf(b, "Only part of your edit to %s was %s: the person accepted %d of %d hunks. Someone else changed the file on disk while your edit waited; those hunks were merged into their change.\n", f.Path, verb, acc, all)
	case partial:
		fmt.Fprintf(b, "Only part of your edit to %s was %s: the person accepted %d of %d hunks.\n", f.Path, verb, acc, all)
	case overwrote:
		fmt.Fprintf(b, "Someone else changed %s on disk while your edit waited for review; the person reviewing it chose to overwrite their change: your edit was %s as you proposed it, in place of theirs (the desk's history keeps their version).\n", f.Path, verb)
	case f.DiskEdits != "":
		by := ""
		if f.UserEdits != "" {
			by = " with changes made by the person reviewing it"
		}
		fmt.Fprintf(b, "Someone else changed %s on disk while your edit waited for review; your edit was merged into their change and %s%s.\n", f.Path, verb, by)
	case f.UserEdits != "" && o.Status != decision.Partial:
		fmt.Fprintf(b, "Your edit to %s was %s with changes made by the person reviewing it.\n", f.Path, verb)
	case len(f.Matches) > 0 || f.Incomplete != nil:
		fmt.Fprintf(b, "Your edit to %s was %s, but not exactly as you sent it: read below what was applied where.\n", f.Path, verb)
	default:
		fmt.Fprintf(b, "Your edit to %s was %s as proposed.\n", f.Path, verb)
	}
	writeDiskEdits(b, f)
	writeLoose(b, f)
	switch {
	case f.UserEdits != "" && f.DiskEdits != "":
		b.WriteString("\nThe person's changes to the merged text (unified diff, merged → approved):\n")
		fence.Write(b, f.UserEdits)
	case f.UserEdits != "":
		b.WriteString("\nThe person's changes to your proposal (unified diff, proposal → approved):\n")
		fence.Write(b, f.UserEdits)
	}
	if f.FormatterError != "" {
		fmt.Fprintf(b, "\nThe formatter failed, so the file was written unformatted: %s\n", f.FormatterError)
	}
	if f.AutoFormatEdits != "" {
		b.WriteString("\nThen the file was reformatted automatically (unified diff, approved → final):\n")
		fence.Write(b, f.AutoFormatEdits)
	}
	writeEncoding(b, f)
	switch {
	case !f.AsProposed() || partial || len(f.Matches) > 0 || f.Incomplete != nil || f.BOM != "" || f.LineEndings != nil:
		if o.AgentWrites {
			fmt.Fprintf(b, "\nThe desk did not write %s; the approved content, for you to write:\n", f.Path)
		} else {
			fmt.Fprintf(b, "\nThe final content of %s:\n", f.Path)
		}
		fence.Write(b, f.FinalContent)
	case o.AgentWrites:
		b.WriteString("The desk did not write the file: write it with exactly the content you proposed.\n")
	case f.EditLineEndings != "":
		fmt.Fprintf(b, "The file now has the content you proposed, with the file's own line endings: your edit's %s line endings were written as %s.\n",
			f.EditLineEndings, engine.EOLName(engine.FirstEOL(f.FinalContent)))
	default:
		b.WriteString("The file now has exactly the content you proposed.\n")
	}
	writeNewProblems(b, f)
	writeCheckErrors(b, f)
}

// writeEncoding says what the file's byte order mark and line endings are
// where they are not what the agent sent (the BOM), or not those of the
// text the decision started from (the person's edit, the formatter).
func writeEncoding(b *strings.Builder, f review.FileOutcome) {
	switch f.BOM {
	case "kept":
		fmt.Fprintf(b, "\n%s starts with a UTF-8 byte order mark, which your content did not have: the file kept it.\n", f.Path)
	case "dropped":
		fmt.Fprintf(b, "\nYour content started with a UTF-8 byte order mark, which %s does not have: it was not written.\n", f.Path)
	}
	if c := f.LineEndings; c != nil {
		by := "The person's edit"
		if c.By == "formatter" {
			by = "The formatter"
		}
		fmt.Fprintf(b, "\n%s changed the line endings of %s from %s to %s.\n", by, f.Path, c.From, c.To)
	}
}

// writeLoose says where an edit was applied by a looser match than the
// agent's exact text, and that an edit cut short was applied as far as it
// went: the agent's idea of the file was wrong, and it must know where its
// text really went.
func writeLoose(b *strings.Builder, f review.FileOutcome) {
	if in := f.Incomplete; in != nil {
		fmt.Fprintf(b, "\nYour edit was cut short: block %d (payload line %d) %s. It was applied as far as it went; check the final content below.\n", in.Block, in.Line, in.Reason)
	}
	for _, m := range f.Matches {
		if m.Strategy == engine.StrategyPersonChosen {
			writeChosen(b, f.Path, m)
			continue
		}
		if m.Strategy == engine.StrategyFenceRemoved {
			b.WriteString("\nYour content was wrapped in a Markdown code fence (``` lines): it was written without the fence lines, which are not part of the file. Send a file's content without a fence.\n")
			continue
		}
		fmt.Fprintf(b, "\nBlock %d did not match the file exactly: it was applied by %s.", m.Block, m.How())
		if m.Found != "" {
			b.WriteString(" Those lines held:\n")
			fence.Write(b, m.Found)
		} else {
			b.WriteString("\n")
		}
	}
}

// writeDiskEdits shows the change someone else made on disk while the
// proposal waited, if any.
func writeDiskEdits(b *strings.Builder, f review.FileOutcome) {
	if f.DiskEdits == "" {
		return
	}
	b.WriteString("\nThe change someone else made on disk while your edit waited (unified diff, the content you read → disk):\n")
	fence.Write(b, f.DiskEdits)
}

// writeChosen tells the agent where the person placed a block that failed
// or matched loosely, and what those lines held.
func writeChosen(b *strings.Builder, path string, m engine.Match) {
	if m.EndLine < m.StartLine {
		fmt.Fprintf(b, "\nBlock %d: the person chose to insert it before line %d of %s; the edit was applied there.\n", m.Block, m.StartLine, path)
		return
	}
	r := engine.Region{StartLine: m.StartLine, EndLine: m.EndLine}
	fmt.Fprintf(b, "\nBlock %d: the person chose %s of %s; the edit was applied there. Those lines held:\n", m.Block, r, path)
	fence.Write(b, m.Found)
}

// writeChosenRejected tells the agent of a rejected edit which of its
// blocks did not apply as sent and where the person reviewed them.
func writeChosenRejected(b *strings.Builder, files []review.FileOutcome) {
	for _, f := range files {
		for _, m := range f.Matches {
			if m.Strategy != engine.StrategyPersonChosen {
				continue
			}
			if m.EndLine < m.StartLine {
				fmt.Fprintf(b, "\nBlock %d of your edit to %s did not apply as you sent it: the person chose to review it inserted before line %d.\n", m.Block, f.Path, m.StartLine)
				continue
			}
			r := engine.Region{StartLine: m.StartLine, EndLine: m.EndLine}
			fmt.Fprintf(b, "\nBlock %d of your edit to %s did not apply as you sent it: the person chose %s to review it there. Those lines hold:\n", m.Block, f.Path, r)
			fence.Write(b, m.Found)
		}
	}
}
