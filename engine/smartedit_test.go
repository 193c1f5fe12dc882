package engine

import (
	"fmt"
	"strings"
	"testing"
)

func TestSmartEdit(t *testing.T) {
	tests := []struct {
		name     string
		original string
		edit     SmartEdit
		want     string
		matches  []Match
	}{
		{"exact", "a\nb\nc\n", SmartEdit{Old: "b", New: "B"}, "a\nB\nc\n",
			[]Match{{Block: 1, Strategy: StrategyExact, StartLine: 2, EndLine: 2}}},
		{"flexible re-indents", "func f() {\n\tif x {\n\t\ty()\n\t}\n}\n",
			SmartEdit{Old: "if x {\n    y()\n}", New: "if x {\n    y()\n    z()\n}"},
			"func f() {\n\tif x {\n\t    y()\n\t    z()\n\t}\n}\n",
			[]Match{{Block: 1, Strategy: StrategyFlexibleIndent, StartLine: 2, EndLine: 4}}},
		{"regex tokens", "  call( a,b )\n  next()\n", SmartEdit{Old: "call(a, b)", New: "call(a, b, c)"},
			"  call(a, b, c)\n  next()\n", []Match{{Block: 1, Strategy: StrategyRegexTokens, StartLine: 1, EndLine: 1}}},
		{"tokens across lines", "x := f(\n\ta,\n\tb)\n", SmartEdit{Old: "x := f(a, b)", New: "x := g(a, b)"},
			"x := g(a, b)\n", []Match{{Block: 1, Strategy: StrategyRegexTokens, StartLine: 1, EndLine: 3}}},
		{"fuzzy", "function greet(name) {\n  return \"hi \" + name;\n}\n",
			SmartEdit{Old: "function greet(name) {\n  return \"hi\" + name;\n}", New: "function greet(name) {\n  return \"hello \" + name;\n}"},
			"function greet(name) {\n  return \"hello \" + name;\n}\n", []Match{{Block: 1, Strategy: StrategyFuzzy, StartLine: 1, EndLine: 3}}},
		{"over-escaped strings", "say(\"hi\")\nnext\n", SmartEdit{Old: `say(\"hi\")\nnext`, New: `say(\"bye\")\nnext`},
			"say(\"bye\")\nnext\n", []Match{{Block: 1, Strategy: StrategyUnescaped, StartLine: 1, EndLine: 2}}},
		{"trailing newline follows the file", "x\ny", SmartEdit{Old: "y", New: "z\n"}, "x\nz",
			[]Match{{Block: 1, Strategy: StrategyExact, StartLine: 2, EndLine: 2}}},
		{"allow multiple", "a a\na", SmartEdit{Old: "a", New: "b", AllowMultiple: true}, "b b\nb",
			[]Match{{Block: 1, Strategy: StrategyExact, StartLine: 1, EndLine: 1}, {Block: 1, Strategy: StrategyExact, StartLine: 1, EndLine: 1}, {Block: 1, Strategy: StrategyExact, StartLine: 2, EndLine: 2}}},
		{"legacy expected replacements", "a a", SmartEdit{Old: "a", New: "b", ExpectedReplacements: 2}, "b b",
			[]Match{{Block: 1, Strategy: StrategyExact, StartLine: 1, EndLine: 1}, {Block: 1, Strategy: StrategyExact, StartLine: 1, EndLine: 1}}},
		{"legacy regex places", "f( 1 )\nf( 1 )\n", SmartEdit{Old: "f(1)", New: "g(1)", ExpectedReplacements: 2}, "g(1)\ng(1)\n",
			[]Match{{Block: 1, Strategy: StrategyRegexTokens, StartLine: 1, EndLine: 1}, {Block: 1, Strategy: StrategyRegexTokens, StartLine: 2, EndLine: 2}}},
		{"placeholder old already had", "a\n// rest of code ...\n", SmartEdit{Old: "a\n// rest of code ...", New: "b\n// rest of code ..."},
			"b\n// rest of code ...\n", []Match{{Block: 1, Strategy: StrategyExact, StartLine: 1, EndLine: 2}}},
		{"CRLF file", "a\r\nb\r\n", SmartEdit{Old: "  b", New: "c\nd"}, "a\r\nc\r\nd\r\n",
			[]Match{{Block: 1, Strategy: StrategyFlexibleIndent, StartLine: 2, EndLine: 2}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkApply(t, tt.original, tt.edit, tt.want, tt.matches)
		})
	}
}

