package engine

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Locating chunks. A Codex chunk is searched forward from where the previous
// chunk ended, as Codex's seek_sequence does: every place with exact lines,
// then lines equal up to trailing whitespace, then up to surrounding
// whitespace, then up to Unicode punctuation (patchNormalize). A unified
// hunk is searched the same way but outward from the line its header names
// (shifted by how far the previous hunk was off), as GNU patch does with
// fuzz 0; its Match lines show any offset.

// patchLevels is how many line comparisons patchLineEq offers.
const patchLevels = 4

// patchLevelStrategy names the Strategy of comparison level l.
func patchLevelStrategy(l int) Strategy {
	switch l {
	case 0:
		return StrategyExact
	case 1, 2:
		return StrategyLineTrimmed
	}
	return StrategyNormalized
}

// patchTried lists the strategies patchLineEq tries, in order.
func patchTried() []Strategy {
	return []Strategy{StrategyExact, StrategyLineTrimmed, StrategyNormalized}
}

// patchLineEq compares a file line with a patch line at level l.
func patchLineEq(l int, a, b string) bool {
	switch l {
	case 0:
		return a == b
	case 1:
		return strings.TrimRightFunc(a, unicode.IsSpace) == strings.TrimRightFunc(b, unicode.IsSpace)
	case 2:
		return strings.TrimSpace(a) == strings.TrimSpace(b)
	}
	return patchNormalize(a) == patchNormalize(b)
}

// patchNormalize trims s and folds typographic punctuation an agent may
// have typed for ASCII: dashes and minus signs to a hyphen, curly single
// quotes to an apostrophe, curly double quotes to a straight double quote,
// and odd spaces (no-break, em, thin, ideographic, …) to a space.
func patchNormalize(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212':
			return '-'
		case '\u2018', '\u2019', '\u201A', '\u201B':
			return '\''
		case '\u201C', '\u201D', '\u201E', '\u201F':
			return '"'
		case '\u00A0', '\u2002', '\u2003', '\u2004', '\u2005', '\u2006', '\u2007', '\u2008',
			'\u2009', '\u200A', '\u202F', '\u205F', '\u3000':
			return ' '
		}
		return r
	}, strings.TrimSpace(s))
}

// patchWindowEq reports whether lines[at:] starts with pat at level l.
func patchWindowEq(l int, lines, pat []string, at int) bool {
	for k, p := range pat {
		if !patchLineEq(l, lines[at+k], p) {
			return false
		}
	}
	return true
}

// seekForward finds pat at or after from, loosest level last; eof tries the
// end of the file first. It returns the 0-based index and the level.
func seekForward(lines, pat []string, from int, eof bool) (int, int, bool) {
	last := len(lines) - len(pat)
	if last < from {
		return 0, 0, false
	}
	if eof {
		for l := range patchLevels {
			if patchWindowEq(l, lines, pat, last) {
				return last, l, true
			}
		}
	}
	for l := range patchLevels {
		for i := from; i <= last; i++ {
			if patchWindowEq(l, lines, pat, i) {
				return i, l, true
			}
		}
	}
	return 0, 0, false
}

// seekNear finds pat at or after from, trying places in order of distance
// from want at each level.
func seekNear(lines, pat []string, from, want int) (int, int, bool) {
	last := len(lines) - len(pat)
	if last < from {
		return 0, 0, false
	}
	want = max(from, min(want, last))
	for l := range patchLevels {
		for d := 0; want+d <= last || want-d >= from; d++ {
			if i := want + d; i <= last && patchWindowEq(l, lines, pat, i) {
				return i, l, true
			}
			if i := want - d; d > 0 && i >= from && patchWindowEq(l, lines, pat, i) {
				return i, l, true
			}
		}
	}
	return 0, 0, false
}

// patchEdit replaces lines[start:start+n] with the lines a chunk produces.
type patchEdit struct {
	start, n int
	lines    []patchLine
	touch    bool // the edit's last line is new, so the final-newline rule applies
	noEOL    bool // unified: the new side's last line has no final newline
	marked   bool // unified: the hunk carried a "\ No newline" marker
}

