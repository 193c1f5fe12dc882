package engine

import (
	"fmt"
	"strings"
	"testing"
)

// The upstream contracts the generated cases are checked against, where no
// upstream code runs here (Cline's SEARCH/REPLACE left its releases in June
// 2026; aider is Python; Claude Code ships a binary). Each is the tool's
// documented behaviour, restated:
//
//   - Cline (replace_in_file): a SEARCH text, each line ending in "\n",
//     found in the file is replaced by the REPLACE text byte for byte;
//     blocks in order, each after the previous one's match.
//   - aider (do_replace): each block applies to the result of the blocks
//     before it; the first run of whole lines equal to SEARCH's is replaced
//     by REPLACE's lines; a blank first SEARCH line is dropped when the
//     SEARCH is not found with it.
//   - Claude Code's Edit: an old_string that occurs once is replaced there,
//     byte for byte; several occurrences without replace_all are an error,
//     with it every one is replaced; none is an error. MultiEdit applies
//     each edit to the result of the ones before, all or none.
//
// A case the contract has an answer for must get it when the engine labels
// every match exact; where the engine gives another answer its match must
// be Loose (and is then shown and told), and only with the strategies the
// divergences in doc.go name.

// contract checks the engine's result for c. It returns "" when the result
// keeps the contract (or the contract has no answer for c) and a
// description of the disagreement otherwise.
func (c exCase) contract(got exResult) string {
	doc, err := Decode(c.File)
	if err != nil || len(c.Blocks) == 0 {
		return ""
	}
	for _, b := range c.Blocks {
		if checkText("edit", b.Old) != nil || checkText("edit", b.New) != nil {
			return ""
		}
	}
	// An edit's line breaks are line breaks, written in the file's ending
	// (every format reads "\r\n" and "\r" in an edit as "\n").
	c.Blocks = append([]exBlock(nil), c.Blocks...)
	for i, b := range c.Blocks {
		c.Blocks[i] = exBlock{Old: toLF(b.Old), New: toLF(b.New)}
	}
	var want string
	var ok bool
	var allowed []Strategy // loose strategies the engine may answer with instead
	switch c.Kind {
	case "cline", "aider", "cline-seq", "aider-seq":
		if !c.payloadSafe() {
			return ""
		}
		want, ok, allowed = c.srContract(doc.Text)
		if !ok && c.partialLine(doc.Text) && got.err == nil {
			for _, m := range got.res.Matches {
				if !m.Loose() {
					return fmt.Sprintf("block %d: aider matches whole lines, and this SEARCH starts inside a line: not exact (%s)", m.Block, m.How())
				}
			}
		}
	case "edit":
		// Occurrences are counted as Claude Code counts them (split: not
		// overlapping).
		b := c.Blocks[0]
		n := 0
		if b.Old != "" {
			n = strings.Count(doc.Text, b.Old)
		}
		if b.Old == "" && doc.Text == "" && b.New != "" {
			// Claude Code creates with an empty old_string where the file
			// holds nothing (its check: content.trim() === ""; the engine
			// takes only an empty file, refusing whitespace: engine/doc.go).
			want, ok = b.New, true
			break
		}
		if b.Old == b.New || b.Old == "" || n == 0 || n > 1 && !c.All {
			if got.err == nil {
				return fmt.Sprintf("Edit must fail (old_string found %d times, replace_all %v, old == new %v), got %q", n, c.All, b.Old == b.New, got.res.Content)
			}
			return ""
		}
		want, ok = strings.ReplaceAll(doc.Text, b.Old, b.New), true
	case "multi-edit":
		cur := doc.Text
		for _, b := range c.Blocks {
			if b.Old == b.New || b.Old == "" || strings.Count(cur, b.Old) != 1 {
				return ""
			}
			cur = strings.Replace(cur, b.Old, b.New, 1)
		}
		want, ok = cur, true
	default:
		return ""
	}
	if !ok {
		return ""
	}
	if got.err != nil {
		return fmt.Sprintf("the contract's answer is %q, the engine failed: %v", want, got.err)
	}
	gotDoc, err := Decode(got.res.Content)
	if err != nil {
		return fmt.Sprintf("result does not decode: %v", err)
	}
	if p := keptForm(c.File, doc, got.res.Content, gotDoc); p != "" {
		return p
	}
	if gotDoc.Text == want {
		return ""
	}
	exact := true
	for _, m := range got.res.Matches {
		if !m.Loose() {
			continue
		}
		exact = false
		if !strategyIn(m.Strategy, allowed) && m.After == 0 && !strings.HasSuffix(c.Kind, "-seq") {
			return fmt.Sprintf("block %d: %s where the contract's answer is unique; allowed: %v (content %q, want %q)", m.Block, m.How(), allowed, gotDoc.Text, want)
		}
	}
	if exact {
		return fmt.Sprintf("labelled exact, but content %q, the contract's answer %q", gotDoc.Text, want)
	}
	return ""
}

