package engine

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// The golden files in testdata/diff are txtar-like: sections headed
// "-- name --" on a line of their own. A section whose last line is "^D"
// ends without a final newline. Unified goldens have sections old and new
// (input) and unified (Unified(…, 3) of them); Merge3 goldens (merge_*.txt)
// have base, ours, theirs and merged.

// parseGolden splits a golden file into its sections, in order.
func parseGolden(t *testing.T, data string) (names []string, sections map[string]string) {
	t.Helper()
	sections = map[string]string{}
	name := ""
	for _, l := range splitLines(data) {
		if strings.HasPrefix(l, "-- ") && strings.HasSuffix(l, " --\n") {
			name = strings.TrimSuffix(strings.TrimPrefix(l, "-- "), " --\n")
			names = append(names, name)
			sections[name] = ""
			continue
		}
		if name == "" {
			t.Fatalf("text before the first section: %q", l)
		}
		sections[name] += l
	}
	for n, s := range sections {
		if s == "^D\n" {
			sections[n] = ""
		} else if strings.HasSuffix(s, "\n^D\n") {
			sections[n] = strings.TrimSuffix(s, "\n^D\n")
		}
	}
	return names, sections
}

// formatGolden joins sections back into a golden file.
func formatGolden(names []string, sections map[string]string) string {
	var b strings.Builder
	for _, n := range names {
		b.WriteString("-- " + n + " --\n")
		s := sections[n]
		b.WriteString(s)
		if !strings.HasSuffix(s, "\n") {
			if s != "" {
				b.WriteString("\n")
			}
			b.WriteString("^D\n")
		}
	}
	return b.String()
}

// runGoldens runs compute on every golden file matching pattern: it fills
// in the output section from the input sections, and compares or, with
// -update, rewrites.
func runGoldens(t *testing.T, pattern, output string, compute func(sections map[string]string) string) {
	files, err := filepath.Glob(filepath.Join("testdata", "diff", pattern))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files %s: %v", pattern, err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			names, sections := parseGolden(t, string(data))
			got := compute(sections)
			if *update {
				if _, ok := sections[output]; !ok {
					names = append(names, output)
				}
				sections[output] = got
				if err := os.WriteFile(file, []byte(formatGolden(names, sections)), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if want, ok := sections[output]; !ok || got != want {
				t.Errorf("%s: got\n%s\nwant\n%s", output, got, want)
			}
		})
	}
}

func TestUnifiedGolden(t *testing.T) {
	runGoldens(t, "unified_*.txt", "unified", func(s map[string]string) string {
		return Unified("a/file", "b/file", s["old"], s["new"], 3)
	})
}

func TestUnified(t *testing.T) {
	tests := []struct {
		name, a, b string
		context    int
		want       string
	}{
		{"equal", "x\n", "x\n", 3, ""},
		{"context 0", "a\nb\nc\n", "a\nB\nc\n", 0, "--- o\n+++ n\n@@ -2 +2 @@\n-b\n+B\n"},
		{"context 1 merges close changes", "a\nb\nc\nd\n", "A\nb\nc\nD\n", 1, "--- o\n+++ n\n@@ -1,4 +1,4 @@\n-a\n+A\n b\n c\n-d\n+D\n"},
		{"context 0 keeps them apart", "a\nb\nc\nd\n", "A\nb\nc\nD\n", 0, "--- o\n+++ n\n@@ -1 +1 @@\n-a\n+A\n@@ -4 +4 @@\n-d\n+D\n"},
		{"pure insertion names the line before", "a\nb\n", "a\nx\nb\n", 0, "--- o\n+++ n\n@@ -1,0 +2 @@\n+x\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Unified("o", "n", tt.a, tt.b, tt.context); got != tt.want {
				t.Errorf("Unified(%q, %q, %d) = %q; want %q", tt.a, tt.b, tt.context, got, tt.want)
			}
		})
	}
}

// WriteGitUnified heads each hunk with git's default function line: the
// nearest line above the hunk that starts with a letter, "_" or "$", cut
// to 80 bytes and then of trailing space; a later hunk with none between
// keeps the earlier one, and a hunk at the top has none.
func TestWriteGitUnifiedFunctionLines(t *testing.T) {
	long := "func " + strings.Repeat("x", 74) + "  tail" // 80 bytes end in two spaces
	a := []string{"top\n", "1\n", "2\n", "func f() {\n", "4\n", "\tbody\n", "6\n", "7\n", "8\n", "9\n", "10\n", "11\n", long + "\n", "13\n", "14\n", "15\n", "16\n"}
	b := slices.Clone(a)
	b[1], b[7], b[11], b[16] = "one\n", "seven\n", "eleven\n", "sixteen\n"
	var sb strings.Builder
	if err := WriteGitUnified(&sb, "a", "b", a, b, DiffLines(a, b), 1); err != nil {
		t.Fatal(err)
	}
	var heads []string
	for _, l := range strings.Split(sb.String(), "\n") {
		if strings.HasPrefix(l, "@@") {
			heads = append(heads, l)
		}
	}
	want := []string{
		"@@ -1,3 +1,3 @@",
		"@@ -7,3 +7,3 @@ func f() {",
		"@@ -11,3 +11,3 @@ func f() {",
		"@@ -16,2 +16,2 @@ func " + strings.Repeat("x", 74),
	}
	if !slices.Equal(heads, want) {
		t.Errorf("hunk headers = %q; want %q", heads, want)
	}
}
