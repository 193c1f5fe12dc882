package engine

import (
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/diffdesk/diffdesk/engine/internal/diffbench/corpus"
)

// The line-diff benchmarks run on real Go code from GOROOT (see
// ../shared/docs/perf-baselines.md §1); they skip when it is unavailable.

var benchCorpus = sync.OnceValues(func() ([]string, error) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return nil, err
	}
	return corpus.Load(strings.TrimSpace(string(out)), 200_000)
})

// benchPair returns base and variant text of n lines.
func benchPair(b *testing.B, n int, kind string) (base, variant []string) {
	b.Helper()
	lines, err := benchCorpus()
	if err != nil {
		b.Skipf("no Go corpus: %v", err)
	}
	base, variant, err = corpus.Make(lines, n, kind, 1)
	if err != nil {
		b.Skip(err)
	}
	return base, variant
}

// BenchmarkDiff measures Diff on whole texts: splitting, interning and the
// search.
func BenchmarkDiff(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		for _, kind := range corpus.Kinds {
			b.Run(fmt.Sprintf("%dk/%s", n/1000, kind), func(b *testing.B) {
				base, variant := benchPair(b, n, kind)
				benchLineDiff(b, base, variant)
			})
		}
	}
	// The worst case of issue 15.
	b.Run("100k/moved-rep", func(b *testing.B) {
		base, variant := corpus.RepetitiveMove()
		benchLineDiff(b, base, variant)
	})
}

// benchLineDiff measures Diff of the joined lines of base and variant.
func benchLineDiff(b *testing.B, base, variant []string) {
	x, y := strings.Join(base, ""), strings.Join(variant, "")
	b.ReportAllocs()
	b.ResetTimer()
	changed := 0
	for b.Loop() {
		changed = changedLines(Diff(x, y))
	}
	b.ReportMetric(float64(changed), "changed-lines")
}

// BenchmarkUnified measures Unified, diff and formatting, at 100k lines.
func BenchmarkUnified(b *testing.B) {
	base, variant := benchPair(b, 100_000, "pct10")
	x, y := strings.Join(base, ""), strings.Join(variant, "")
	b.ReportAllocs()
	for b.Loop() {
		Unified("a", "b", x, y, 3)
	}
}

// BenchmarkLiveDiff streams a 10k-line proposal in 2,000 chunks of about 5
// lines, updating a LiveDiff after each.
func BenchmarkLiveDiff(b *testing.B) {
	for _, kind := range []string{"scattered", "pct10"} {
		b.Run(kind, func(b *testing.B) {
			base, variant := benchPair(b, 10_000, kind)
			const chunks = 2000
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				ld := NewLiveDiff(base)
				for c := 1; c <= chunks; c++ {
					n := len(variant) * c / chunks
					tail := min(n, len(base))
					if c == chunks {
						tail = len(base)
					}
					ld.Update(variant[:n], tail)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*chunks), "ns/chunk")
		})
	}
}

// spreadPair returns n lines of Go-like code, nearly every line unique,
// and a variant with 3 lines changed every 200: many small changes spread
// evenly, the shape on which choosing one anchor per pass, as git's
// histogram diff does, rescans the rest of the file after every hunk
// (issue 15 point 8: 15,000 changed lines in a 38 MB file).
func spreadPair(n int) (base, variant []string) {
	base, variant = make([]string, n), make([]string, n)
	for k := range n {
		switch k % 25 {
		case 0:
			base[k] = fmt.Sprintf("// f%d computes a value from its inputs.\n", k)
		case 1:
			base[k] = fmt.Sprintf("func f%d(a, b int) (int, error) {\n", k)
		case 24:
			base[k] = "}\n"
		default:
			base[k] = fmt.Sprintf("\tv%d := compute(a, \"name %d\") + b\n", k, k)
		}
		variant[k] = base[k]
		if k%200 >= 10 && k%200 < 13 {
			variant[k] = fmt.Sprintf("\tv%d := compute(a+%d, \"changed\") * b // edited\n", k, k)
		}
	}
	return base, variant
}

// BenchmarkDiffSpread measures Diff on many small changes spread evenly
// through 100k and 1M lines (issue 15 point 8).
func BenchmarkDiffSpread(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) {
			base, variant := spreadPair(n)
			benchLineDiff(b, base, variant)
		})
	}
}
