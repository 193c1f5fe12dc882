package engine

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// SEARCH/REPLACE blocks (Cline replace_in_file, Roo apply_diff, aider).
//
// Markers, each alone on its line:
//
//	start      ------- SEARCH   or  <<<<<<< SEARCH   (3+ characters, optional ">")
//	separator  =======                               (3+ "=")
//	end        +++++++ REPLACE  or  >>>>>>> REPLACE  (3+ characters, optional ">")
//
// Aider's markers (5–9 characters) may carry trailing whitespace, and so may
// the separator of a block opened with "<". Right after the start marker a
// block may give Roo's ":start_line:N" and ":end_line:N" lines and a "-------"
// line. A line that starts with "\" followed by a marker (or a Roo line) is
// text, without the "\". Lines outside blocks (prose, file names, code
// fences) are ignored. The last block may lack its end marker (it applies
// as far as it arrived, and Result.Incomplete says so), and a last
// line cut off inside a marker (a strict prefix of one, without its "\n") is
// dropped, as Cline drops it. Every SEARCH
// and REPLACE line counts as ending in "\n", as in Cline.
//
// Blocks are matched against the original file in payload order with the
// cascade in match.go, starting after the previous block's match (Cline's
// lastProcessedIndex): there the first place each strategy finds wins, as in
// Cline, so identical blocks in order edit successive places. A block that
// is not found after the previous one is looked for in the whole file (an
// out-of-order block, Cline v1), where again the first place wins. A block
// with a :start_line: (or with Roo's "N | " line numbers, tried when the
// text as sent does not match) takes the place nearest that line; two places
// equally near fail as ambiguous. Every Match says how many places fit
// (Candidates); an exact text at several places is StrategyFirstOfSeveral.
// Blocks whose matches overlap fail (Cline would splice them into garbled
// text). A block not in the file as it was (no match, one overlapping an
// earlier block's, or only a loose one where the text the blocks before it
// made has its exact text) is looked for in the text the blocks before it made,
// as aider applies blocks in sequence (sequence.go); such a match carries
// Match.After and is Loose. All blocks apply or none. Errors come in payload order, as a Stream
// meets them: a block that does not match is reported even when a later
// block is malformed.
//
// An empty SEARCH section fills an empty file; on a non-empty file it is
// FailEmptySearch (Cline v1; v2 would replace the whole file), with a hint to
// use write. A match that ends at the last line of a file without a final
// newline does not add one. A line-trimmed, normalized or block-anchor match
// re-indents the REPLACE lines by the uniform indentation difference between
// the SEARCH lines and the file's, when there is one.
//
// An exact match is exactly Cline's bytes: the SEARCH text, found in the
// file, replaced by the REPLACE text. A SEARCH whose blank first line
// matched the newline ending a non-blank line (a line of the file is not
// blank there) replaces whole lines after that newline: a REPLACE starting
// with a blank line too gives Cline's bytes; otherwise the match is
// StrategySkippedBlank (Cline would join the line before with the
// REPLACE's first line; aider drops such a spurious blank line). A SEARCH
// not found at all is looked for once more without a blank first line
// (aider). A match inside a line whose REPLACE is re-indented or deletes
// the line is StrategyLeadingWhitespace. In a block opened with "<" (aider,
// Roo, legacy Cline) a match inside a line is Cline's bytes but not exact
// for aider and Roo, which match whole lines: StrategyPartialLine, or
// StrategyLeadingWhitespace when only indentation comes before it.
//
// Roo's fuzzyThreshold (a Levenshtein similarity over the whole block) is not
// implemented: it costs O(block²) per window. Its vectors pass through the
// normalized strategy (whitespace, smart quotes) and block-anchor (a few
// changed middle lines); Roo's :end_line: is read but not used.

type srState uint8

const (
	srOutside srState = iota
	srHints           // just after a start marker: Roo's :start_line:, :end_line:, -------
	srSearch
	srReplace
)

// srEvent is what one payload line did to the block being parsed.
type srEvent uint8

const (
	srNothing     srEvent = iota
	srSearchDone          // the separator arrived: the SEARCH section is complete
	srReplaceLine         // a REPLACE line was added
	srClosed              // the end marker arrived
)

