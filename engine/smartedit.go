package engine

import (
	"fmt"
	"strings"
)

// SmartEdit follows Gemini CLI's replace tool (edit.ts, formerly
// smart-edit). Two variants, chosen by the payload:
//
//   - current (the default, and whenever AllowMultiple is set): old must be
//     found exactly once, or at least once with AllowMultiple, which replaces
//     every place;
//   - legacy (ExpectedReplacements > 0 and AllowMultiple unset; the January
//     2026 tool): old must be found exactly ExpectedReplacements times.
//
// The checks, in Gemini's order: an empty old creates the content of an
// empty file (FailFileExists on a non-empty one; a missing file is Create's
// business); a new_string that introduces an omission placeholder
// (FailPlaceholder, see placeholder.go); no place found (FailNoMatch, or
// FailLineNumbers); the wrong number of places (FailCount, or
// FailAmbiguous when fuzzy matching found equally good places); old and new
// identical (FailNoChange).
//
// Places are looked for with the first strategy that finds any (Gemini's
// name for each in quotes):
//
//  1. StrategyExact ("exact"): literal occurrences. Current variant: more
//     than one without AllowMultiple stops the search (a count error).
//  2. StrategyFlexibleIndent ("flexible"): windows of lines equal to old's
//     lines after trimming; new is re-indented to the window's first line
//     (reindent).
//  3. StrategyRegexTokens ("regex"): old split into tokens (whitespace and
//     the delimiters ( ) : [ ] { } > < = separate them) that must appear in
//     order, the first at the start of a line after its indentation, with
//     any whitespace, newlines included, or none between them. Matched
//     token by token, not with a regexp: an anchored Go regexp scans a big
//     file at 50–400 ms.
//  4. StrategyUnescaped (our addition): when unescapeGemini changes old,
//     strategies 1–3 again with old and new both unescaped.
//  5. StrategyFuzzy ("fuzzy"): windows of old's line count whose weighted
//     Levenshtein distance is at most 10% of old's length; skipped for old
//     under 10 UTF-16 code units or when lines × len(old)² > 4e8 (lengths
//     and distances in UTF-16 code units, as JavaScript counts them).
//
// Every strategy ends with Gemini's trailing-newline rule: the result ends
// in "\n" exactly when the file did.

// Format reports FormatSmartEdit.
func (e SmartEdit) Format() Format { return FormatSmartEdit }

func (e SmartEdit) payload() []string { return []string{e.Old, e.New} }

func (e SmartEdit) legacy() bool { return e.ExpectedReplacements > 0 && !e.AllowMultiple }

func (e SmartEdit) apply(text string) (Result, error) {
	old, new := toLF(e.Old), toLF(e.New)
	fail := func(kind Failure, hint string) *MatchError {
		return &MatchError{Format: FormatSmartEdit, Block: 1, Kind: kind, Search: e.Old, Hint: hint}
	}
	if old == "" {
		if text != "" {
			return Result{}, fail(FailFileExists, "an empty old_string creates a new file, but this file exists and is not empty; put the text to replace in old_string")
		}
		return created(new), nil
	}
	if e.ExpectedReplacements < 0 {
		return Result{}, &FormatError{Format: FormatSmartEdit, Msg: fmt.Sprintf("expected_replacements is %d; it must be 1 or more", e.ExpectedReplacements)}
	}
	if p := introducedPlaceholder(old, new); p != "" {
		return Result{}, fail(FailPlaceholder, fmt.Sprintf("new_string contains the placeholder %q, which would delete the code it stands for; write that code out in full", p))
	}
	variant := smartCurrent
	want := 1
	if e.legacy() {
		variant, want = smartLegacy, e.ExpectedReplacements
	}
	r := smartReplace(text, old, new, smartOptions{variant: variant, allowMultiple: e.AllowMultiple, unescape: true})
	found := len(r.places)
	if found == 0 {
		return Result{}, noMatchError(FormatSmartEdit, 1, text, e.Old, old, r.tried)
	}
	if !e.AllowMultiple && found != want {
		err := fail(FailCount, countHint(want, found))
		if variant == smartCurrent {
			err.Hint = fmt.Sprintf("old_string matches %d places; add surrounding lines so it matches exactly one, or set allow_multiple to change all %d", found, found)
		}
		if r.strategy == StrategyFuzzy && want == 1 && fuzzyTie(r.places) {
			err.Kind = FailAmbiguous
			err.Hint = "old_string is close to several places equally; copy the exact lines of the one you mean, with a few lines of context"
		}
		err.Tried, err.Want, err.Found = r.tried, want, found
		err.Places = spanCandidates(text, r.spans())
		if r.strategy != StrategyExact {
			for i := range err.Places {
				err.Places[i].Similarity = 1 - r.places[i].score
			}
		}
		return Result{}, err
	}
	if r.old == r.new {
		return Result{}, fail(FailNoChange, "old_string and new_string are identical; send the text you want in new_string, or drop this edit")
	}
	// Every place is replaced: r.text, upstream's result, may hold only the
	// first regex place.
	spans := r.spans()
	matches := spanMatches(text, spans, 1, r.strategy)
	for i, p := range r.places {
		matches[i].Similarity = 1 - p.score
		matches[i].disclose(e.Old, text[p.start:p.end])
	}
	return Result{Content: restoreTrailingNewline(text, spliceSpans(text, spans)), Matches: matches}, nil
}

