package engine

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The matching cascade for SEARCH/REPLACE blocks, reusable by any format
// that looks for a run of lines in a file:
//
//	exact        the search text as a substring (Cline's indexOf)
//	line-trimmed every line equal after trimming surrounding whitespace
//	normalized   every line equal after trimming, collapsing runs of
//	             whitespace and folding typographic quotes, dashes and
//	             ellipses (Roo's normalizeString at threshold 1.0)
//	block-anchor three or more lines whose first and last lines are equal
//	             after trimming, whatever the middle (Cline); the Match
//	             reports how similar the whole window is
//
// Where a strategy fits several places, the first wins (Cline's indexOf and
// its fallbacks scan forward from the previous block's match) and the
// located match counts the places that fit, non-overlapping, from there to
// the end of the file; the caller discloses it as Loose. Only a Roo
// :start_line: changes the choice, to the place nearest it.
//
// A lineMatcher splits the file once per apply, when a strategy first needs
// its lines; trimmed lines and their hashes are computed on first use and
// shared by every block and strategy. The exact strategy needs no split: it
// finds the text by byte offsets (index.go) and counts the newlines before
// it for its line numbers, so an exact hit reads the file about once.
// Line strategies compare hashes with a linear-time sequence search (KMP), so
// a search costs O(file + search) per strategy, and a file of identical lines
// cannot make it quadratic. Block-anchor compares the two anchor lines' hashes
// per window, and scores the middle of the chosen window only.

// closestLimit is how many candidates a no-match error lists, placesLimit
// how many places an ambiguity error lists, candidateLinesLimit how many of
// its lines a candidate quotes.
const (
	closestLimit        = 3
	placesLimit         = 10
	candidateLinesLimit = 200 // lines quoted per candidate
)

// voteWorkLimit bounds the closest-lines vote, which can cost O(lines ×
// search lines) when both are full of the same line ("}" or blank): it
// ignores the most common search lines until the votes fit.
const voteWorkLimit = 16 << 20

// lineMatcher is a file's text split into lines once for matching.
type lineMatcher struct {
	text  string
	start []int // byte offset of each line; start[n] == len(text); nil until split
	n     int   // number of lines; a final line without "\n" counts; set by split

	// Before the split, lineOf counts newlines: countOff is how far it
	// counted, countLine how many it found, back how often it had to
	// start again from the top (past backLimit it splits instead).
	countOff, countLine, back int

	tHash []uint64 // hash of trimmed(i); computed by prepare
	dirty []int    // lines whose trimmed text is not its normalized form; computed by prepare
	nHash []uint64 // hash of the normalized line; computed by prepareNormalized
	buf   []byte
}

// lineSplitExact turns the byte-offset path of an exact hit off: Decode
// counts every kind of line ending, the matcher splits the file into lines
// at once and the exact strategy searches with indexLong, as before the
// path was built. Its property test (exactfast_test.go) compares the two.
var lineSplitExact = false

// backLimit is how many times lineOf counts newlines again from the top
// (blocks out of order) before it splits the file instead.
const backLimit = 4

// newLineMatcher returns a matcher of text (with "\n" line endings).
func newLineMatcher(text string) *lineMatcher {
	m := &lineMatcher{text: text}
	if lineSplitExact {
		m.split()
	}
	return m
}

