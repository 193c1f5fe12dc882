package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine/words"
)

// runDiffFiles writes old and new to temporary files and runs deskctl
// diff on them with the extra arguments.
func runDiffFiles(t *testing.T, old, new string, extra ...string) (stdout, stderr string, code int) {
	t.Helper()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "old.txt"), filepath.Join(dir, "new.txt")
	if err := os.WriteFile(a, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, []byte(new), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code = run(append([]string{"diff", a, b}, extra...), nil, &out, &errb)
	// Names in the headers depend on the temporary directory.
	s := strings.ReplaceAll(out.String(), strings.TrimPrefix(dir, "/")+"/", "")
	return s, errb.String(), code
}

func TestRunDiff(t *testing.T) {
	tests := []struct {
		name, old, new string
		extra          []string
		want           string
	}{
		{"equal", "a\nb\n", "a\nb\n", nil, ""},
		{"line endings alone are a difference", "a\nb\n", "a\r\nb\r\n", nil,
			"--- a/old.txt\n+++ b/new.txt\n@@ -1,2 +1,2 @@\n-a\n-b\n+a\r\n+b\r\n"},
		{"changed line", "a\nb\nc\n", "a\nB\nc\n", nil,
			"--- a/old.txt\n+++ b/new.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
		{"CRLF lines print as the file has them", "a\r\nb\r\n", "a\r\nB\r\n", nil,
			"--- a/old.txt\n+++ b/new.txt\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+B\r\n"},
		{"no newline at end", "a\n", "a", nil,
			"--- a/old.txt\n+++ b/new.txt\n@@ -1 +1 @@\n-a\n+a\n\\ No newline at end of file\n"},
		{"-U after the files", "1\n2\n3\n4\n", "1\n2\nx\n4\n", []string{"-U", "0"},
			"--- a/old.txt\n+++ b/new.txt\n@@ -3 +3 @@\n-3\n+x\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, stderr, code := runDiffFiles(t, tt.old, tt.new, tt.extra...)
			if code != 0 || got != tt.want {
				t.Errorf("deskctl diff %q %q %v = %q, exit %d (%s); want %q, exit 0", tt.old, tt.new, tt.extra, got, code, stderr, tt.want)
			}
		})
	}
}

func TestRunDiffErrors(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "text")
	binary := filepath.Join(dir, "binary")
	os.WriteFile(text, []byte("a\n"), 0o644)
	os.WriteFile(binary, []byte("a\x00b"), 0o644)
	tests := []struct {
		name    string
		args    []string
		code    int
		message string
	}{
		{"missing file", []string{text, filepath.Join(dir, "missing")}, 1, "cannot read " + filepath.Join(dir, "missing") + ": no such file or directory"},
		{"binary file", []string{binary, text}, 1, binary + ": file is not editable text: binary content (NUL byte)"},
		{"directory", []string{dir, text}, 1, "cannot read " + dir},
		{"one file", []string{text}, 2, "want two files"},
		{"unknown flag", []string{text, text, "--nope"}, 2, "flag provided but not defined"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(append([]string{"diff"}, tt.args...), nil, &out, &errb)
			if code != tt.code || !strings.Contains(errb.String(), tt.message) || out.Len() > 0 {
				t.Errorf("deskctl diff %q = exit %d, stderr %q, stdout %q; want exit %d, stderr containing %q", tt.args, code, errb.String(), out.String(), tt.code, tt.message)
			}
		})
	}
}

func TestRunDiffJSON(t *testing.T) {
	out, stderr, code := runDiffFiles(t, "keep\nfoo(a, b)\nkeep\n", "keep\nfoo(a, c)\nkeep\nend", "--json")
	if code != 0 {
		t.Fatalf("deskctl diff --json: exit %d: %s", code, stderr)
	}
	var got diffJSONOut
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("deskctl diff --json printed %q: %v", out, err)
	}
	if len(got.Hunks) != 2 {
		t.Fatalf("deskctl diff --json = %d hunks; want 2: %s", len(got.Hunks), out)
	}
	h := got.Hunks[0]
	if h.OldStart != 1 || h.OldLines != 3 || h.NewStart != 1 || h.NewLines != 3 || len(h.ID) != 12 {
		t.Errorf("hunk 0 = %+v; want lines 1,3 +1,3 and a 12-digit id", h)
	}
	wantLines := []diffJSONLine{
		{Kind: "context", Text: "keep"},
		{Kind: "delete", Text: "foo(a, b)", Spans: []words.Span{{Start: 7, End: 8}}},
		{Kind: "insert", Text: "foo(a, c)", Spans: []words.Span{{Start: 7, End: 8}}},
		{Kind: "context", Text: "keep"},
	}
	if g, w := mustJSON(t, h.Lines), mustJSON(t, wantLines); g != w {
		t.Errorf("hunk 0 lines = %s; want %s", g, w)
	}
	if last := got.Hunks[1].Lines[len(got.Hunks[1].Lines)-1]; last.Kind != "insert" || last.Text != "end" || !last.NoNewline {
		t.Errorf("last line = %+v; want an insert of \"end\" without newline", last)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