func TestSmartEditErrors(t *testing.T) {
	twice := "\nfunction doIt() {\n  console.log(\"hello\");\n}\n\nfunction doIt() {\n  console.log(\"hello\");\n}\n"
	tests := []struct {
		name     string
		original string
		edit     SmartEdit
		kind     Failure
		check    func(t *testing.T, e *MatchError)
	}{
		{"create over existing", "x", SmartEdit{Old: "", New: "y"}, FailFileExists, nil},
		{"placeholder", "a\nb\n", SmartEdit{Old: "a\nb", New: "a\n// rest of code ...\n"}, FailPlaceholder,
			func(t *testing.T, e *MatchError) {
				if !strings.Contains(e.Hint, "rest of code ...") {
					t.Errorf("Hint = %q; want it to name the placeholder", e.Hint)
				}
			}},
		{"no match", "alpha\nbeta\n", SmartEdit{Old: "gamma delta epsilon", New: "x"}, FailNoMatch,
			func(t *testing.T, e *MatchError) {
				want := []Strategy{StrategyExact, StrategyFlexibleIndent, StrategyRegexTokens, StrategyFuzzy}
				if fmt.Sprint(e.Tried) != fmt.Sprint(want) {
					t.Errorf("Tried = %v; want %v", e.Tried, want)
				}
			}},
		{"no match after unescaping", "alpha\n", SmartEdit{Old: `gamma\n`, New: "x"}, FailNoMatch,
			func(t *testing.T, e *MatchError) {
				want := []Strategy{StrategyExact, StrategyFlexibleIndent, StrategyRegexTokens, StrategyUnescaped, StrategyFuzzy}
				if fmt.Sprint(e.Tried) != fmt.Sprint(want) {
					t.Errorf("Tried = %v; want %v", e.Tried, want)
				}
			}},
		{"two exact places", "one one two", SmartEdit{Old: "one", New: "1"}, FailCount,
			func(t *testing.T, e *MatchError) {
				if e.Want != 1 || e.Found != 2 || len(e.Places) != 2 || !strings.Contains(e.Hint, "allow_multiple") {
					t.Errorf("error %+v; want 1 expected, 2 found, 2 places, a hint naming allow_multiple", e)
				}
			}},
		{"legacy count", "a a a", SmartEdit{Old: "a", New: "b", ExpectedReplacements: 2}, FailCount,
			func(t *testing.T, e *MatchError) {
				if e.Want != 2 || e.Found != 3 {
					t.Errorf("Want, Found = %d, %d; want 2, 3", e.Want, e.Found)
				}
			}},
		{"fuzzy tie", twice, SmartEdit{Old: "function doIt() {\n  console.log('hello');\n}", New: "x"}, FailAmbiguous,
			func(t *testing.T, e *MatchError) {
				if len(e.Places) != 2 || e.Places[0].StartLine != 2 || e.Places[1].StartLine != 6 {
					t.Fatalf("Places = %+v; want lines 2 and 6", e.Places)
				}
				if s := e.Places[0].Similarity; s >= 1 || s < 0.9 {
					t.Errorf("Places[0].Similarity = %v; want in [0.9, 1)", s)
				}
			}},
		{"identical", "a b", SmartEdit{Old: "a", New: "a"}, FailNoChange, nil},
		{"line numbers", "x := 1\ny := 2\n", SmartEdit{Old: "     1\tx := 1\n     2\ty := 2", New: "z"}, FailLineNumbers,
			func(t *testing.T, e *MatchError) {
				if !strings.Contains(e.Hint, "lines 1-2") {
					t.Errorf("Hint = %q; want it to say lines 1-2", e.Hint)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Apply(tt.original, tt.edit)
			e := matchErr(t, err)
			if e.Kind != tt.kind {
				t.Fatalf("Apply(%q, %+v) failed with %s (%v); want %s", tt.original, tt.edit, e.Kind, err, tt.kind)
			}
			if e.Block != 1 || e.Format != FormatSmartEdit || e.Hint == "" {
				t.Errorf("error %+v; want block 1, format smart-edit and a hint", e)
			}
			if tt.check != nil {
				tt.check(t, e)
			}
		})
	}
}

// Divergence (doc.go): the legacy tool's regex strategy applies the first
// of several places and reports one; we count them all and refuse.
func TestSmartEditLegacyCountsEveryRegexPlace(t *testing.T) {
	original := "f( 1 )\nf( 1 )\n"
	r := smartReplace(original, "f(1)", "g(1)", smartOptions{variant: smartLegacy})
	if r.occurrences != 1 || r.text != "g(1)\nf( 1 )\n" {
		t.Fatalf("smartReplace (legacy) = %q, %d; want upstream's %q, 1", r.text, r.occurrences, "g(1)\nf( 1 )\n")
	}
	_, err := Apply(original, SmartEdit{Old: "f(1)", New: "g(1)", ExpectedReplacements: 1})
	if e := matchErr(t, err); e.Kind != FailCount || e.Found != 2 {
		t.Fatalf("Apply = %v; want a count error finding 2 places", err)
	}
}

// Divergence (doc.go): the legacy tool prefixes every new line with the
// window's indentation; we re-base new's own indentation as the current
// tool does.
func TestSmartEditLegacyRebasesIndentation(t *testing.T) {
	original := "    a\n    b\n"
	e := SmartEdit{Old: "a\nb", New: "  x\n    y", ExpectedReplacements: 1}
	res, err := Apply(original, e)
	if want := "    x\n      y\n"; err != nil || res.Content != want {
		t.Fatalf("Apply(%q, %+v) = %q, %v; want %q", original, e, res.Content, err, want)
	}
}

// Divergence (doc.go): Gemini turns a mixed-ending file all-CRLF; we keep
// the endings of the lines the edit did not touch.
func TestSmartEditKeepsMixedEndings(t *testing.T) {
	original := "a\r\nb\nc\r\nd\r\n"
	res, err := Apply(original, SmartEdit{Old: "c", New: "C"})
	if err != nil || res.Content != "a\r\nb\nC\r\nd\r\n" {
		t.Fatalf("Apply(%q) = %q, %v; want %q", original, res.Content, err, "a\r\nb\nC\r\nd\r\n")
	}
}

// Divergence (doc.go): an empty old_string on an existing empty file fills
// it; Gemini reports the file exists.
func TestSmartEditFillsEmptyFile(t *testing.T) {
	res, err := Apply("", SmartEdit{Old: "", New: "content\n"})
	if err != nil || res.Content != "content\n" {
		t.Fatalf("Apply(\"\", empty old) = %q, %v; want %q", res.Content, err, "content\n")
	}
}

// FuzzSmartEdit checks that a smart edit never panics and reports matches
// within the original's lines.
func FuzzSmartEdit(f *testing.F) {
	f.Add("  hello\n    world\n", "hello\nworld", "goodbye\nmoon", false)
	f.Add("a\\nb", `a\\nb`, "c", true)
	f.Fuzz(func(t *testing.T, original, old, new string, multiple bool) {
		res, err := Apply(original, SmartEdit{Old: old, New: new, AllowMultiple: multiple})
		if err != nil {
			return
		}
		lines := strings.Count(toLF(original), "\n") + 1
		for _, m := range res.Matches {
			if m.StartLine < 1 || m.EndLine < m.StartLine-1 || m.EndLine > lines {
				t.Fatalf("Apply(%q, %q) match %+v outside the original's %d lines", original, old, m, lines)
			}
		}
	})
}
