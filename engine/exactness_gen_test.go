package engine

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// Generated exactness cases (issue 23): random files (blank lines, CRLF,
// BOM, tabs, Unicode, no final newline, repeated lines) and edits drawn from
// them (substrings at any boundary, blank-line edges, whitespace changes,
// several blocks, blocks that depend on earlier ones), checked against the
// upstream tools' documented contracts (exactness_contract_test.go) and,
// where the upstream code runs without a model, against that code
// (oracle_gemini_test.go). A failing case is shrunk to a minimal one and
// kept in testdata/exactness, which the normal tests run.
//
// go test ./engine -run TestExactnessGenerated -exactness.cases 20000
// runs more cases; -exactness.seed picks another start.

var (
	exCases = flag.Int("exactness.cases", 5000, "generated cases per kind for TestExactnessGenerated")
	exSeed  = flag.Uint64("exactness.seed", 23, "first seed of the generated cases")
	exSave  = flag.Bool("exactness.save", false, "write each shrunk failing case into testdata/exactness")
)

// exCase is one generated (or kept) case.
type exCase struct {
	Name   string    `json:"name,omitempty"`
	Kind   string    `json:"kind"` // see exKinds
	File   string    `json:"file"` // the file's bytes
	Blocks []exBlock `json:"blocks"`
	All    bool      `json:"all,omitempty"` // replace_all (edit) or allow_multiple (smart-edit)
	// Upstream is the upstream code's recorded answer (oracle cases).
	Upstream *upstreamAnswer `json:"upstream,omitempty"`
	// Why says, for a kept case, what went wrong before it was fixed, or
	// the divergence it documents.
	Why string `json:"why,omitempty"`
}

type exBlock struct {
	Old string `json:"old"`
	New string `json:"new"`
	// Hint is a Roo ":start_line:" a SEARCH/REPLACE block carries; 0 for none.
	Hint int `json:"hint,omitempty"`
}

// upstreamAnswer is what an upstream function returned for a case.
type upstreamAnswer struct {
	Content     string `json:"content"`
	Occurrences int    `json:"occurrences"`
	Error       string `json:"error,omitempty"` // upstream's error type; "" on success
	Strategy    string `json:"strategy,omitempty"`
}

// The kinds of case: cline and aider are SEARCH/REPLACE payloads with
// their markers (blocks as independent, in order), cline-seq and aider-seq
// blocks where each is drawn from the text the blocks before made, edit is
// Claude Code's Edit, multi-edit its MultiEdit; gemini-smart and
// gemini-literal are the oracle kinds.
var exKinds = []string{"cline", "aider", "cline-seq", "aider-seq", "edit", "multi-edit"}

// exLines are the lines files are made of: few, so that lines repeat.
var exLines = []string{
	"def one():", "    return 1", "def two():", "    return 2", "", "", "",
	"\tif (x) {", "\t\ty = f(x);", "\t}", "}", "  ", "\t", "a", "b", "a b",
	"x = 1", "// ünïcödé ✓ — “q” 𝄞", "return a", "    return a", "end", "  end  ",
}

