package engine

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// locations returns ms with only where each block matched: Block, Strategy
// and the lines; tests of one format's placement compare these, and
// TestMatchDisclosure the rest.
func locations(ms []Match) []Match {
	out := make([]Match, len(ms))
	for i, m := range ms {
		out[i] = Match{Block: m.Block, Strategy: m.Strategy, StartLine: m.StartLine, EndLine: m.EndLine}
	}
	return out
}

// TestMatchDisclosure: every format reports, for a match that is not
// exact, how it was reached (strategy, lines, similarity, how many places
// fit) and both texts, what the agent searched for and what the file held.
func TestMatchDisclosure(t *testing.T) {
	tests := []struct {
		name     string
		original string
		edit     Edit
		want     Match // Similarity compared to within 1e-9
	}{
		{"search-replace exact", "a\nb\nc\n", SearchReplace{Text: sr("b\n", "B\n")},
			Match{Block: 1, Strategy: StrategyExact, StartLine: 2, EndLine: 2, Similarity: 1, Candidates: 1}},
		{"search-replace line-trimmed", "f {\n\tx := 1\n\ty := 2\n}\n", SearchReplace{Text: sr("x := 1\ny := 2\n", "x := 3\n")},
			Match{Block: 1, Strategy: StrategyLineTrimmed, StartLine: 2, EndLine: 3, Similarity: 1, Candidates: 1,
				Searched: "x := 1\ny := 2\n", Found: "\tx := 1\n\ty := 2\n"}},
		{"search-replace normalized", "say(\u201chi\u201d,   x)\n", SearchReplace{Text: sr("say(\"hi\", x)\n", "say(\"bye\", x)\n")},
			Match{Block: 1, Strategy: StrategyNormalized, StartLine: 1, EndLine: 1, Similarity: 1, Candidates: 1,
				Searched: "say(\"hi\", x)\n", Found: "say(\u201chi\u201d,   x)\n"}},
		{"search-replace block-anchor", "func f() {\n\tconst results = g()\n\treturn results\n}\n",
			SearchReplace{Text: sr("func f() {\n\tconst result = g()\n\treturn results\n}\n", "func f() {}\n")},
			// lines 1, 3 and 4 are equal; line 2 shares 18 of 19 bytes.
			Match{Block: 1, Strategy: StrategyBlockAnchor, StartLine: 1, EndLine: 4, Similarity: (3 + 18.0/19) / 4, Candidates: 1,
				Searched: "func f() {\n\tconst result = g()\n\treturn results\n}\n", Found: "func f() {\n\tconst results = g()\n\treturn results\n}\n"}},
		{"edit", "a\nb\nc\n", Replace{Old: "b", New: "B"},
			Match{Block: 1, Strategy: StrategyExact, StartLine: 2, EndLine: 2, Similarity: 1, Candidates: 1}},
		{"multi-edit", "a\nb\nc\n", MultiEdit{Edits: []Replace{{Old: "a", New: "A"}}},
			Match{Block: 1, Strategy: StrategyExact, StartLine: 1, EndLine: 1, Similarity: 1, Candidates: 1}},
		{"write", "a\n", Write{Content: "b\n"},
			Match{Block: 1, Strategy: StrategyWholeFile, StartLine: 1, EndLine: 1, Similarity: 1, Candidates: 1}},
		{"smart-edit flexible-indent", "func f() {\n\tif x {\n\t\ty()\n\t}\n}\n", SmartEdit{Old: "if x {\n    y()\n}", New: "if x {\n}"},
			Match{Block: 1, Strategy: StrategyFlexibleIndent, StartLine: 2, EndLine: 4, Similarity: 1, Candidates: 1,
				Searched: "if x {\n    y()\n}", Found: "\tif x {\n\t\ty()\n\t}\n"}},
		{"smart-edit regex-tokens", "  call( a,b )\n  next()\n", SmartEdit{Old: "call(a, b)", New: "call(a, b, c)"},
			Match{Block: 1, Strategy: StrategyRegexTokens, StartLine: 1, EndLine: 1, Similarity: 1, Candidates: 1,
				Searched: "call(a, b)", Found: "  call( a,b )"}},
		{"smart-edit unescaped", "say(\"hi\")\nnext\n", SmartEdit{Old: `say(\"hi\")\nnext`, New: `say(\"bye\")\nnext`},
			Match{Block: 1, Strategy: StrategyUnescaped, StartLine: 1, EndLine: 2, Similarity: 1, Candidates: 1,
				Searched: `say(\"hi\")\nnext`, Found: "say(\"hi\")\nnext"}},
		{"smart-edit fuzzy", "function greet(name) {\n  return \"hi \" + name;\n}\n",
			SmartEdit{Old: "function greet(name) {\n  return \"hi\" + name;\n}", New: "function greet(name) {\n  return \"hello \" + name;\n}"},
			// one whitespace-only difference: 0.1 of an edit over 46 runes.
			Match{Block: 1, Strategy: StrategyFuzzy, StartLine: 1, EndLine: 3, Similarity: 1 - 0.1/46, Candidates: 1,
				Searched: "function greet(name) {\n  return \"hi\" + name;\n}", Found: "function greet(name) {\n  return \"hi \" + name;\n}\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Apply(tt.original, tt.edit)
			if err != nil || len(res.Matches) != 1 {
				t.Fatalf("Apply(%q, %+v) = %+v, %v; want one match", tt.original, tt.edit, res.Matches, err)
			}
			checkDisclosure(t, res.Matches[0], tt.want)
		})
	}
}

