package engine

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Replace follows Claude Code's Edit tool and Gemini CLI's legacy replace
// tool: exact matching only, every occurrence replaced, and the number of
// occurrences must be what the agent expected. The checks, in order:
//
//  1. old == new: FailNoChange (Claude checks this first; Gemini after the
//     counts, which only matters for an edit that is wrong twice).
//  2. empty old: creates the content of an empty file; FailFileExists on a
//     non-empty one. A missing file is Create's business (create.go).
//  3. no occurrence: FailLineNumbers when old carries a read tool's line
//     numbers, else FailNoMatch with the closest real lines.
//  4. a count other than ExpectedReplacements (default 1), unless
//     ReplaceAll: FailCount listing every place.
//
// Replacement is literal: "$" in new never means anything (Gemini's
// safeLiteralReplace exists because JavaScript's replace would expand "$&").

// maxPlaces caps the places a FailCount error lists.
const maxPlaces = 20

// Format reports FormatEdit.
func (e Replace) Format() Format { return FormatEdit }

func (e Replace) payload() []string { return []string{e.Old, e.New} }

func (e Replace) apply(text string) (string, []Match, error) {
	r, err := e.replaceIn(text, FormatEdit, 1)
	if err != nil {
		return "", nil, err
	}
	return r.text, r.matches, nil
}

// replacement is a Replace applied to some text.
type replacement struct {
	text    string  // the text after the replacement
	matches []Match // one per occurrence, lines of the input text
}

// replaceIn applies e to text (with "\n" endings) as block `block` of an edit
// of format f.
func (e Replace) replaceIn(text string, f Format, block int) (replacement, error) {
	old, new := toLF(e.Old), toLF(e.New)
	fail := func(kind Failure, hint string) *MatchError {
		return &MatchError{Format: f, Block: block, Kind: kind, Search: e.Old, Hint: hint}
	}
	if old == new {
		return replacement{}, fail(FailNoChange, "old_string and new_string are identical; send the text you want in new_string, or drop this edit")
	}
	if old == "" {
		if text != "" {
			return replacement{}, fail(FailFileExists, "an empty old_string creates a new file, but this file exists and is not empty; put the exact text to replace in old_string")
		}
		return replacement{text: new, matches: []Match{{Block: block, Strategy: StrategyWholeFile, StartLine: 1, EndLine: 0}}}, nil
	}
	want := e.ExpectedReplacements
	if want < 0 {
		return replacement{}, &FormatError{Format: f, Block: block, Msg: fmt.Sprintf("expected_replacements is %d; it must be 1 or more", want)}
	}
	if want == 0 {
		want = 1
	}
	at := literalOffsets(text, old)
	if len(at) == 0 {
		return replacement{}, noMatchError(f, block, text, e.Old, old, []Strategy{StrategyExact})
	}
	spans := make([]span, len(at))
	for i, o := range at {
		spans[i] = span{start: o, end: o + len(old), repl: new}
	}
	if !e.ReplaceAll && len(at) != want {
		err := fail(FailCount, countHint(want, len(at)))
		err.Tried, err.Want, err.Found, err.Places = []Strategy{StrategyExact}, want, len(at), spanCandidates(text, spans)
		return replacement{}, err
	}
	return replacement{text: spliceSpans(text, spans), matches: spanMatches(text, spans, block, StrategyExact)}, nil
}

func countHint(want, found int) string {
	if want == 1 {
		return fmt.Sprintf("old_string occurs %d times; add surrounding lines to old_string so it matches exactly one place, or set replace_all to change all %d", found, found)
	}
	return fmt.Sprintf("old_string occurs %d times, not %d; set expected_replacements to %d if every one should change, or add context so exactly %d match", found, want, found, want)
}