// applyPatchChunks applies an update section's chunks to text ("\n"
// endings, no BOM) and returns the new text and a Match per chunk.
func applyPatchChunks(s patchSection, text string) (string, []Match, error) {
	finalNL := strings.HasSuffix(text, "\n")
	lines := strings.Split(text, "\n")
	if text == "" || finalNL {
		lines = lines[:len(lines)-1]
	}
	var (
		edits   []patchEdit
		matches []Match
		from    int
		delta   int         // unified: how far the last hunk was from its header's line
		firsts  patchFirsts // built when a chunk's exact places are first counted
	)
	for i, ch := range s.chunks {
		level := 0
		for _, ctx := range ch.contexts {
			at, l, ok := seekForward(lines, []string{ctx}, from, false)
			if !ok {
				return "", nil, &MatchError{Format: FormatPatch, Path: s.path, Block: i + 1, Kind: FailNoMatch,
					Search: ctx + "\n", Tried: patchTried(), Closest: patchClosest(lines, []string{ctx}),
					Applied: matches,
					Hint:    fmt.Sprintf("the '@@ %s' line names a line that is not in the file%s; copy it exactly from the file, or use a bare '@@'", ctx, patchAfterLine(from))}
			}
			from, level = at+1, max(level, l)
		}
		ops := ch.lines
		old, _ := ch.sides()
		var at int
		places := 1
		switch {
		case len(old) == 0:
			at = patchInsertAt(s, ch, lines, from, delta)
		default:
			var l int
			var ok bool
			at, l, ok = seekChunk(s, ch, lines, old, from, delta)
			if !ok && !s.unified && old[len(old)-1] == "" {
				// Codex: a chunk whose old lines end in an empty line
				// is retried without it (it stood for the final newline).
				ops = dropLastOldLine(ops)
				old = old[:len(old)-1]
				at, l, ok = seekChunk(s, ch, lines, old, from, delta)
			}
			if !ok {
				first, _ := ch.sides()
				return "", nil, &MatchError{Format: FormatPatch, Path: s.path, Block: i + 1, Kind: FailNoMatch,
					Search: joinPatchLines(first), Tried: patchTried(), Closest: patchClosest(lines, first),
					Applied: matches,
					Hint:    "copy the chunk's context and '-' lines exactly from the current file and resend the whole patch"}
			}
			switch {
			case len(old) == 0, s.unified && ch.oldStart >= 0, ch.eof && at == len(lines)-len(old):
				// Nothing to count, or placed by its header's line or by End of File.
			case l == 0:
				if firsts == nil {
					firsts = newPatchFirsts(s, lines)
				}
				places = firsts.count(lines, old, at)
			default:
				places = patchCount(l, lines, old, at)
			}
			level = max(level, l)
		}
		if s.unified && ch.oldStart >= 0 {
			delta = at - ch.oldStart
		}
		if len(old) > 0 || s.unified || len(ch.contexts) > 0 {
			// A Codex chunk appended at the end leaves the search where
			// it was, as in Codex.
			from = at + len(old)
		}
		m := newMatch(i+1, patchLevelStrategy(level), at+1, at+len(old))
		if m.Candidates = places; places > 1 && m.Strategy == StrategyExact {
			m.Strategy = StrategyFirstOfSeveral
		}
		if s.unified && ch.oldStart >= 0 {
			m.Offset = at - ch.oldStart
		}
		m.disclose(joinPatchLines(old), joinPatchLines(lines[at:at+len(old)]))
		matches = append(matches, m)
		edits = append(edits, patchEdit{start: at, n: len(old), lines: ops,
			touch: len(ops) > 0 && ops[len(ops)-1].kind != ' ', noEOL: ch.newNoEOL, marked: ch.oldNoEOL || ch.newNoEOL})
	}
	return spliceLines(lines, finalNL, edits), matches, nil
}

// patchCount counts the places, not overlapping, where old fits lines at
// level l from index at, where it fits first (Codex takes that one).
func patchCount(l int, lines, old []string, at int) int {
	n, end := 0, at
	for i := at; i+len(old) <= len(lines); i++ {
		if i >= end && patchWindowEq(l, lines, old, i) {
			n, end = n+1, i+len(old)
		}
	}
	return n
}

// patchFirsts lists, for the first old line of each chunk of a section
// (by hash), the indices of the file lines equal to it, so counting a
// chunk's exact places costs that line's occurrences, not a scan of the
// file per chunk.
type patchFirsts map[uint64][]int

func newPatchFirsts(s patchSection, lines []string) patchFirsts {
	idx := patchFirsts{}
	var filter [16]uint64 // 1024 bits of the hashes' low bits, to skip most lookups
	for _, ch := range s.chunks {
		if old, _ := ch.sides(); len(old) > 0 {
			h := lineHash(old[0])
			idx[h] = nil
			filter[h>>6&15] |= 1 << (h & 63)
		}
	}
	for i, l := range lines {
		if h := lineHash(l); filter[h>>6&15]&(1<<(h&63)) != 0 {
			if ps, ok := idx[h]; ok {
				idx[h] = append(ps, i)
			}
		}
	}
	return idx
}

