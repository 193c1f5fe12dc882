package engine

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// Closest lines: a failed block's error shows the places that look most
// like its search text. Scoring every window exactly would cost
// lines × len(search)² on a big file, so windows are ranked cheaply first
// and only the best few are scored exactly.

// minSimilarity is the least similarity a closest-lines candidate needs.
const minSimilarity = 0.5

// maxSimilarityRunes caps how much of each line the exact score reads.
const maxSimilarityRunes = 200

// closestLines returns up to limit places in text that resemble search,
// best first, each a window of as many lines as search has and at least
// minSimilarity similar (see windowSimilarity). Windows are ranked by how
// many of their trimmed lines equal one of search's, or, when no line is
// equal, by how many of their byte pairs search has.
func closestLines(text, search string, limit int) []Candidate {
	if text == "" || strings.TrimSpace(search) == "" {
		return nil
	}
	want := strings.Split(strings.TrimSuffix(search, "\n"), "\n")
	body := strings.TrimSuffix(text, "\n")
	n := strings.Count(body, "\n") + 1
	k := min(len(want), n)
	score, marks := equalLineVotes(body, n, want, k)
	if score == nil {
		score, marks = bigramVotes(body, n, want, k)
	}
	nonzero := 0
	for _, v := range score {
		if v > 0 {
			nonzero++
		}
	}
	scored := make([]int, 0, nonzero) // window starts with a score
	for i, v := range score {
		if v > 0 {
			scored = append(scored, i)
		}
	}
	var cs []Candidate
	for range limit {
		best := -1
		for _, i := range scored {
			if score[i] > 0 && (best < 0 || score[i] > score[best]) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		for i := max(0, best-k+1); i < min(len(score), best+k); i++ {
			score[i] = 0
		}
		window := windowAt(body, marks, best, k)
		if sim := windowSimilarity(window, want); sim >= minSimilarity {
			cs = append(cs, Candidate{StartLine: best + 1, EndLine: best + k, Similarity: sim, Lines: window})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].Similarity > cs[j].Similarity })
	return cs
}

// lineMark records that 0-based line idx of a text starts at byte off.
type lineMark struct{ idx, off int }

// markEvery is how many lines apart the vote counters record a lineMark.
const markEvery = 64

// windowAt returns the k lines of body from 0-based line start, found from
// the last mark at or before it.
func windowAt(body string, marks []lineMark, start, k int) []string {
	m := marks[sort.Search(len(marks), func(i int) bool { return marks[i].idx > start })-1]
	off := m.off
	for range start - m.idx {
		off += lineLen(body[off:])
	}
	lines := make([]string, k)
	for j := range lines {
		n := lineLen(body[off:])
		lines[j] = strings.TrimSuffix(body[off:off+n], "\n")
		off += n
	}
	return lines
}

// maxVotesPerLine caps how many positions of search one file line votes
// for, so a file of "}" lines against a block of "}" lines stays linear.
const maxVotesPerLine = 4

// equalLineVotes scores each window start of k of body's n lines by how
// many of its lines, trimmed, equal the line of want at the same offset,
// and marks every markEvery-th line; nil if no line voted. A filter on the length
// and first and last bytes spares most lines the map lookup.
func equalLineVotes(body string, n int, want []string, k int) ([]float64, []lineMark) {
	pos := map[string][]int{}
	var filter [1 << 16 / 64]uint64
	for j, w := range want {
		t := trimLine(w)
		if t == "" || len(pos[t]) == maxVotesPerLine {
			continue
		}
		pos[t] = append(pos[t], j)
		h := lineKey(t)
		filter[h>>6] |= 1 << (h & 63)
	}
	score := make([]float64, n-k+1)
	voted := false
	marks := make([]lineMark, 0, n/markEvery+1)
	for i, off := 0, 0; i < n; i++ {
		if i%markEvery == 0 {
			marks = append(marks, lineMark{i, off})
		}
		ln := lineLen(body[off:])
		t := trimLine(body[off : off+ln])
		if h := lineKey(t); t != "" && filter[h>>6]&(1<<(h&63)) != 0 {
			for _, j := range pos[t] {
				if start := i - j; start >= 0 && start <= n-k {
					score[start]++
					voted = true
				}
			}
		}
		off += ln
	}
	if !voted {
		return nil, nil
	}
	return score, marks
}