// srBlock is one parsed block.
type srBlock struct {
	num       int  // 1-based
	line      int  // 1-based payload line of its start marker
	angle     bool // opened with "<" (aider, legacy Cline, Roo)
	search    []string
	replace   []string
	startHint int // Roo :start_line:, 0 if none
	endHint   int // Roo :end_line:, 0 if none; informative only
	inFence   bool
}

// srParser reads a payload one line (without "\n") at a time.
type srParser struct {
	line      int // lines read
	state     srState
	blocks    []srBlock
	fence     bool   // prose opened a code fence that is still open
	prose     string // last line outside blocks that mentions SEARCH
	proseLine int
}

func srFormatError(block, line int, format string, args ...any) *FormatError {
	return &FormatError{Format: FormatSearchReplace, Block: block, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// markerRun splits line into its leading run of c and the rest.
func markerRun(line string, c byte) (n int, rest string) {
	for n < len(line) && line[n] == c {
		n++
	}
	return n, line[n:]
}

func trimRightSpace(s string) string { return strings.TrimRight(s, " \t\v\f") }

// srStart reports whether line is a start marker, and whether it uses "<".
func srStart(line string) (ok, angle bool) {
	if line == "" {
		return false, false
	}
	c := line[0]
	if c != '-' && c != '<' {
		return false, false
	}
	n, rest := markerRun(line, c)
	if n >= 3 && (rest == " SEARCH" || rest == " SEARCH>") {
		return true, c == '<'
	}
	if c == '<' && n >= 5 && n <= 9 {
		if r := trimRightSpace(rest); r == " SEARCH" || r == " SEARCH>" {
			return true, true
		}
	}
	return false, false
}

// srSeparator reports whether line is a separator; lenient allows aider's
// trailing whitespace.
func srSeparator(line string, lenient bool) bool {
	n, rest := markerRun(line, '=')
	return n >= 3 && rest == "" || lenient && n >= 5 && n <= 9 && trimRightSpace(rest) == ""
}

func srEnd(line string) bool {
	if line == "" || line[0] != '+' && line[0] != '>' {
		return false
	}
	n, rest := markerRun(line, line[0])
	if n >= 3 && (rest == " REPLACE" || rest == " REPLACE>") {
		return true
	}
	return line[0] == '>' && n >= 5 && n <= 9 && trimRightSpace(rest) == " REPLACE"
}

// srCutMarker reports whether line, the payload's last line cut off before
// its "\n", is a strict prefix of a marker line of any family (Cline,
// legacy, aider, Roo): the agent's output stopped inside a marker. Cline
// drops every such last line that starts with a marker character; we drop
// only those that could still have become a marker, so "- item" is text.
func srCutMarker(line string) bool {
	if line == "" {
		return false
	}
	var word string
	switch line[0] {
	case '-', '<':
		word = " SEARCH>"
	case '+', '>':
		word = " REPLACE>"
	case '=':
		n, rest := markerRun(line, '=')
		return rest == "" && n < 3
	default:
		return false
	}
	n, rest := markerRun(line, line[0])
	if rest == "" {
		return true
	}
	if start, _ := srStart(line); start || srEnd(line) {
		return false
	}
	return n >= 3 && strings.HasPrefix(word, rest)
}

// srPending reports whether an unfinished payload line may still turn out
// to be a marker, an escaped marker or a Roo line, so a preview must not
// show it as text yet. line is not empty.
func srPending(line string) bool {
	if line[0] == '\\' || line[0] == ':' {
		return true
	}
	start, _ := srStart(line)
	return start || srSeparator(line, true) || srEnd(line) || srCutMarker(line)
}

// srPayload is a payload as the parser reads it: "\n" line endings, and
// without a last line cut off inside a marker (returned as cut).
func srPayload(text string) (payload, cut string) {
	payload = toLF(text)
	i := strings.LastIndexByte(payload, '\n') + 1
	if last := payload[i:]; srCutMarker(last) {
		return payload[:i], last
	}
	return payload, ""
}

// srLineHint parses Roo's ":start_line:N" / ":end_line:N" (surrounding
// whitespace allowed); name is "" when line is neither.
func srLineHint(line string) (name string, n int, err error) {
	t := strings.TrimSpace(line)
	for _, name := range []string{":start_line:", ":end_line:"} {
		if rest, ok := strings.CutPrefix(t, name); ok {
			n, err := strconv.Atoi(strings.TrimSpace(rest))
			if err != nil || n < 1 {
				return name, 0, fmt.Errorf("%q needs a line number, e.g. %q", name, name+"12")
			}
			return name, n, nil
		}
	}
	return "", 0, nil
}

func srDashes(line string) bool {
	n, rest := markerRun(line, '-')
	return n >= 3 && trimRightSpace(rest) == ""
}

// srEscaped reports whether line is a "\"-escaped marker or Roo line, and
// returns the text without the "\".
func srEscaped(line string) (string, bool) {
	if !strings.HasPrefix(line, `\`) {
		return "", false
	}
	t := line[1:]
	if ok, _ := srStart(t); ok || srSeparator(t, true) || srEnd(t) || srDashes(t) {
		return t, true
	}
	if name, _, _ := srLineHint(t); name != "" {
		return t, true
	}
	return "", false
}

func isFenceLine(line string) bool {
	t := strings.TrimSpace(line)
	return strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")
}

func (p *srParser) cur() *srBlock { return &p.blocks[len(p.blocks)-1] }

// lastBlock is the number of the last block read, 0 before the first.
func (p *srParser) lastBlock() int { return len(p.blocks) }

// feed reads one payload line.
func (p *srParser) feed(line string) (srEvent, error) {
	p.line++
	if p.state == srHints {
		if name, n, err := srLineHint(line); name != "" {
			if err != nil {
				return srNothing, srFormatError(p.cur().num, p.line, "%v", err)
			}
			if name == ":start_line:" {
				p.cur().startHint = n
			} else {
				p.cur().endHint = n
			}
			return srNothing, nil
		}
		b := p.cur()
		p.state = srSearch
		if srDashes(line) && (b.angle || b.startHint > 0 || b.endHint > 0) {
			return srNothing, nil
		}
	}
	text, escaped := srEscaped(line)
	if escaped {
		line = text
	}
	switch p.state {
	case srOutside:
		return srNothing, p.outside(line, escaped)
	case srSearch:
		b := p.cur()
		if escaped {
			b.search = append(b.search, line)
			return srNothing, nil
		}
		if srSeparator(line, b.angle) {
			p.state = srReplace
			return srSearchDone, nil
		}
		if ok, _ := srStart(line); ok {
			return srNothing, srFormatError(b.num, p.line, "a new SEARCH marker arrived before block %d's separator (the block starts at line %d); end its SEARCH text with a line \"=======\", then the new lines and \"+++++++ REPLACE\"", b.num, b.line)
		}
		if srEnd(line) {
			return srNothing, srFormatError(b.num, p.line, "REPLACE marker before the separator; put a line \"=======\" between the SEARCH text and the new lines%s", p.nearSeparator(b))
		}
		b.search = append(b.search, line)
		return srNothing, nil
	default: // srReplace
		b := p.cur()
		if escaped {
			b.replace = append(b.replace, line)
			return srReplaceLine, nil
		}
		if srEnd(line) {
			p.state = srOutside
			return srClosed, nil
		}
		if srSeparator(line, true) {
			return srNothing, srFormatError(b.num, p.line, "a second separator in block %d; if the line %q is part of the new text, escape it as %q", b.num, line, `\`+line)
		}
		if ok, _ := srStart(line); ok {
			return srNothing, srFormatError(b.num, p.line, "block %d (line %d) has no end marker before the next SEARCH marker; close every block with a line \"+++++++ REPLACE\"", b.num, b.line)
		}
		if name, _, _ := srLineHint(line); name != "" {
			return srNothing, srFormatError(b.num, p.line, "%q belongs right after the SEARCH marker, not in the REPLACE section; move it there, or escape it as %q if it is text", name, `\`+strings.TrimSpace(line))
		}
		b.replace = append(b.replace, line)
		return srReplaceLine, nil
	}
}

// outside handles a line between blocks.
func (p *srParser) outside(line string, escaped bool) error {
	if !escaped {
		if ok, angle := srStart(line); ok {
			p.blocks = append(p.blocks, srBlock{num: len(p.blocks) + 1, line: p.line, angle: angle, inFence: p.fence})
			p.state = srHints
			return nil
		}
		if srSeparator(line, true) {
			return srFormatError(len(p.blocks)+1, p.line, "separator %q with no SEARCH marker before it; start each block with a line \"------- SEARCH\" (or \"<<<<<<< SEARCH\")%s", line, p.badStart())
		}
		if srEnd(line) {
			return srFormatError(len(p.blocks)+1, p.line, "REPLACE marker %q with no block open; start each block with a line \"------- SEARCH\", then the lines to find, \"=======\", the new lines and %q%s", line, line, p.badStart())
		}
	}
	if isFenceLine(line) {
		p.fence = !p.fence
	}
	if strings.Contains(line, "SEARCH") {
		p.prose, p.proseLine = line, p.line
	}
	return nil
}

// badStart explains a prose line that was probably meant as a start marker.
func (p *srParser) badStart() string {
	if p.prose == "" {
		return ""
	}
	return fmt.Sprintf("; line %d %q is not a SEARCH marker: write 3 or more \"-\" (or \"<\"), one space and SEARCH, with nothing else on the line", p.proseLine, p.prose)
}

// nearSeparator points at a SEARCH line that looks like a separator but is not one.
func (p *srParser) nearSeparator(b *srBlock) string {
	for i, l := range b.search {
		if n, rest := markerRun(strings.TrimSpace(l), '='); n >= 3 && rest == "" && l != strings.TrimSpace(l) {
			return fmt.Sprintf("; line %d %q has whitespace around its \"=\" and is not a separator", p.line-len(b.search)+i, l)
		}
	}
	return ""
}

// finish ends the payload; cut is its last line if srPayload dropped it. A
// last block without its end marker is closed, and reported as incomplete,
// as is a next block cut off in its start marker.
func (p *srParser) finish(cut string) (*Incomplete, error) {
	switch p.state {
	case srHints, srSearch:
		b := p.cur()
		return nil, srFormatError(b.num, b.line, "block %d ends inside its SEARCH section; add a line \"=======\", the new lines and \"+++++++ REPLACE\"%s", b.num, p.nearSeparator(b))
	case srReplace:
		// Accepted without its end marker; drop the fence that closed the
		// code block the block was written in.
		b := p.cur()
		where := "the edit was cut off in its REPLACE section"
		switch n := len(b.replace); {
		case cut != "":
			where = fmt.Sprintf("the edit was cut off in %s, %q (dropped)", markerName(cut), cut)
		case b.inFence && n > 0 && isFenceLine(b.replace[n-1]):
			b.replace = b.replace[:n-1]
			where = "a code fence closed it"
		case n == 0:
			where = "the edit was cut off after its separator"
		}
		what := "the REPLACE lines that arrived were applied"
		if len(b.replace) == 0 {
			what = "with no REPLACE lines, its SEARCH lines were deleted"
		}
		p.state = srOutside
		return &Incomplete{Block: b.num, Line: b.line, Cut: cut,
			Reason: fmt.Sprintf("block %d has no end marker: %s; %s", b.num, where, what)}, nil
	}
	if len(p.blocks) == 0 {
		return nil, srFormatError(0, 0, "no SEARCH/REPLACE block found; write a line \"------- SEARCH\", the exact lines to change, a line \"=======\", the new lines, then a line \"+++++++ REPLACE\"")
	}
	if cut != "" && (cut[0] == '-' || cut[0] == '<') {
		n := len(p.blocks) + 1
		return &Incomplete{Block: n, Line: p.line + 1, Cut: cut,
			Reason: fmt.Sprintf("block %d was cut off in its start marker %q (dropped); the blocks before it were applied", n, cut)}, nil
	}
	return nil, nil
}

// markerName names the marker a cut-off line began.
func markerName(cut string) string {
	switch cut[0] {
	case '-', '<':
		return "a start marker"
	case '=':
		return "a separator"
	}
	return "its end marker"
}

// eachLine calls f with each line of s (without "\n"); a final "\n" does not
// start another line.
func eachLine(s string, f func(string) error) error {
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			return f(s)
		}
		if err := f(s[:i]); err != nil {
			return err
		}
		s = s[i+1:]
	}
	return nil
}

// parseSearchReplace parses a whole payload into blocks.
func parseSearchReplace(text string) ([]srBlock, error) {
	var p srParser
	payload, cut := srPayload(text)
	err := eachLine(payload, func(l string) error {
		_, err := p.feed(l)
		return err
	})
	if err != nil {
		return nil, err
	}
	if _, err := p.finish(cut); err != nil {
		return nil, err
	}
	return p.blocks, nil
}

// srPlacement is where one block goes.
type srPlacement struct {
	block    int // 1-based block number
	loc      located
	stripped bool   // the SEARCH matched after removing Roo's "N | " prefixes
	skipped  bool   // the SEARCH matched only without its blank first line (aider)
	search   string // the SEARCH text as sent, each line ending in "\n"
	repl     string // the replacement text, set when the block closes
}

// srRun parses a payload and places its blocks as the lines arrive; Apply
// and Stream share it.
type srRun struct {
	p      srParser
	m      *lineMatcher
	placed []srPlacement  // one per block, in block order
	cursor int            // byte offset after the previous block's match
	chosen map[int]Region // blocks a person placed (ApplyAt), by number
	skip   int            // blocks 1..skip are parsed but not applied (applied to the text already)
	upto   int            // when not 0, blocks after it are parsed but not applied (yet)
}

func newSRRun(text string) *srRun { return &srRun{m: newLineMatcher(text)} }

// line reads one payload line, placing a block when its SEARCH completes.
func (r *srRun) line(l string) (srEvent, error) {
	ev, err := r.p.feed(l)
	if err != nil {
		return ev, err
	}
	if len(r.p.blocks) > 0 && !r.applies(r.p.cur().num) {
		return ev, nil
	}
	switch ev {
	case srSearchDone:
		err = r.place()
	case srClosed:
		r.close()
	}
	return ev, err
}

// applies reports whether block n is applied in this run.
func (r *srRun) applies(n int) bool { return n > r.skip && (r.upto == 0 || n <= r.upto) }

// finish ends the payload (see srParser.finish).
func (r *srRun) finish(cut string) (*Incomplete, error) {
	open := r.p.state == srReplace && r.applies(r.p.cur().num)
	inc, err := r.p.finish(cut)
	if open {
		r.close()
	}
	return inc, err
}

func (r *srRun) matches() []Match {
	out := make([]Match, len(r.placed))
	for i, p := range r.placed {
		m := newMatch(p.block, p.loc.strategy, p.loc.first+1, p.loc.last+1)
		m.Similarity, m.Candidates = p.loc.similarity, p.loc.candidates
		if p.loc.last < p.loc.first {
			m.EndLine = m.StartLine - 1
		}
		switch {
		case m.Strategy == StrategyExact && p.stripped:
			m.Strategy = StrategyLineNumbers
		case m.Strategy == StrategyExact && m.Candidates > 1:
			m.Strategy = StrategyFirstOfSeveral
		}
		m.After = r.skip
		if m.Loose() {
			r.m.split()
			m.disclose(p.search, r.m.text[r.m.start[p.loc.first]:r.m.start[p.loc.last+1]])
		}
		out[i] = m
	}
	return out
}

func (r *srRun) fail(b *srBlock, e *MatchError) *MatchError {
	e.Format, e.Block, e.Applied = FormatSearchReplace, b.num, r.matches()
	if e.Search == "" {
		e.Search = newSearchLines(b.search).text
	}
	return e
}

// place locates the current block.
func (r *srRun) place() error {
	b := r.p.cur()
	if reg, ok := r.chosen[b.num]; ok {
		loc, err := r.m.placed(FormatSearchReplace, b.num, reg, b.search)
		if err != nil {
			return err
		}
		return r.add(b, loc, false, newSearchLines(b.search).text)
	}
	if len(b.search) == 0 {
		if r.m.text != "" || len(r.placed) > 0 {
			return r.fail(b, &MatchError{Kind: FailEmptySearch,
				Hint: "an empty SEARCH section only creates a new file; put the exact lines to change in SEARCH, or send the whole new content with write"})
		}
		r.placed = append(r.placed, srPlacement{block: b.num, loc: located{strategy: StrategyWholeFile, last: -1, similarity: 1, candidates: 1}})
		return nil
	}
	o := matchOptions{from: r.cursor, hint: b.startHint}
	q := newSearchLines(b.search)
	loc, merr := r.m.locate(q, o)
	stripped := false
	if merr != nil && merr.Kind == FailNoMatch {
		if lines, first, ok := stripRooLineNumbers(b.search); ok {
			if o.hint == 0 {
				o.hint = first
			}
			loc2, merr2 := r.m.locate(newSearchLines(lines), o)
			switch {
			case merr2 == nil:
				loc, merr, stripped = loc2, nil, true
			case merr2.Kind != FailNoMatch:
				merr = merr2
			}
		}
	}
	if (merr != nil || loc.strategy != StrategyExact) && len(r.placed) > 0 && r.chosen == nil &&
		!strings.Contains(r.m.text, q.text) && strings.Contains(r.output(), q.text) {
		// Not in the file as it was, but exactly in the text the blocks
		// before made: aider's answer (inSequence) beats a loose match here.
		return r.fail(b, &MatchError{Kind: FailNoMatch, Search: q.text, Tried: triedUpTo(StrategyBlockAnchor),
			Hint: "the SEARCH text is in the file only as the blocks before it leave it"})
	}
	skipped := false
	if merr != nil && merr.Kind == FailNoMatch && len(b.search) > 1 && strings.TrimSpace(b.search[0]) == "" {
		// aider drops a spurious blank first line of SEARCH.
		if loc2, merr2 := r.m.locate(newSearchLines(b.search[1:]), o); merr2 == nil {
			loc, merr, skipped = loc2, nil, true
			if loc.strategy == StrategyExact {
				loc.strategy = StrategySkippedBlank
			}
		}
	}
	if merr != nil {
		return r.fail(b, merr)
	}
	if err := r.add(b, loc, stripped, q.text); err != nil {
		return err
	}
	r.placed[len(r.placed)-1].skipped = skipped
	return nil
}

// add records block b's place, unless it overlaps an earlier block's.
func (r *srRun) add(b *srBlock, loc located, stripped bool, search string) error {
	for _, p := range r.placed {
		if loc.start < p.loc.end && p.loc.start < loc.end {
			return r.fail(b, &MatchError{Kind: FailOverlap, Tried: []Strategy{loc.strategy},
				Places: []Candidate{r.m.candidate(p.loc.first, p.loc.last-p.loc.first+1, 1), r.m.candidate(loc.first, loc.last-loc.first+1, 1)},
				Hint:   fmt.Sprintf("blocks %d and %d change the same lines; merge them into one block", p.block, b.num)})
		}
	}
	r.placed = append(r.placed, srPlacement{block: b.num, loc: loc, stripped: stripped, search: search})
	r.cursor = loc.end
	return nil
}

// replaceLine is REPLACE line k of placement p as it goes into the file:
// without Roo's line number when strip, re-indented, and after the lead of
// a match that started inside its first line.
func (p *srPlacement) replaceLine(k int, l string, strip bool) string {
	if strip {
		l, _, _ = cutRooLineNumber(l)
	}
	l = p.loc.shift.apply(l)
	if k == 0 {
		// The text before a mid-line match stays (Cline's bytes).
		l = p.loc.lead + l
	}
	return l
}

// stripsReplace reports whether block b's REPLACE lines lose Roo line numbers.
func (p *srPlacement) stripsReplace(b *srBlock) bool {
	if !p.stripped || len(b.replace) == 0 {
		return false
	}
	_, _, ok := stripRooLineNumbers(b.replace)
	return ok
}

// close builds the current block's replacement text.
func (r *srRun) close() {
	b := r.p.cur()
	p := &r.placed[len(r.placed)-1]
	strip := p.stripsReplace(b)
	lines := b.replace
	if p.loc.blankLead && len(lines) > 0 && lines[0] == "" {
		// The REPLACE's blank first line gives back the newline the
		// SEARCH's took.
		lines = lines[1:]
	}
	var sb strings.Builder
	for k, l := range lines {
		sb.WriteString(p.replaceLine(k, l, strip))
		sb.WriteByte('\n')
	}
	p.repl = sb.String()
	if p.repl == "" && strings.TrimSpace(p.loc.lead) != "" {
		// Cline keeps the text before a mid-line match.
		p.repl = p.loc.lead
	}
	if p.loc.virtualEOL {
		p.repl = strings.TrimSuffix(p.repl, "\n")
	}
	switch {
	case p.loc.strategy != StrategyExact || p.stripped:
	case !r.clineBytes(b, p):
		// Not the SEARCH text replaced byte for byte: say how it differs.
		p.loc.strategy = StrategyLeadingWhitespace
		if p.loc.blankLead {
			p.loc.strategy = StrategySkippedBlank
		}
	case b.angle && p.loc.at > p.loc.start:
		// Cline's bytes, but aider's and Roo's markers: they match whole
		// lines, so text found inside a line is not exact for them.
		p.loc.strategy = StrategyPartialLine
		if strings.TrimSpace(r.m.text[p.loc.start:p.loc.at]) == "" {
			p.loc.strategy = StrategyLeadingWhitespace
		}
	}
}

// clineBytes reports whether placement p of block b gives Cline's bytes:
// the file with the exact SEARCH text (at p.loc.at) replaced by the REPLACE
// text, each line ending in "\n" (the last one's standing for the end of a
// file without a final newline).
func (r *srRun) clineBytes(b *srBlock, p *srPlacement) bool {
	var sb strings.Builder
	for _, l := range b.replace {
		sb.WriteString(l)
		sb.WriteByte('\n')
	}
	want := sb.String()
	if p.loc.virtualEOL {
		want = strings.TrimSuffix(want, "\n")
	}
	lo := min(p.loc.start, p.loc.at)
	return r.m.text[lo:p.loc.start]+p.repl == r.m.text[lo:p.loc.at]+want
}

// output assembles the edited text.
func (r *srRun) output() string {
	order := make([]int, len(r.placed))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return r.placed[order[a]].loc.start < r.placed[order[b]].loc.start })
	var sb strings.Builder
	sb.Grow(len(r.m.text))
	prev := 0
	for _, i := range order {
		p := r.placed[i]
		sb.WriteString(r.m.text[prev:p.loc.start])
		sb.WriteString(p.repl)
		prev = p.loc.end
	}
	sb.WriteString(r.m.text[prev:])
	return sb.String()
}

// cutRooLineNumber removes Roo's "N | " prefix (as its read_file shows lines).
func cutRooLineNumber(l string) (rest string, n int, ok bool) {
	i := 0
	for i < len(l) && (l[i] == ' ' || l[i] == '\t') {
		i++
	}
	d := i
	for i < len(l) && l[i] >= '0' && l[i] <= '9' {
		i++
	}
	if i == d {
		return l, 0, false
	}
	n, _ = strconv.Atoi(l[d:i])
	sp := i
	for i < len(l) && (l[i] == ' ' || l[i] == '\t') {
		i++
	}
	if i == sp || i >= len(l) || l[i] != '|' || strings.HasPrefix(l[i:], "||") {
		return l, 0, false
	}
	i++
	if i < len(l) && l[i] == ' ' {
		i++
	}
	return l[i:], n, true
}

// stripRooLineNumbers removes "N | " from every line when every line has one,
// and returns the first number.
func stripRooLineNumbers(lines []string) ([]string, int, bool) {
	out := make([]string, len(lines))
	first := 0
	for i, l := range lines {
		rest, n, ok := cutRooLineNumber(l)
		if !ok {
			return nil, 0, false
		}
		if i == 0 {
			first = n
		}
		out[i] = rest
	}
	return out, first, len(lines) > 0
}

// Format reports FormatSearchReplace.
func (e SearchReplace) Format() Format { return FormatSearchReplace }

func (e SearchReplace) payload() []string { return []string{e.Text} }

func (e SearchReplace) apply(text string) (Result, error) {
	res, err := newSRRun(text).run(e.Text)
	if err != nil {
		return inSequence(text, e.Text, err)
	}
	return res, nil
}

// run applies the whole SEARCH/REPLACE payload, line by line, and returns
// the result.
func (r *srRun) run(payload string) (Result, error) {
	payload, cut := srPayload(payload)
	err := eachLine(payload, func(l string) error {
		_, err := r.line(l)
		return err
	})
	var inc *Incomplete
	if err == nil {
		inc, err = r.finish(cut)
	}
	if err != nil {
		return Result{}, err
	}
	return Result{Content: r.output(), Matches: r.matches(), Incomplete: inc}, nil
}
