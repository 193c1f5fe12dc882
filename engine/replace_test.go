package engine

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// matchErr returns err as a *MatchError or fails the test.
func matchErr(t *testing.T, err error) *MatchError {
	t.Helper()
	var me *MatchError
	if !errors.As(err, &me) {
		t.Fatalf("error %v (%T); want a *MatchError", err, err)
	}
	return me
}

func TestReplace(t *testing.T) {
	tests := []struct {
		name     string
		original string
		edit     Replace
		want     string
		matches  []Match
	}{
		{"single", "a\nold\nc\n", Replace{Old: "old", New: "new"}, "a\nnew\nc\n",
			[]Match{{Block: 1, Strategy: StrategyExact, StartLine: 2, EndLine: 2}}},
		{"multi-line", "a\nb\nc\nd\n", Replace{Old: "b\nc\n", New: "X\n"}, "a\nX\nd\n",
			[]Match{{Block: 1, Strategy: StrategyExact, StartLine: 2, EndLine: 3}}},
		{"replace all", "x1 x2\nx3\n", Replace{Old: "x", New: "y", ReplaceAll: true}, "y1 y2\ny3\n",
			[]Match{{Block: 1, Strategy: StrategyExact, StartLine: 1, EndLine: 1}, {Block: 1, Strategy: StrategyExact, StartLine: 1, EndLine: 1}, {Block: 1, Strategy: StrategyExact, StartLine: 2, EndLine: 2}}},
		{"expected replacements", "a a a", Replace{Old: "a", New: "b", ExpectedReplacements: 3}, "b b b",
			[]Match{{Block: 1, Strategy: StrategyExact, StartLine: 1, EndLine: 1}, {Block: 1, Strategy: StrategyExact, StartLine: 1, EndLine: 1}, {Block: 1, Strategy: StrategyExact, StartLine: 1, EndLine: 1}}},
		{"dollar signs are literal", "price: P", Replace{Old: "P", New: "$& $1 $$ $'"}, "price: $& $1 $$ $'",
			[]Match{{Block: 1, Strategy: StrategyExact, StartLine: 1, EndLine: 1}}},
		{"CRLF file keeps CRLF", "one\r\ntwo\r\n", Replace{Old: "one\ntwo", New: "1\n2\n3"}, "1\r\n2\r\n3\r\n",
			[]Match{{Block: 1, Strategy: StrategyExact, StartLine: 1, EndLine: 2}}},
		{"CRLF payload matches", "one\ntwo\n", Replace{Old: "one\r\ntwo", New: "x"}, "x\n",
			[]Match{{Block: 1, Strategy: StrategyExact, StartLine: 1, EndLine: 2}}},
		{"deletion", "a\nb\nc\n", Replace{Old: "b\n", New: ""}, "a\nc\n",
			[]Match{{Block: 1, Strategy: StrategyExact, StartLine: 2, EndLine: 2}}},
		{"empty old fills an empty file", "", Replace{Old: "", New: "hello\n"}, "hello\n",
			[]Match{{Block: 1, Strategy: StrategyWholeFile, StartLine: 1, EndLine: 0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkApply(t, tt.original, tt.edit, tt.want, tt.matches)
		})
	}
}

func TestReplaceErrors(t *testing.T) {
	file := "func a() {\n\treturn 1\n}\n\nfunc b() {\n\treturn 2\n}\n"
	tests := []struct {
		name     string
		original string
		edit     Replace
		kind     Failure
		check    func(t *testing.T, e *MatchError)
	}{
		{"identical", file, Replace{Old: "return 1", New: "return 1"}, FailNoChange, nil},
		{"create over existing", file, Replace{Old: "", New: "x"}, FailFileExists, nil},
		{"not found, closest shown", file, Replace{Old: "func b() {\n\treturn 3\n}", New: "x"}, FailNoMatch,
			func(t *testing.T, e *MatchError) {
				if len(e.Closest) == 0 || e.Closest[0].StartLine != 5 || e.Closest[0].EndLine != 7 {
					t.Fatalf("Closest = %+v; want lines 5-7 first", e.Closest)
				}
				if s := e.Closest[0].Similarity; s < 0.8 || s >= 1 {
					t.Errorf("Closest[0].Similarity = %v; want in [0.8, 1)", s)
				}
				if got := e.Closest[0].Lines; fmt.Sprint(got) != fmt.Sprint([]string{"func b() {", "\treturn 2", "}"}) {
					t.Errorf("Closest[0].Lines = %q", got)
				}
			}},
		{"count mismatch", file, Replace{Old: "\treturn", New: "\tyield"}, FailCount,
			func(t *testing.T, e *MatchError) {
				if e.Want != 1 || e.Found != 2 {
					t.Errorf("Want, Found = %d, %d; want 1, 2", e.Want, e.Found)
				}
				if len(e.Places) != 2 || e.Places[0].StartLine != 2 || e.Places[1].StartLine != 6 {
					t.Errorf("Places = %+v; want lines 2 and 6", e.Places)
				}
				if !strings.Contains(e.Hint, "replace_all") {
					t.Errorf("Hint = %q; want it to mention replace_all", e.Hint)
				}
			}},
		{"expected more", "a a", Replace{Old: "a", New: "b", ExpectedReplacements: 3}, FailCount,
			func(t *testing.T, e *MatchError) {
				if e.Want != 3 || e.Found != 2 {
					t.Errorf("Want, Found = %d, %d; want 3, 2", e.Want, e.Found)
				}
			}},
		{"cat -n prefixes", file, Replace{Old: "     5\tfunc b() {\n     6\t\treturn 2\n", New: "x"}, FailLineNumbers,
			func(t *testing.T, e *MatchError) {
				if !strings.Contains(e.Hint, "lines 5-6") {
					t.Errorf("Hint = %q; want it to say the stripped text matches lines 5-6", e.Hint)
				}
				if len(e.Closest) != 1 || e.Closest[0].Similarity != 1 {
					t.Errorf("Closest = %+v; want the one exact place", e.Closest)
				}
			}},
		{"arrow prefixes, stripped text not found", file, Replace{Old: "  1→func c() {\n  2→}", New: "x"}, FailLineNumbers,
			func(t *testing.T, e *MatchError) {
				if !strings.Contains(e.Hint, "remove the line-number prefixes") {
					t.Errorf("Hint = %q", e.Hint)
				}
			}},
		{"empty file", "", Replace{Old: "x", New: "y"}, FailNoMatch, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Apply(tt.original, tt.edit)
			e := matchErr(t, err)
			if e.Kind != tt.kind {
				t.Fatalf("Apply(%q, %+v) failed with %s (%v); want %s", tt.original, tt.edit, e.Kind, err, tt.kind)
			}
			if e.Block != 1 || e.Format != FormatEdit || e.Hint == "" {
				t.Errorf("error %+v; want block 1, format edit and a hint", e)
			}
			if tt.check != nil {
				tt.check(t, e)
			}
		})
	}
}

