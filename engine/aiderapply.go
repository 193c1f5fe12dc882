package engine

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"
)

// ApplyEditBlocks applies the edit blocks of an aider response to files
// (path → current bytes; a path that is absent does not exist) and returns
// every file afterwards: the unchanged ones, the edited ones and the created
// ones. Shell blocks are skipped. Blocks apply in order, each to the result
// of the ones before; all apply or none: the first block that fails gives a
// *MatchError naming the block (1-based index in blocks) and its path, with
// Applied listing the blocks that did match.
//
// Each block follows aider's do_replace: the SEARCH and REPLACE texts lose a
// code fence wrapped around them (lines starting with three backticks, as
// aider's default fence; a filename line before the fence goes too); an empty
// SEARCH creates a missing file; otherwise SEARCH is located with aider's
// strategies (see replaceMostSimilarChunk). When it is not in the named
// file, aider tries the other files; so do we, in path order, but only
// accept a single other file that takes the block. Safer than aider:
//
//   - an empty SEARCH on an existing non-empty file is a FailEmptySearch
//     error, where aider appends the REPLACE text to the file;
//   - a file without a final newline keeps that state;
//   - a block may delete the whole content of a file;
//   - nothing is written when a later block fails, where aider keeps the
//     earlier blocks applied.
//
// Where the SEARCH fits several places aider edits the first, and so do we;
// the Match counts them (Candidates) and is Loose.
//
// Line endings, BOM and final newline are kept as Apply keeps them.
func ApplyEditBlocks(files map[string]string, blocks []FileBlock) (map[string]string, error) {
	work := maps.Clone(files)
	if work == nil {
		work = map[string]string{}
	}
	var applied []Match
	for n, b := range blocks {
		if b.Shell {
			continue
		}
		path, res, err := applyEditBlock(work, b)
		var me *MatchError
		if errors.As(err, &me) {
			me.Format, me.Block, me.Applied = FormatSearchReplace, n+1, applied
			if me.Path == "" {
				me.Path = b.Path
			}
			return nil, me
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %s: block %d: %w", FormatSearchReplace, b.Path, n+1, err)
		}
		work[path] = res.Content
		for _, m := range res.Matches {
			m.Block = n + 1
			applied = append(applied, m)
		}
	}
	return work, nil
}

// applyEditBlock applies b to its file in work, or, when its SEARCH text is
// not there, to the one other file that takes it. It returns the path edited.
func applyEditBlock(work map[string]string, b FileBlock) (string, Result, error) {
	e := aiderBlock{path: b.Path, search: b.Search, replace: b.Replace}
	var res Result
	var err error
	if content, ok := work[b.Path]; ok {
		res, err = Apply(content, e)
	} else {
		res, err = Create(e)
	}
	var me *MatchError
	if !errors.As(err, &me) || me.Kind != FailNoMatch && me.Kind != FailFileMissing {
		return b.Path, res, err
	}
	var hits []string
	var hitRes Result
	for _, p := range slices.Sorted(maps.Keys(work)) {
		if p == b.Path {
			continue
		}
		if r, err := Apply(work[p], aiderBlock{path: p, search: b.Search, replace: b.Replace}); err == nil {
			hits, hitRes = append(hits, p), r
		}
	}
	switch len(hits) {
	case 0:
		return b.Path, res, err
	case 1:
		return hits[0], hitRes, nil
	}
	return b.Path, res, &MatchError{
		Path: b.Path, Kind: FailAmbiguous, Search: b.Search, Tried: me.Tried,
		Hint: fmt.Sprintf("the SEARCH text is not in %s but is in %s; name the one file the block edits", b.Path, strings.Join(hits, " and ")),
	}
}

// aiderBlock is one aider SEARCH/REPLACE block as an Edit of one file.
type aiderBlock struct {
	path            string // the file's path; its basename marks a filename line to strip
	search, replace string
}

// Format reports FormatSearchReplace.
func (e aiderBlock) Format() Format { return FormatSearchReplace }

func (e aiderBlock) payload() []string { return []string{e.search, e.replace} }