func checkDisclosure(t *testing.T, got, want Match) {
	t.Helper()
	if math.Abs(got.Similarity-want.Similarity) < 1e-9 {
		got.Similarity = want.Similarity
	}
	if got != want {
		t.Errorf("match = %+v\nwant    %+v", got, want)
	}
	if loose := want.Strategy != StrategyExact && want.Strategy != StrategyWholeFile || want.Candidates > 1 || want.Offset != 0; got.Loose() != loose {
		t.Errorf("%+v.Loose() = %v; want %v", got, got.Loose(), loose)
	}
}

func TestPatchMatchDisclosure(t *testing.T) {
	files := map[string]string{"a.txt": "1\n2\n3\n4\n5\n6\n7 \n8\n"}
	patch := "*** Begin Patch\n*** Update File: a.txt\n@@\n-7\n+seven\n*** End Patch"
	changes, err := ApplyPatch(patch, patchTreeReader(files))
	if err != nil || len(changes) != 1 || len(changes[0].Matches) != 1 {
		t.Fatalf("ApplyPatch(%q) = %+v, %v; want one change with one match", patch, changes, err)
	}
	checkDisclosure(t, changes[0].Matches[0], Match{Block: 1, Strategy: StrategyLineTrimmed, StartLine: 7, EndLine: 7, Similarity: 1, Candidates: 1,
		Searched: "7\n", Found: "7 \n"})
}

func TestAiderMatchDisclosure(t *testing.T) {
	tests := []struct {
		whole, part, replace string
		want                 Match
	}{
		{"f\n    if z:\n        y()\n", "if z:\n    y()\n", "if z:\n    w()\n",
			Match{Block: 1, Strategy: StrategyLeadingWhitespace, StartLine: 2, EndLine: 3, Similarity: 1, Candidates: 1,
				Searched: "if z:\n    y()\n", Found: "    if z:\n        y()\n"}},
		{"a\nb\nc\n", "a\n...\nc\n", "A\n...\nC\n",
			Match{Block: 1, Strategy: StrategyElision, StartLine: 1, EndLine: 3, Similarity: 1, Candidates: 1,
				Searched: "a\n...\nc\n", Found: "a\nb\nc\n"}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.want.Strategy), func(t *testing.T) {
			_, m, err := replaceMostSimilarChunk(tt.whole, tt.part, tt.replace)
			if err != nil {
				t.Fatalf("replaceMostSimilarChunk(%q, %q) error: %v", tt.whole, tt.part, err)
			}
			checkDisclosure(t, m, tt.want)
		})
	}
}

// TestRooLineNumbersDisclosed: a SEARCH that matched only once Roo's
// "N | " prefixes were removed is not the agent's exact text.
func TestRooLineNumbersDisclosed(t *testing.T) {
	res, err := Apply("a\nb\nc\n", SearchReplace{Text: sr("2 | b\n", "2 | B\n")})
	if err != nil || len(res.Matches) != 1 {
		t.Fatalf("Apply = %+v, %v; want one match", res, err)
	}
	if res.Content != "a\nB\nc\n" {
		t.Errorf("content = %q; want %q", res.Content, "a\nB\nc\n")
	}
	checkDisclosure(t, res.Matches[0], Match{Block: 1, Strategy: StrategyLineNumbers, StartLine: 2, EndLine: 2, Similarity: 1, Candidates: 1,
		Searched: "2 | b\n", Found: "b\n"})
}

// TestUnifiedOffsetDisclosed: a unified hunk found away from the line its
// header named is loose, and says how far it moved; one found where its
// header said is exact.
func TestUnifiedOffsetDisclosed(t *testing.T) {
	files := map[string]string{"a.txt": "0\n1\n2\n3\n4\n5\n6\n7\n8\n"}
	for _, tt := range []struct {
		header string
		offset int
	}{{"@@ -5,3 +5,3 @@", 0}, {"@@ -2,3 +2,3 @@", 3}, {"@@ -7,3 +7,3 @@", -2}} {
		patch := "--- a/a.txt\n+++ b/a.txt\n" + tt.header + "\n 4\n-5\n+five\n 6\n"
		changes, err := ApplyPatch(patch, patchTreeReader(files))
		if err != nil || len(changes) != 1 || len(changes[0].Matches) != 1 {
			t.Fatalf("ApplyPatch(%q) = %+v, %v; want one change with one match", patch, changes, err)
		}
		m := changes[0].Matches[0]
		if m.Offset != tt.offset || m.StartLine != 5 || m.Loose() != (tt.offset != 0) {
			t.Errorf("%s: match = %+v; want offset %d at line 5, loose %v", tt.header, m, tt.offset, tt.offset != 0)
		}
		if tt.offset == 3 && !strings.Contains(m.How(), "3 lines below where its hunk header put it") {
			t.Errorf("How() = %q; want the offset said", m.How())
		}
	}
}

func TestMatchHow(t *testing.T) {
	for _, tt := range []struct {
		m    Match
		want string
	}{
		{Match{Strategy: StrategyFuzzy, StartLine: 12, EndLine: 14, Similarity: 0.874, Candidates: 1}, "fuzzy (87% similar) at lines 12–14"},
		{Match{Strategy: StrategyFirstOfSeveral, StartLine: 3, EndLine: 3, Similarity: 1, Candidates: 3}, "first-of-several at line 3, the first of 3 places that fit"},
		{Match{Strategy: StrategyExact, StartLine: 4, EndLine: 3, Similarity: 1, Candidates: 1, Offset: -1}, "exact, inserted before line 4, 1 line above where its hunk header put it"},
	} {
		if got := tt.m.How(); got != tt.want {
			t.Errorf("%+v.How() = %q; want %q", tt.m, got, tt.want)
		}
	}
}
