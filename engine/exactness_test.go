package engine

import (
	"errors"
	"strings"
	"testing"
)

// Issue 23: an exact label must mean the upstream tool's bytes. These are
// the minimal cases that were written wrong and labelled exact.

// aiderSR builds an aider-style payload (<<<<<<< markers) from
// search/replace pairs.
func aiderSR(pairs ...string) string {
	var b strings.Builder
	for i := 0; i+1 < len(pairs); i += 2 {
		b.WriteString("<<<<<<< SEARCH\n")
		b.WriteString(pairs[i])
		b.WriteString("=======\n")
		b.WriteString(pairs[i+1])
		b.WriteString(">>>>>>> REPLACE\n")
	}
	return b.String()
}

func TestSearchStartingWithABlankLine(t *testing.T) {
	tests := []struct {
		name, file, diff, want string
		strategy               Strategy
	}{
		// The SEARCH's blank first line matched the newline ending
		// "    return 1"; the REPLACE's blank first line gives it back:
		// Cline's bytes, exact.
		{"cline, both start blank", "def one():\n    return 1\ndef two():\n    return 2\n",
			sr("\ndef two():\n", "\ndef three():\n"), "def one():\n    return 1\ndef three():\n    return 2\n", StrategyExact},
		{"aider markers, both start blank", "def one():\n    return 1\ndef two():\n    return 2\n",
			aiderSR("\ndef two():\n", "\ndef three():\n"), "def one():\n    return 1\ndef three():\n    return 2\n", StrategyExact},
		// A spurious blank line in SEARCH only: Cline's bytes would join
		// "a" and "b"; the lines after the blank line are replaced, as
		// aider drops such a line, and the match is not exact.
		{"spurious blank line in SEARCH", "a\nb\nc\n", aiderSR("\nb\nc\n", "b\nC\n"), "a\nb\nC\n", StrategySkippedBlank},
		{"spurious blank line, no final newline", "a\nb", aiderSR("\nb\n", "B\n"), "a\nB", StrategySkippedBlank},
		{"spurious blank line at the top of the file", "b\nc\n", aiderSR("\nb\nc\n", "B\nc\n"), "B\nc\n", StrategySkippedBlank},
		// A real blank line matches as a whole line.
		{"real blank line", "a\n\nb\n", sr("\nb\n", "\nB\n"), "a\n\nB\n", StrategyExact},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Apply(tt.file, SearchReplace{Text: tt.diff})
			if err != nil {
				t.Fatal(err)
			}
			if res.Content != tt.want {
				t.Errorf("content %q, want %q", res.Content, tt.want)
			}
			if len(res.Matches) != 1 || res.Matches[0].Strategy != tt.strategy {
				t.Fatalf("matches %+v, want one %s", res.Matches, tt.strategy)
			}
			if m := res.Matches[0]; m.Loose() != (tt.strategy != StrategyExact) {
				t.Errorf("loose %v for %s", m.Loose(), m.Strategy)
			}
		})
	}
}

// A SEARCH without the line's indentation is found inside the line. Where
// the result differs from replacing that text byte for byte (Cline), the
// match is leading-whitespace, not exact.
func TestMidLineMatchExactOnlyWhenByteForByte(t *testing.T) {
	tests := []struct {
		name, file, diff, want string
		strategy               Strategy
	}{
		{"one line", "f {\n\treturn a\n}\n", sr("return a\n", "return b\n"), "f {\n\treturn b\n}\n", StrategyExact},
		{"re-indented lines", "f {\n\treturn a\n}\n", sr("return a\n", "x()\nreturn b\n"), "f {\n\tx()\n\treturn b\n}\n", StrategyLeadingWhitespace},
		{"delete the line", "f {\n\treturn a\n}\n", sr("return a\n", ""), "f {\n}\n", StrategyLeadingWhitespace},
		{"text before the match kept", "x = 1; y = 2\nz\n", sr("y = 2\n", "y = 3\n"), "x = 1; y = 3\nz\n", StrategyExact},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Apply(tt.file, SearchReplace{Text: tt.diff})
			if err != nil {
				t.Fatal(err)
			}
			if res.Content != tt.want {
				t.Errorf("content %q, want %q", res.Content, tt.want)
			}
			if len(res.Matches) != 1 || res.Matches[0].Strategy != tt.strategy {
				t.Fatalf("matches %+v, want one %s", res.Matches, tt.strategy)
			}
		})
	}
}