// lineKey hashes a non-empty trimmed line's length and first and last
// bytes to 16 bits.
func lineKey(t string) uint16 {
	if t == "" {
		return 0
	}
	return uint16((uint32(len(t))*31+uint32(t[0]))*31+uint32(t[len(t)-1])) * 40503
}

// trimLine is strings.TrimSpace, faster for lines with ASCII ends.
func trimLine(s string) string {
	i, j := 0, len(s)
	for i < j && asciiSpace(s[i]) {
		i++
	}
	for j > i && asciiSpace(s[j-1]) {
		j--
	}
	if i < j && (s[i] >= 0x80 || s[j-1] >= 0x80) {
		return strings.TrimSpace(s[i:j])
	}
	return s[i:j]
}

func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// bigramVotes scores each window start of k of body's n lines by the sum
// over its lines of the share of the line's byte pairs (of the trimmed line
// framed by newlines) that also occur in want, and marks every
// markEvery-th line.
func bigramVotes(body string, n int, want []string, k int) ([]float64, []lineMark) {
	var set [1 << 16 / 64]uint64
	for _, w := range want {
		eachBigram(strings.TrimSpace(w), func(p uint16) { set[p>>6] |= 1 << (p & 63) })
	}
	per := make([]float64, n+1) // prefix sums of per-line scores
	marks := make([]lineMark, 0, n/markEvery+1)
	for i, off := 0, 0; i < n; i++ {
		if i%markEvery == 0 {
			marks = append(marks, lineMark{i, off})
		}
		ln := lineLen(body[off:])
		var hit, all int
		eachBigram(strings.TrimSpace(body[off:off+ln]), func(p uint16) {
			all++
			if set[p>>6]&(1<<(p&63)) != 0 {
				hit++
			}
		})
		per[i+1] = per[i]
		if all > 0 {
			per[i+1] += float64(hit) / float64(all)
		}
		off += ln
	}
	score := make([]float64, n-k+1)
	for i := range score {
		score[i] = per[i+k] - per[i]
	}
	return score, marks
}

// eachBigram calls f with every byte pair of "\n" + s + "\n" as a 16-bit
// number; nothing for an empty s.
func eachBigram(s string, f func(uint16)) {
	if s == "" {
		return
	}
	prev := byte('\n')
	for i := 0; i <= len(s); i++ {
		c := byte('\n')
		if i < len(s) {
			c = s[i]
		}
		f(uint16(prev)<<8 | uint16(c))
		prev = c
	}
}

// windowSimilarity compares file lines with the search lines want, line by
// line: 1 − (sum of per-line Levenshtein distances in runes) ÷ (sum of the
// longer line lengths). Search lines beyond the window count as entirely
// different; lines are read up to maxSimilarityRunes runes.
func windowSimilarity(lines, want []string) float64 {
	var dist, total int
	for j, w := range want {
		wr := capRunes(w)
		if j >= len(lines) {
			dist += len(wr)
			total += len(wr)
			continue
		}
		lr := capRunes(lines[j])
		dist += levenshtein(lr, wr)
		total += max(len(lr), len(wr))
	}
	if total == 0 {
		return 1
	}
	return 1 - float64(dist)/float64(total)
}

func capRunes(s string) []rune {
	if utf8.RuneCountInString(s) > maxSimilarityRunes {
		r := []rune(s)
		return r[:maxSimilarityRunes]
	}
	return []rune(s)
}

// levenshtein returns the edit distance between a and b: the fewest rune
// insertions, deletions and substitutions that turn one into the other.
func levenshtein(a, b []rune) int {
	if len(a) < len(b) {
		a, b = b, a
	}
	row := make([]int, len(b)+1)
	for j := range row {
		row[j] = j
	}
	for i := 1; i <= len(a); i++ {
		diag := row[0]
		row[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			next := min(row[j]+1, row[j-1]+1, diag+cost)
			diag, row[j] = row[j], next
		}
	}
	return row[len(b)]
}
