package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// applyJSON runs deskctl apply --json on a file holding original and decodes
// what it prints.
func applyJSON(t *testing.T, format, original, payload string, v any) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "f.txt")
	os.WriteFile(path, []byte(original), 0o644)
	out, errOut, code := deskctl(t, payload, "apply", "--format", format, "--file", path, "--json")
	if code != 0 {
		t.Fatalf("apply --json = exit %d, %q, %q", code, out, errOut)
	}
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("apply --json printed %q: %v", out, err)
	}
}

func TestApplyJSONIncomplete(t *testing.T) {
	var got struct {
		Content    string
		Incomplete *struct {
			Block, Line int
			Reason, Cut string
		}
	}
	applyJSON(t, "search-replace", "a\nb\nc\n", "------- SEARCH\nb\n=======\nB\n+++++++ REPLAC", &got)
	if got.Content != "a\nB\nc\n" || got.Incomplete == nil || got.Incomplete.Block != 1 || got.Incomplete.Cut != "+++++++ REPLAC" || got.Incomplete.Reason == "" {
		t.Errorf("apply --json of a cut-off block = %+v; want the content and incomplete {block 1, cut, reason}", got)
	}
	var complete map[string]any
	applyJSON(t, "search-replace", "a\nb\nc\n", "------- SEARCH\nb\n=======\nB\n+++++++ REPLACE\n", &complete)
	if _, ok := complete["incomplete"]; ok {
		t.Errorf("apply --json of a complete block = %v; want no \"incomplete\"", complete)
	}
}

func TestApplyJSONLooseMatch(t *testing.T) {
	var got struct {
		Matches []map[string]any
	}
	applyJSON(t, "search-replace", "f {\n\tx := 1 \n}\n", "------- SEARCH\nx := 1\n=======\nx := 2\n+++++++ REPLACE\n", &got)
	want := map[string]any{"block": 1.0, "strategy": "line-trimmed", "startLine": 2.0, "endLine": 2.0,
		"similarity": 1.0, "candidates": 1.0, "searched": "x := 1\n", "found": "\tx := 1 \n"}
	if len(got.Matches) != 1 || fmt.Sprint(got.Matches[0]) != fmt.Sprint(want) {
		t.Errorf("apply --json matches = %v; want [%v]", got.Matches, want)
	}
}

func TestApplyPatchShowsMatches(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\nb \n"), 0o644)
	patch := "*** Begin Patch\n*** Update File: a.txt\n@@\n-b\n+B\n*** End Patch\n"
	out, errOut, code := deskctl(t, patch, "apply", "--format", "patch", "--root", dir)
	var got struct {
		Matches map[string][]map[string]any
	}
	if code != 0 || json.Unmarshal([]byte(out), &got) != nil {
		t.Fatalf("apply patch = %q (exit %d, %s)", out, code, errOut)
	}
	if m := got.Matches["a.txt"]; len(m) != 1 || m[0]["strategy"] != "line-trimmed" || m[0]["found"] != "b \n" {
		t.Errorf("apply patch matches = %v; want a.txt's line-trimmed match of \"b \\n\"", got.Matches)
	}
}

// TestApplyNotesLooseMatches: without --json, every loose match gets a
// line on stderr; the content is printed as usual.
func TestApplyNotesLooseMatches(t *testing.T) {
	tests := []struct{ file, payload, want, note string }{
		{"f {\n\tx := 1 \n}\n", "------- SEARCH\nx := 1\n=======\nx := 2\n+++++++ REPLACE\n", "f {\n\tx := 2\n}\n",
			"deskctl apply: block 1 matched loosely (line-trimmed, 100% similar) at lines 2-2\n"},
		{"b\nx\nb\nb\n", "------- SEARCH\nb\n=======\nB\n+++++++ REPLACE\n", "B\nx\nb\nb\n",
			"deskctl apply: block 1 matched loosely (first-of-several, 100% similar) at lines 1-1, the first of 3 places\n"},
	}
	for _, tt := range tests {
		path := filepath.Join(t.TempDir(), "f.txt")
		os.WriteFile(path, []byte(tt.file), 0o644)
		out, errOut, code := deskctl(t, tt.payload, "apply", "--format", "search-replace", "--file", path)
		if code != 0 || out != tt.want || errOut != tt.note {
			t.Errorf("apply %q to %q = %q (exit %d), stderr %q; want %q, stderr %q", tt.payload, tt.file, out, code, errOut, tt.want, tt.note)
		}
	}
}

func TestApplyUnknownFormat(t *testing.T) {
	_, errOut, code := deskctl(t, "x", "apply", "--format", "wrte", "--file", "f.txt")
	if code != 2 || !strings.Contains(errOut, `unknown --format "wrte"`) || !strings.Contains(errOut, "did you mean write?") || !strings.Contains(errOut, "usage:") {
		t.Errorf("apply --format wrte = exit %d, %q; want a usage error (exit 2, as deskctl help says) naming write", code, errOut)
	}
	if _, errOut, code := deskctl(t, "x", "propose", "--format", "serch-replace", "--file", "f.txt"); code != 2 || !strings.Contains(errOut, "did you mean search-replace?") {
		t.Errorf("propose --format serch-replace = exit %d, %q", code, errOut)
	}
}

// TestApplySaysItReadsATerminal: with a terminal (a character device) as
// standard input, apply says it is reading it rather than seeming to hang.
func TestApplySaysItReadsATerminal(t *testing.T) {
	tty, err := os.Open(os.DevNull) // a character device, as a terminal is
	if err != nil {
		t.Fatal(err)
	}
	defer tty.Close()
	var out, errOut strings.Builder
	run([]string{"apply", "--format", "write", "--file", filepath.Join(t.TempDir(), "f")}, tty, &out, &errOut)
	if !strings.Contains(errOut.String(), "reading the edit from standard input, a terminal") {
		t.Errorf("apply with a terminal as stdin said %q; want it to say it reads standard input", errOut.String())
	}
	out.Reset()
	errOut.Reset()
	run([]string{"apply", "--format", "write", "--file", filepath.Join(t.TempDir(), "f")}, strings.NewReader("x\n"), &out, &errOut)
	if strings.Contains(errOut.String(), "terminal") {
		t.Errorf("apply with piped stdin said %q", errOut.String())
	}
}