// srContract is the Cline or aider answer for a SEARCH/REPLACE case on the
// decoded text t; ok is false when the contract has no single answer (a
// SEARCH not found once, or found only at the end of a file without a final
// newline, where Cline finds nothing). allowed are the loose strategies the
// engine may use instead (doc.go's divergences).
func (c exCase) srContract(t string) (want string, ok bool, allowed []Strategy) {
	seq := strings.HasSuffix(c.Kind, "-seq")
	aider := strings.HasPrefix(c.Kind, "aider")
	cur := t
	if t != "" && !strings.HasSuffix(t, "\n") {
		// A SEARCH may end at the end of a file without a final newline;
		// Cline has no answer there, but it counts as a place.
		cur += "\n"
	}
	type edit struct{ at, n int }
	var edits []edit
	var repls []string
	for _, b := range c.Blocks {
		s, r := srSection(b.Old), srSection(b.New)
		if s == "" || countOverlapping(cur, s) != 1 {
			return "", false, nil
		}
		at := strings.Index(cur, s)
		if at+len(s) == len(cur) && cur != t && !seq {
			return "", false, nil // the place is the end of a file without a final newline
		}
		blankLead := s[0] == '\n' && at > 0 && cur[at-1] != '\n'
		lineStart := at == 0 || cur[at-1] == '\n'
		switch {
		case blankLead && r != "" && r[0] == '\n':
			// Cline's bytes keep the line before; aider would add a blank line.
		case blankLead:
			// Cline would join the line before with REPLACE's first line;
			// aider drops the spurious blank line.
			if aider && strings.Count(s, "\n") > 2 {
				at, s = at+1, s[1:]
				allowed = append(allowed, StrategySkippedBlank)
			} else {
				return "", false, nil
			}
		case !lineStart && (aider || strings.TrimSpace(cur[strings.LastIndexByte(cur[:at], '\n')+1:at]) == ""):
			// aider matches whole lines only; a whitespace lead re-indents.
			return "", false, nil
		}
		if seq {
			cur = cur[:at] + r + cur[at+len(s):]
			continue
		}
		edits = append(edits, edit{at, len(s)})
		repls = append(repls, r)
	}
	if seq {
		if cur != t && strings.HasSuffix(cur, "\n") && !strings.HasSuffix(t, "\n") {
			return "", false, nil // the virtual final newline survived: no Cline answer
		}
		return cur, true, allowed
	}
	var b strings.Builder
	prev := 0
	for i, e := range edits {
		if e.at < prev {
			return "", false, nil // out of order or overlapping: drawn that way, no single answer
		}
		b.WriteString(t[prev:e.at])
		b.WriteString(repls[i])
		prev = e.at + e.n
	}
	b.WriteString(t[prev:])
	return b.String(), true, allowed
}

// partialLine reports whether c is an aider case whose single block's
// SEARCH is found once in t, starting inside a line (not at the newline
// ending it).
func (c exCase) partialLine(t string) bool {
	if c.Kind != "aider" || len(c.Blocks) != 1 {
		return false
	}
	s := srSection(c.Blocks[0].Old)
	if s == "" || countOverlapping(t, s) != 1 {
		return false
	}
	at := strings.Index(t, s)
	return at > 0 && t[at-1] != '\n' && s[0] != '\n'
}

// keptForm checks that the result kept the file's BOM and, for a file with
// one line ending throughout, that ending.
func keptForm(orig string, doc Doc, out string, outDoc Doc) string {
	if outDoc.BOM != doc.BOM {
		return fmt.Sprintf("BOM %v became %v", doc.BOM, outDoc.BOM)
	}
	crlf := strings.Count(orig, "\r\n")
	switch {
	case crlf > 0 && crlf == strings.Count(orig, "\n") && strings.Count(out, "\r\n") != strings.Count(out, "\n"):
		return fmt.Sprintf("a CRLF file got LF lines: %q", out)
	case !strings.Contains(orig, "\r") && strings.Contains(orig, "\n") && strings.Contains(out, "\r"):
		return fmt.Sprintf("an LF file got CR: %q", out)
	}
	return ""
}

func strategyIn(s Strategy, list []Strategy) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// countOverlapping counts the places sub occurs in s, overlapping ones too.
func countOverlapping(s, sub string) int {
	if sub == "" {
		return 0
	}
	n := 0
	for i := 0; ; {
		j := strings.Index(s[i:], sub)
		if j < 0 {
			return n
		}
		n++
		i += j + 1
	}
}

