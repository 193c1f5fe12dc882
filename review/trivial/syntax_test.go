package trivial

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/diffdesk/diffdesk/engine"
)

// TestScanAgreesWithTheRuneByRuneScan: scan, building signatures only for
// the lines asked for and skipping the others fast, gives each line asked
// for the signature the plain rune-by-rune scan gives it, in every
// language of the table, over texts mixing every delimiter, escapes,
// non-ASCII text and line endings. It fails if skipping a line loses track
// of a comment or string that spans it.
func TestScanAgreesWithTheRuneByRuneScan(t *testing.T) {
	pieces := []string{
		"x", " ", "\t", "\u00a0", "é", "日本", "\\", "\\\\", "//", "/*", "*/", "#", "$#", "--", "--[[", "]]",
		"{-", "-}", ";", "<!--", "-->", `"`, `'`, "`", `"""`, `'''`, "\r\n", "\n", "\n", "a b", "=", "\\/\\/",
	}
	syntaxes := map[*syntax]string{}
	for ext, s := range syntaxByExt {
		syntaxes[s] = ext
	}
	for _, s := range syntaxByName {
		syntaxes[s] = "name"
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for s, name := range syntaxes {
		for range 300 {
			var b strings.Builder
			for range rng.IntN(60) {
				b.WriteString(pieces[rng.IntN(len(pieces))])
			}
			lines := engine.SplitLines(b.String())
			want := make([]bool, len(lines))
			for i := range want {
				want[i] = rng.IntN(3) == 0
			}
			ref, got := s.refScan(lines), s.scan(lines, want)
			all := s.scan(lines, nil)
			for i := range lines {
				if all.code[i] != ref.code[i] || all.all[i] != ref.all[i] {
					t.Fatalf("%s: line %d of %q: scan of every line %q / %q; want %q / %q", name, i, lines, all.code[i], all.all[i], ref.code[i], ref.all[i])
				}
				if want[i] && (got.codes(i, i+1)[0] != ref.code[i] || got.alls(i, i+1)[0] != ref.all[i]) {
					t.Fatalf("%s: line %d of %q, others skipped: %q / %q; want %q / %q", name, i, lines, got.codes(i, i+1)[0], got.alls(i, i+1)[0], ref.code[i], ref.all[i])
				}
			}
		}
	}
}

// refScan is scan as it was before it learnt to skip the lines no hunk
// changes: every line's signature, built rune by rune. scan must agree.
func (s *syntax) refScan(lines []string) lineSigs {
	out := lineSigs{code: make([]string, len(lines)), all: make([]string, len(lines))}
	state := inCode
	var blockEnd string
	var q quote
	var code, all strings.Builder
	for i, l := range lines {
		code.Reset()
		all.Reset()
		body := strings.TrimRight(l, "\r\n")
		if state == inLine {
			state = inCode
		}
		if state == inString && !q.multiline {
			state = inCode
		}
		for j := 0; j < len(body); {
			rest := body[j:]
			r, size := utf8.DecodeRuneInString(rest)
			switch state {
			case inCode:
				if unicode.IsSpace(r) {
					code.WriteByte(sigSpace)
					all.WriteByte(sigSpace)
					j += size
					continue
				}
				if end, n := s.blockAt(rest); n > 0 {
					state, blockEnd = inBlock, end
					all.WriteString(rest[:n])
					j += n
					continue
				}
				if n := s.lineAt(body, j); n > 0 {
					state = inLine
					all.WriteString(rest[:n])
					j += n
					continue
				}
				if qq, ok := s.quoteAt(rest); ok {
					state, q = inString, qq
					code.WriteString(qq.open)
					all.WriteString(qq.open)
					j += len(qq.open)
					continue
				}
				code.WriteString(rest[:size])
				all.WriteString(rest[:size])
				j += size
			case inLine:
				if !unicode.IsSpace(r) {
					all.WriteString(rest[:size])
				}
				j += size
			case inBlock:
				if strings.HasPrefix(rest, blockEnd) {
					all.WriteString(blockEnd)
					state = inCode
					j += len(blockEnd)
					continue
				}
				if !unicode.IsSpace(r) {
					all.WriteString(rest[:size])
				}
				j += size
			case inString:
				if !q.raw && r == '\\' && j+1 < len(body) {
					_, n := utf8.DecodeRuneInString(body[j+1:])
					code.WriteString(body[j : j+1+n])
					all.WriteString(body[j : j+1+n])
					j += 1 + n
					continue
				}
				if strings.HasPrefix(rest, q.close) {
					code.WriteString(q.close)
					all.WriteString(q.close)
					state = inCode
					j += len(q.close)
					continue
				}
				c := rest[:size]
				if unicode.IsSpace(r) {
					c = string(sigStrSpace) + c // the exact whitespace, marked as a string's
				}
				code.WriteString(c)
				all.WriteString(c)
				j += size
			}
		}
		if state == inString && q.multiline && len(body) < len(l) {
			code.WriteString(string(sigStrSpace) + "\n") // the line break is the string's
			all.WriteString(string(sigStrSpace) + "\n")
		}
		out.code[i], out.all[i] = code.String(), all.String()
	}
	return out
}
