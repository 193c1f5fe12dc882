package engine

import (
	"math"
	"sort"
	"strings"
	"unicode/utf16"
)

// The fuzzy strategy of SmartEdit: Gemini CLI's weighted Levenshtein
// window scoring, with pruning that keeps its results.

// fuzzyTie reports whether the two best of places (at least two) score the
// same.
func fuzzyTie(places []smartPlace) bool {
	scores := make([]float64, len(places))
	for i, p := range places {
		scores[i] = p.score
	}
	sort.Float64s(scores)
	return scores[0] == scores[1]
}

// lineStarts returns the byte offset of the start of every line of s (a
// line ends after "\n"; a final "\n" starts no line) and, last, len(s).
func lineStarts(s string) []int {
	starts := make([]int, 0, strings.Count(s, "\n")+2)
	for i := 0; i < len(s); {
		starts = append(starts, i)
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
	}
	return append(starts, len(s))
}

// jsUnits returns s as JavaScript sees a string: its UTF-16 code units (one
// per rune, two for a rune outside the BMP), each held in a rune. Gemini's
// lengths and Levenshtein distances count these units, so ours do too.
func jsUnits(s string) []rune {
	out := make([]rune, 0, len(s))
	for _, r := range s {
		if r >= 0x10000 {
			r1, r2 := utf16.EncodeRune(r)
			out = append(out, r1, r2)
			continue
		}
		out = append(out, r)
	}
	return out
}

// Fuzzy matching constants, as in Gemini CLI; lengths are in UTF-16 code
// units.
const (
	fuzzyThreshold       = 0.1 // highest accepted weighted distance ÷ len(old)
	fuzzyWhitespaceCost  = 0.1 // what a whitespace-only difference costs, relative to others
	fuzzyMinUnits        = 10  // shorter old strings (in UTF-16 code units) are never fuzzy-matched
	fuzzyMaxComplexity   = 4e8 // lines × len(old)², above which fuzzy matching is skipped
	fuzzyLengthTolerance = fuzzyThreshold / fuzzyWhitespaceCost
)

// fuzzyPlaces scores every window of as many lines as old has (lines
// compared without trailing whitespace) by
// (d_nows + 0.1·(d − d_nows)) ÷ len(old), where d is the Levenshtein
// distance and d_nows the distance with all whitespace removed, and
// keeps those at or under fuzzyThreshold, best first and not overlapping.
// Each is replaced by new re-indented to the window's first line, plus "\n"
// when the window's last line had one.
func fuzzyPlaces(content, old, new string) []smartPlace {
	oldUnits := jsUnits(old)
	n := strings.Count(content, "\n")
	if content != "" && !strings.HasSuffix(content, "\n") {
		n++ // a last line without "\n"
	}
	if len(oldUnits) < fuzzyMinUnits || float64(n)*math.Pow(float64(len(oldUnits)), 2) > fuzzyMaxComplexity {
		return nil
	}
	lines := lineStarts(content)
	search := splitLines(old)
	for i := range search {
		search[i] = strings.TrimRightFunc(search[i], jsSpace)
	}
	k := len(search)
	ref := newFuzzyRef(strings.Join(search, "\n"))
	line := func(i int) string { return content[lines[i]:lines[i+1]] }
	type cand struct {
		i     int
		score float64
	}
	var cands []cand
	window := make([]string, k)
	for i := 0; i+k <= n; i++ {
		for j := range window {
			window[j] = strings.TrimRightFunc(line(i+j), jsSpace)
		}
		if score, ok := ref.score(strings.Join(window, "\n")); ok {
			cands = append(cands, cand{i, score})
		}
	}
	sort.SliceStable(cands, func(a, b int) bool { return cands[a].score < cands[b].score })
	var chosen []cand
	for _, c := range cands {
		free := true
		for _, m := range chosen {
			if c.i-m.i < k && m.i-c.i < k {
				free = false
				break
			}
		}
		if free {
			chosen = append(chosen, c)
		}
	}
	newLines := strings.Split(new, "\n")
	places := make([]smartPlace, len(chosen))
	for x, c := range chosen {
		repl := strings.Join(reindent(newLines, indentOf(line(c.i))), "\n")
		if strings.HasSuffix(line(c.i+k-1), "\n") {
			repl += "\n"
		}
		places[x] = smartPlace{span: span{start: lines[c.i], end: lines[c.i+k], repl: repl}, score: c.score}
	}
	sort.Slice(places, func(a, b int) bool { return places[a].start < places[b].start })
	return places
}

