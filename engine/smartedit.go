package engine

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode"
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
//     under 10 runes or when lines × len(old)² > 4e8.
//
// Every strategy ends with Gemini's trailing-newline rule: the result ends
// in "\n" exactly when the file did.

// Format reports FormatSmartEdit.
func (e SmartEdit) Format() Format { return FormatSmartEdit }

func (e SmartEdit) payload() []string { return []string{e.Old, e.New} }

func (e SmartEdit) legacy() bool { return e.ExpectedReplacements > 0 && !e.AllowMultiple }

func (e SmartEdit) apply(text string) (string, []Match, error) {
	old, new := toLF(e.Old), toLF(e.New)
	fail := func(kind Failure, hint string) *MatchError {
		return &MatchError{Format: FormatSmartEdit, Block: 1, Kind: kind, Search: e.Old, Hint: hint}
	}
	if old == "" {
		if text != "" {
			return "", nil, fail(FailFileExists, "an empty old_string creates a new file, but this file exists and is not empty; put the text to replace in old_string")
		}
		return new, []Match{{Block: 1, Strategy: StrategyWholeFile, StartLine: 1, EndLine: 0}}, nil
	}
	if e.ExpectedReplacements < 0 {
		return "", nil, &FormatError{Format: FormatSmartEdit, Msg: fmt.Sprintf("expected_replacements is %d; it must be 1 or more", e.ExpectedReplacements)}
	}
	if p := introducedPlaceholder(old, new); p != "" {
		return "", nil, fail(FailPlaceholder, fmt.Sprintf("new_string contains the placeholder %q, which would delete the code it stands for; write that code out in full", p))
	}
	variant := smartCurrent
	want := 1
	if e.legacy() {
		variant, want = smartLegacy, e.ExpectedReplacements
	}
	r := smartReplace(text, old, new, smartOptions{variant: variant, allowMultiple: e.AllowMultiple, unescape: true})
	found := len(r.places)
	if found == 0 {
		return "", nil, noMatchError(FormatSmartEdit, 1, text, e.Old, old, r.tried)
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
		return "", nil, err
	}
	if r.old == r.new {
		return "", nil, fail(FailNoChange, "old_string and new_string are identical; send the text you want in new_string, or drop this edit")
	}
	// Every place is replaced: r.text, upstream's result, may hold only the
	// first regex place.
	spans := r.spans()
	return restoreTrailingNewline(text, spliceSpans(text, spans)), spanMatches(text, spans, 1, r.strategy), nil
}

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

// flexiblePlaces finds the non-overlapping windows of lines that equal old's
// lines after trimming, left to right. Each is replaced by new re-indented
// to the window's first line, plus "\n" when the window's last line had one
// and new is not empty.
//
// Rather than compare every window (lines × len(old) on a file of "}"
// lines), it looks for an anchor, the most selective line of old, with
// strings.Index and checks the windows around its occurrences.
func flexiblePlaces(content, old, new string) []smartPlace {
	search := strings.Split(old, "\n")
	for i := range search {
		search[i] = jsTrim(search[i])
	}
	newLines := strings.Split(new, "\n")
	var places []smartPlace
	add := func(start int) { // starts come in increasing order
		if len(places) > 0 && start < places[len(places)-1].end {
			return // overlaps the place before
		}
		end, ok := trimmedWindow(content, start, search)
		if !ok {
			return
		}
		first := content[start : start+lineLen(content[start:])]
		repl := strings.Join(reindent(newLines, indentOf(first)), "\n")
		if strings.HasSuffix(content[:end], "\n") && new != "" {
			repl += "\n"
		}
		places = append(places, smartPlace{span: span{start: start, end: end, repl: repl}})
	}
	a := anchor(search)
	if a < 0 { // old is blank lines only: try every line
		for start := 0; start < len(content); start += lineLen(content[start:]) {
			add(start)
		}
		return places
	}
	for from := 0; from < len(content); {
		i := indexLong(content[from:], search[a])
		if i < 0 {
			break
		}
		i += from
		ls := strings.LastIndexByte(content[:i], '\n') + 1
		from = i + lineLen(content[i:])
		if jsTrim(content[ls:from]) != search[a] {
			continue
		}
		for range a { // back to the window's first line
			if ls == 0 {
				ls = -1
				break
			}
			ls = strings.LastIndexByte(content[:ls-1], '\n') + 1
		}
		if ls >= 0 {
			add(ls)
		}
	}
	return places
}

