package trivial

import (
	"fmt"
	"strings"
	"testing"
)

// trivialSource is a Go file of n lines: functions of 25 lines with a doc
// comment each. edit, when not nil, changes line k: 0 leaves it, 1
// re-indents it (whitespace only), 2 rewords its trailing comment (comment
// only), 3 changes its code.
func trivialSource(n int, edit func(k int) int) string {
	var b strings.Builder
	b.WriteString("package big\n\n")
	for k := 2; k < n; k++ {
		e := 0
		if edit != nil {
			e = edit(k)
		}
		switch {
		case k%25 == 2:
			fmt.Fprintf(&b, "// f%d computes a value from its inputs.\n", k)
		case k%25 == 3:
			fmt.Fprintf(&b, "func f%d(a, b int) (int, error) {\n", k)
		case k%25 == 24:
			b.WriteString("}\n")
		case e == 1:
			fmt.Fprintf(&b, "        v%d := compute(a, \"name %d\") + b // line %d\n", k, k, k)
		case e == 2:
			fmt.Fprintf(&b, "\tv%d := compute(a, \"name %d\") + b // the line numbered %d\n", k, k, k)
		case e == 3:
			fmt.Fprintf(&b, "\tv%d := compute(a+%d, \"name %d\") + b // line %d\n", k, k, k, k)
		default:
			fmt.Fprintf(&b, "\tv%d := compute(a, \"name %d\") + b // line %d\n", k, k, k)
		}
	}
	return b.String()
}

// mixedEdits changes one line in 40 (far enough apart to make a hunk
// each), cycling whitespace only, comment only and a real change.
func mixedEdits(k int) int {
	if k%40 != 10 {
		return 0
	}
	return 1 + (k/40)%3
}

// BenchmarkClassifyHunks measures Classify alone (the diff made
// beforehand) on a 20,000-line and a 1,000,000-line Go file with a hunk
// every 40 lines, a third of them whitespace only and a third comment
// only. It must grow linearly with the file: ns/line stays about the same
// from one size to the other.
func BenchmarkClassifyHunks(b *testing.B) {
	for _, n := range []int{20_000, 1_000_000} {
		b.Run(fmt.Sprintf("lines=%d", n), func(b *testing.B) {
			base, proposed := trivialSource(n, nil), trivialSource(n, mixedEdits)
			hs := hunksOf(base, proposed)
			var got map[string]Kind
			b.ResetTimer()
			for b.Loop() {
				got = Classify("big.go", base, proposed, hs)
			}
			b.StopTimer()
			if len(got) == 0 || len(got) >= len(hs) {
				b.Fatalf("%d of %d hunks trivial; want some, not all", len(got), len(hs))
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/line")
			b.ReportMetric(float64(len(hs)), "hunks")
		})
	}
}

// BenchmarkClassifyFile measures what the window's background
// classification of a file does: the diff (review.File.Hunks) and Classify.
func BenchmarkClassifyFile(b *testing.B) {
	for _, n := range []int{20_000, 1_000_000} {
		b.Run(fmt.Sprintf("lines=%d", n), func(b *testing.B) {
			base, proposed := trivialSource(n, nil), trivialSource(n, mixedEdits)
			b.ResetTimer()
			for b.Loop() {
				Classify("big.go", base, proposed, hunksOf(base, proposed))
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/line")
		})
	}
}