// smartVariant selects which Gemini tool's matching rules apply.
type smartVariant int

const (
	smartCurrent smartVariant = iota // edit(allow_multiple)
	smartLegacy                      // smart-edit(expected_replacements)
)

type smartOptions struct {
	variant       smartVariant
	allowMultiple bool
	unescape      bool // try the unescaped pair (our addition; upstream has no such step)
}

// smartPlace is one place a strategy found. The fuzzy score is the weighted
// distance ÷ len(old), 0 for the other strategies.
type smartPlace struct {
	span
	score float64
}

// smartResult is Gemini's calculateReplacement result plus what the engine
// needs to report it.
type smartResult struct {
	text        string       // the content after replacement, as upstream computes it
	occurrences int          // the count upstream reports
	strategy    Strategy     // the strategy that found the places; "" if none did
	places      []smartPlace // every place found, in file order
	old, new    string       // the pair that matched (unescaped for StrategyUnescaped)
	tried       []Strategy
}

func (r smartResult) spans() []span {
	s := make([]span, len(r.places))
	for i, p := range r.places {
		s[i] = p.span
	}
	return s
}

// smartReplace is Gemini's calculateReplacement on content, with old and new
// already in "\n" form.
func smartReplace(content, old, new string, o smartOptions) smartResult {
	r := smartResult{text: content, old: old, new: new}
	if old == "" {
		return r
	}
	if r.match(content, old, new, o) {
		return r
	}
	if o.unescape {
		if uo := unescapeGemini(old); uo != old {
			un := unescapeGemini(new)
			r.tried = append(r.tried, StrategyUnescaped)
			u := smartResult{text: content, old: uo, new: un}
			if u.match(content, uo, un, o) {
				u.strategy, u.tried = StrategyUnescaped, r.tried
				return u
			}
		}
	}
	r.tried = append(r.tried, StrategyFuzzy)
	if places := fuzzyPlaces(content, old, new); len(places) > 0 {
		r.finish(content, StrategyFuzzy, places, len(places), len(places))
	}
	return r
}

// match tries the exact, flexible and regex strategies in turn and reports
// whether one found a place.
func (r *smartResult) match(content, old, new string, o smartOptions) bool {
	r.tried = append(r.tried, StrategyExact)
	if at := literalOffsets(content, old); len(at) > 0 {
		places := make([]smartPlace, len(at))
		for i, a := range at {
			places[i] = smartPlace{span: span{start: a, end: a + len(old), repl: new}}
		}
		replace := len(places)
		if o.variant == smartCurrent && !o.allowMultiple && len(places) > 1 {
			replace = 0
		}
		r.finish(content, StrategyExact, places, replace, len(places))
		return true
	}
	r.tried = append(r.tried, StrategyFlexibleIndent)
	if places := flexiblePlaces(content, old, new); len(places) > 0 {
		r.finish(content, StrategyFlexibleIndent, places, len(places), len(places))
		return true
	}
	r.tried = append(r.tried, StrategyRegexTokens)
	if places := tokenPlaces(content, old, new); len(places) > 0 {
		replace, count := len(places), len(places)
		if !o.allowMultiple {
			replace = 1
		}
		if o.variant == smartLegacy {
			count = 1
		}
		r.finish(content, StrategyRegexTokens, places, replace, count)
		return true
	}
	return false
}

// finish records places, of which the first `replace` are replaced, and the
// count upstream reports.
func (r *smartResult) finish(content string, st Strategy, places []smartPlace, replace, count int) {
	r.strategy, r.places, r.occurrences = st, places, count
	if replace == 0 {
		return
	}
	spans := make([]span, replace)
	for i := range spans {
		spans[i] = places[i].span
	}
	r.text = restoreTrailingNewline(content, spliceSpans(content, spans))
}

// restoreTrailingNewline makes edited end in "\n" exactly when original did,
// adding or removing one.
func restoreTrailingNewline(original, edited string) string {
	had := strings.HasSuffix(original, "\n")
	has := strings.HasSuffix(edited, "\n")
	switch {
	case had && !has:
		return edited + "\n"
	case !had && has:
		return edited[:len(edited)-1]
	}
	return edited
}
