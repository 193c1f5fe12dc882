package review

import (
	"fmt"
	"strings"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/checker"
	"github.com/diffdesk/diffdesk/review/decision"
)

// Outcome is what the desk tells an agent about its proposal.
type Outcome struct {
	ID        string           `json:"id"`
	Status    decision.Verdict `json:"status"`
	Files     []FileOutcome    `json:"files"`
	DecidedBy Decider          `json:"decidedBy,omitempty"` // who decided; "" when no one did (failed, withdrawn)
	By        string           `json:"by,omitempty"`        // DecidedByPerson: who, as "user@host"
	Rule      string           `json:"rule,omitempty"`      // DecidedByRule: which rule, e.g. "auto_approve rule at FILE line N"
	Feedback  string           `json:"feedback,omitempty"`  // the reason or note the person typed (or the rule gave)
	// Comments are the person's comments on lines of the proposal, with
	// the lines they are on (decision.Comment), in the proposal's file order.
	Comments   []decision.Comment `json:"comments,omitempty"`
	Checkpoint int64              `json:"checkpoint,omitempty"` // journal checkpoint of the write
	Error      string             `json:"error,omitempty"`      // decision.Failed: the agent-facing failure text
	// Unfinished says the proposal was rejected or withdrawn before the
	// agent had finished sending it (a stream).
	Unfinished bool `json:"unfinished,omitempty"`
	// AgentWrites says the desk wrote nothing: the agent writes the files
	// itself from each file's final content (Request.AgentWrites).
	AgentWrites bool `json:"agentWrites,omitempty"`
}

// Decider is who decided a proposal.
type Decider string

// The deciders.
const (
	DecidedByPerson Decider = "person" // the person reviewing it
	DecidedByRule   Decider = "rule"   // a rule of the desk, with no person: an auto-approve rule or the unattended policy
)

// FileOutcome is the result for one file of a proposal.
type FileOutcome struct {
	Path            string        `json:"path"`                      // absolute path
	Written         bool          `json:"written"`                   // the desk wrote the file (false when the agent writes it)
	Deleted         bool          `json:"deleted,omitempty"`         // the file was deleted
	DiskEdits       string        `json:"diskEdits,omitempty"`       // unified patch base → disk: a change someone else made to the file while the proposal waited, which the approval was made over; "" if none
	UserEdits       string        `json:"userEdits,omitempty"`       // unified patch proposal (or, with DiskEdits, the proposal merged onto the disk) → approved text; "" if the person changed nothing
	AutoFormatEdits string        `json:"autoFormatEdits,omitempty"` // unified patch approved → final text (formatter, or an editor's format-on-save)
	FinalContent    string        `json:"finalContent,omitempty"`    // the file's content now; absent on the wire with FinalAsProposed, else absent only when ""
	FinalAsProposed bool          `json:"finalAsProposed,omitempty"` // FinalContent was left out: it is exactly what the agent proposed (WithoutProposedFinal)
	FinalSHA256     string        `json:"finalSha256"`               // hex SHA-256 of FinalContent
	Hunks           []HunkVerdict `json:"hunks,omitempty"`           // per-hunk decisions (decision.Partial)
	FormatterError  string        `json:"formatterError,omitempty"`  // the formatter failed; the approved text was written unformatted
	// Matches are the places the edit was applied to loosely (not the
	// exact text, or the first of several): what was searched for, what
	// the file really held there, and how it was found.
	Matches []engine.Match `json:"matches,omitempty"`
	// Incomplete says the edit was cut short and applied as far as it went.
	Incomplete *engine.Incomplete `json:"incomplete,omitempty"`
	// EditLineEndings names the line endings of the edit's text ("CRLF",
	// "LF", "CR") when the file's own differ: they were written in the
	// file's; absent when they agree.
	EditLineEndings string `json:"editLineEndings,omitempty"`
	// BOM says the file's UTF-8 byte order mark differs from the agent's
	// content: "kept" (the file has one, the content had none, and it was
	// kept) or "dropped" (the content began with one the file does not
	// have); "" when they agree or the edit sent no whole content.
	BOM string `json:"bom,omitempty"`
	// LineEndings says the final content's line endings are not those of
	// the text the decision started from: the person's edit or the
	// formatter changed them. Nil when they did not.
	LineEndings *EndingsChange `json:"lineEndingsChanged,omitempty"`
	// NewProblems are the problems the project's checkers find in the
	// final content that the file as it was did not have (lines 1-based
	// in the final content; Path set for one in another file).
	NewProblems []checker.Problem `json:"newProblems,omitempty"`
	// CheckErrors say which checkers could not tell, and why.
	CheckErrors []string `json:"checkErrors,omitempty"`
}

