package engine

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"
)

// A person may place a block that failed (no match, ambiguous, a count
// other than expected) or matched loosely: ApplyAt applies the edit with
// that block at the lines the person chose, instead of where (or whether)
// matching found it. The other blocks are matched as Apply matches them.
//
// The chosen lines are replaced, as whole lines, by the block's replacement
// text (REPLACE section, new_string) taken as whole lines: a person chooses
// lines, not columns. The replacement is re-indented by the difference in
// indentation between the first non-blank line of the block's search text
// and the first non-blank chosen line (as line-trimmed re-indents: added to,
// or removed from, the front of every non-blank line), and is verbatim when
// they are indented alike. The chosen lines of a file without a final
// newline that reach its end get none either. The Match is
// StrategyPersonChosen, with the lines and the similarity of the search
// text to them; it is Loose, so the person sees it disclosed and the agent
// is told.
//
// Formats: search-replace, edit, multi-edit and smart-edit. A multi-edit's
// regions are in lines of the original file, as its errors give them; the
// lines must not have been changed by an earlier edit of the same call.

// Region is lines of a file a person chose, 1-based and inclusive;
// EndLine = StartLine−1 inserts before StartLine.
type Region struct {
	StartLine int `json:"startLine"`
	EndLine   int `json:"endLine"`
}

func (r Region) String() string {
	if r.EndLine < r.StartLine {
		return fmt.Sprintf("before line %d", r.StartLine)
	}
	if r.EndLine == r.StartLine {
		return fmt.Sprintf("line %d", r.StartLine)
	}
	return fmt.Sprintf("lines %d–%d", r.StartLine, r.EndLine)
}

// PlaceError reports a placement ApplyAt cannot carry out: a block the
// edit does not have, lines outside the file, a format without blocks.
type PlaceError struct {
	Format Format
	Block  int // 1-based; 0 when the edit as a whole cannot be placed
	Msg    string
}

func (e *PlaceError) Error() string {
	if e.Block == 0 {
		return fmt.Sprintf("%s: %s", e.Format, e.Msg)
	}
	return fmt.Sprintf("%s: block %d: %s", e.Format, e.Block, e.Msg)
}

// placer is implemented by the formats whose blocks a person can place.
type placer interface {
	// applyAt is apply with the blocks in at placed at those regions.
	applyAt(text string, at map[int]Region) (Result, error)
}

// ApplyAt is Apply with block n (1-based) of e placed at the region at[n]
// a person chose, for each n in at; see the comment at the top of place.go.
// A placement that cannot be carried out is a *PlaceError; the other
// blocks may fail as in Apply.
func ApplyAt(original string, e Edit, at map[int]Region) (Result, error) {
	p, ok := e.(placer)
	if !ok {
		return Result{}, &PlaceError{Format: e.Format(), Msg: "this format has no blocks to place; only search-replace, edit, multi-edit and smart-edit blocks can be placed at chosen lines"}
	}
	if len(at) == 0 {
		return Result{}, &PlaceError{Format: e.Format(), Msg: "no block was placed; name a block and the lines it goes to"}
	}
	doc, err := Decode(original)
	if err != nil {
		return Result{}, err
	}
	return applyDocWith(doc, e, func(text string) (Result, error) { return p.applyAt(text, at) })
}

// checkBlocks refuses placements of blocks an edit with n blocks lacks.
func checkBlocks(f Format, at map[int]Region, n int) error {
	for _, b := range sortedBlocks(at) {
		if b < 1 || b > n {
			return &PlaceError{Format: f, Block: b, Msg: fmt.Sprintf("the edit has %d block(s); choose one of 1–%d", n, n)}
		}
	}
	return nil
}

func sortedBlocks(at map[int]Region) []int {
	bs := make([]int, 0, len(at))
	for b := range at {
		bs = append(bs, b)
	}
	sort.Ints(bs)
	return bs
}