// count is patchCount at level 0.
func (idx patchFirsts) count(lines, old []string, at int) int {
	ps := idx[lineHash(old[0])]
	n, end := 0, at
	for _, p := range ps[sort.SearchInts(ps, at):] {
		if p >= end && p+len(old) <= len(lines) && slices.Equal(lines[p:p+len(old)], old) {
			n, end = n+1, p+len(old)
		}
	}
	return n
}

// patchRound rounds a similarity to two decimals.
func patchRound(x float64) float64 { return float64(int(x*100+0.5)) / 100 }

// patchAfterLine says where a search began, for messages: "" at the top of
// the file, else " after line N" (1-based).
func patchAfterLine(from int) string {
	if from == 0 {
		return ""
	}
	return fmt.Sprintf(" after line %d", from)
}

// seekChunk locates a chunk's old lines the way its syntax asks.
func seekChunk(s patchSection, ch patchChunk, lines, old []string, from, delta int) (int, int, bool) {
	if s.unified && ch.oldStart >= 0 {
		return seekNear(lines, old, from, ch.oldStart+delta)
	}
	return seekForward(lines, old, from, ch.eof)
}

// patchInsertAt places a chunk with no old lines. A unified hunk goes where
// its header says; a Codex chunk goes right after its @@ context line; any
// other goes at the end of the file (before a final blank line, as Codex
// does).
func patchInsertAt(s patchSection, ch patchChunk, lines []string, from, delta int) int {
	switch {
	case s.unified && ch.oldStart >= 0:
		return max(from, min(ch.oldStart+delta, len(lines)))
	case len(ch.contexts) > 0:
		return from
	case len(lines) > from && lines[len(lines)-1] == "":
		return len(lines) - 1
	}
	return max(from, len(lines))
}

// dropLastOldLine removes the last context or removed line of ops.
func dropLastOldLine(ops []patchLine) []patchLine {
	for i := len(ops) - 1; i >= 0; i-- {
		if ops[i].kind != '+' {
			out := append([]patchLine(nil), ops[:i]...)
			return append(out, ops[i+1:]...)
		}
	}
	return ops
}