// noMatchError explains why search (as sent; norm is its "\n" form) was not
// found in text: FailLineNumbers when it carries a read tool's line
// numbers, else FailNoMatch with the closest lines.
func noMatchError(f Format, block int, text, search, norm string, tried []Strategy) *MatchError {
	err := &MatchError{Format: f, Block: block, Kind: FailNoMatch, Search: search, Tried: tried}
	if stripped, ok := stripLineNumbers(norm); ok {
		err.Kind = FailLineNumbers
		err.Hint = `remove the line-number prefixes ("  12\t" or "12→") from old_string and new_string; they come from the read tool's display, not from the file`
		switch at := literalOffsets(text, stripped); len(at) {
		case 0:
			err.Closest = closestLines(text, stripped, 3)
		case 1:
			s := span{start: at[0], end: at[0] + len(stripped)}
			err.Closest = spanCandidates(text, []span{s})
			err.Hint += fmt.Sprintf("; without them old_string matches lines %d-%d", err.Closest[0].StartLine, err.Closest[0].EndLine)
		default:
			err.Hint += fmt.Sprintf("; without them old_string still matches %d places, so add context", len(at))
		}
		return err
	}
	err.Closest = closestLines(text, norm, 3)
	if len(err.Closest) > 0 {
		err.Hint = "old_string must match the file exactly, whitespace and indentation included; copy it from the closest lines shown"
	} else {
		err.Hint = "old_string is not in the file; read the file again and copy the text to replace exactly"
	}
	return err
}

// literalOffsets returns the byte offsets of the non-overlapping occurrences
// of sub in s, left to right; none for an empty sub.
func literalOffsets(s, sub string) []int {
	if sub == "" {
		return nil
	}
	var at []int
	for i := 0; ; {
		j := indexLong(s[i:], sub)
		if j < 0 {
			return at
		}
		at = append(at, i+j)
		i += j + len(sub)
	}
}

// simdMax is the longest needle strings.Index finds with vector
// instructions on amd64; longer ones fall back to slower loops.
const simdMax = 63

// indexLong is strings.Index, faster for needles over simdMax bytes: it
// looks for their first simdMax bytes and checks the rest.
func indexLong(s, sub string) int {
	if len(sub) <= simdMax {
		return strings.Index(s, sub)
	}
	for from := 0; ; {
		i := strings.Index(s[from:], sub[:simdMax])
		if i < 0 {
			return -1
		}
		if strings.HasPrefix(s[from+i:], sub) {
			return from + i
		}
		from += i + 1
	}
}

// countLiteral counts the non-overlapping occurrences of sub in s, and is 0
// for an empty sub (Gemini's countOccurrences).
func countLiteral(s, sub string) int {
	if sub == "" {
		return 0
	}
	return strings.Count(s, sub)
}

// replaceLiteral replaces every non-overlapping occurrence of old in s with
// new, every byte of new taken literally; s is returned as it is when old is
// empty (Gemini's safeLiteralReplace).
func replaceLiteral(s, old, new string) string {
	if old == "" {
		return s
	}
	return strings.ReplaceAll(s, old, new)
}

// span is a byte range [start, end) of a text and what replaces it.
type span struct {
	start, end int
	repl       string
}

// spliceSpans replaces the spans, which are sorted and do not overlap.
func spliceSpans(text string, spans []span) string {
	var b strings.Builder
	n := len(text)
	for _, s := range spans {
		n += len(s.repl) - (s.end - s.start)
	}
	b.Grow(n)
	prev := 0
	for _, s := range spans {
		b.WriteString(text[prev:s.start])
		b.WriteString(s.repl)
		prev = s.end
	}
	b.WriteString(text[prev:])
	return b.String()
}

// spanLines returns the 1-based first and last line of text that each span
// covers; a span that covers nothing (a pure insertion) ends one line before
// it starts. spans must be sorted.
func spanLines(text string, spans []span) [][2]int {
	out := make([][2]int, len(spans))
	line, pos := 1, 0
	at := func(i int) int { // line of byte i, moving forward only
		line += strings.Count(text[pos:i], "\n")
		pos = i
		return line
	}
	for k, s := range spans {
		first := at(s.start)
		last := first - 1
		if s.end > s.start {
			last = first + strings.Count(text[s.start:s.end-1], "\n")
		}
		out[k] = [2]int{first, last}
	}
	return out
}