// fuzzyRef is the text a fuzzy match compares windows with.
type fuzzyRef struct {
	block, noWS []rune
	hist        [256]int // of noWS, by rune & 255
	maxNoWS     int      // the largest whitespace-blind distance a passing score allows, plus one
}

func newFuzzyRef(block string) *fuzzyRef {
	f := &fuzzyRef{block: jsUnits(block), noWS: jsUnits(stripSpace(block))}
	for _, r := range f.noWS {
		f.hist[r&255]++
	}
	f.maxNoWS = int(fuzzyThreshold*float64(len(f.block))) + 1
	return f
}

// score returns Gemini's fuzzy score of window w,
// (d_nows + 0.1·(d − d_nows)) ÷ len(block), and whether it passes: w is
// at most 100% longer or shorter than the block and the score is at most
// fuzzyThreshold.
//
// Pruning never changes the result: d_nows ≤ d (deleting the whitespace
// from both sides of an alignment costs nothing more), so the score is at
// least d_nows ÷ len(block). A window is dropped as soon as a lower bound of
// d_nows (histogramGap), or d_nows itself, passes the threshold, and the
// distances are computed only in bands as wide as a passing score allows.
func (f *fuzzyRef) score(window string) (float64, bool) {
	w := jsUnits(window)
	if math.Abs(float64(len(w)-len(f.block)))/float64(len(f.block)) > fuzzyLengthTolerance {
		return 0, false
	}
	wNoWS := jsUnits(stripSpace(window))
	if histogramGap(&f.hist, wNoWS) > f.maxNoWS {
		return 0, false
	}
	nows, ok := levenshteinWithin(wNoWS, f.noWS, f.maxNoWS)
	if !ok {
		return 0, false
	}
	raw, ok := levenshteinWithin(w, f.block, len(f.block)-9*nows+1)
	if !ok {
		return 0, false
	}
	score := (float64(nows) + float64(raw-nows)*fuzzyWhitespaceCost) / float64(len(f.block))
	return score, score <= fuzzyThreshold
}

// histogramGap is a lower bound of the Levenshtein distance between a
// string whose runes have the bucketed histogram h (bucket r&255) and r:
// half the L1 difference of the two histograms, rounded up, since each edit
// changes at most two counts by one.
func histogramGap(h *[256]int, r []rune) int {
	var hr [256]int
	for _, c := range r {
		hr[c&255]++
	}
	gap := 0
	for i := range hr {
		d := hr[i] - h[i]
		gap += max(d, -d)
	}
	return (gap + 1) / 2
}

// levenshteinWithin returns the Levenshtein distance between a and b and
// true if it is at most k, or false if it is more. It fills only the band
// of cells within k of the diagonal (Ukkonen), so it costs
// O(len × k) rather than O(len²).
func levenshteinWithin(a, b []rune, k int) (int, bool) {
	if len(a) < len(b) {
		a, b = b, a
	}
	if k < 0 || len(a)-len(b) > k {
		return 0, false
	}
	inf := k + 1
	prev, cur := make([]int, len(b)+2), make([]int, len(b)+2)
	for j := range prev {
		prev[j] = min(j, inf)
	}
	for i := 1; i <= len(a); i++ {
		lo, hi := max(1, i-k), min(len(b), i+k)
		cur[lo-1] = inf
		if lo == 1 {
			cur[0] = min(i, inf)
		}
		rowMin := cur[lo-1]
		for j := lo; j <= hi; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j-1]+cost, cur[j-1]+1, prev[j]+1, inf)
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		cur[hi+1] = inf // outside the band, for the next row
		if rowMin > k {
			return 0, false
		}
		prev, cur = cur, prev
	}
	d := prev[len(b)]
	return d, d <= k
}
