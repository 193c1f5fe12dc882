package engine

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/diffdesk/diffdesk/engine/internal/diffbench/corpus"
)

// synthCode returns n lines of repetitive Go-like code, the hard case for
// a diff that freezes part of its result.
func synthCode(r *rand.Rand, n int) []string {
	var lines []string
	for f := 0; len(lines) < n; f++ {
		lines = append(lines, fmt.Sprintf("func f%d(x int) int {\n", f))
		for range r.Intn(8) {
			switch r.Intn(4) {
			case 0:
				lines = append(lines, "\tif err != nil {\n", "\t\treturn err\n", "\t}\n")
			case 1:
				lines = append(lines, fmt.Sprintf("\tx += %d\n", r.Intn(5)))
			case 2:
				lines = append(lines, "\n")
			default:
				lines = append(lines, fmt.Sprintf("\ty := g(x, %d)\n", r.Intn(50)))
			}
		}
		lines = append(lines, "\treturn x\n", "}\n", "\n")
	}
	return lines[:n]
}

// synthEdit changes about pct percent of lines in small hunks.
func synthEdit(r *rand.Rand, a []string, pct float64) []string {
	var b []string
	for i := 0; i < len(a); {
		if r.Float64() >= pct/300 {
			b = append(b, a[i])
			i++
			continue
		}
		k := 1 + r.Intn(5)
		switch r.Intn(3) {
		case 0:
			for j := i; j < min(i+k, len(a)); j++ {
				b = append(b, "\t// edited\n"+a[j])
			}
			i += k
		case 1:
			for range k {
				b = append(b, "\tnew()\n")
			}
		default:
			i += k
		}
	}
	return b
}

// streamLive feeds b to a LiveDiff against a in chunks of 1 to maxChunk
// lines, with the original resuming at the same line index as Cline's
// preview does, and calls check after every update.
func streamLive(r *rand.Rand, a, b []string, maxChunk int, check func(ld *LiveDiff, done []string, tail int)) *LiveDiff {
	ld := NewLiveDiff(a)
	for n := 0; n < len(b); {
		n = min(len(b), n+1+r.Intn(maxChunk))
		tail := min(n, len(a))
		if n == len(b) {
			tail = len(a)
		}
		ld.Update(b[:n], tail)
		if check != nil {
			check(ld, b[:n], tail)
		}
	}
	return ld
}

func TestLiveDiff(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for i, pct := range []float64{1, 10, 30} {
		a := synthCode(r, 1500)
		b := synthEdit(r, a, pct)
		t.Run(fmt.Sprintf("%v%%", pct), func(t *testing.T) {
			ld := streamLive(r, a, b, 1+4*i, func(ld *LiveDiff, done []string, tail int) {
				prop := append(slices.Clip(done), a[tail:]...)
				if err := checkOps(a, prop, ld.Ops()); err != nil {
					t.Fatalf("after %d lines, tail %d: %v", len(done), tail, err)
				}
			})
			// On ordinary edits the final diff is DiffLines'; on heavy edits
			// of repetitive code it may pick another alignment of the same
			// size.
			got, want := ld.Ops(), DiffLines(a, b)
			if pct <= 10 && !slices.Equal(got, want) || changedLines(got) != changedLines(want) {
				t.Errorf("final LiveDiff ops: %d changed lines in %d ops; DiffLines: %d in %d ops", changedLines(got), len(got), changedLines(want), len(want))
			}
		})
	}
}

func TestLiveDiffRestart(t *testing.T) {
	a := []string{"a\n", "b\n", "c\n"}
	ld := NewLiveDiff(a)
	if got, want := ld.Ops(), DiffLines(a, a); !slices.Equal(got, want) {
		t.Errorf("NewLiveDiff(%q).Ops() = %v; want %v", a, got, want)
	}
	ld.Update([]string{"x\n", "y\n"}, 2)
	// done shrinking and tail moving back start the diff over.
	done := []string{"a\n"}
	ld.Update(done, 0)
	if err := checkOps(a, append(done, a...), ld.Ops()); err != nil {
		t.Errorf("after a restart Ops() = %v: %v", ld.Ops(), err)
	}
}

func FuzzLiveDiff(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\nd\n", int64(1))
	f.Fuzz(func(t *testing.T, a, b string, seed int64) {
		la, lb := splitLines(a), splitLines(b)
		r := rand.New(rand.NewSource(seed))
		ld := streamLive(r, la, lb, 4, func(ld *LiveDiff, done []string, tail int) {
			prop := append(slices.Clip(done), la[tail:]...)
			if err := checkOps(la, prop, ld.Ops()); err != nil {
				t.Fatalf("LiveDiff(%q) after %q, tail %d: %v", la, done, tail, err)
			}
		})
		if len(lb) > 0 {
			if err := checkOps(la, lb, ld.Ops()); err != nil {
				t.Fatalf("LiveDiff(%q, %q) final: %v", la, lb, err)
			}
		}
	})
}

// TestLiveDiffCorpus streams real edits of real Go code (see
// bench_diff_test.go) and checks that the final diff is DiffLines'.
func TestLiveDiffCorpus(t *testing.T) {
	lines, err := benchCorpus()
	if err != nil {
		t.Skipf("no Go corpus: %v", err)
	}
	for _, kind := range []string{"scattered", "pct10", "moved"} {
		t.Run(kind, func(t *testing.T) {
			a, b, err := corpus.Make(lines, 10_000, kind, 1)
			if err != nil {
				t.Skip(err)
			}
			ld := streamLive(rand.New(rand.NewSource(4)), a, b, 9, nil)
			if got, want := ld.Ops(), DiffLines(a, b); !slices.Equal(got, want) {
				t.Errorf("final LiveDiff ops: %d changed lines in %d ops; DiffLines: %d in %d ops", changedLines(got), len(got), changedLines(want), len(want))
			}
		})
	}
}
