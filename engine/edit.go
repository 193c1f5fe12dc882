package engine

import (
	"fmt"
	"strings"
)

// Format names an edit format as agents and deskctl spell it.
type Format string

// The edit formats. Patch is multi-file and applied with ApplyPatch; the
// others edit one file and are applied with Apply.
const (
	FormatWrite         Format = "write"          // whole-file content
	FormatSearchReplace Format = "search-replace" // SEARCH/REPLACE blocks (Cline, Roo, aider markers)
	FormatEdit          Format = "edit"           // old/new replace (Claude Edit, Gemini replace)
	FormatMultiEdit     Format = "multi-edit"     // Claude MultiEdit
	FormatSmartEdit     Format = "smart-edit"     // Gemini smart edit
	FormatPatch         Format = "patch"          // Codex apply_patch or unified diff, multi-file
)

// Formats lists every format in the order the CLI documents them.
var Formats = []Format{FormatWrite, FormatSearchReplace, FormatEdit, FormatMultiEdit, FormatSmartEdit, FormatPatch}

// Strategy names how a block was located in the file.
type Strategy string

// The match strategies, from strictest to loosest.
const (
	StrategyExact             Strategy = "exact"              // byte-for-byte
	StrategyFirstOfSeveral    Strategy = "first-of-several"   // byte-for-byte at several places; the first was taken (Match.Candidates says how many)
	StrategyLineTrimmed       Strategy = "line-trimmed"       // lines equal after trimming surrounding whitespace
	StrategyBlockAnchor       Strategy = "block-anchor"       // first and last lines equal after trimming
	StrategyLeadingWhitespace Strategy = "leading-whitespace" // lines equal up to a uniform indentation change
	StrategyFlexibleIndent    Strategy = "flexible-indent"    // Gemini: trimmed lines, re-indented replacement
	StrategyRegexTokens       Strategy = "regex-tokens"       // Gemini: tokens with any whitespace between
	StrategyUnescaped         Strategy = "unescaped"          // matched after undoing over-escaped \n, \t, quotes
	StrategyNormalized        Strategy = "normalized"         // trimmed lines equal after folding Unicode dashes, quotes and spaces (Codex; search-replace also collapses runs of whitespace, as Roo)
	StrategyFuzzy             Strategy = "fuzzy"              // similarity above a threshold
	StrategyWholeFile         Strategy = "whole-file"         // the edit replaced or created the whole file
	StrategyFenceRemoved      Strategy = "fence-removed"      // a write whose whole content a Markdown code fence wrapped, written without the fence lines (as Cline's write_to_file): Loose, so the person and the agent are told
	StrategyElision           Strategy = "elision"            // aider: pieces between "..." lines, each found exactly once
	StrategyLineNumbers       Strategy = "line-numbers"       // Roo: matched once the "N | " prefixes its read_file shows were removed
	StrategyPersonChosen      Strategy = "person-chosen"      // a person chose the lines (ApplyAt); always Loose, so the agent is told
	StrategySkippedBlank      Strategy = "skipped-blank-line" // the SEARCH's blank first line is not in the file: matched without it, as aider drops it
	StrategyPartialLine       Strategy = "partial-line"       // a "<<<<<<< SEARCH" block's text starts inside a line: found there byte for byte (Cline's indexOf), where aider and Roo match whole lines
)

// Edit is one agent edit to one file. Apply applies it.
type Edit interface {
	// Format reports which format the edit was written in.
	Format() Format
	// apply edits text, which has "\n" line endings and no BOM, and
	// returns the result with Content still in that form.
	apply(text string) (Result, error)
	// payload returns the texts the agent supplied, used to pick line
	// endings for a file that has none of its own yet.
	payload() []string
}

