package engine

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// The byte-offset path of an exact hit (issue 28: a finder that skips
// ahead, no line split, newlines counted for line numbers, a file without
// "\r" decoded in one read) must answer as the line-split path does, byte
// for byte, for every input. These tests run both on generated cases, small
// files (genCase) and files of thousands of repeated lines where the finder
// skips, and compare every result, match and error; a difference is shrunk
// to a minimal case. -exactfast.cases runs more.

var fastCases = flag.Int("exactfast.cases", 400, "generated small cases per kind for TestExactFastPathIsTheLineSplitPath (and a quarter as many big ones)")

// bothPaths applies c with the byte-offset path and with lineSplitExact,
// and says how the answers differ ("" when they do not); exact says
// whether the first block was an exact hit.
func bothPaths(c exCase) (diff string, exact bool) {
	fast := c.allAnswers()
	lineSplitExact = true
	defer func() { lineSplitExact = false }()
	slow := c.allAnswers()
	for i := range fast {
		if !reflect.DeepEqual(fast[i], slow[i]) {
			return fast[i].how + ": " + answerDiff(fast[i], slow[i]), false
		}
	}
	ms := fast[0].result.Matches
	return "", fast[0].err == "" && len(ms) > 0 && ms[0].Strategy == StrategyExact
}

// answerDiff says where two answers first differ: the content around its
// first differing byte, else the matches, the error, the rest.
func answerDiff(fast, slow answer) string {
	a, b := fast.result.Content, slow.result.Content
	if a != b {
		i := 0
		for i < min(len(a), len(b)) && a[i] == b[i] {
			i++
		}
		lo := max(0, i-60)
		return fmt.Sprintf("content differs at byte %d (of %d and %d): byte-offset path …%q…, line-split path …%q…", i, len(a), len(b), a[lo:min(len(a), i+60)], b[lo:min(len(b), i+60)])
	}
	if !reflect.DeepEqual(fast.result.Matches, slow.result.Matches) {
		return fmt.Sprintf("matches: byte-offset path %+v, line-split path %+v", fast.result.Matches, slow.result.Matches)
	}
	if fast.err != slow.err || !reflect.DeepEqual(fast.errVal, slow.errVal) {
		return fmt.Sprintf("error: byte-offset path %#v, line-split path %#v", fast.errVal, slow.errVal)
	}
	return fmt.Sprintf("byte-offset path %+v, line-split path %+v", fast.result, slow.result)
}

func differs(c exCase) bool {
	d, _ := bothPaths(c)
	return d != ""
}

// shrinkBig shrinks a failing case of a big file: runs of the file's lines
// dropped, halving the run, then shrink's steps, within a budget of tries
// (a big file has thousands of lines to drop one by one).
func shrinkBig(c exCase, failing func(exCase) bool, budget int) exCase {
	tries := 0
	fails := func(d exCase) bool {
		tries++
		return tries <= budget && failing(d)
	}
	lines := strings.SplitAfter(c.File, "\n")
	for size := len(lines) / 2; size >= 1; size /= 2 {
		for i := 0; i+size <= len(lines); {
			d := c
			d.File = strings.Join(append(append([]string(nil), lines[:i]...), lines[i+size:]...), "")
			if fails(d) {
				c, lines = d, strings.SplitAfter(d.File, "\n")
			} else {
				i += size
			}
		}
	}
	return shrink(c, fails)
}

// answer is one way of applying a case, as a comparable value.
type answer struct {
	how    string
	result Result
	err    string
	errVal error
}

// allAnswers applies c whole and, for a SEARCH/REPLACE payload, streamed
// in 7- and 61-byte chunks.
func (c exCase) allAnswers() []answer {
	got := c.run()
	out := []answer{{how: "applied", result: got.res, errVal: got.err}}
	if c.isSR() && len(c.Blocks) > 0 {
		payload := c.payload()
		for _, n := range []int{7, 61} {
			a := answer{how: fmt.Sprintf("streamed in %d-byte chunks", n)}
			s, err := NewStream(c.File, FormatSearchReplace)
			if err == nil {
				for i := 0; i < len(payload) && err == nil; i += n {
					_, err = s.Feed(payload[i:min(i+n, len(payload))])
				}
				if err == nil {
					a.result, err = s.Close()
				}
			}
			a.errVal = err
			out = append(out, a)
		}
	}
	for i := range out {
		if out[i].errVal != nil {
			out[i].err = out[i].errVal.Error()
		}
	}
	return out
}

