// Package words is the emphasis inside changed lines: which words of a
// line changed (Spans, through go-diff's diff with semantic cleanup) and
// which deleted and inserted lines of a change face each other
// (PairLines). It is apart from the engine so that a program that only
// diffs lines (deskdiff) does not link go-diff, whose package start-up it
// would pay on every run.
package words

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// Span is a changed part of a line, in bytes: Start:End, 0-based and
// half-open.
type Span struct {
	Start int `json:"start"` // byte offset of the first changed byte
	End   int `json:"end"`   // byte offset just after the last changed byte
}

// Spans diffs two versions of a line token by token and returns the
// changed parts of a (del) and of b (ins). Tokens are runs of letters,
// digits and '_', runs of whitespace, runs of operator characters ("!=",
// ":=", "->"), and single brackets, quotes, commas and semicolons.
//
// The diff is go-diff's (github.com/sergi/go-diff) with its semantic
// cleanup, which folds the small equal parts between changes into one
// change, so that "return a + b" → "return c - d" marks "a + b" and not
// three single letters. Two changed parts separated only by whitespace are
// reported as one span. Both results are nil when a == b.
//
// Two lines of more than maxSpanTokens tokens together get one span each,
// from the first to the last differing token; lines with more than 128
// distinct tokens are diffed without the semantic cleanup (see
// tokenRunes).
func Spans(a, b string) (del, ins []Span) {
	if a == b {
		return nil, nil
	}
	ta, tb := tokenEnds(a), tokenEnds(b)
	if len(ta)+len(tb) > maxSpanTokens {
		return middleSpans(a, b, ta, tb)
	}
	// DiffTimeout 0: no deadline, so the result does not depend on the
	// machine's speed; maxSpanTokens bounds the work instead.
	var dmp diffmatchpatch.DiffMatchPatch
	ra, rb, small := tokenRunes(a, b, ta, tb)
	diffs := dmp.DiffMainRunes(ra, rb, false)
	if small {
		diffs = dmp.DiffCleanupSemantic(diffs)
	}
	i, j := 0, 0 // tokens of a and b before the current diff
	for _, d := range diffs {
		n := utf8.RuneCountInString(d.Text)
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			i, j = i+n, j+n
		case diffmatchpatch.DiffDelete:
			del = appendSpan(del, a, tokenStart(ta, i), tokenStart(ta, i+n))
			i += n
		case diffmatchpatch.DiffInsert:
			ins = appendSpan(ins, b, tokenStart(tb, j), tokenStart(tb, j+n))
			j += n
		}
	}
	return del, ins
}

// maxSpanTokens is the most tokens two lines may have together for
// Spans to diff them token by token (about 4–8 KB of code a line); it
// bounds the diff's time, quadratic in the worst case (some 10 ms here for
// two unrelated lines of 1,000 tokens), on minified code and data lines.
const maxSpanTokens = 2000

// middleSpans returns as the changed parts of a and b everything between
// their common leading and trailing tokens.
func middleSpans(a, b string, ta, tb []int32) (del, ins []Span) {
	pre := 0
	for pre < len(ta) && pre < len(tb) && tokenAt(a, ta, pre) == tokenAt(b, tb, pre) {
		pre++
	}
	suf := 0
	for suf < len(ta)-pre && suf < len(tb)-pre && tokenAt(a, ta, len(ta)-1-suf) == tokenAt(b, tb, len(tb)-1-suf) {
		suf++
	}
	del = appendSpan(nil, a, tokenStart(ta, pre), tokenStart(ta, len(ta)-suf))
	ins = appendSpan(nil, b, tokenStart(tb, pre), tokenStart(tb, len(tb)-suf))
	return del, ins
}

// tokenRunes maps each distinct token of a and b (ending at ta and tb) to
// a rune, the same on both sides, and returns the two lines as runes, so
// that go-diff, which diffs runes, diffs tokens.
//
// The runes are ASCII when the lines have at most 128 distinct tokens, and
// small reports that they are. go-diff's semantic cleanup scores the
// places it may shift a change to by the characters there (a boundary at
// whitespace or punctuation beats one inside a word), so words map to
// letters and digits, whitespace to whitespace and the rest to
// punctuation, while each class has room; and one-byte runes also keep
// clear of the place where it takes a count of runes for a count of bytes
// (sergi/go-diff v1.4.0, DiffCleanupSemanticLossless). More tokens map to
// the Private Use Area, and Spans skips the cleanup.
func tokenRunes(a, b string, ta, tb []int32) (ra, rb []rune, small bool) {
	// First each token gets an id, as a rune, and each id its class.
	var t tokenTable
	ra, rb = t.intern(a, ta), t.intern(b, tb)
	n := t.len()
	small = n <= 128
	if !small {
		for _, r := range [][]rune{ra, rb} {
			for i := range r {
				r[i] += 0xE000
			}
		}
		return ra, rb, false
	}
	var runes [128]rune // per id
	var used [128]bool
	for id := range n {
		pool := runePools[t.class(id)]
		r := slices.Index(used[:], false) // when the class's pool is taken
		if k := strings.IndexFunc(pool, func(r rune) bool { return !used[r] }); k >= 0 {
			r = int(pool[k])
		}
		used[r] = true
		runes[id] = rune(r)
	}
	for _, r := range [][]rune{ra, rb} {
		for i, id := range r {
			r[i] = runes[id]
		}
	}
	return ra, rb, true
}