// Match says where one block of an edit applied, and how it was found. A
// Loose match also carries both texts, so that the person reviewing it and
// the agent that sent it can be told exactly what was replaced.
type Match struct {
	Block     int      `json:"block"`     // 1-based index of the block, edit or chunk within the edit
	Strategy  Strategy `json:"strategy"`  // how it was located
	StartLine int      `json:"startLine"` // 1-based first line of the original it replaced
	EndLine   int      `json:"endLine"`   // 1-based last line it replaced; StartLine-1 for a pure insertion
	// Similarity is how alike the searched and the found text are, 0..1:
	// scored by block-anchor (mean line similarity over the block) and
	// fuzzy (1 − Gemini's weighted distance ÷ length); 1 for the other
	// strategies, which equate the two texts up to what they forgive.
	Similarity float64 `json:"similarity"`
	// Candidates is how many places the text fit, not overlapping, where
	// the block was looked for (after the previous block's match, for
	// formats that search forward); the match is the first of them. More
	// than 1 means the engine chose, as the upstream tool does. It is 1 for
	// a place a Roo :start_line: chose, and for each place of an edit that
	// replaces every place it fits.
	Candidates int `json:"candidates"`
	// Offset is, for a unified-diff hunk, how many lines below (negative:
	// above) the line its @@ header named it was found, as GNU patch
	// reports "succeeded at 15 (offset 3 lines)"; 0 otherwise.
	Offset int `json:"offset,omitempty"`
	// After is, for a SEARCH/REPLACE block that is not in the file as it
	// was but is in the text blocks 1..After made (aider applies each
	// block to the result of the ones before), After; 0 otherwise. Such a
	// match is Loose: the agent may have meant the file as it was.
	After int `json:"after,omitempty"`
	// Searched and Found are set on a Loose match: the agent's text that
	// was looked for, as sent, and the file's text the match replaced
	// ("\n" line endings), whose difference the strategy forgave.
	Searched string `json:"searched,omitempty"`
	Found    string `json:"found,omitempty"`
}

// Loose reports whether m is not an exact match at the only place the text
// fits: a strategy that forgives differences found it, it is the first of
// several places, or a unified hunk was found away from its header's line.
// A loose match is never silent: the desk shows it and the agent is told.
func (m Match) Loose() bool {
	return m.Candidates > 1 || m.Offset != 0 || m.After > 0 || m.Strategy != StrategyExact && m.Strategy != StrategyWholeFile
}

// How says how a loose match was reached and where it went, for people and
// agents alike: "fuzzy (87% similar) at lines 12–14, the first of 3 places
// that fit, 3 lines below where its hunk header put it".
func (m Match) How() string {
	if m.Strategy == StrategyFenceRemoved {
		return "removing the Markdown code fence that wrapped the whole content"
	}
	var b strings.Builder
	b.WriteString(string(m.Strategy))
	if m.Similarity > 0 && m.Similarity < 1 {
		fmt.Fprintf(&b, " (%.0f%% similar)", m.Similarity*100)
	}
	switch {
	case m.EndLine < m.StartLine:
		fmt.Fprintf(&b, ", inserted before line %d", m.StartLine)
	case m.EndLine == m.StartLine:
		fmt.Fprintf(&b, " at line %d", m.StartLine)
	default:
		fmt.Fprintf(&b, " at lines %d–%d", m.StartLine, m.EndLine)
	}
	if m.Candidates > 1 {
		fmt.Fprintf(&b, ", the first of %d places that fit", m.Candidates)
	}
	if m.Offset != 0 {
		dir, n, unit := "below", m.Offset, "lines"
		if n < 0 {
			dir, n = "above", -n
		}
		if n == 1 {
			unit = "line"
		}
		fmt.Fprintf(&b, ", %d %s %s where its hunk header put it", n, unit, dir)
	}
	switch {
	case m.After == 1:
		b.WriteString(", in the text as block 1 left it (applied in sequence, as aider does: it is not in the file as it was)")
	case m.After > 1:
		fmt.Fprintf(&b, ", in the text as blocks 1–%d left it (applied in sequence, as aider does: it is not in the file as it was)", m.After)
	}
	return b.String()
}

