package engine

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// goCorpus returns n lines of real Go: the standard library's sources, in
// the lexical order filepath.WalkDir visits them.
func goCorpus(b *testing.B, n int) string {
	b.Helper()
	var sb strings.Builder
	lines := 0
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skipf("go env GOROOT: %v", err)
	}
	filepath.WalkDir(filepath.Join(strings.TrimSpace(string(goroot)), "src"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		for _, l := range strings.SplitAfter(toLF(string(data)), "\n") {
			if lines == n {
				return fs.SkipAll
			}
			if strings.HasSuffix(l, "\n") {
				sb.WriteString(l)
				lines++
			}
		}
		return nil
	})
	if lines < n {
		b.Skipf("only %d lines of Go found under GOROOT", lines)
	}
	return sb.String()
}

// nearMiss returns a 50-line block of text starting at line `at` with its
// last line changed, so 49 lines match one place.
func nearMiss(text string, at int) string {
	lines := strings.SplitAfter(text, "\n")[at : at+50]
	block := strings.Join(lines[:49], "") + "\tthis line is not in the file\n"
	return block
}

// BenchmarkSmartEditMiss runs a failed smart edit (every strategy tried,
// the error built) of a 50-line block on a 100k-line file: a block whose
// last line differs, the same with tabs turned into two spaces, and a file
// of "\t}" lines against 49 "}" lines and an "x". The budget is 15 ms on
// the machine of ../shared/docs/perf-baselines.md §5, where the
// calibration (strings.Index of the block, what the exact strategy costs)
// took 1.07 ms.
func BenchmarkSmartEditMiss(b *testing.B) {
	text := goCorpus(b, 100_000)
	block := nearMiss(text, 61_000)
	adversarial := strings.Repeat("\t}\n", 100_000)
	cases := []struct{ name, text, old string }{
		{"near-miss", text, block},
		{"re-indented", text, strings.ReplaceAll(block, "\t", "  ")},
		{"adversarial", adversarial, strings.Repeat("}\n", 49) + "x\n"},
	}
	b.Run("calibration-strings.Index", func(b *testing.B) {
		for b.Loop() {
			strings.Index(text, block)
		}
	})
	for _, c := range cases {
		e := SmartEdit{Old: c.old, New: "replacement\n"}
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Apply(c.text, e); err == nil {
					b.Fatal("smart edit applied; want a failure")
				}
			}
		})
	}
}

// BenchmarkReplaceMiss runs a failed exact replacement (with its closest
// lines) of a 50-line block on a 100k-line file.
func BenchmarkReplaceMiss(b *testing.B) {
	text := goCorpus(b, 100_000)
	e := Replace{Old: nearMiss(text, 61_000), New: "replacement\n"}
	for b.Loop() {
		if _, err := Apply(text, e); err == nil {
			b.Fatal("replace applied; want a failure")
		}
	}
}

// BenchmarkSmartEditFuzzy runs a smart edit that only fuzzy matching finds:
// a 10-line block of a 2,000-line file with every "e" capitalised, which
// Gemini's size guard (lines × len(old)² ≤ 4e8) lets through; every window
// of the file is scored.
func BenchmarkSmartEditFuzzy(b *testing.B) {
	text := goCorpus(b, 2_000)
	lines := strings.SplitAfter(text, "\n")
	old := strings.ReplaceAll(strings.Join(lines[1000:1010], ""), "e", "E")
	e := SmartEdit{Old: old, New: "replacement\n"}
	for b.Loop() {
		if _, err := Apply(text, e); err != nil {
			b.Fatal(err)
		}
	}
}