// texts returns the SEARCH and REPLACE texts as do_replace uses them: with
// "\n" line endings and any wrapping fence removed.
func (e aiderBlock) texts() (search, replace string) {
	fence := DefaultEditBlockFence()
	return stripQuotedWrapping(toLF(e.search), e.path, fence), stripQuotedWrapping(toLF(e.replace), e.path, fence)
}

func (e aiderBlock) apply(text string) (Result, error) {
	search, replace := e.texts()
	if pyStrip(search) == "" {
		if text != "" {
			return Result{}, &MatchError{
				Format: FormatSearchReplace, Block: 1, Kind: FailEmptySearch, Search: e.search,
				Hint: "the file already exists; put the lines to change in the SEARCH section, or send the whole file with write",
			}
		}
		return created(replace), nil
	}
	out, m, err := replaceMostSimilarChunk(text, search, replace)
	if err != nil {
		err.Search = e.search
		return Result{}, err
	}
	return Result{Content: out, Matches: []Match{m}}, nil
}

// create makes a missing file from a block with an empty SEARCH section.
func (e aiderBlock) create() (Result, error) {
	search, replace := e.texts()
	if pyStrip(search) != "" {
		return Result{}, &MatchError{
			Format: FormatSearchReplace, Block: 1, Kind: FailFileMissing, Search: e.search,
			Hint: "the file does not exist; to create it send a block with an empty SEARCH section and the whole content as REPLACE",
		}
	}
	return created(replace), nil
}