// genFile returns a random file's bytes.
func genFile(r *rand.Rand) string {
	n := r.IntN(12)
	lines := make([]string, n)
	for i := range lines {
		lines[i] = exLines[r.IntN(len(exLines))]
		if r.IntN(8) == 0 { // a fresh line, unique most likely
			lines[i] += fmt.Sprintf(" %d", r.IntN(100))
		}
	}
	eol := "\n"
	mixed := false
	switch r.IntN(20) {
	case 0, 1, 2, 3, 4:
		eol = "\r\n"
	case 5:
		mixed = true
	}
	var b strings.Builder
	if r.IntN(7) == 0 {
		b.WriteString("\uFEFF")
	}
	for i, l := range lines {
		b.WriteString(l)
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

// runeAligned moves i back to the start of the rune holding it.
func runeAligned(s string, i int) int {
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}

// exLineStarts returns the offset of each line of t and len(t).
func exLineStarts(t string) []int {
	out := []int{0}
	for i := 0; i < len(t); i++ {
		if t[i] == '\n' && i+1 < len(t) {
			out = append(out, i+1)
		}
	}
	if len(t) == 0 {
		return out
	}
	return append(out, len(t))
}

// genOld draws a text to replace from t: whole lines, a substring at any
// boundary, or lines with a blank-line edge. lines asks for text a
// SEARCH/REPLACE block can carry (ending at a line end).
func genOld(r *rand.Rand, t string, lines bool) string {
	if t == "" {
		return ""
	}
	ls := exLineStarts(t)
	nl := len(ls) - 1
	i := r.IntN(nl)
	j := i + 1 + r.IntN(min(3, nl-i))
	a, b := ls[i], ls[j]
	switch r.IntN(6) {
	case 0: // start inside the first line
		a = runeAligned(t, a+r.IntN(max(1, ls[i+1]-a)))
	case 1: // a blank line's worth before: from the newline ending the line before
		if a > 0 {
			a--
		}
	case 2: // no final newline
		if !lines && b > a+1 && t[b-1] == '\n' {
			b--
		}
	case 3: // any substring
		if !lines {
			a = runeAligned(t, r.IntN(len(t)))
			b = runeAligned(t, a+1+r.IntN(len(t)-a))
			if b <= a {
				b = len(t)
			}
		}
	}
	return t[a:b]
}

// genNew derives a replacement from old: a word changed, a line added or
// dropped, indentation changed, a blank line added, or nothing left.
func genNew(r *rand.Rand, old string, lines bool) string {
	var s string
	switch r.IntN(7) {
	case 0:
		s = ""
	case 1:
		s = strings.Replace(old, "return", "yield", 1) + "added\n"
	case 2:
		s = "\n" + old
	case 3:
		s = strings.ReplaceAll(old, "\n", "\n  ")
		s = "  " + strings.TrimSuffix(s, "  ")
	case 4:
		ls := strings.SplitAfter(old, "\n")
		ls = append(ls[:0:0], ls[1:]...)
		s = strings.Join(ls, "")
	case 5:
		s = strings.ReplaceAll(old, "  ", "\t")
	default:
		s = "new " + fmt.Sprint(r.IntN(10)) + "\n" + old
	}
	if s == old {
		s += "z\n"
	}
	if lines && s != "" && !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return s
}

// genCase makes the case of one kind from a seed.
func genCase(kind string, seed uint64) exCase {
	r := rand.New(rand.NewPCG(seed, 0x23))
	c := exCase{Kind: kind, File: genFile(r)}
	doc, err := Decode(c.File)
	if err != nil {
		return c
	}
	t := doc.Text
	lines := kind != "edit" && kind != "multi-edit"
	nblocks := 1 + r.IntN(3)
	switch kind {
	case "edit":
		nblocks = 1
		c.All = r.IntN(6) == 0
	}
	seq := strings.HasSuffix(kind, "-seq") || kind == "multi-edit"
	cur, from := t, 0
	for k := 0; k < nblocks && from <= len(cur); k++ {
		old := genOld(r, cur[from:], lines)
		if old == "" {
			break
		}
		nw := genNew(r, old, lines)
		c.Blocks = append(c.Blocks, exBlock{Old: old, New: nw})
		if seq {
			// The next block is drawn from the text this one made, around it.
			if at := strings.Index(cur, old); at >= 0 {
				cur = cur[:at] + nw + cur[at+len(old):]
				from = max(0, at-r.IntN(8))
				from = runeAligned(cur, min(from, len(cur)))
			}
			continue
		}
		// Independent blocks in order: the next one is drawn after this one.
		at := strings.Index(cur[from:], old)
		if at < 0 {
			break
		}
		from += at + len(old)
	}
	return c
}

// exResult is a case applied by the engine.
type exResult struct {
	res Result
	err error
}

// run applies the case with the engine.
func (c exCase) run() exResult {
	if len(c.Blocks) == 0 {
		return exResult{err: fmt.Errorf("no blocks")}
	}
	e, err := c.edit()
	if err != nil {
		return exResult{err: err}
	}
	res, err := Apply(c.File, e)
	return exResult{res, err}
}

// edit builds the case's Edit.
func (c exCase) edit() (Edit, error) {
	switch c.Kind {
	case "cline", "cline-seq", "aider", "aider-seq":
		return SearchReplace{Text: c.payload()}, nil
	case "edit":
		b := c.Blocks[0]
		return Replace{Old: b.Old, New: b.New, ReplaceAll: c.All}, nil
	case "gemini-literal": // applyReplacement replaces every occurrence
		b := c.Blocks[0]
		return Replace{Old: b.Old, New: b.New, ReplaceAll: true}, nil
	case "multi-edit":
		var m MultiEdit
		for _, b := range c.Blocks {
			m.Edits = append(m.Edits, Replace{Old: b.Old, New: b.New})
		}
		return m, nil
	case "gemini-smart":
		b := c.Blocks[0]
		return SmartEdit{Old: b.Old, New: b.New, AllowMultiple: c.All}, nil
	}
	return nil, fmt.Errorf("unknown kind %q", c.Kind)
}

// payload writes the blocks as a SEARCH/REPLACE payload with the kind's markers.
func (c exCase) payload() string {
	start, sep, end := "------- SEARCH\n", "=======\n", "+++++++ REPLACE\n"
	if strings.HasPrefix(c.Kind, "aider") {
		start, end = "<<<<<<< SEARCH\n", ">>>>>>> REPLACE\n"
	}
	var b strings.Builder
	for _, bl := range c.Blocks {
		b.WriteString(start)
		if bl.Hint > 0 {
			fmt.Fprintf(&b, ":start_line:%d\n", bl.Hint)
		}
		b.WriteString(srSection(bl.Old))
		b.WriteString(sep)
		b.WriteString(srSection(bl.New))
		b.WriteString(end)
	}
	return b.String()
}

// srSection is text as SEARCH or REPLACE lines: each ends in "\n".
func srSection(s string) string {
	if s != "" && !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return s
}

// payloadSafe reports whether the blocks' lines can be carried by a
// SEARCH/REPLACE payload as they are: no line is a marker (or Roo's
// hints), none holds a "\r", and the texts are valid UTF-8.
func (c exCase) payloadSafe() bool {
	for _, b := range c.Blocks {
		for _, s := range []string{b.Old, b.New} {
			if !utf8.ValidString(s) || strings.ContainsAny(s, "\r\x00") {
				return false
			}
			for _, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
				if srPending(l+"x") || srDashes(l) {
					return false
				}
				if name, _, _ := srLineHint(l); name != "" {
					return false
				}
				if ok, _ := srStart(l); ok || srSeparator(l, true) || srEnd(l) || l != "" && srPending(l) {
					return false
				}
			}
		}
	}
	return true
}

// shrink returns a smaller case for which fails still holds, trying one
// simplification at a time until none does.
func shrink(c exCase, fails func(exCase) bool) exCase {
	for changed := true; changed; {
		changed = false
		for _, s := range simpler(c) {
			if fails(s) {
				c, changed = s, true
				break
			}
		}
	}
	return c
}

// simpler lists the cases one step simpler than c.
func simpler(c exCase) []exCase {
	var out []exCase
	with := func(f func(*exCase)) {
		d := c
		d.Blocks = append([]exBlock(nil), c.Blocks...)
		f(&d)
		out = append(out, d)
	}
	if strings.HasPrefix(c.File, "\uFEFF") {
		with(func(d *exCase) { d.File = strings.TrimPrefix(d.File, "\uFEFF") })
	}
	if strings.Contains(c.File, "\r\n") {
		with(func(d *exCase) { d.File = strings.ReplaceAll(d.File, "\r\n", "\n") })
	}
	for k := range c.Blocks {
		if len(c.Blocks) > 1 {
			with(func(d *exCase) { d.Blocks = append(d.Blocks[:k], d.Blocks[k+1:]...) })
		}
	}
	for _, p := range dropPieces(c.File) {
		with(func(d *exCase) { d.File = p })
	}
	for k, b := range c.Blocks {
		for _, p := range dropPieces(b.Old) {
			with(func(d *exCase) { d.Blocks[k].Old = p })
		}
		for _, p := range dropPieces(b.New) {
			with(func(d *exCase) { d.Blocks[k].New = p })
		}
	}
	return out
}

// dropPieces returns s without one of its lines, then without one of its
// runes, shortest changes last.
func dropPieces(s string) []string {
	var out []string
	ls := strings.SplitAfter(s, "\n")
	if len(ls) > 1 {
		for i := range ls {
			if ls[i] != "" {
				out = append(out, strings.Join(append(append([]string(nil), ls[:i]...), ls[i+1:]...), ""))
			}
		}
	}
	for i, r := range s {
		out = append(out, s[:i]+s[i+utf8.RuneLen(r):])
	}
	return out
}

// exCorpusDir holds every case that ever failed.
const exCorpusDir = "testdata/exactness"

// loadCorpus reads the kept cases of the files matching glob.
func loadCorpus(t *testing.T, glob string) []exCase {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(exCorpusDir, glob))
	if err != nil {
		t.Fatal(err)
	}
	var out []exCase
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var cs []exCase
		if err := json.Unmarshal(b, &cs); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for i := range cs {
			if cs[i].Name == "" {
				cs[i].Name = fmt.Sprintf("%s#%d", filepath.Base(f), i+1)
			}
		}
		out = append(out, cs...)
	}
	return out
}

// saveFailure appends c to testdata/exactness/file when -exactness.save is
// set, and returns the case as JSON for the failure message.
func saveFailure(t *testing.T, file string, c exCase) string {
	t.Helper()
	js, _ := json.Marshal(c)
	if !*exSave {
		return string(js)
	}
	path := filepath.Join(exCorpusDir, file)
	var cs []exCase
	if b, err := os.ReadFile(path); err == nil {
		if err := json.Unmarshal(b, &cs); err != nil {
			t.Fatal(err)
		}
	}
	cs = append(cs, c)
	out, _ := json.MarshalIndent(cs, "", "\t")
	if err := os.MkdirAll(exCorpusDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(out, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	return string(js)
}