// placed locates region r of m's text for block `block` of format f whose
// search text is search (lines without "\n"). The lines must be in the file;
// an insertion after the last line of a file without a final newline is
// refused (choose that line instead).
func (m *lineMatcher) placed(f Format, block int, r Region, search []string) (located, error) {
	bad := func(format string, args ...any) error {
		return &PlaceError{Format: f, Block: block, Msg: fmt.Sprintf(format, args...)}
	}
	m.split()
	switch {
	case r.StartLine < 1 || r.EndLine < r.StartLine-1:
		return located{}, bad("%s is not a range of lines; give a first line from 1 and a last line not before it", r)
	case r.EndLine > m.n || r.StartLine > m.n+1:
		return located{}, bad("%s are past the end of the file, which has %d lines", r, m.n)
	case r.EndLine < r.StartLine && r.StartLine == m.n+1 && m.n > 0 && !strings.HasSuffix(m.text, "\n"):
		return located{}, bad("the file has no final newline to insert after; choose its last line (%d) and repeat it in the replacement", m.n)
	}
	loc := located{strategy: StrategyPersonChosen, first: r.StartLine - 1, last: r.EndLine - 1, candidates: 1,
		start: m.start[r.StartLine-1], end: m.start[r.EndLine]}
	loc.virtualEOL = loc.end == len(m.text) && loc.end > loc.start && !strings.HasSuffix(m.text, "\n")
	q := newSearchLines(search)
	if len(search) > 0 && r.EndLine >= r.StartLine {
		loc.similarity = m.windowSimilarity(loc.first, q)
	}
	loc.shift = firstIndentShift(search, strings.Split(strings.TrimSuffix(m.text[loc.start:loc.end], "\n"), "\n"))
	return loc, nil
}

// firstIndentShift is the indentation difference between the first
// non-blank line of search and of chosen; none when either is all blank
// or their indentations differ in kind.
func firstIndentShift(search, chosen []string) indentShift {
	a, b := firstIndent(search), firstIndent(chosen)
	if a == nil || b == nil {
		return indentShift{}
	}
	switch {
	case strings.HasSuffix(*b, *a):
		return indentShift{add: (*b)[:len(*b)-len(*a)]}
	case strings.HasSuffix(*a, *b):
		return indentShift{del: (*a)[:len(*a)-len(*b)]}
	}
	return indentShift{}
}

func firstIndent(lines []string) *string {
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			in := l[:len(l)-len(strings.TrimLeftFunc(l, unicode.IsSpace))]
			return &in
		}
	}
	return nil
}

// replacementText is repl (with "\n" endings) as whole lines for loc:
// re-indented, each line ending in "\n" but the last of a file without
// a final newline.
func (loc located) replacementText(repl string) string {
	if repl == "" {
		return ""
	}
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSuffix(repl, "\n"), "\n") {
		b.WriteString(loc.shift.apply(l))
		b.WriteByte('\n')
	}
	s := b.String()
	if loc.virtualEOL {
		s = strings.TrimSuffix(s, "\n")
	}
	return s
}

// match is the Match of block at loc of m's text, searched for with search.
func (loc located) match(m *lineMatcher, block int, search string) Match {
	mt := newMatch(block, loc.strategy, loc.first+1, loc.last+1)
	mt.Similarity = loc.similarity
	mt.disclose(search, m.text[loc.start:loc.end])
	return mt
}