// spliceLines applies located edits to lines. Context lines keep the file's
// own text (they may have matched loosely); added lines come from the patch.
func spliceLines(lines []string, finalNL bool, edits []patchEdit) string {
	sort.SliceStable(edits, func(a, b int) bool { return edits[a].start < edits[b].start })
	out := make([]string, 0, len(lines))
	pos := 0
	for _, e := range edits {
		out = append(out, lines[pos:e.start]...)
		k := e.start
		for _, l := range e.lines {
			switch l.kind {
			case ' ':
				out = append(out, lines[k])
				k++
			case '-':
				k++
			default:
				out = append(out, l.text)
			}
		}
		pos = e.start + e.n
		if pos == len(lines) {
			switch {
			case e.marked:
				finalNL = !e.noEOL
			case e.touch:
				finalNL = true
			}
		}
	}
	out = append(out, lines[pos:]...)
	if len(out) == 0 {
		return ""
	}
	size := len(out)
	for _, l := range out {
		size += len(l)
	}
	var b strings.Builder
	b.Grow(size)
	for i, l := range out {
		b.WriteString(l)
		if i < len(out)-1 || finalNL {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// patchClosestBudget is how many line comparisons patchClosest makes
// before it scores only the likeliest windows (patchLikelyStarts).
const patchClosestBudget = 1 << 20

// patchClosest returns up to three places in lines most like search, best
// first: windows of len(search) lines scored by the mean similarity of
// their lines (patchLineSimilarity).
func patchClosest(lines, search []string) []Candidate {
	if len(lines) == 0 || len(search) == 0 {
		return nil
	}
	m := min(len(search), len(lines))
	g := patchGrams{lines: lines, grams: make([][]uint64, len(lines)), done: make([]bool, len(lines))}
	searchGrams := make([][]uint64, len(search))
	for i, l := range search {
		searchGrams[i] = patchBigrams(l)
	}
	var starts []int
	if (len(lines)-m+1)*m <= patchClosestBudget {
		starts = make([]int, len(lines)-m+1)
		for i := range starts {
			starts[i] = i
		}
	} else {
		starts = patchLikelyStarts(&g, search[:m], searchGrams[:m])
	}
	type scored struct {
		at    int
		score float64
	}
	var all []scored
	for _, at := range starts {
		sum := 0.0
		for k := range m {
			sum += patchLineSimilarity(lines[at+k], search[k], g.get(at+k), searchGrams[k])
		}
		if sum > 0 {
			all = append(all, scored{at, sum / float64(len(search))})
		}
	}
	sort.SliceStable(all, func(a, b int) bool {
		if all[a].score != all[b].score {
			return all[a].score > all[b].score
		}
		return all[a].at < all[b].at
	})
	var out []Candidate
	for _, c := range all {
		if len(out) == 3 {
			break
		}
		overlaps := false
		for _, o := range out {
			if c.at < o.EndLine && c.at+m > o.StartLine-1 {
				overlaps = true
				break
			}
		}
		if overlaps {
			continue
		}
		out = append(out, Candidate{StartLine: c.at + 1, EndLine: c.at + m,
			Similarity: patchRound(c.score), Lines: append([]string(nil), lines[c.at:c.at+m]...)})
	}
	return out
}

// patchGrams computes the bigrams of file lines on first use.
type patchGrams struct {
	lines []string
	grams [][]uint64
	done  []bool
}

func (g *patchGrams) get(i int) []uint64 {
	if !g.done[i] {
		g.grams[i], g.done[i] = patchBigrams(g.lines[i]), true
	}
	return g.grams[i]
}

// patchLikelyStarts picks the windows of a big file worth scoring: those
// where most search lines appear verbatim (trimmed) at their offset, and
// those whose first or last line is most like the search's.
func patchLikelyStarts(g *patchGrams, search []string, searchGrams [][]uint64) []int {
	const keep = 16
	n, m := len(g.lines), len(search)
	offsets := map[string][]int{}
	for k, l := range search {
		if t := strings.TrimSpace(l); t != "" {
			offsets[t] = append(offsets[t], k)
		}
	}
	hits := make([]int, n-m+1)
	first := make([]float64, n-m+1)
	last := make([]float64, n-m+1)
	for i, l := range g.lines {
		for _, k := range offsets[strings.TrimSpace(l)] {
			if at := i - k; at >= 0 && at <= n-m {
				hits[at]++
			}
		}
		if i <= n-m {
			first[i] = patchLineSimilarity(l, search[0], g.get(i), searchGrams[0])
		}
		if at := i - (m - 1); at >= 0 {
			last[at] = patchLineSimilarity(l, search[m-1], g.get(i), searchGrams[m-1])
		}
	}
	seen := map[int]bool{}
	var starts []int
	for _, score := range []func(int) float64{
		func(at int) float64 { return float64(hits[at]) },
		func(at int) float64 { return first[at] },
		func(at int) float64 { return last[at] },
	} {
		order := make([]int, n-m+1)
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool { return score(order[a]) > score(order[b]) })
		for _, at := range order[:min(keep, len(order))] {
			if !seen[at] && score(at) > 0 {
				seen[at] = true
				starts = append(starts, at)
			}
		}
	}
	return starts
}

// patchLineSimilarity scores two lines 0..1: 1 when equal, 0.95 when equal
// up to surrounding whitespace, else the Dice coefficient of their trimmed
// character bigrams (ga and gb, from patchBigrams).
func patchLineSimilarity(a, b string, ga, gb []uint64) float64 {
	switch {
	case a == b:
		return 1
	case strings.TrimSpace(a) == strings.TrimSpace(b):
		return 0.95
	case len(ga) == 0 || len(gb) == 0:
		return 0
	}
	common := 0
	for i, j := 0, 0; i < len(ga) && j < len(gb); {
		switch {
		case ga[i] == gb[j]:
			common++
			i++
			j++
		case ga[i] < gb[j]:
			i++
		default:
			j++
		}
	}
	return 2 * float64(common) / float64(len(ga)+len(gb))
}

// patchBigrams returns the sorted character bigrams of s trimmed, each
// packed as two runes in a uint64.
func patchBigrams(s string) []uint64 {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) < 2 {
		return nil
	}
	g := make([]uint64, 0, len(s)-1)
	prev := rune(-1)
	for _, r := range s {
		if prev >= 0 {
			g = append(g, uint64(uint32(prev))<<32|uint64(uint32(r)))
		}
		prev = r
	}
	slices.Sort(g)
	return g
}