func spanMatches(text string, spans []span, block int, st Strategy) []Match {
	ms := make([]Match, len(spans))
	for i, l := range spanLines(text, spans) {
		ms[i] = Match{Block: block, Strategy: st, StartLine: l[0], EndLine: l[1]}
	}
	return ms
}

// spanCandidates describes up to maxPlaces spans as exact places.
func spanCandidates(text string, spans []span) []Candidate {
	if len(spans) > maxPlaces {
		spans = spans[:maxPlaces]
	}
	lines := strings.Split(text, "\n")
	var cs []Candidate
	for _, l := range spanLines(text, spans) {
		last := max(l[1], l[0])
		cs = append(cs, Candidate{StartLine: l[0], EndLine: l[1], Similarity: 1, Lines: lines[l[0]-1 : min(last, len(lines))]})
	}
	return cs
}

// stripLineNumbers removes the prefixes a read tool puts before each line
// ("    12\t" from cat -n, "12→" from Claude Code's Read) and reports whether
// every line had one, numbered consecutively. A final empty line (s ends in
// "\n") needs none.
func stripLineNumbers(s string) (string, bool) {
	lines := strings.Split(s, "\n")
	n := len(lines)
	if n > 1 && lines[n-1] == "" {
		n--
	}
	prev := -1
	for i := range n {
		l := strings.TrimLeft(lines[i], " ")
		d := 0
		for d < len(l) && l[d] >= '0' && l[d] <= '9' {
			d++
		}
		if d == 0 || d > 9 {
			return "", false
		}
		num, _ := strconv.Atoi(l[:d])
		if prev >= 0 && num != prev+1 {
			return "", false
		}
		prev = num
		switch rest := l[d:]; {
		case strings.HasPrefix(rest, "\t"):
			lines[i] = rest[1:]
		case strings.HasPrefix(rest, "→"):
			lines[i] = rest[len("→"):]
		default:
			return "", false
		}
	}
	return strings.Join(lines, "\n"), true
}

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
	var scored []int // window starts with a score, for the search below
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

// windowAt returns the k lines of body from 0-based line start, found from
// the first mark at or after it (a scored window always holds a marked
// line).
func windowAt(body string, marks []lineMark, start, k int) []string {
	m := marks[sort.Search(len(marks), func(i int) bool { return marks[i].idx >= start })]
	off := m.off
	for range m.idx - start {
		off = strings.LastIndexByte(body[:off-1], '\n') + 1
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
// and marks the lines that voted; nil if none did. A filter on the length
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
	var score []float64
	var marks []lineMark
	for i, off := 0, 0; i < n; i++ {
		ln := lineLen(body[off:])
		t := trimLine(body[off : off+ln])
		if h := lineKey(t); t != "" && filter[h>>6]&(1<<(h&63)) != 0 {
			for _, j := range pos[t] {
				if start := i - j; start >= 0 && start <= n-k {
					if score == nil {
						score = make([]float64, n-k+1)
					}
					score[start]++
					if len(marks) == 0 || marks[len(marks)-1].idx != i {
						marks = append(marks, lineMark{i, off})
					}
				}
			}
		}
		off += ln
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
// framed by newlines) that also occur in want, and marks every line.
func bigramVotes(body string, n int, want []string, k int) ([]float64, []lineMark) {
	var set [1 << 16 / 64]uint64
	for _, w := range want {
		eachBigram(strings.TrimSpace(w), func(p uint16) { set[p>>6] |= 1 << (p & 63) })
	}
	per := make([]float64, n+1) // prefix sums of per-line scores
	marks := make([]lineMark, n)
	for i, off := 0, 0; i < n; i++ {
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
		marks[i] = lineMark{i, off}
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