// lineLen returns the length of s's first line, "\n" included.
func lineLen(s string) int {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return i + 1
	}
	return len(s)
}

// trimmedWindow reports whether the lines of content from byte start (a
// line start) equal search line for line after trimming, and where the
// window ends. A final "\n" starts no line.
func trimmedWindow(content string, start int, search []string) (int, bool) {
	end := start
	for _, want := range search {
		if end >= len(content) {
			return 0, false
		}
		n := lineLen(content[end:])
		if jsTrim(content[end:end+n]) != want {
			return 0, false
		}
		end += n
	}
	return end, true
}

// anchor returns the index of the most selective of items: the longest
// non-empty one, ties going to the one repeated least among items; -1 if
// all are empty.
func anchor(items []string) int {
	best, bestN := -1, 0
	count := map[string]int{}
	for _, it := range items {
		count[it]++
	}
	for i, it := range items {
		switch {
		case it == "":
		case best < 0, len(it) > len(items[best]), len(it) == len(items[best]) && count[it] < bestN:
			best, bestN = i, count[it]
		}
	}
	return best
}

// tokenPlaces finds the non-overlapping places where old's tokens appear in
// order (see SmartEdit, strategy 3). Each place runs from the start of the
// first token's line to the end of the last token, and is replaced by new
// re-indented to that line's indentation. Tokens hold no whitespace, so the
// whitespace between two is skipped greedily with no backtracking, as the
// regex `tok1\s*tok2…` would; matching outwards from each occurrence of
// the most selective token (anchor) gives the same places as scanning
// forwards from every line start, at the cost of a strings.Index.
func tokenPlaces(content, old, new string) []smartPlace {
	tokens := strings.FieldsFunc(padDelimiters(old), jsSpace)
	if len(tokens) == 0 {
		return nil
	}
	a := anchor(tokens)
	newLines := strings.Split(new, "\n")
	var found []smartPlace
	for from := 0; from < len(content); {
		q := indexLong(content[from:], tokens[a])
		if q < 0 {
			break
		}
		q += from
		from = q + 1
		end, ok := tokensForward(content, q, tokens[a:])
		if !ok {
			continue
		}
		p, ok := tokensBackward(content, q, tokens[:a])
		if !ok {
			continue
		}
		ls := strings.LastIndexByte(content[:p], '\n') + 1
		if strings.TrimLeft(content[ls:p], " \t") != "" {
			continue // the first token must follow the line's indentation
		}
		repl := strings.Join(reindent(newLines, content[ls:p]), "\n")
		found = append(found, smartPlace{span: span{start: ls, end: end, repl: repl}})
	}
	sort.SliceStable(found, func(i, j int) bool { return found[i].start < found[j].start })
	var places []smartPlace
	for _, f := range found { // leftmost first, no overlaps, as a global regex scan
		if len(places) == 0 || f.start >= places[len(places)-1].end {
			places = append(places, f)
		}
	}
	return places
}

// tokensForward matches tokens from byte i, any whitespace between them,
// and returns where the last ends.
func tokensForward(content string, i int, tokens []string) (int, bool) {
	for k, t := range tokens {
		if k > 0 {
			i = len(content) - len(strings.TrimLeftFunc(content[i:], jsSpace))
		}
		if !strings.HasPrefix(content[i:], t) {
			return 0, false
		}
		i += len(t)
	}
	return i, true
}

// tokensBackward matches tokens so that the last ends before byte i, any
// whitespace between them and before i, and returns where the first
// starts.
func tokensBackward(content string, i int, tokens []string) (int, bool) {
	for k := len(tokens) - 1; k >= 0; k-- {
		i = len(strings.TrimRightFunc(content[:i], jsSpace))
		if !strings.HasSuffix(content[:i], tokens[k]) {
			return 0, false
		}
		i -= len(tokens[k])
	}
	return i, true
}