// aider applies each block to the text the blocks before it made. A block
// that is not in the file as it was, but is in that text, applies there,
// and its match says so (After, Loose).
func TestSearchReplaceBlocksInSequence(t *testing.T) {
	file := "a\nb\nc\nd\n"
	diff := aiderSR("b\n", "B\nB2\n", "B2\nc\n", "C\n", "d\n", "D\n")
	res, err := Apply(file, SearchReplace{Text: diff})
	if err != nil {
		t.Fatal(err)
	}
	if want := "a\nB\nC\nD\n"; res.Content != want {
		t.Errorf("content %q, want %q", res.Content, want)
	}
	if len(res.Matches) != 3 {
		t.Fatalf("matches %+v", res.Matches)
	}
	m1, m2 := res.Matches[0], res.Matches[1]
	if m1.Loose() || m1.After != 0 || m1.StartLine != 2 || m1.EndLine != 2 {
		t.Errorf("block 1: %+v, want exact at line 2", m1)
	}
	// Block 2 replaced a line block 1 inserted and original line 3.
	if !m2.Loose() || m2.After != 1 || m2.Block != 2 || m2.StartLine != 3 || m2.EndLine != 3 {
		t.Errorf("block 2: %+v, want a loose match after block 1 at original line 3", m2)
	}
	if how := m2.How(); !strings.Contains(how, "block 1") || !strings.Contains(how, "in sequence") {
		t.Errorf("block 2 says %q; want it to name block 1 and the order", how)
	}
	if m2.Searched != "B2\nc\n" || m2.Found != "B2\nc\n" {
		t.Errorf("block 2 searched %q found %q", m2.Searched, m2.Found)
	}

	// Streamed, the same: no error while it streams, the same result.
	s, err := NewStream(file, FormatSearchReplace)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(diff); i += 7 {
		if _, err := s.Feed(diff[i:min(i+7, len(diff))]); err != nil {
			t.Fatalf("Feed at %d: %v", i, err)
		}
	}
	got, err := s.Close()
	if err != nil || got.Content != res.Content {
		t.Errorf("stream: %q, %v; want %q", got.Content, err, res.Content)
	}
}

// A block that matches neither the file nor the text the blocks before it
// made is the error, named as the block that does not match.
func TestSearchReplaceBlocksInSequenceLaterFailure(t *testing.T) {
	_, err := Apply("a\nb\nc\n", SearchReplace{Text: aiderSR("b\n", "B\n", "B\nc\n", "C\n", "zzz\n", "Z\n")})
	var me *MatchError
	if !errors.As(err, &me) || me.Block != 3 || me.Kind != FailNoMatch || len(me.Applied) != 2 {
		t.Fatalf("err %v (%+v); want block 3 not found, blocks 1 and 2 applied", err, me)
	}
	if me.Applied[1].After != 1 {
		t.Errorf("applied %+v; block 2 applied after block 1", me.Applied)
	}
}

// aider and Roo match whole lines: in their markers, text found inside a
// line is Cline's bytes but not exact.
func TestAngleMarkersMidLineNotExact(t *testing.T) {
	tests := []struct {
		file, diff, want string
		strategy         Strategy
	}{
		{"x = 1; y = 2\nz\n", aiderSR("y = 2\n", "y = 3\n"), "x = 1; y = 3\nz\n", StrategyPartialLine},
		{"f {\n\treturn a\n}\n", aiderSR("return a\n", "return b\n"), "f {\n\treturn b\n}\n", StrategyLeadingWhitespace},
		{"x = 1; y = 2\nz\n", sr("y = 2\n", "y = 3\n"), "x = 1; y = 3\nz\n", StrategyExact},
	}
	for _, tt := range tests {
		res, err := Apply(tt.file, SearchReplace{Text: tt.diff})
		if err != nil || res.Content != tt.want || len(res.Matches) != 1 || res.Matches[0].Strategy != tt.strategy {
			t.Errorf("Apply(%q, %q) = %q %+v, %v; want %q by %s", tt.file, tt.diff, res.Content, res.Matches, err, tt.want, tt.strategy)
		}
	}
}