func TestReplaceNegativeExpected(t *testing.T) {
	_, err := Apply("a", Replace{Old: "a", New: "b", ExpectedReplacements: -1})
	var fe *FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("Apply with expected_replacements -1 = %v; want a *FormatError", err)
	}
}

// Divergence (gemini-literal-replace, applyReplacement on a null file with a
// non-empty old string): upstream's helper returns "", we refuse.
func TestReplaceCreateMissingFile(t *testing.T) {
	_, err := Create(Replace{Old: "old", New: "new"})
	if e := matchErr(t, err); e.Kind != FailFileMissing {
		t.Fatalf("Create(Replace{Old: %q}) failed with %s; want %s", "old", e.Kind, FailFileMissing)
	}
	res, err := Create(Replace{Old: "", New: "new\n"})
	if err != nil || res.Content != "new\n" {
		t.Fatalf("Create(Replace{New: %q}) = %q, %v; want %q", "new\n", res.Content, err, "new\n")
	}
}

func TestStripLineNumbers(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"     1\tpackage a\n     2\t\n     3\tfunc f() {}\n", "package a\n\nfunc f() {}\n", true},
		{"12→x := 1\n13→y := 2", "x := 1\ny := 2", true},
		{"    7\tonly line", "only line", true},
		{"1\ta\n3\tb", "", false}, // not consecutive
		{"1\ta\nb", "", false},    // second line has no prefix
		{"x := 1", "", false},
		{"10 apples", "", false}, // no tab or arrow after the number
	}
	for _, tt := range tests {
		got, ok := stripLineNumbers(tt.in)
		if ok != tt.ok || got != tt.want {
			t.Errorf("stripLineNumbers(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestIndexLong(t *testing.T) {
	needle := strings.Repeat("ab", 40) + "c"
	hay := strings.Repeat("ab", 100) + "c" + needle
	if got, want := indexLong(hay, needle), strings.Index(hay, needle); got != want {
		t.Errorf("indexLong = %d; want %d", got, want)
	}
	if got := indexLong(hay, needle+"zz"); got != -1 {
		t.Errorf("indexLong of a missing needle = %d; want -1", got)
	}
}

// FuzzStripLineNumbers checks that stripLineNumbers never panics and undoes
// cat -n numbering.
func FuzzStripLineNumbers(f *testing.F) {
	f.Add("package a\n\nfunc f() {}\n", 1)
	f.Add("x", 120)
	f.Add("     1\ta\n", 3)
	f.Fuzz(func(t *testing.T, text string, first int) {
		stripLineNumbers(text)
		if strings.ContainsAny(text, "\r") || first < 0 || first > 1e6 {
			return
		}
		lines := strings.Split(text, "\n")
		n := len(lines)
		if n > 1 && lines[n-1] == "" {
			n--
		}
		for i := range n {
			lines[i] = fmt.Sprintf("%6d\t%s", first+i, lines[i])
		}
		numbered := strings.Join(lines, "\n")
		if got, ok := stripLineNumbers(numbered); !ok || got != text {
			t.Fatalf("stripLineNumbers(%q) = %q, %v; want %q, true", numbered, got, ok, text)
		}
	})
}

// FuzzReplace checks that Apply of a Replace never panics and, with
// ReplaceAll on LF text, agrees with strings.ReplaceAll.
func FuzzReplace(f *testing.F) {
	f.Add("a\nb\nc\n", "b", "x\ny")
	f.Add("", "", "new")
	f.Add("aaa", "aa", "a")
	f.Fuzz(func(t *testing.T, original, old, new string) {
		res, err := Apply(original, Replace{Old: old, New: new, ReplaceAll: true})
		if err != nil || strings.ContainsRune(original+old+new, '\r') || old == "" {
			return
		}
		if want := strings.ReplaceAll(original, old, new); res.Content != want {
			t.Fatalf("Apply(%q, %q→%q) = %q; want %q", original, old, new, res.Content, want)
		}
		if len(res.Matches) != strings.Count(original, old) {
			t.Fatalf("Apply(%q, %q→%q) gave %d matches; want %d", original, old, new, len(res.Matches), strings.Count(original, old))
		}
	})
}

// checkApply applies edit to original and checks the content and matches.
func checkApply(t *testing.T, original string, edit Edit, want string, matches []Match) {
	t.Helper()
	res, err := Apply(original, edit)
	if err != nil {
		t.Fatalf("Apply(%q, %+v) failed: %v", original, edit, err)
	}
	if res.Content != want {
		t.Errorf("Apply(%q, %+v) = %q; want %q", original, edit, res.Content, want)
	}
	if fmt.Sprint(locations(res.Matches)) != fmt.Sprint(matches) {
		t.Errorf("Apply(%q, %+v) matches = %v; want %v", original, edit, res.Matches, matches)
	}
}