// padDelimiters surrounds each of ( ) : [ ] { } > < = with spaces.
func padDelimiters(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("():[]{}><=", r) {
			b.WriteByte(' ')
			b.WriteRune(r)
			b.WriteByte(' ')
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Fuzzy matching constants, as in Gemini CLI.
const (
	fuzzyThreshold       = 0.1 // highest accepted weighted distance ÷ len(old)
	fuzzyWhitespaceCost  = 0.1 // what a whitespace-only difference costs, relative to others
	fuzzyMinRunes        = 10  // shorter old strings are never fuzzy-matched
	fuzzyMaxComplexity   = 4e8 // lines × len(old)², above which fuzzy matching is skipped
	fuzzyLengthTolerance = fuzzyThreshold / fuzzyWhitespaceCost
)

// fuzzyPlaces scores every window of as many lines as old has (lines
// compared without trailing whitespace) by
// (d_nows + 0.1·(d − d_nows)) ÷ len(old), where d is the Levenshtein
// distance in runes and d_nows the distance with all whitespace removed, and
// keeps those at or under fuzzyThreshold, best first and not overlapping.
// Each is replaced by new re-indented to the window's first line, plus "\n"
// when the window's last line had one.
func fuzzyPlaces(content, old, new string) []smartPlace {
	oldRunes := []rune(old)
	n := strings.Count(content, "\n")
	if content != "" && !strings.HasSuffix(content, "\n") {
		n++ // a last line without "\n"
	}
	if len(oldRunes) < fuzzyMinRunes || float64(n)*math.Pow(float64(len(oldRunes)), 2) > fuzzyMaxComplexity {
		return nil
	}
	lines := lineStarts(content)
	search := splitLines(old)
	for i := range search {
		search[i] = strings.TrimRightFunc(search[i], jsSpace)
	}
	k := len(search)
	ref := newFuzzyRef([]rune(strings.Join(search, "\n")))
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
		if score, ok := ref.score([]rune(strings.Join(window, "\n"))); ok {
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

func newFuzzyRef(block []rune) *fuzzyRef {
	f := &fuzzyRef{block: block, noWS: []rune(stripSpace(string(block)))}
	for _, r := range f.noWS {
		f.hist[r&255]++
	}
	f.maxNoWS = int(fuzzyThreshold*float64(len(block))) + 1
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
func (f *fuzzyRef) score(w []rune) (float64, bool) {
	if math.Abs(float64(len(w)-len(f.block)))/float64(len(f.block)) > fuzzyLengthTolerance {
		return 0, false
	}
	wNoWS := []rune(stripSpace(string(w)))
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

// reindent is Gemini's applyIndentation: the indentation of lines[0] (even
// if blank) is the reference; a blank line becomes empty, a line starting
// with the reference gets target instead of it, any other line gets target
// before its trimmed text.
func reindent(lines []string, target string) []string {
	ref := indentOf(lines[0])
	out := make([]string, len(lines))
	for i, l := range lines {
		switch {
		case jsTrim(l) == "":
			out[i] = ""
		case strings.HasPrefix(l, ref):
			out[i] = target + l[len(ref):]
		default:
			out[i] = target + strings.TrimLeftFunc(l, jsSpace)
		}
	}
	return out
}

// indentOf returns the leading spaces and tabs of s.
func indentOf(s string) string { return s[:len(s)-len(strings.TrimLeft(s, " \t"))] }

// jsSpace reports whether r is whitespace for JavaScript's \s and trim().
func jsSpace(r rune) bool { return r == '\uFEFF' || unicode.IsSpace(r) && r != '\u0085' }

func jsTrim(s string) string { return strings.TrimFunc(s, jsSpace) }

// stripSpace removes every whitespace rune from s.
func stripSpace(s string) string {
	return strings.Map(func(r rune) rune {
		if jsSpace(r) {
			return -1
		}
		return r
	}, s)
}