// AsProposed reports whether the file now holds exactly what the agent
// proposed: no one else changed it, the person did not edit it, and no
// formatter touched it.
func (f FileOutcome) AsProposed() bool {
	return f.DiskEdits == "" && f.UserEdits == "" && f.AutoFormatEdits == ""
}

// FinalChanged reports whether f's final text is not simply what the
// agent proposed, so that the agent needs the text itself: someone else's
// change on disk, the person's edit, the formatter, hunks the person left
// out, a loose match or an edit cut short, a byte order mark or line
// endings other than the agent's. A file not written as an approval (a
// rejection, a failure) has no final text to speak of: false.
func (o Outcome) FinalChanged(f FileOutcome) bool {
	if !o.Status.Wrote() || f.Deleted {
		return false
	}
	acc, all := accepted(f)
	return !f.AsProposed() || o.Status == decision.Partial && acc < all || len(f.Matches) > 0 ||
		f.Incomplete != nil || f.BOM != "" || f.LineEndings != nil || f.EditLineEndings != ""
}

// WithoutProposedFinal returns o with the final text left out of each
// file that holds exactly what the agent proposed (FinalChanged false, and
// same reports true for the text): FinalAsProposed set, FinalContent "".
// same is the caller's own check of the text against the proposal (nil:
// none). A protocol answer sends only the final texts the agent lacks
// (docs/protocol.md, "finalContent"); o itself is not changed.
func (o Outcome) WithoutProposedFinal(same func(f FileOutcome) bool) Outcome {
	if !o.Status.Wrote() {
		return o
	}
	files := make([]FileOutcome, len(o.Files))
	for i, f := range o.Files {
		if !f.Deleted && f.FinalContent != "" && !o.FinalChanged(f) && (same == nil || same(f)) {
			f.FinalContent, f.FinalAsProposed = "", true
		}
		files[i] = f
	}
	o.Files = files
	return o
}

// EndingsChange is a change of a file's line endings by the decision:
// From and To name them ("LF", "CRLF", "CR" or "mixed"), By says who
// ("person" or "formatter").
type EndingsChange struct {
	From string `json:"from"`
	To   string `json:"to"`
	By   string `json:"by"`
}

// HunkVerdict says whether the person accepted one hunk of the proposal.
type HunkVerdict struct {
	ID       string `json:"id"`
	Accepted bool   `json:"accepted"`
}