// split splits the text into lines, once.
func (m *lineMatcher) split() {
	if m.start != nil {
		return
	}
	text := m.text
	m.start = make([]int, 0, strings.Count(text, "\n")+2)
	for i := 0; i < len(text); {
		m.start = append(m.start, i)
		j := strings.IndexByte(text[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
	}
	m.n = len(m.start)
	m.start = append(m.start, len(text))
}

// lines is the number of lines.
func (m *lineMatcher) lines() int {
	m.split()
	return m.n
}

// line returns line i (0-based) without its "\n".
func (m *lineMatcher) line(i int) string {
	m.split()
	return strings.TrimSuffix(m.text[m.start[i]:m.start[i+1]], "\n")
}

// lineOf returns the 0-based line holding byte offset off; the last line
// for an offset at or past the end, -1 in an empty text. Before the split
// it counts newlines, on from where it last counted.
func (m *lineMatcher) lineOf(off int) int {
	if m.start == nil && m.back > backLimit {
		m.split()
	}
	if m.start != nil {
		i := sort.Search(m.n, func(i int) bool { return m.start[i+1] > off })
		if i >= m.n {
			return m.n - 1
		}
		return i
	}
	l := len(m.text)
	switch {
	case l == 0:
		return -1
	case off >= l && m.text[l-1] == '\n':
		off = l - 1 // the last line, not the empty one after its newline
	case off > l:
		off = l
	case off < 0:
		off = 0
	}
	if off < m.countOff {
		m.countOff, m.countLine = 0, 0
		m.back++
	}
	m.countLine += strings.Count(m.text[m.countOff:off], "\n")
	m.countOff = off
	return m.countLine
}

// lineBegin returns the offset where line lineOf(off) starts.
func (m *lineMatcher) lineBegin(off int) int {
	if l := len(m.text); off >= l && l > 0 && m.text[l-1] == '\n' {
		off = l - 1
	}
	off = min(max(off, 0), len(m.text))
	return strings.LastIndexByte(m.text[:off], '\n') + 1
}

// trimmed returns line i without its "\n" and surrounding whitespace.
func (m *lineMatcher) trimmed(i int) string { return strings.TrimSpace(m.line(i)) }

func (m *lineMatcher) prepare() {
	if m.tHash != nil || m.lines() == 0 {
		return
	}
	m.tHash = make([]uint64, m.n)
	for i := range m.tHash {
		t := m.trimmed(i)
		m.tHash[i] = lineHash(t)
		if !isNormalized(t) {
			m.dirty = append(m.dirty, i)
		}
	}
}

func (m *lineMatcher) prepareNormalized() {
	m.prepare()
	if m.nHash != nil || m.lines() == 0 {
		return
	}
	m.nHash = append([]uint64(nil), m.tHash...)
	for _, i := range m.dirty {
		m.buf = appendNormalized(m.buf[:0], m.trimmed(i))
		m.nHash[i] = lineHash(string(m.buf))
	}
}

// searchLines is a block's SEARCH text prepared for matching.
type searchLines struct {
	text    string   // the lines, each followed by "\n"
	lines   []string // without "\n"
	trimmed []string
	tHash   []uint64
	nHash   []uint64
}

func newSearchLines(lines []string) *searchLines {
	q := &searchLines{lines: lines, trimmed: make([]string, len(lines)), tHash: make([]uint64, len(lines)), nHash: make([]uint64, len(lines))}
	var b strings.Builder
	var buf []byte
	for i, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
		t := strings.TrimSpace(l)
		q.trimmed[i] = t
		q.tHash[i] = lineHash(t)
		q.nHash[i] = normalizedHash(t, &buf)
	}
	q.text = b.String()
	return q
}

// matchOptions says where a block may match.
type matchOptions struct {
	from int // byte offset (a line start) where matching starts; the first place after it wins
	hint int // 1-based line the block should start near (Roo :start_line:); 0 if none
}

// located is where a block matched.
type located struct {
	strategy   Strategy
	start, end int     // byte offsets of the replaced text
	virtualEOL bool    // the search's final "\n" stood for the end of a file that has none
	first      int     // 0-based first line replaced
	last       int     // 0-based last line replaced
	similarity float64 // Match.Similarity
	candidates int     // Match.Candidates
	shift      indentShift
	// lead is the text of the first line before an exact match that starts
	// inside it; start is then moved to the line start and lead goes before
	// the replacement (unless a whitespace lead became a uniform shift).
	lead string
	// at is where an exact match's text begins, which start may differ
	// from (lead, blankLead): the bytes Cline replaces are text[at:end].
	at int
	// blankLead says the SEARCH's blank first line matched the newline
	// ending the line before a match (a non-blank line): start is after
	// that newline, and the match is the whole lines after it.
	blankLead bool
}

// matchStrategies lists the cascade in order.
var matchStrategies = []Strategy{StrategyExact, StrategyLineTrimmed, StrategyNormalized, StrategyBlockAnchor}

// locate finds q in the file: each strategy in turn over the text after
// o.from, then (for an out-of-order block) each over the whole file. With a
// hint, every strategy looks at the whole file and the match nearest the hint
// wins. The error has Kind, Search, Tried, Closest or Places set; the caller
// adds Format, Block and Applied.
func (m *lineMatcher) locate(q *searchLines, o matchOptions) (located, *MatchError) {
	passes := []matchOptions{o}
	if o.hint > 0 {
		passes[0].from = 0
	} else if o.from > 0 {
		passes = append(passes, matchOptions{})
	}
	for _, p := range passes {
		for _, s := range matchStrategies {
			loc, places, ok := m.find(s, q, p)
			if len(places) > 1 {
				return located{}, &MatchError{Kind: FailAmbiguous, Search: q.text, Tried: triedUpTo(s), Places: places,
					Hint: "the SEARCH text fits several places equally well; add a few unchanged lines around it so it matches only one"}
			}
			if ok {
				return loc, nil
			}
		}
	}
	return located{}, &MatchError{Kind: FailNoMatch, Search: q.text, Tried: triedUpTo(StrategyBlockAnchor), Closest: m.closest(q),
		Hint: "copy the SEARCH lines exactly from the file (the closest lines are shown with their numbers), or re-read the file if it changed"}
}

func triedUpTo(s Strategy) []Strategy {
	for i, x := range matchStrategies {
		if x == s {
			return append([]Strategy(nil), matchStrategies[:i+1]...)
		}
	}
	return nil
}

// find runs one strategy. It returns the match, or two or more places
// equally near a hint (ambiguous), or neither.
func (m *lineMatcher) find(s Strategy, q *searchLines, o matchOptions) (located, []Candidate, bool) {
	if s == StrategyExact {
		return m.findExact(q, o)
	}
	k := len(q.lines)
	if k == 0 || k > m.lines() || (s == StrategyBlockAnchor && k < 3) {
		return located{}, nil, false
	}
	fromLine := 0
	if o.from > 0 {
		fromLine = m.lineOf(o.from)
		if m.start[fromLine] < o.from {
			fromLine++
		}
	}
	var starts []int
	switch s {
	case StrategyLineTrimmed:
		m.prepare()
		starts = m.windows(m.tHash, q.tHash, fromLine, o.hint, func(i int) bool { return m.trimmedEqual(i, q) })
	case StrategyNormalized:
		m.prepareNormalized()
		starts = m.windows(m.nHash, q.nHash, fromLine, o.hint, func(i int) bool { return m.normalizedEqual(i, q) })
	case StrategyBlockAnchor:
		m.prepare()
		starts = m.anchorWindows(q, fromLine, o.hint)
	}
	if len(starts) == 0 {
		return located{}, nil, false
	}
	candidates := len(starts)
	if o.hint > 0 {
		if starts = capPlaces(starts); len(starts) > 1 {
			places := make([]Candidate, len(starts))
			for j, i := range starts {
				places[j] = m.candidate(i, k, m.windowSimilarity(i, q))
			}
			return located{}, places, false
		}
		candidates = 1
	}
	i := starts[0]
	loc := located{strategy: s, start: m.start[i], end: m.start[i+k], first: i, last: i + k - 1, similarity: 1, candidates: candidates}
	if s == StrategyBlockAnchor {
		loc.similarity = m.windowSimilarity(i, q)
	}
	loc.virtualEOL = i+k == m.n && !strings.HasSuffix(m.text, "\n")
	loc.shift = m.indentShift(i, q)
	return loc, nil, true
}

// nearestHint keeps the items whose line (1-based, from lineOf) is nearest
// hint; without a hint all of them.
func nearestHint(items []int, hint int, lineOf func(int) int) []int {
	if hint == 0 {
		return items
	}
	t := nearTracker{hint: hint}
	for _, it := range items {
		t.offer(it, lineOf(it))
	}
	return t.items
}

// nearTracker keeps the items nearest a hint line as they are offered.
type nearTracker struct {
	hint, bestD int
	items       []int
}

// offer considers item, at 1-based line. It returns false once line is past
// the hint and farther than the nearest so far, after which items offered in
// line order can only be farther.
func (t *nearTracker) offer(item, line int) bool {
	d := line - t.hint
	if d < 0 {
		d = -d
	}
	switch {
	case len(t.items) == 0 || d < t.bestD:
		t.bestD, t.items = d, append(t.items[:0], item)
	case d == t.bestD:
		t.items = append(t.items, item)
	case line > t.hint:
		return false
	}
	return true
}

// capPlaces keeps the first placesLimit items.
func capPlaces(items []int) []int { return items[:min(len(items), placesLimit)] }

// windows returns the first lines (≥ from) of windows whose line hashes
// equal pat and whose lines verify: without a hint every such window that
// does not overlap the one before, with one those nearest the hint. With a
// hint only the nearest windows are verified, so a hash collision (odds
// about 2⁻⁶⁴) could hide a window, never invent one. Cost: O(lines +
// len(pat) + verified windows × len(pat)).
func (m *lineMatcher) windows(hashes, pat []uint64, from, hint int, verify func(int) bool) []int {
	var out []int
	if hint == 0 {
		seqOccurrences(hashes[from:], pat, func(i int) bool {
			if i += from; (len(out) == 0 || i >= out[len(out)-1]+len(pat)) && verify(i) {
				out = append(out, i)
			}
			return true
		})
		return out
	}
	t := nearTracker{hint: hint}
	seqOccurrences(hashes[from:], pat, func(i int) bool { return t.offer(from+i, from+i+1) })
	out = t.items
	kept := out[:0]
	for _, i := range out {
		if verify(i) {
			kept = append(kept, i)
		}
	}
	return kept
}

func (m *lineMatcher) trimmedEqual(i int, q *searchLines) bool {
	for k, t := range q.trimmed {
		if m.trimmed(i+k) != t {
			return false
		}
	}
	return true
}

func (m *lineMatcher) normalizedEqual(i int, q *searchLines) bool {
	var a, b []byte
	for k, t := range q.trimmed {
		a = appendNormalized(a[:0], m.trimmed(i+k))
		b = appendNormalized(b[:0], t)
		if string(a) != string(b) {
			return false
		}
	}
	return true
}

// anchorWindows returns the windows (≥ from) whose first and last trimmed
// lines equal the search's: without a hint every one that does not overlap
// the one before, with one those nearest the hint. Cost: O(lines).
func (m *lineMatcher) anchorWindows(q *searchLines, from, hint int) []int {
	k := len(q.lines)
	first, last := q.trimmed[0], q.trimmed[k-1]
	var out []int
	t := nearTracker{hint: hint}
	for i := from; i+k <= m.n; i++ {
		if m.tHash[i] != q.tHash[0] || m.tHash[i+k-1] != q.tHash[k-1] || m.trimmed(i) != first || m.trimmed(i+k-1) != last {
			continue
		}
		switch {
		case hint > 0:
			if !t.offer(i, i+1) {
				return t.items
			}
		case len(out) == 0 || i >= out[len(out)-1]+k:
			out = append(out, i)
		}
	}
	if hint > 0 {
		return t.items
	}
	return out
}

// findExact looks for q.text as a substring. A file without a final newline
// is searched as if it had one, so a SEARCH ending at the last line matches.
func (m *lineMatcher) findExact(q *searchLines, o matchOptions) (located, []Candidate, bool) {
	if q.text == "" {
		return located{}, nil, false
	}
	f := newFinder(q.text)
	next := func(from int) int {
		if from > len(m.text) {
			return -1
		}
		if i := f.index(m.text[from:]); i >= 0 {
			return from + i
		}
		if m.text != "" && !strings.HasSuffix(m.text, "\n") && len(q.text) <= len(m.text)+1 {
			at := len(m.text) + 1 - len(q.text)
			if at >= from && strings.HasSuffix(m.text, q.text[:len(q.text)-1]) {
				return at
			}
		}
		return -1
	}
	first := next(o.from)
	if first < 0 {
		return located{}, nil, false
	}
	chosen, count := first, 1
	if o.hint > 0 {
		best := capPlaces(nearestHint(m.exactNearHint(q.text, o.hint, next), o.hint, func(at int) int { return m.lineOf(at) + 1 }))
		if len(best) > 1 {
			places := make([]Candidate, len(best))
			for j, at := range best {
				places[j] = m.candidate(m.lineOf(at), len(q.lines), 1)
			}
			return located{}, places, false
		}
		chosen = best[0]
	} else {
		count = m.countExact(q, first, next)
	}
	end := chosen + len(q.text)
	loc := located{strategy: StrategyExact, start: chosen, at: chosen, end: min(end, len(m.text)), similarity: 1, candidates: count}
	loc.virtualEOL = end > len(m.text)
	if len(q.lines) > 1 && q.lines[0] == "" && chosen > 0 && m.text[chosen-1] != '\n' {
		// The SEARCH's blank first line is the newline ending the line
		// before, not a line of the file: the match is the lines after it.
		loc.start, loc.blankLead = chosen+1, true
	}
	loc.first = m.lineOf(loc.start)
	loc.last = m.lineOf(loc.end - 1)
	if ls := m.lineBegin(loc.start); ls < loc.start && !loc.blankLead {
		loc.lead, loc.start = m.text[ls:loc.start], ls
		if strings.TrimSpace(loc.lead) == "" {
			// The SEARCH lacked the first line's indentation; if it lacked
			// it uniformly (a one-line SEARCH, say), re-indent every line.
			m.prepare()
			if sh := m.indentShift(loc.first, q); sh.add != "" {
				loc.shift, loc.lead = sh, ""
			}
		}
	}
	return loc, nil, true
}

// countExact counts the non-overlapping exact occurrences of q.text from
// byte first, where one starts (next finds them one by one): the byte scan
// goes on from the first occurrence's end, so the file is read once in all
// (finding the first read it up to there). Hashing every line to count
// instead cost 40 times Cline's whole apply on a 100k-line file.
func (m *lineMatcher) countExact(q *searchLines, first int, next func(int) int) int {
	n := 0
	for at := first; at >= 0; at = next(at + len(q.text)) {
		n++
	}
	return n
}

// exactNearHint returns the last occurrence of text starting before the
// hint line and the first starting at or after it (next finds occurrences
// at or after an offset, including one ending at a virtual final newline).
func (m *lineMatcher) exactNearHint(text string, hint int, next func(int) int) []int {
	m.split()
	off := len(m.text)
	if hint-1 < m.n {
		off = m.start[hint-1]
	}
	var out []int
	if end := min(off-1+len(text), len(m.text)); off > 0 && end > 0 {
		if at := strings.LastIndex(m.text[:end], text); at >= 0 && at < off {
			out = append(out, at)
		}
	}
	if len(out) == 0 && off > 0 {
		// Only the virtual-newline occurrence can start before off without
		// lying inside the text.
		if at := next(0); at >= 0 && at < off {
			out = append(out, at)
		}
	}
	if at := next(off); at >= 0 {
		out = append(out, at)
	}
	return out
}

// candidate describes the k-line window at line i (0-based), clipped to the
// file; its Lines stop after candidateLinesLimit.
func (m *lineMatcher) candidate(i, k int, sim float64) Candidate {
	end := min(i+k, m.lines())
	c := Candidate{StartLine: i + 1, EndLine: end, Similarity: sim}
	for j := i; j < min(end, i+candidateLinesLimit); j++ {
		c.Lines = append(c.Lines, m.line(j))
	}
	return c
}

// closest returns the windows most like q, best first. Each file line votes
// for the window that would align it with an equal (trimmed) search line;
// the best-voted windows are then scored by mean lineSimilarity. On small
// inputs every window is scored. Cost: O(file + equal line pairs).
func (m *lineMatcher) closest(q *searchLines) []Candidate {
	k := len(q.lines)
	if k == 0 || m.lines() == 0 {
		return nil
	}
	m.prepare()
	last := max(m.n-k, 0) // last window start
	var picks []int
	if (last+1)*k <= 20000 {
		for i := 0; i <= last; i++ {
			picks = append(picks, i)
		}
	} else {
		pos := map[uint64][]int{}
		var seen [1024]uint64 // bitset of the search hashes' low 16 bits, to skip most map lookups
		for j, h := range q.tHash {
			pos[h] = append(pos[h], j)
			seen[h>>6&1023] |= 1 << (h & 63)
		}
		m.limitVotes(pos, seen[:])
		votes := make([]int32, last+1)
		for i, h := range m.tHash {
			if seen[h>>6&1023]&(1<<(h&63)) == 0 {
				continue
			}
			for _, j := range pos[h] {
				if s := i - j; s >= 0 && s <= last {
					votes[s]++
				}
			}
		}
		picks = topVoted(votes, k, 8)
	}
	type scored struct {
		i   int
		sim float64
	}
	var all []scored
	for _, i := range picks {
		all = append(all, scored{i, m.windowSimilarity(i, q)})
	}
	sort.SliceStable(all, func(a, b int) bool { return all[a].sim > all[b].sim })
	var out []Candidate
	for _, s := range all {
		if len(out) == closestLimit || s.sim == 0 {
			break
		}
		overlaps := false
		for _, c := range out {
			if s.i+1 <= c.EndLine && s.i+k >= c.StartLine {
				overlaps = true
			}
		}
		if !overlaps {
			out = append(out, m.candidate(s.i, k, s.sim))
		}
	}
	return out
}

// limitVotes drops the search lines most common in the file from pos until
// voting costs at most voteWorkLimit.
func (m *lineMatcher) limitVotes(pos map[uint64][]int, seen []uint64) {
	freq := map[uint64]int{}
	for _, h := range m.tHash {
		if seen[h>>6&1023]&(1<<(h&63)) != 0 {
			if _, ok := pos[h]; ok {
				freq[h]++
			}
		}
	}
	work := 0
	for h, js := range pos {
		work += freq[h] * len(js)
	}
	for work > voteWorkLimit {
		var worst uint64
		cost := -1
		for h, js := range pos {
			if c := freq[h] * len(js); c > cost {
				worst, cost = h, c
			}
		}
		delete(pos, worst)
		work -= cost
	}
}

// topVoted returns up to limit window starts with the most votes, best
// first, not overlapping each other (windows are k lines). It scans the votes
// once per pick.
func topVoted(votes []int32, k, limit int) []int {
	var out []int
	for len(out) < limit {
		best := -1
		for i, v := range votes {
			if v > 0 && (best < 0 || v > votes[best]) && !overlapsAny(out, i, k) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		out = append(out, best)
	}
	return out
}

func overlapsAny(starts []int, i, k int) bool {
	for _, o := range starts {
		if i < o+k && o < i+k {
			return true
		}
	}
	return false
}

// windowSimilarity is the mean lineSimilarity of q against the k lines at i;
// lines past the end of the file count 0.
func (m *lineMatcher) windowSimilarity(i int, q *searchLines) float64 {
	m.split()
	total := 0.0
	for j, t := range q.trimmed {
		if i+j < m.n {
			total += lineSimilarity(m.trimmed(i+j), t)
		}
	}
	return total / float64(len(q.trimmed))
}

// lineSimilarity compares two trimmed lines, 0..1: 1 when equal, otherwise
// the bytes of their common prefix and suffix over the longer length. It is
// O(length), and scores a typo or a renamed word in the middle of a line high
// and a different statement low.
func lineSimilarity(a, b string) float64 {
	if a == b {
		return 1
	}
	n := min(len(a), len(b))
	p := 0
	for p < n && a[p] == b[p] {
		p++
	}
	s := 0
	for s < n-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	return float64(p+s) / float64(max(len(a), len(b)))
}

// indentShift is a uniform change of indentation between the SEARCH lines
// and the file lines they matched: add is prefixed to every file line, or del
// removed from the front of every search line.
type indentShift struct{ add, del string }

// indentShift works out the uniform indentation difference between q and the
// window at line i, over lines that are equal after trimming and not blank.
// Mixed differences give no shift.
func (m *lineMatcher) indentShift(i int, q *searchLines) indentShift {
	var sh indentShift
	seen := false
	for k, l := range q.lines {
		if q.trimmed[k] == "" || m.trimmed(i+k) != q.trimmed[k] {
			continue
		}
		f := m.line(i + k)
		fi, si := f[:len(f)-len(strings.TrimLeftFunc(f, unicode.IsSpace))], l[:len(l)-len(strings.TrimLeftFunc(l, unicode.IsSpace))]
		var d indentShift
		switch {
		case strings.HasSuffix(fi, si):
			d.add = fi[:len(fi)-len(si)]
		case strings.HasSuffix(si, fi):
			d.del = si[:len(si)-len(fi)]
		default:
			return indentShift{}
		}
		if seen && d != sh {
			return indentShift{}
		}
		sh, seen = d, true
	}
	return sh
}

// apply re-indents one replacement line; blank lines are kept as they are.
func (sh indentShift) apply(line string) string {
	if strings.TrimSpace(line) == "" {
		return line
	}
	if sh.add != "" {
		return sh.add + line
	}
	if sh.del != "" {
		if strings.HasPrefix(line, sh.del) {
			return line[len(sh.del):]
		}
		// Less indented than the shift: remove what it has of it.
		if lead := line[:len(line)-len(strings.TrimLeftFunc(line, unicode.IsSpace))]; strings.HasPrefix(sh.del, lead) {
			return line[len(lead):]
		}
	}
	return line
}

// seqOccurrences calls yield with every index where pat occurs in seq (KMP),
// until yield returns false.
func seqOccurrences(seq, pat []uint64, yield func(int) bool) {
	k := len(pat)
	if k == 0 || k > len(seq) {
		return
	}
	fail := make([]int, k)
	for i, j := 1, 0; i < k; i++ {
		for j > 0 && pat[i] != pat[j] {
			j = fail[j-1]
		}
		if pat[i] == pat[j] {
			j++
		}
		fail[i] = j
	}
	for i, j := 0, 0; i < len(seq); i++ {
		for j > 0 && seq[i] != pat[j] {
			j = fail[j-1]
		}
		if seq[i] == pat[j] {
			j++
		}
		if j == k {
			if !yield(i - k + 1) {
				return
			}
			j = fail[j-1]
		}
	}
}

// lineHash hashes a line 8 bytes at a time (equal strings, equal hashes;
// matches are verified, so collisions only cost time).
func lineHash(s string) uint64 {
	h := uint64(len(s)) * 0x9E3779B97F4A7C15
	for len(s) >= 8 {
		w := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
		h = (h ^ w) * 0xBF58476D1CE4E5B9
		h ^= h >> 31
		s = s[8:]
	}
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * 0x94D049BB133111EB
	}
	return h ^ h>>29
}

// isNormalized reports whether a trimmed line is its own normalized form
// (see appendNormalized): ASCII with no whitespace other than single spaces.
func isNormalized(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || c < ' ' || c == ' ' && i+1 < len(s) && s[i+1] == ' ' {
			return false
		}
	}
	return true
}

// normalizedHash is lineHash of the normalized form of trimmed line t.
func normalizedHash(t string, buf *[]byte) uint64 {
	if isNormalized(t) {
		return lineHash(t)
	}
	*buf = appendNormalized((*buf)[:0], t)
	return lineHash(string(*buf))
}

// appendNormalized appends s with every run of whitespace turned into one
// space and typographic quotes, dashes, ellipses and non-breaking spaces
// folded to ASCII (as Roo's normalizeString). s should be trimmed.
func appendNormalized(dst []byte, s string) []byte {
	space := false
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' {
				space = true
				continue
			}
			if space {
				dst = append(dst, ' ')
				space = false
			}
			dst = append(dst, c)
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space {
			dst = append(dst, ' ')
			space = false
		}
		switch r {
		case '\u2018', '\u2019', '\u201A', '\u201B':
			dst = append(dst, '\'')
		case '\u201C', '\u201D', '\u201E', '\u201F':
			dst = append(dst, '"')
		case '\u2013', '\u2014':
			dst = append(dst, '-')
		case '\u2026':
			dst = append(dst, "..."...)
		default:
			dst = utf8.AppendRune(dst, r)
		}
	}
	return dst
}