func (c exCase) isSR() bool {
	return strings.HasPrefix(c.Kind, "cline") || strings.HasPrefix(c.Kind, "aider")
}

// fastKinds are the kinds compared: every exactness kind, Gemini's smart
// edit and literal replace (an exact old_string is found by the finder too).
var fastKinds = append(append([]string(nil), exKinds...), "gemini-smart", "gemini-literal")

// codeLines are longer lines for big files, so that blocks of a few lines
// are long enough for the finder to skip with.
var codeLines = []string{
	"func (m *lineMatcher) lineOf(off int) int {", "\treturn strings.Count(m.text[:off], \"\\n\")",
	"\tif err != nil {", "\t\treturn nil, err", "\t}", "}", "", "// A comment that says what the next lines do.",
	"\tfor i := range lines {", "\t\tlines[i] = strings.TrimSpace(lines[i])", "    x = x + 1  ", "\t\t\t",
	"// ünïcödé ✓ — “q” 𝄞 in a longer line of text", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab",
}

// genBigFile returns a file of 300–3,000 lines drawn from few lines (so
// they repeat), some made unique, with the line endings, BOM and final
// newline genFile varies.
func genBigFile(r *rand.Rand) string {
	n := 300 + r.IntN(2700)
	pool := codeLines
	if r.IntN(3) == 0 {
		pool = exLines
	}
	eol := "\n"
	mixed := false
	switch r.IntN(10) {
	case 0, 1, 2:
		eol = "\r\n"
	case 3:
		mixed = true
	}
	var b strings.Builder
	if r.IntN(7) == 0 {
		b.WriteString("\uFEFF")
	}
	for i := 0; i < n; i++ {
		b.WriteString(pool[r.IntN(len(pool))])
		if r.IntN(6) == 0 {
			fmt.Fprintf(&b, " // %d", r.IntN(100000))
		}
		if i < n-1 || r.IntN(5) > 0 {
			if mixed && r.IntN(2) == 0 {
				b.WriteString("\r\n")
			} else {
				b.WriteString(eol)
			}
		}
	}
	return b.String()
}

// genBigOld draws a text to replace from t: 1–40 whole lines at the start,
// at the end or anywhere, begun inside its first line or at the newline
// before it, or (not lines) without its final newline.
func genBigOld(r *rand.Rand, t string, lines bool) string {
	if t == "" {
		return ""
	}
	ls := exLineStarts(t)
	nl := len(ls) - 1
	k := 1 + r.IntN(min(40, nl))
	i := r.IntN(nl - k + 1)
	switch r.IntN(4) {
	case 0:
		i = 0
	case 1:
		i = nl - k
	}
	a, b := ls[i], ls[i+k]
	switch r.IntN(5) {
	case 0:
		a = runeAligned(t, a+r.IntN(max(1, ls[i+1]-a)))
	case 1:
		if a > 0 {
			a--
		}
	case 2:
		if !lines && b > a+1 && t[b-1] == '\n' {
			b--
		}
	}
	return t[a:b]
}

