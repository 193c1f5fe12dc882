package words

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/engine/internal/diffbench/corpus"
)

// BenchmarkSpans measures Spans on the line pairs that PairLines picks in
// the replacements of a 10 %-changed 10k-line file of real Go code from
// GOROOT (../shared/docs/perf-baselines.md §1); it skips without one.
func BenchmarkSpans(b *testing.B) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skipf("no GOROOT: %v", err)
	}
	lines, err := corpus.Load(strings.TrimSpace(string(out)), 20_000)
	if err != nil {
		b.Skipf("no Go corpus: %v", err)
	}
	base, variant, err := corpus.Make(lines, 10_000, "pct10", 1)
	if err != nil {
		b.Fatal(err)
	}
	var pairs [][2]string
	for _, op := range engine.DiffLines(base, variant) {
		if op.Kind == engine.OpReplace {
			del, ins := base[op.A0:op.A1], variant[op.B0:op.B1]
			for _, p := range PairLines(del, ins) {
				pairs = append(pairs, [2]string{del[p[0]], ins[p[1]]})
			}
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, p := range pairs {
			Spans(p[0], p[1])
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(pairs)), "ns/pair")
}