// Text renders the outcome as the concise text an agent reads: what was
// saved, the person's and the formatter's patches, the final content, and
// that later edits must be based on it and nothing must be resent.
func (o Outcome) Text() string {
	var b strings.Builder
	switch o.Status {
	case decision.Failed:
		b.WriteString(o.Error)
		return b.String()
	case decision.Rejected:
		if o.DecidedBy == DecidedByRule {
			fmt.Fprintf(&b, "No person reviewed this edit: %s rejected it; nothing was written.\n", o.Rule)
			if o.Feedback != "" {
				fmt.Fprintf(&b, "The reason: %s\n", o.Feedback)
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
			fmt.Fprintf(&b, "\nTake %s into account before proposing another edit to these files.\n", o.answerTo())
		case o.Feedback == "":
			b.WriteString("No reason was given. Do not send the same edit again; ask the user what they want changed if it is not clear.\n")
		default:
			b.WriteString("Take the reason into account before proposing another edit to these files.\n")
		}
		return b.String()
	case decision.Withdrawn:
		b.WriteString("The edit was withdrawn before a decision; nothing was written.\n")
		return b.String()
	case decision.Stale:
		reason := o.Feedback
		if reason == "" {
			reason = "the file changed on disk after you read it"
		}
		fmt.Fprintf(&b, "Your edit was not applied: %s. Nothing was written.\n", reason)
		b.WriteString("Read the file again and redo the edit against its current content.\n")
		return b.String()
	}
	if o.DecidedBy == DecidedByRule {
		fmt.Fprintf(&b, "No person reviewed this edit: %s approved it.\n\n", o.Rule)
	}
	for i, f := range o.Files {
		if i > 0 {
			b.WriteString("\n")
		}
		o.writeFile(&b, f)
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

func (o Outcome) writeFile(b *strings.Builder, f FileOutcome) {
	verb := "saved"
	if o.AgentWrites {
		verb = "approved"
	}
	overwrote := o.Status == decision.Overwritten && f.DiskEdits != ""
	acc, all := accepted(f)
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
		writeFenced(b, f.UserEdits)
	case f.UserEdits != "":
		b.WriteString("\nThe person's changes to your proposal (unified diff, proposal → approved):\n")
		writeFenced(b, f.UserEdits)
	}
	if f.FormatterError != "" {
		fmt.Fprintf(b, "\nThe formatter failed, so the file was written unformatted: %s\n", f.FormatterError)
	}
	if f.AutoFormatEdits != "" {
		b.WriteString("\nThen the file was reformatted automatically (unified diff, approved → final):\n")
		writeFenced(b, f.AutoFormatEdits)
	}
	writeEncoding(b, f)
	switch {
	case !f.AsProposed() || partial || len(f.Matches) > 0 || f.Incomplete != nil || f.BOM != "" || f.LineEndings != nil:
		if o.AgentWrites {
			fmt.Fprintf(b, "\nThe desk did not write %s; the approved content, for you to write:\n", f.Path)
		} else {
			fmt.Fprintf(b, "\nThe final content of %s:\n", f.Path)
		}
		writeFenced(b, f.FinalContent)
	case o.AgentWrites:
		b.WriteString("The desk did not write the file: write it with exactly the content you proposed.\n")
	case f.EditLineEndings != "":
		fmt.Fprintf(b, "The file now has the content you proposed, with the file's own line endings: your edit's %s line endings were written as %s.\n",
			f.EditLineEndings, engine.EOLName(eolOf(f.FinalContent)))
	default:
		b.WriteString("The file now has exactly the content you proposed.\n")
	}
	writeNewProblems(b, f)
	writeCheckErrors(b, f)
}

// accepted counts the hunks of a partial decision on f the person
// accepted, and all of them.
func accepted(f FileOutcome) (acc, all int) {
	for _, h := range f.Hunks {
		if h.Accepted {
			acc++
		}
	}
	return acc, len(f.Hunks)
}

// writeEncoding says what the file's byte order mark and line endings are
// where they are not what the agent sent (the BOM), or not those of the
// text the decision started from (the person's edit, the formatter).
func writeEncoding(b *strings.Builder, f FileOutcome) {
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
func writeLoose(b *strings.Builder, f FileOutcome) {
	if in := f.Incomplete; in != nil {
		fmt.Fprintf(b, "\nYour edit was cut short: block %d (payload line %d) %s. It was applied as far as it went; check the final content below.\n", in.Block, in.Line, in.Reason)
	}
	for _, m := range f.Matches {
		if m.Strategy == engine.StrategyPersonChosen {
			writeChosen(b, f.Path, m)
			continue
		}
		fmt.Fprintf(b, "\nBlock %d did not match the file exactly: it was applied by %s.", m.Block, m.How())
		if m.Found != "" {
			b.WriteString(" Those lines held:\n")
			writeFenced(b, m.Found)
		} else {
			b.WriteString("\n")
		}
	}
}

// writeDiskEdits shows the change someone else made on disk while the
// proposal waited, if any.
func writeDiskEdits(b *strings.Builder, f FileOutcome) {
	if f.DiskEdits == "" {
		return
	}
	b.WriteString("\nThe change someone else made on disk while your edit waited (unified diff, the content you read → disk):\n")
	writeFenced(b, f.DiskEdits)
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
	writeFenced(b, m.Found)
}

// chosenUnwritten lists, for a rejected proposal, the files with blocks
// the person placed (engine.StrategyPersonChosen), unwritten: the reject is
// the agent's only answer (a held failure is never sent), and without them
// it would not learn that its block did not apply as sent.
func chosenUnwritten(p Proposal) []FileOutcome {
	out := []FileOutcome{}
	for _, f := range p.Files {
		var chosen []engine.Match
		for _, m := range f.Matches {
			if m.Strategy == engine.StrategyPersonChosen {
				chosen = append(chosen, m)
			}
		}
		if len(chosen) > 0 {
			out = append(out, FileOutcome{Path: f.Path, Matches: chosen})
		}
	}
	return out
}

// writeChosenRejected tells the agent of a rejected edit which of its
// blocks did not apply as sent and where the person reviewed them.
func writeChosenRejected(b *strings.Builder, files []FileOutcome) {
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
			writeFenced(b, m.Found)
		}
	}
}

// endings names the line endings of text: "LF", "CRLF", "CR", "mixed",
// or "" when it has no line break.
func endings(text string) string {
	crlf := strings.Count(text, "\r\n")
	cr := strings.Count(text, "\r") - crlf
	lf := strings.Count(text, "\n") - crlf
	kinds, name := 0, ""
	for _, k := range []struct {
		n    int
		name string
	}{{lf, "LF"}, {crlf, "CRLF"}, {cr, "CR"}} {
		if k.n > 0 {
			kinds, name = kinds+1, k.name
		}
	}
	if kinds > 1 {
		return "mixed"
	}
	return name
}

// eolOf is the line ending of text's first line break ("" if none).
func eolOf(text string) string {
	i := strings.IndexAny(text, "\r\n")
	switch {
	case i < 0:
		return ""
	case strings.HasPrefix(text[i:], "\r\n"):
		return "\r\n"
	}
	return text[i : i+1]
}