// genBigCase makes a case of kind on a big file: blocks in order (or, for
// SEARCH/REPLACE, at times out of order or with a :start_line:).
func genBigCase(kind string, seed uint64) exCase {
	r := rand.New(rand.NewPCG(seed, 0x28))
	c := exCase{Kind: kind, File: genBigFile(r)}
	doc, err := Decode(c.File)
	if err != nil {
		return c
	}
	t := doc.Text
	lines := kind != "edit" && kind != "multi-edit" && !strings.HasPrefix(kind, "gemini")
	nblocks := 1 + r.IntN(3)
	if kind == "edit" || strings.HasPrefix(kind, "gemini") {
		nblocks = 1
		c.All = r.IntN(6) == 0
	}
	from := 0
	for k := 0; k < nblocks && from < len(t); k++ {
		part := t[from:]
		if r.IntN(5) == 0 {
			part = t // out of order, or anywhere
		}
		old := genBigOld(r, part, lines)
		if old == "" {
			break
		}
		b := exBlock{Old: old, New: genNew(r, old, lines)}
		if lines && r.IntN(6) == 0 {
			b.Hint = 1 + r.IntN(strings.Count(t, "\n")+1)
		}
		c.Blocks = append(c.Blocks, b)
		if at := strings.Index(t[from:], old); at >= 0 {
			from += at + len(old)
		}
	}
	return c
}

// TestExactFastPathIsTheLineSplitPath compares the byte-offset path with
// the line-split path on generated cases of every kind, small and big.
func TestExactFastPathIsTheLineSplitPath(t *testing.T) {
	n := *fastCases
	if testing.Short() {
		n /= 10
	}
	sizes := []struct {
		name  string
		cases int
		gen   func(string, uint64) exCase
	}{{"small", n, genCase}, {"big", n / 4, genBigCase}}
	for _, size := range sizes {
		for _, kind := range fastKinds {
			t.Run(size.name+"/"+kind, func(t *testing.T) {
				failures, ran, hits := 0, 0, 0
				for i := 0; i < size.cases && failures < 3; i++ {
					seed := *exSeed + uint64(i)
					c := size.gen(kind, seed)
					if len(c.Blocks) == 0 || c.isSR() && !c.payloadSafe() {
						continue
					}
					ran++
					p, exact := bothPaths(c)
					if p != "" {
						failures++
						small := shrinkBig(c, differs, 3000)
						d, _ := bothPaths(small)
						t.Errorf("seed %d: %s\nminimal case (%s): %s", seed, p, d, saveFailure(t, "exactfast.json", small))
					}
					if exact {
						hits++
					}
				}
				// The generators must reach the path under test.
				if ran >= 20 && hits < ran/5 {
					t.Errorf("only %d of %d cases were exact hits", hits, ran)
				}
			})
		}
	}
}

// TestFinderIsStringsIndex checks the finder against strings.Index on
// generated texts over a few bytes (long runs of the needle's own bytes,
// where it gives up skipping), code lines, and needles taken from the text,
// changed at either end, or not in it; a difference is shrunk.
func TestFinderIsStringsIndex(t *testing.T) {
	n := *fastCases * 5
	if testing.Short() {
		n /= 10
	}
	check := func(s, sub string) string {
		f := newFinder(sub)
		for from := 0; from <= len(s); {
			got, want := f.index(s[from:]), strings.Index(s[from:], sub)
			if got != want {
				return fmt.Sprintf("from %d: finder %d, strings.Index %d", from, got, want)
			}
			if want < 0 {
				break
			}
			from += want + max(1, len(sub))
		}
		return ""
	}
	for i := 0; i < n; i++ {
		r := rand.New(rand.NewPCG(*exSeed+uint64(i), 0x1d))
		s, sub := genFinderCase(r)
		if p := check(s, sub); p != "" {
			s, sub = shrinkPair(s, sub, func(a, b string) bool { return check(a, b) != "" })
			t.Fatalf("seed %d: %s\nminimal text %q\nneedle %q: %s", *exSeed+uint64(i), p, s, sub, check(s, sub))
		}
	}
}