// newMatch returns a Match of block at lines start..end (1-based) that fits
// one place and equates the texts; st says how it was found.
func newMatch(block int, st Strategy, start, end int) Match {
	return Match{Block: block, Strategy: st, StartLine: start, EndLine: end, Similarity: 1, Candidates: 1}
}

// disclose sets m's Searched and Found, when m is Loose: searched is the
// agent's text and found the file's text the match replaced.
func (m *Match) disclose(searched, found string) {
	if m.Loose() {
		m.Searched, m.Found = searched, found
	}
}

// Result is an applied edit.
type Result struct {
	Content string  // the proposed file, with the original's BOM and line endings
	Matches []Match // one per applied block, in block order
	// Incomplete is set when the payload was cut short (a SEARCH/REPLACE
	// block without its end marker): the edit applied as far as it arrived,
	// as upstream applies it, and the person and the agent must be told.
	Incomplete *Incomplete
	// EditEOL is the line ending of the edit's own text when the file's
	// differs: the proposal keeps the file's, so the agent must be told
	// its text was not written byte for byte ("\r\n", "\n" or "\r");
	// "" when they agree or the file has no line break yet.
	EditEOL string
}

// EOLName names a line ending as editors do: "CRLF", "LF" or "CR".
func EOLName(eol string) string {
	switch eol {
	case "\r\n":
		return "CRLF"
	case "\r":
		return "CR"
	}
	return "LF"
}

// Incomplete says which block of an edit was cut short, and how.
type Incomplete struct {
	Block  int    `json:"block"`         // 1-based block that was cut short
	Line   int    `json:"line"`          // 1-based payload line where that block starts
	Reason string `json:"reason"`        // what was missing and what was applied, one sentence
	Cut    string `json:"cut,omitempty"` // the payload's last line, dropped because it was cut off inside a marker
}

// Apply applies e to original, the file's current bytes ("" for a new file).
// It keeps the original's BOM, line endings (never mixing them further) and,
// unless the edit changes the last line, the presence or absence of a final
// newline. It refuses binary or invalid UTF-8 text with a *ContentError; a
// block that does not apply gives a *MatchError, a malformed edit a
// *FormatError. Apply never has side effects.
func Apply(original string, e Edit) (Result, error) {
	doc, err := Decode(original)
	if err != nil {
		return Result{}, err
	}
	return applyDoc(doc, e)
}

// applyDoc is Apply on a file already decoded (Stream.Close uses it too).
func applyDoc(doc Doc, e Edit) (Result, error) { return applyDocWith(doc, e, e.apply) }

// applyDocWith is applyDoc with apply standing for e.apply.
func applyDocWith(doc Doc, e Edit, apply func(text string) (Result, error)) (Result, error) {
	for _, p := range e.payload() {
		if err := checkText("edit", p); err != nil {
			return Result{}, err
		}
	}
	editEOL := payloadEOL(e.payload())
	if doc.EOL == "" {
		// The file has no line break yet: take the agent's.
		doc.EOL = editEOL
	}
	res, err := apply(doc.Text)
	if err != nil {
		return Result{}, err
	}
	res.Content = doc.Encode(res.Content)
	if editEOL != "" && editEOL != doc.EOL {
		res.EditEOL = editEOL
	}
	return res, nil
}

// Create applies e to a file that does not exist yet. Formats that create
// files (write, an empty search or old string) give the new content; an edit
// of existing text fails with a *MatchError of kind FailFileMissing.
func Create(e Edit) (Result, error) {
	c, ok := e.(creator)
	if !ok {
		return Apply("", e)
	}
	for _, p := range e.payload() {
		if err := checkText("edit", p); err != nil {
			return Result{}, err
		}
	}
	doc := Doc{EOL: payloadEOL(e.payload())}
	res, err := c.create()
	if err != nil {
		return Result{}, err
	}
	res.Content = doc.Encode(res.Content)
	return res, nil
}

