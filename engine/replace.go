package engine

import (
	"fmt"
	"strconv"
	"strings"
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

func (e Replace) apply(text string) (Result, error) {
	r, err := e.replaceIn(text, FormatEdit, 1)
	if err != nil {
		return Result{}, err
	}
	return Result{Content: r.text, Matches: r.matches}, nil
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
		return replacement{text: new, matches: []Match{newMatch(block, StrategyWholeFile, 1, 0)}}, nil
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
	switch {
	case len(err.Closest) == 0:
		err.Hint = "old_string is not in the file; read the file again and copy the text to replace exactly"
	case len(tried) > 1:
		err.Hint = "old_string is not in the file, even ignoring indentation and spacing; copy it from the closest lines shown"
	default:
		err.Hint = "old_string must match the file exactly, whitespace and indentation included; copy it from the closest lines shown"
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
	f := newFinder(sub)
	for i := 0; ; {
		j := f.index(s[i:])
		if j < 0 {
			return at
		}
		at = append(at, i+j)
		i += j + len(sub)
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
		ms[i] = newMatch(block, st, l[0], l[1])
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