// genFinderCase returns a text of 4–40 KB and a needle for it.
func genFinderCase(r *rand.Rand) (string, string) {
	alphabets := []string{"ab", "a\n", "ab\n ", "abcdefgh\n\t ", "\t}\n"}
	var b strings.Builder
	size := 4<<10 + r.IntN(36<<10)
	if r.IntN(2) == 0 {
		al := alphabets[r.IntN(len(alphabets))]
		for b.Len() < size {
			c := al[r.IntN(len(al))]
			for k := r.IntN(1 + r.IntN(300)); k >= 0; k-- { // runs
				b.WriteByte(c)
			}
		}
	} else {
		for b.Len() < size {
			b.WriteString(codeLines[r.IntN(len(codeLines))])
			b.WriteByte('\n')
		}
	}
	s := b.String()
	m := 1 + r.IntN(1+r.IntN(1200))
	m = min(m, len(s))
	at := r.IntN(len(s) - m + 1)
	sub := s[at : at+m]
	switch r.IntN(5) {
	case 0: // its last byte changed
		sub = sub[:m-1] + string(rune('a'+r.IntN(3)))
	case 1: // its first byte changed
		sub = string(rune('a'+r.IntN(3))) + sub[1:]
	case 2: // near the end of the text
		at = len(s) - m - r.IntN(min(m, len(s)-m)+1)
		sub = s[at : at+m]
	}
	return s, sub
}

// shrinkPair makes a failing (text, needle) smaller: chunks of the text
// dropped, then of the needle, halving the chunk, while it still fails; it
// stops after shrinkTries tries.
func shrinkPair(s, sub string, fails func(string, string) bool) (string, string) {
	const shrinkTries = 20000
	tries := 0
	try := func(a, b string) bool {
		tries++
		return tries <= shrinkTries && fails(a, b)
	}
	for changed := true; changed && tries <= shrinkTries; {
		changed = false
		for size := max(len(s), len(sub)) / 2; size >= 1; size /= 2 {
			for i := 0; i+size <= len(s); {
				if t := s[:i] + s[i+size:]; try(t, sub) {
					s, changed = t, true
				} else {
					i += size
				}
			}
			for i := 0; i+size <= len(sub); {
				if t := sub[:i] + sub[i+size:]; try(s, t) {
					sub, changed = t, true
				} else {
					i += size
				}
			}
		}
	}
	return s, sub
}

// TestLineOfCountsAsTheSplitDoes checks the line of every offset (and
// where that line begins) found by counting newlines against the split
// lines, offsets visited in order and out of it.
func TestLineOfCountsAsTheSplitDoes(t *testing.T) {
	for i := 0; i < 300; i++ {
		r := rand.New(rand.NewPCG(*exSeed+uint64(i), 0x10f))
		doc, err := Decode(genFile(r))
		if err != nil {
			continue
		}
		text := doc.Text
		split := newLineMatcher(text)
		split.split()
		counted := newLineMatcher(text)
		offs := make([]int, 0, len(text)+3)
		for off := -1; off <= len(text)+1; off++ {
			offs = append(offs, off)
		}
		if i%2 == 1 {
			r.Shuffle(len(offs), func(a, b int) { offs[a], offs[b] = offs[b], offs[a] })
		}
		for _, off := range offs {
			if counted.start != nil { // split after going back too often: start again
				counted = newLineMatcher(text)
			}
			want := split.lineOf(off)
			if got := counted.lineOf(off); got != want {
				t.Fatalf("%q: lineOf(%d) counted %d, split %d", text, off, got, want)
			}
			if want >= 0 {
				if got := counted.lineBegin(off); got != split.start[want] {
					t.Fatalf("%q: lineBegin(%d) = %d, split line %d starts at %d", text, off, got, want, split.start[want])
				}
			}
		}
	}
}

// TestDecodeWithoutCRIsTheCountingDecode checks Decode's one-read path for
// a file without "\r" against counting its line endings.
func TestDecodeWithoutCRIsTheCountingDecode(t *testing.T) {
	for i := 0; i < 2000; i++ {
		r := rand.New(rand.NewPCG(*exSeed+uint64(i), 0xd))
		file := genFile(r)
		if r.IntN(2) == 0 {
			file = genBigFile(r)
		}
		got, gerr := Decode(file)
		lineSplitExact = true
		want, werr := Decode(file)
		lineSplitExact = false
		if !reflect.DeepEqual(got, want) || fmt.Sprint(gerr) != fmt.Sprint(werr) {
			t.Fatalf("Decode(%q) = %+v, %v; counting: %+v, %v", file, got, gerr, want, werr)
		}
	}
}