// tokenTable gives the distinct tokens of lines ids 0, 1, 2, … in order of
// first sight. Up to tokenTableSize/4*3 tokens it is an open-addressing
// table on the stack, which costs a fraction of a map; beyond that a map.
type tokenTable struct {
	toks    [tokenTableSize]string // "" if free
	ids     [tokenTableSize]uint8
	classes [tokenTableSize]uint8 // per id
	n       int
	big     map[string]int32 // all tokens, once there are too many for the table
}

const tokenTableSize = 256

// intern returns the ids of the tokens of s (ending at ends), as runes.
func (t *tokenTable) intern(s string, ends []int32) []rune {
	out := make([]rune, len(ends))
	for i := range ends {
		out[i] = rune(t.id(tokenAt(s, ends, i)))
	}
	return out
}

// id returns the id of a (non-empty) token.
func (t *tokenTable) id(tok string) int {
	if t.big != nil {
		id, ok := t.big[tok]
		if !ok {
			id = int32(len(t.big))
			t.big[tok] = id
		}
		return int(id)
	}
	h := uint32(2166136261) // FNV-1a
	for i := 0; i < len(tok); i++ {
		h = (h ^ uint32(tok[i])) * 16777619
	}
	for i := h % tokenTableSize; ; i = (i + 1) % tokenTableSize {
		switch t.toks[i] {
		case tok:
			return int(t.ids[i])
		case "":
			if t.n == tokenTableSize/4*3 {
				t.grow()
				return t.id(tok)
			}
			t.toks[i], t.ids[i] = tok, uint8(t.n)
			t.classes[t.n] = tokenClass(tok)
			t.n++
			return t.n - 1
		}
	}
}

// grow moves the tokens into a map.
func (t *tokenTable) grow() {
	t.big = make(map[string]int32, 2*t.n)
	for i, tok := range t.toks {
		if tok != "" {
			t.big[tok] = int32(t.ids[i])
		}
	}
}

// len returns the number of distinct tokens.
func (t *tokenTable) len() int {
	if t.big != nil {
		return len(t.big)
	}
	return t.n
}

// class returns the class of the token with an id, one of the table's
// (not the map's).
func (t *tokenTable) class(id int) uint8 { return t.classes[id] }

// The classes of tokens, as far as go-diff's semantic cleanup tells them
// apart.
const (
	tokenWord  = iota // letters, digits and '_'
	tokenSpace        // whitespace
	tokenPunct        // anything else
)

// runePools are the ASCII runes tokenRunes gives each class of token
// first: go-diff counts only [a-zA-Z0-9] as alphanumeric, and [\t\n\f\r ]
// as whitespace, "\n" and "\r" also as line breaks (left out).
var runePools = [...]string{
	tokenWord:  "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
	tokenSpace: " \t\f",
	tokenPunct: "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~\x00\x01\x02\x03\x04\x05\x06\x07\x08\x0b\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x7f",
}

// tokenEnds returns the end offset (bytes) of each token of s (see
// Spans).
func tokenEnds(s string) []int32 {
	ends := make([]int32, 0, len(s)/3+1)
	for i := 0; i < len(s); {
		kind, n := charKind(s, i)
		i += n
		if kind != charSingle {
			for i < len(s) {
				k, n := charKind(s, i)
				if k != kind {
					break
				}
				i += n
			}
		}
		ends = append(ends, int32(i))
	}
	return ends
}

// The kinds of characters for tokenEnds: a token is a run of characters of
// one kind, or one charSingle character.
const (
	charWord   = iota // letters, digits, '_'
	charSpace         // whitespace
	charOp            // ASCII punctuation that makes operators: runs
	charSingle        // brackets, quotes, ',' and ';', and other non-ASCII characters: one per token
)

// charKind returns the kind of the character at s[i] and its length in
// bytes.
func charKind(s string, i int) (kind, n int) {
	if c := s[i]; c < utf8.RuneSelf {
		return int(asciiKinds[c]), 1
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	switch {
	case unicode.IsLetter(r) || unicode.IsDigit(r):
		return charWord, n
	case unicode.IsSpace(r):
		return charSpace, n
	}
	return charSingle, n
}

// asciiKinds is the kind of each ASCII character.
var asciiKinds = func() (k [utf8.RuneSelf]uint8) {
	for c := range k {
		switch {
		case c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			k[c] = charWord
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
			k[c] = charSpace
		case strings.IndexByte("()[]{}\"'`,;", byte(c)) >= 0:
			k[c] = charSingle
		default:
			k[c] = charOp
		}
	}
	return k
}()

// tokenClass returns the class of a token.
func tokenClass(tok string) uint8 {
	switch kind, _ := charKind(tok, 0); kind {
	case charWord:
		return tokenWord
	case charSpace:
		return tokenSpace
	}
	return tokenPunct
}

// tokenAt returns token i of s, given the token ends.
func tokenAt(s string, ends []int32, i int) string { return s[tokenStart(ends, i):ends[i]] }

// tokenStart returns the byte offset where token i starts, given the token
// ends; i == len(ends) gives the end of the line.
func tokenStart(ends []int32, i int) int {
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