// exCheck runs c and checks it against its contract, and a SEARCH/REPLACE
// case streamed in chunks against the same case applied whole.
func exCheck(c exCase) string {
	got := c.run()
	if p := c.contract(got); p != "" {
		return p
	}
	return c.streamed(got)
}

// streamed checks that the payload streamed in chunks of 1 and 7 bytes
// closes to what Apply gave (got).
func (c exCase) streamed(got exResult) string {
	if !strings.HasPrefix(c.Kind, "cline") && !strings.HasPrefix(c.Kind, "aider") || len(c.Blocks) == 0 {
		return ""
	}
	payload := c.payload()
	for _, n := range []int{1, 7} {
		s, err := NewStream(c.File, FormatSearchReplace)
		if err != nil {
			return ""
		}
		for i := 0; i < len(payload); i += n {
			s.Feed(payload[i:min(i+n, len(payload))])
		}
		res, err := s.Close()
		if (err == nil) != (got.err == nil) || res.Content != got.res.Content || len(res.Matches) != len(got.res.Matches) {
			return fmt.Sprintf("streamed in %d-byte chunks: %q, %v; applied whole: %q, %v", n, res.Content, err, got.res.Content, got.err)
		}
		for i, m := range res.Matches {
			if m != got.res.Matches[i] {
				return fmt.Sprintf("streamed in %d-byte chunks, block %d: %+v; applied whole: %+v", n, m.Block, m, got.res.Matches[i])
			}
		}
	}
	return ""
}

// TestExactnessGenerated runs -exactness.cases generated cases of each kind
// (seeded: the same cases every run) against the contracts; a failure is
// shrunk and printed as a case for testdata/exactness.
func TestExactnessGenerated(t *testing.T) {
	n := *exCases
	if testing.Short() {
		n /= 10
	}
	for _, kind := range exKinds {
		t.Run(kind, func(t *testing.T) {
			failures := 0
			for i := 0; i < n && failures < 3; i++ {
				seed := *exSeed + uint64(i)
				c := genCase(kind, seed)
				if p := exCheck(c); p != "" {
					failures++
					small := shrink(c, func(d exCase) bool { return exCheck(d) != "" })
					t.Errorf("seed %d: %s\nminimal case (%s): %s", seed, p, exCheck(small), saveFailure(t, "contract.json", small))
				}
			}
		})
	}
}

// TestExactnessCorpus runs every case kept in testdata/exactness against
// its contract and, for oracle cases, the upstream answer recorded with it.
func TestExactnessCorpus(t *testing.T) {
	cases := loadCorpus(t, "*.json")
	if len(cases) == 0 {
		t.Fatal("no cases in testdata/exactness")
	}
	for _, c := range cases {
		if p := exCheck(c); p != "" {
			t.Errorf("%s: %s", c.Name, p)
		}
		if c.Upstream != nil {
			if p := c.oracleCheck(*c.Upstream); p != "" {
				t.Errorf("%s: against the recorded upstream answer: %s", c.Name, p)
			}
		}
	}
}

// FuzzExactness checks the contracts on any file and text: kind picks the
// format, old and new are the block's texts.
func FuzzExactness(f *testing.F) {
	f.Add(uint8(0), "def one():\n    return 1\ndef two():\n    return 2\n", "\ndef two():\n", "\ndef three():\n")
	f.Add(uint8(1), "a\nb\nc\n", "\nb\nc\n", "b\nC\n")
	f.Add(uint8(4), "a\r\nb\r\n", "b", "c")
	f.Add(uint8(1), "\uFEFFf {\n\treturn a\n}", "return a\n", "")
	for _, c := range exKinds {
		for i := uint64(0); i < 3; i++ {
			g := genCase(c, i)
			if len(g.Blocks) > 0 {
				f.Add(uint8(kindIndex(c)), g.File, g.Blocks[0].Old, g.Blocks[0].New)
			}
		}
	}
	f.Fuzz(func(t *testing.T, kind uint8, file, old, new string) {
		c := exCase{Kind: exKinds[int(kind)%len(exKinds)], File: file, Blocks: []exBlock{{Old: old, New: new}}}
		if p := exCheck(c); p != "" {
			t.Errorf("%s\ncase: %s", p, saveFailure(t, "fuzz.json", shrink(c, func(d exCase) bool { return exCheck(d) != "" })))
		}
	})
}

func kindIndex(kind string) int {
	for i, k := range exKinds {
		if k == kind {
			return i
		}
	}
	return 0
}

// oracleCheck compares the engine with an upstream answer; it is defined in
// oracle_gemini_test.go for the oracle kinds and is "" for the others.