// stripQuotedWrapping is aider's strip_quoted_wrapping on "\n" text: it
// drops a code fence pair around text (the first line starts with
// fence.Open, the last with fence.Close, and there are at least two lines),
// and before such a fence a line ending with the basename of path; then it
// ensures a final "\n". Aider drops a filename line even without a fence,
// which would lose a REPLACE line that merely ends with the file's name.
func stripQuotedWrapping(text, path string, fence EditBlockFence) string {
	if text == "" {
		return ""
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	fenced := func(l []string) bool {
		return len(l) >= 2 && strings.HasPrefix(l[0], fence.Open) && strings.HasPrefix(l[len(l)-1], fence.Close)
	}
	if path != "" && strings.HasSuffix(pyStrip(lines[0]), pyPathName(path)) && fenced(lines[1:]) {
		lines = lines[1:]
	}
	if fenced(lines) {
		lines = lines[1 : len(lines)-1]
	}
	out := strings.Join(lines, "\n")
	if out != "" && !strings.HasSuffix(out, "\n") {
		out += "\n"
	}
	return out
}

// replaceMostSimilarChunk is aider's replace_most_similar_chunk on "\n"
// text: it finds part in whole and puts replace in its place, trying in turn
//
//  1. StrategyExact (StrategyFirstOfSeveral when there are several): the
//     first run of lines equal to part's lines;
//  2. StrategyLeadingWhitespace: lines equal after removing leading
//     whitespace, where every non-blank file line carries the same extra
//     indentation, which is then added to every non-blank replace line
//     (part and replace are first outdented by their common indentation);
//  3. both again without part's first line, if it is blank and part has
//     more than two lines;
//  4. StrategyElision: lines of only "..." split part and replace into
//     pieces; each part piece must occur exactly once and is replaced by
//     its replace piece (an empty part piece appends to the end).
//
// Like aider it matches with a final newline added to all three texts, and
// takes the first of several places (counted in Match.Candidates); a whole
// without a final newline loses it again afterwards (aider adds one). Unlike
// aider, a line of part indented deeper than the file line it would match
// does not match (aider then slices the file line and can insert text
// taken from it), and a result of "" (the whole content deleted) is a
// success, not a failure. The Match has Block 1; the error's Search is
// left for the caller.
func replaceMostSimilarChunk(whole, part, replace string) (string, Match, *MatchError) {
	chop := whole != "" && !strings.HasSuffix(whole, "\n")
	whole, part, replace = aiderPrep(whole), aiderPrep(part), aiderPrep(replace)
	wl, pl, rl := splitLines(whole), splitLines(part), splitLines(replace)
	out, m, ok := perfectOrWhitespace(wl, pl, rl)
	if !ok && len(pl) > 2 && pyStrip(pl[0]) == "" {
		out, m, ok = perfectOrWhitespace(wl, pl[1:], rl)
	}
	tried := []Strategy{StrategyExact, StrategyLeadingWhitespace}
	if !ok {
		var applicable bool
		out, m, ok, applicable = replaceElided(whole, part, replace)
		if applicable {
			tried = append(tried, StrategyElision)
		}
	}
	if !ok {
		return "", Match{}, &MatchError{
			Format: FormatSearchReplace, Block: 1, Kind: FailNoMatch, Tried: tried,
			Closest: closestLines(whole, part, 3),
			Hint:    "the SEARCH section must match lines of the file exactly, including whitespace, comments and indentation; copy them from the file",
		}
	}
	if chop {
		out = strings.TrimSuffix(out, "\n")
	}
	m.disclose(part, strings.Join(wl[m.StartLine-1:max(m.EndLine, m.StartLine-1)], ""))
	return out, m, nil
}

func aiderPrep(s string) string {
	if s != "" && !strings.HasSuffix(s, "\n") {
		return s + "\n"
	}
	return s
}

// perfectOrWhitespace tries the exact and then the leading-whitespace
// strategy; each takes the first place, as aider does, and counts them all
// (Match.Candidates). ok reports a match.
func perfectOrWhitespace(wl, pl, rl []string) (string, Match, bool) {
	places := aiderPlaces(wl, pl, func(w []string) bool { return slices.Equal(w, pl) })
	if len(places) == 0 {
		return replaceReindented(wl, pl, rl)
	}
	i := places[0]
	m := newMatch(1, StrategyExact, i+1, i+len(pl))
	if m.Candidates = len(places); m.Candidates > 1 {
		m.Strategy = StrategyFirstOfSeveral
	}
	return aiderSplice(wl, i, len(pl), rl), m, true
}

// aiderPlaces returns the first index of every run of len(pl) lines in wl
// that fits, not overlapping the one before.
func aiderPlaces(wl, pl []string, fits func(window []string) bool) []int {
	var places []int
	for i := 0; i+len(pl) <= len(wl); i++ {
		if fits(wl[i : i+len(pl)]) {
			places = append(places, i)
			i += max(len(pl), 1) - 1
		}
	}
	return places
}

// aiderSplice returns wl with its n lines from index i replaced by rl.
func aiderSplice(wl []string, i, n int, rl []string) string {
	var b strings.Builder
	for _, l := range wl[:i] {
		b.WriteString(l)
	}
	for _, l := range rl {
		b.WriteString(l)
	}
	for _, l := range wl[i+n:] {
		b.WriteString(l)
	}
	return b.String()
}

// replaceReindented is aider's replace_part_with_missing_leading_whitespace:
// the first place wins, and the Match counts them all.
func replaceReindented(wl, pl, rl []string) (string, Match, bool) {
	if len(pl) == 0 {
		return "", Match{}, false
	}
	outdent := -1
	for _, l := range slices.Concat(pl, rl) {
		if pyStrip(l) == "" {
			continue
		}
		if n := aiderLeading(l); outdent < 0 || n < outdent {
			outdent = n
		}
	}
	if outdent > 0 {
		pl, rl = aiderOutdent(pl, outdent), aiderOutdent(rl, outdent)
	}
	pStripped := make([]string, len(pl))
	for k, l := range pl {
		pStripped[k] = pyLStrip(l)
	}
	places := aiderPlaces(wl, pl, func(w []string) bool {
		_, ok := extraIndent(w, pl, pStripped)
		return ok
	})
	if len(places) == 0 {
		return "", Match{}, false
	}
	i := places[0]
	add, _ := extraIndent(wl[i:i+len(pl)], pl, pStripped)
	re := make([]string, len(rl))
	for k, l := range rl {
		if pyStrip(l) != "" {
			l = add + l
		}
		re[k] = l
	}
	m := newMatch(1, StrategyLeadingWhitespace, i+1, i+len(pl))
	m.Candidates = len(places)
	return aiderSplice(wl, i, len(pl), re), m, true
}

// extraIndent is aider's match_but_for_leading_whitespace: whether the
// window w equals pl but for leading whitespace, and the indentation every
// non-blank line of w has in addition (the same for all of them).
func extraIndent(w, pl, pStripped []string) (string, bool) {
	for k := range w {
		if pyLStrip(w[k]) != pStripped[k] {
			return "", false
		}
	}
	add, seen := "", false
	for k := range w {
		if pyStrip(w[k]) == "" {
			continue
		}
		d := utf8.RuneCountInString(w[k]) - utf8.RuneCountInString(pl[k])
		if d < 0 {
			return "", false
		}
		a := w[k][:aiderRuneOffset(w[k], d)]
		if seen && a != add {
			return "", false
		}
		add, seen = a, true
	}
	return add, seen
}

func aiderLeading(s string) int {
	return utf8.RuneCountInString(s) - utf8.RuneCountInString(pyLStrip(s))
}

// aiderRuneOffset returns the byte offset of rune n of s.
func aiderRuneOffset(s string, n int) int {
	off := 0
	for ; n > 0 && off < len(s); n-- {
		_, size := utf8.DecodeRuneInString(s[off:])
		off += size
	}
	return off
}

// aiderOutdent removes n leading runes from every non-blank line.
func aiderOutdent(lines []string, n int) []string {
	out := make([]string, len(lines))
	for k, l := range lines {
		if pyStrip(l) != "" {
			l = l[aiderRuneOffset(l, n):]
		}
		out[k] = l
	}
	return out
}

// replaceElided is aider's try_dotdotdots. applicable reports that part and
// replace contain paired "..." lines; ok that every piece applied.
func replaceElided(whole, part, replace string) (out string, m Match, ok, applicable bool) {
	pp, rp := splitElisions(part), splitElisions(replace)
	if len(pp) != len(rp) || len(pp) == 1 {
		return "", Match{}, false, false
	}
	for k := 1; k < len(pp); k += 2 {
		if pp[k] != rp[k] {
			return "", Match{}, false, false
		}
	}
	type span struct{ at, oldLen, newLen int } // offsets in the text as it was when the piece applied
	var spans []span
	cur := whole
	for k := 0; k < len(pp); k += 2 {
		p, r := pp[k], rp[k]
		switch {
		case p == "" && r == "":
			continue
		case p == "":
			if !strings.HasSuffix(cur, "\n") {
				spans = append(spans, span{len(cur), 0, 1})
				cur += "\n"
			}
			spans = append(spans, span{len(cur), 0, len(r)})
			cur += r
			continue
		}
		if strings.Count(cur, p) != 1 {
			return "", Match{}, false, true
		}
		at := strings.Index(cur, p)
		spans = append(spans, span{at, len(p), len(r)})
		cur = cur[:at] + r + cur[at+len(p):]
	}
	// Map each piece's range back to offsets in whole.
	back := func(x, k int, end bool) int {
		for ; k >= 0; k-- {
			s := spans[k]
			switch {
			case x <= s.at:
			case x >= s.at+s.newLen:
				x += s.oldLen - s.newLen
			case end: // inside the replacement: the end of what it replaced
				x = s.at + s.oldLen
			default:
				x = s.at
			}
		}
		return x
	}
	lo, hi := len(whole), 0
	for k, s := range spans {
		lo = min(lo, back(s.at, k-1, false))
		hi = max(hi, back(s.at+s.oldLen, k-1, true))
	}
	m = newMatch(1, StrategyElision, 1, 0)
	if len(spans) > 0 {
		m.StartLine = lineAt(whole, lo)
		m.EndLine = m.StartLine - 1
		if hi > lo {
			m.EndLine = lineAt(whole, hi-1)
		}
	}
	return cur, m, true, true
}

// splitElisions is Python's re.split(r"(^\s*\.\.\.\n)", s, flags=MULTILINE):
// pieces of s alternating with the "..." separator lines (including any
// blank lines before them), so the result has odd length.
func splitElisions(s string) []string {
	var out []string
	last := 0
	for p := 0; p < len(s); {
		q := p
		for q < len(s) {
			r, n := utf8.DecodeRuneInString(s[q:])
			if !pyIsSpace(r) {
				break
			}
			q += n
		}
		if strings.HasPrefix(s[q:], "...\n") {
			out = append(out, s[last:p], s[p:q+4])
			last, p = q+4, q+4
			continue
		}
		nl := strings.IndexByte(s[p:], '\n')
		if nl < 0 {
			break
		}
		p += nl + 1
	}
	return append(out, s[last:])
}
