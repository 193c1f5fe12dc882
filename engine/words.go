package engine

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Span is a changed part of a line, in bytes: Start:End, 0-based and
// half-open.
type Span struct {
	Start int `json:"start"` // byte offset of the first changed byte
	End   int `json:"end"`   // byte offset just after the last changed byte
}

// WordSpans diffs two versions of a line word by word and returns the
// changed parts of a (del) and of b (ins). Words are runs of letters,
// digits and '_', runs of whitespace, and single other characters; two
// changed parts separated only by whitespace are reported as one span.
// Both results are nil when a == b.
func WordSpans(a, b string) (del, ins []Span) {
	ta, tb := wordEnds(a), wordEnds(b)
	// Most pairs differ in a word or two: leave the common words at both
	// ends out of the diff.
	pre := 0
	for pre < len(ta) && pre < len(tb) && wordAt(a, ta, pre) == wordAt(b, tb, pre) {
		pre++
	}
	suf := 0
	for suf < len(ta)-pre && suf < len(tb)-pre && wordAt(a, ta, len(ta)-1-suf) == wordAt(b, tb, len(tb)-1-suf) {
		suf++
	}
	ia, ib, n := internWords(a, b, ta, tb, pre, suf)
	ca, cb := markChanges(ia, ib, n)
	for _, op := range slideChanges(appendOps(nil, ca, cb, 0, 0), ia, ib) {
		if op.Kind != OpEqual {
			del = appendSpan(del, a, wordStart(ta, pre+op.A0), wordStart(ta, pre+op.A1))
			ins = appendSpan(ins, b, wordStart(tb, pre+op.B0), wordStart(tb, pre+op.B1))
		}
	}
	return del, ins
}

// wordAt returns word i of s, given the word ends.
func wordAt(s string, ends []int32, i int) string { return s[wordStart(ends, i):ends[i]] }

// wordEnds returns the end offset (bytes) of each word of s.
func wordEnds(s string) []int32 {
	ends := make([]int32, 0, len(s)/3+1)
	for i := 0; i < len(s); {
		class, n := wordClass(s, i)
		i += n
		if class != wordPunct {
			for i < len(s) {
				c, n := wordClass(s, i)
				if c != class {
					break
				}
				i += n
			}
		}
		ends = append(ends, int32(i))
	}
	return ends
}

// The classes of characters for wordEnds.
const (
	wordIdent = iota // letters, digits, '_'
	wordSpace        // whitespace
	wordPunct        // anything else, one character per word
)

// wordClass returns the class of the character at s[i] and its length in
// bytes.
func wordClass(s string, i int) (class, n int) {
	c := s[i]
	if c < utf8.RuneSelf {
		switch {
		case c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			return wordIdent, 1
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
			return wordSpace, 1
		}
		return wordPunct, 1
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	switch {
	case unicode.IsLetter(r) || unicode.IsDigit(r):
		return wordIdent, n
	case unicode.IsSpace(r):
		return wordSpace, n
	}
	return wordPunct, n
}

// internWords gives each distinct word of a and b (ending at ta and tb),
// but for the first pre and last suf words of each, an id, the same on
// both sides.
func internWords(a, b string, ta, tb []int32, pre, suf int) (ia, ib []int32, n int) {
	ids := make(map[string]int32, len(ta)+len(tb)-2*(pre+suf))
	intern := func(s string, ends []int32) []int32 {
		out := make([]int32, len(ends)-pre-suf)
		for i := range out {
			w := wordAt(s, ends, pre+i)
			id, ok := ids[w]
			if !ok {
				id = int32(len(ids))
				ids[w] = id
			}
			out[i] = id
		}
		return out
	}
	ia = intern(a, ta)
	ib = intern(b, tb)
	return ia, ib, len(ids)
}

// wordStart returns the byte offset where word i starts, given the word
// ends; i == len(ends) gives the end of the line.
func wordStart(ends []int32, i int) int {
	if i == 0 {
		return 0
	}
	return int(ends[i-1])
}

// appendSpan appends the span start:end of line s, joining it to the last
// span when only whitespace separates them; it ignores an empty span.
func appendSpan(spans []Span, s string, start, end int) []Span {
	if start == end {
		return spans
	}
	if n := len(spans); n > 0 && strings.TrimSpace(s[spans[n-1].End:start]) == "" {
		spans[n-1].End = end
		return spans
	}
	return append(spans, Span{start, end})
}

// PairLines chooses which removed lines (del) to compare word by word with
// which added lines (ins) in one change. It returns index pairs (i into
// del, j into ins), increasing in both. Equal counts pair line by line;
// otherwise lines are paired to maximise their total similarity (the Dice
// coefficient of their byte bigrams, leading whitespace and line ending
// aside), and a line less than half similar to any other stays unpaired.
// Big changes (over 10,000 candidate pairs) pair by position.
func PairLines(del, ins []string) [][2]int {
	n, m := len(del), len(ins)
	if n == m || n*m > 10000 {
		pairs := make([][2]int, min(n, m))
		for i := range pairs {
			pairs[i] = [2]int{i, i}
		}
		return pairs
	}
	bd, bi := make([][]uint16, n), make([][]uint16, m)
	for i, l := range del {
		bd[i] = lineBigrams(l)
	}
	for j, l := range ins {
		bi[j] = lineBigrams(l)
	}
	// score[i*w+j]: the best total similarity pairing del[i:] with ins[j:].
	const minSimilarity = 0.5
	w := m + 1
	score := make([]float64, (n+1)*w)
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			best := max(score[(i+1)*w+j], score[i*w+j+1])
			if s := bigramDice(bd[i], bi[j]); s >= minSimilarity {
				best = max(best, s+score[(i+1)*w+j+1])
			}
			score[i*w+j] = best
		}
	}
	var pairs [][2]int
	for i, j := 0, 0; i < n && j < m; {
		switch s := score[i*w+j]; {
		case s == score[(i+1)*w+j]:
			i++
		case s == score[i*w+j+1]:
			j++
		default:
			pairs = append(pairs, [2]int{i, j})
			i++
			j++
		}
	}
	return pairs
}

// lineBigrams returns the sorted byte bigrams of a line without its leading
// whitespace and line ending.
func lineBigrams(l string) []uint16 {
	l = strings.TrimRight(strings.TrimLeft(l, " \t"), "\r\n")
	if len(l) < 2 {
		return nil
	}
	g := make([]uint16, len(l)-1)
	for i := range g {
		g[i] = uint16(l[i])<<8 | uint16(l[i+1])
	}
	slices.Sort(g)
	return g
}

// bigramDice returns the Dice coefficient 2·|x∩y|/(|x|+|y|) of two sorted
// multisets, 0 when both are empty.
func bigramDice(x, y []uint16) float64 {
	if len(x)+len(y) == 0 {
		return 0
	}
	common := 0
	for i, j := 0, 0; i < len(x) && j < len(y); {
		switch {
		case x[i] < y[j]:
			i++
		case x[i] > y[j]:
			j++
		default:
			common++
			i++
			j++
		}
	}
	return float64(2*common) / float64(len(x)+len(y))
}