// creator is implemented by edits whose meaning differs between an empty
// file and a missing one.
type creator interface {
	// create returns the new file, its Content with "\n" endings.
	create() (Result, error)
}

func payloadEOL(texts []string) string {
	var lf, crlf, cr int
	for _, t := range texts {
		n := strings.Count(t, "\r\n")
		crlf += n
		cr += strings.Count(t, "\r") - n
		lf += strings.Count(t, "\n") - n
	}
	return dominantEOL(lf, crlf, cr)
}

// FormatError reports an edit payload that cannot be parsed.
type FormatError struct {
	Format Format
	Block  int    // 1-based block the problem is in; 0 if not applicable
	Line   int    // 1-based line of the payload; 0 if not applicable
	Msg    string // what is wrong and what to do
}

func (e *FormatError) Error() string {
	var b strings.Builder
	b.WriteString(string(e.Format))
	if e.Block > 0 {
		fmt.Fprintf(&b, ": block %d", e.Block)
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, ": line %d", e.Line)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// Parse builds an Edit from a payload as deskctl and the native protocol
// carry it: the new content for write, block text for search-replace, and a
// JSON object for edit, multi-edit and smart-edit. Patch payloads are applied
// with ApplyPatch instead.
func Parse(f Format, payload string) (Edit, error) {
	switch f {
	case FormatWrite:
		return Write{Content: payload}, nil
	case FormatSearchReplace:
		return SearchReplace{Text: payload}, nil
	case FormatEdit:
		return parseAs[Replace](f, payload, editFields)
	case FormatMultiEdit:
		return parseAs[MultiEdit](f, payload, multiEditFields)
	case FormatSmartEdit:
		return parseAs[SmartEdit](f, payload, smartEditFields)
	case FormatPatch:
		return nil, &FormatError{Format: f, Msg: "a patch may touch several files; apply it with ApplyPatch"}
	}
	return nil, &FormatError{Format: f, Msg: fmt.Sprintf("unknown format %q; use one of %s", f, formatList())}
}

func formatList() string {
	names := make([]string, len(Formats))
	for i, f := range Formats {
		names[i] = string(f)
	}
	return strings.Join(names, ", ")
}

// Write replaces the whole file (Cline write_to_file, Claude Write, Gemini
// write_file). Apply drops a leading BOM from Content and a Markdown code
// fence wrapped around all of it, keeping the lines inside byte for byte; in
// a Markdown Path only a markdown-tagged fence counts as wrapping. It never
// undoes HTML escaping: see FixModelContent.
type Write struct {
	Content string `json:"content"`
	Path    string `json:"path,omitempty"` // optional; lets fence stripping spare Markdown files
}

// SearchReplace is one or more SEARCH/REPLACE blocks (Cline replace_in_file,
// Roo apply_diff, aider edit blocks), with any prose around them.
type SearchReplace struct {
	Text string `json:"diff"`
}

// Replace is an old/new string replacement (Claude Edit, Gemini replace).
// Old must occur exactly once unless ReplaceAll is set or
// ExpectedReplacements gives another count.
type Replace struct {
	Old                  string `json:"old_string"`
	New                  string `json:"new_string"`
	ReplaceAll           bool   `json:"replace_all,omitempty"`
	ExpectedReplacements int    `json:"expected_replacements,omitempty"` // 0 means 1
}

// MultiEdit is a sequence of replacements applied one after another to a
// working copy; all apply or none (Claude MultiEdit).
type MultiEdit struct {
	Edits []Replace `json:"edits"`
}

// SmartEdit is Gemini CLI's replace tool: exact, then flexible-indentation,
// then token matching, with over-escaped strings undone.
type SmartEdit struct {
	Old                  string `json:"old_string"`
	New                  string `json:"new_string"`
	ExpectedReplacements int    `json:"expected_replacements,omitempty"` // legacy parameter; 0 means 1
	AllowMultiple        bool   `json:"allow_multiple,omitempty"`
	Instruction          string `json:"instruction,omitempty"` // the model's description; informative only
}