// searchLinesOf splits s ("\n" endings) into lines; a final "\n" does not
// start another line.
func searchLinesOf(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// placeOne applies an old/new pair of format f at the region chosen for
// block 1, the only block of edit and smart-edit.
func placeOne(f Format, text, old, new string, at map[int]Region) (Result, error) {
	if err := checkBlocks(f, at, 1); err != nil {
		return Result{}, err
	}
	m := newLineMatcher(text)
	loc, err := m.placed(f, 1, at[1], searchLinesOf(toLF(old)))
	if err != nil {
		return Result{}, err
	}
	s := span{start: loc.start, end: loc.end, repl: loc.replacementText(toLF(new))}
	return Result{Content: spliceSpans(text, []span{s}), Matches: []Match{loc.match(m, 1, old)}}, nil
}

func (e Replace) applyAt(text string, at map[int]Region) (Result, error) {
	return placeOne(FormatEdit, text, e.Old, e.New, at)
}

func (e SmartEdit) applyAt(text string, at map[int]Region) (Result, error) {
	return placeOne(FormatSmartEdit, text, e.Old, e.New, at)
}

func (e SearchReplace) applyAt(text string, at map[int]Region) (Result, error) {
	blocks, err := parseSearchReplace(e.Text)
	if err != nil {
		return Result{}, err
	}
	if err := checkBlocks(FormatSearchReplace, at, len(blocks)); err != nil {
		return Result{}, err
	}
	r := newSRRun(text)
	r.chosen = at
	return r.run(e.Text)
}

func (e MultiEdit) applyAt(text string, at map[int]Region) (Result, error) {
	if err := checkBlocks(FormatMultiEdit, at, len(e.Edits)); err != nil {
		return Result{}, err
	}
	return e.applyChosen(text, at)
}

// working maps region r of the original file to the lines of the working
// copy that still hold it, unchanged by earlier edits.
func (m *lineMap) working(r Region) (Region, bool) {
	if r.StartLine < 1 || r.EndLine < r.StartLine-1 || r.EndLine > m.total {
		return r, true // not lines of the file: placed says why
	}
	for w := 1; w < len(m.orig); w++ {
		if m.orig[w] != r.StartLine {
			continue
		}
		n := r.EndLine - r.StartLine + 1
		if w+n-1 >= len(m.orig) {
			return Region{}, false
		}
		for k := range n {
			if m.orig[w+k] != r.StartLine+k {
				return Region{}, false
			}
		}
		// An insertion goes before line w; it must not split an earlier
		// edit's text from the original line before it.
		if n == 0 && w > 1 && m.orig[w-1] == 0 {
			return Region{}, false
		}
		return Region{StartLine: w, EndLine: w + n - 1}, true
	}
	return Region{}, false
}

// place applies edit r, block `block` of a multi-edit, at region reg of
// original, in text, the working copy m maps; it returns the match in
// original lines and the new working copy.
func (m *lineMap) place(original, text string, block int, reg Region, r Replace) (Match, string, error) {
	w, ok := m.working(reg)
	if ok && w.EndLine >= w.StartLine && w.StartLine >= 1 && reg.EndLine <= m.total {
		was, now := strings.Split(original, "\n"), strings.Split(text, "\n")
		ok = slices.Equal(was[reg.StartLine-1:reg.EndLine], now[w.StartLine-1:w.EndLine])
	}
	if !ok {
		return Match{}, "", &PlaceError{Format: FormatMultiEdit, Block: block,
			Msg: fmt.Sprintf("%s of the file were changed by an earlier edit of this call; choose lines no earlier edit touched", reg)}
	}
	lm := newLineMatcher(text)
	loc, err := lm.placed(FormatMultiEdit, block, w, searchLinesOf(toLF(r.Old)))
	if err != nil {
		return Match{}, "", err
	}
	repl := loc.replacementText(toLF(r.New))
	mt := loc.match(lm, block, r.Old)
	mt.StartLine, mt.EndLine = reg.StartLine, reg.EndLine
	g := strings.Count(repl, "\n")
	if loc.virtualEOL && repl != "" {
		g++
	}
	// The new lines come from no original line.
	rest := append(make([]int, g), m.orig[w.EndLine+1:]...)
	m.orig = append(m.orig[:w.StartLine], rest...)
	return mt, text[:loc.start] + repl + text[loc.end:], nil
}
