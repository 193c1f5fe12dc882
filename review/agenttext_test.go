package review

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

// golden compares got with testdata/<name>, rewriting it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from golden file:\n--- got ---\n%s\n--- want ---\n%s", name, got, want)
	}
}

func TestFailureText(t *testing.T) {
	tests := []struct {
		name string
		path string
		err  error
	}{
		{"no-match-sr.txt", "src/app.go", &engine.MatchError{
			Format: engine.FormatSearchReplace, Block: 2, Kind: engine.FailNoMatch,
			Search: "func run() {\n\treturn nil\n}\n",
			Tried:  []engine.Strategy{engine.StrategyExact, engine.StrategyLineTrimmed, engine.StrategyBlockAnchor},
			Closest: []engine.Candidate{{StartLine: 40, EndLine: 42, Similarity: 0.82,
				Lines: []string{"func run() error {", "\treturn nil", "}"}}},
			Applied: []engine.Match{{Block: 1, Strategy: engine.StrategyExact, StartLine: 3, EndLine: 4}},
		}},
		{"count-edit.txt", "main.py", &engine.MatchError{
			Format: engine.FormatEdit, Block: 1, Kind: engine.FailCount, Search: "x = 1\n", Want: 1, Found: 2,
			Places: []engine.Candidate{{StartLine: 3, EndLine: 3, Similarity: 1}, {StartLine: 9, EndLine: 9, Similarity: 1}},
			Hint:   "add surrounding lines to old_string so it occurs once, or set replace_all",
		}},
		{"fence-in-search.txt", "README.md", &engine.MatchError{
			Format: engine.FormatMultiEdit, Block: 3, Kind: engine.FailNoMatch, Search: "```go\nx\n```\n",
			Applied: []engine.Match{{Block: 1}, {Block: 2}},
		}},
		{"format.txt", "a.txt", &engine.FormatError{Format: engine.FormatSearchReplace, Block: 1, Line: 4,
			Msg: "expected ======= before +++++++ REPLACE"}},
		{"binary.txt", "logo.png", &engine.ContentError{What: "file", Reason: "binary content (NUL byte)", Line: 1, Offset: 5}},
		{"other.txt", "a.txt", errors.New("boom")},
		{"patch-file-exists.txt", "/w", &engine.MatchError{Format: engine.FormatPatch, Path: "src/new.go", Kind: engine.FailFileExists,
			Hint: "update the file instead of adding it, or delete it first"}},
		{"patch-chunk.txt", "/w", &engine.MatchError{Format: engine.FormatPatch, Path: "src/a.go", Block: 2, Kind: engine.FailNoMatch,
			Search: "x := 1\n", Applied: []engine.Match{{Block: 1}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			golden(t, filepath.Join("failure", tt.name), FailureText(tt.path, tt.err))
		})
	}
}

func TestFailureTextCapsEcho(t *testing.T) {
	search := strings.Repeat("line\n", maxEchoLines+10)
	got := FailureText("f", &engine.MatchError{Format: engine.FormatEdit, Block: 1, Kind: engine.FailNoMatch, Search: search})
	if n := strings.Count(got, "line\n"); n != maxEchoLines {
		t.Errorf("FailureText echoed %d search lines; want %d", n, maxEchoLines)
	}
	if !strings.Contains(got, "(10 more lines)") {
		t.Errorf("FailureText does not say how many lines were left out:\n%s", got)
	}
}

func TestErrorJSONKinds(t *testing.T) {
	tests := []struct {
		err  error
		kind string
	}{
		{&engine.MatchError{Format: engine.FormatEdit, Block: 1, Kind: engine.FailNoMatch}, "match"},
		{&engine.FormatError{Format: engine.FormatEdit, Msg: "x"}, "format"},
		{&engine.ContentError{What: "file", Reason: "x"}, "content"},
		{errors.New("x"), "other"},
	}
	for _, tt := range tests {
		if got := ErrorJSON(tt.err)["kind"]; got != tt.kind {
			t.Errorf("ErrorJSON(%T)[kind] = %v; want %s", tt.err, got, tt.kind)
		}
	}
}
