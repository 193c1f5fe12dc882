// Package corpus makes the inputs of the line-diff benchmarks: real Go code
// from GOROOT and seeded variants of it, as described in
// ../shared/docs/perf-baselines.md §1. The engine's benchmarks and the
// diffbench command share it so that both measure the same files.
package corpus

import (
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
)

// Kinds are the variants Make knows, in the order reports list them.
var Kinds = []string{"scattered", "pct10", "moved", "different"}

// Load returns up to max lines (each with its "\n") of the .go files under
// goroot/src, testdata directories excluded, in sorted path order.
func Load(goroot string, max int) ([]string, error) {
	var lines []string
	errEnough := fmt.Errorf("enough lines")
	err := filepath.WalkDir(filepath.Join(goroot, "src"), func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() && e.Name() == "testdata" {
			return filepath.SkipDir
		}
		if e.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		s := string(b)
		if s != "" && !strings.HasSuffix(s, "\n") {
			s += "\n"
		}
		lines = append(lines, strings.SplitAfter(s, "\n")...)
		lines = lines[:len(lines)-1] // SplitAfter's empty last element
		if len(lines) >= max {
			return errEnough
		}
		return nil
	})
	if err != nil && err != errEnough {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	if len(lines) > max {
		lines = lines[:max]
	}
	return lines, nil
}

// Make returns base, the first n lines of lines, and a variant of it of the
// given kind, generated from seed:
//   - scattered: 10 small hunks, each modifying 1–2 lines, inserting 1–3
//     or deleting 1–3;
//   - pct10: about 10 % of lines changed in hunks of 1–5 lines, 70 %
//     modifications, 15 % insertions, 15 % deletions;
//   - moved: a block of min(200, n/10) lines moved from 25 % to 75 %;
//   - different: lines n to 2n of lines (so lines needs 2n lines).
func Make(lines []string, n int, kind string, seed int64) (base, variant []string, err error) {
	if len(lines) < n || kind == "different" && len(lines) < 2*n {
		return nil, nil, fmt.Errorf("corpus: %d lines are too few for %s at %d", len(lines), kind, n)
	}
	base = lines[:n]
	r := rand.New(rand.NewSource(seed))
	switch kind {
	case "scattered":
		return base, scattered(r, base), nil
	case "pct10":
		return base, pct10(r, base), nil
	case "moved":
		k := min(200, n/10)
		from, to := n/4, 3*n/4
		v := append([]string{}, base[:from]...)
		v = append(v, base[from+k:to]...)
		v = append(v, base[from:from+k]...)
		return base, append(v, base[to:]...), nil
	case "different":
		return base, lines[n : 2*n], nil
	}
	return nil, nil, fmt.Errorf("corpus: unknown kind %q", kind)
}

// modify returns l edited the way people edit code: an identifier renamed,
// an argument added or a comment appended.
func modify(r *rand.Rand, l string) string {
	body := strings.TrimSuffix(l, "\n")
	switch r.Intn(3) {
	case 0:
		if i := strings.IndexAny(body, "abcdefghijklmnopqrstuvwxyz"); i >= 0 {
			return body[:i] + "renamed" + body[i:] + "\n"
		}
	case 1:
		if i := strings.LastIndexByte(body, ')'); i >= 0 {
			return body[:i] + ", extra" + body[i:] + "\n"
		}
	}
	return body + " // edited\n"
}

func inserted(r *rand.Rand) string { return fmt.Sprintf("\tinserted%d()\n", r.Intn(1e6)) }

func scattered(r *rand.Rand, base []string) []string {
	at := make(map[int]bool)
	for len(at) < 10 {
		at[r.Intn(len(base))] = true
	}
	var v []string
	for i := 0; i < len(base); i++ {
		if !at[i] {
			v = append(v, base[i])
			continue
		}
		k := 1 + r.Intn(3)
		switch r.Intn(3) {
		case 0:
			for j := i; j < min(i+min(k, 2), len(base)); j++ {
				v = append(v, modify(r, base[j]))
			}
			i += min(k, 2) - 1
		case 1:
			for range k {
				v = append(v, inserted(r))
			}
			v = append(v, base[i])
		case 2:
			i += k - 1
		}
	}
	return v
}

func pct10(r *rand.Rand, base []string) []string {
	var v []string
	for i := 0; i < len(base); {
		if r.Float64() >= 0.1/3 {
			v = append(v, base[i])
			i++
			continue
		}
		k := 1 + r.Intn(5)
		switch p := r.Float64(); {
		case p < 0.7:
			for j := i; j < min(i+k, len(base)); j++ {
				v = append(v, modify(r, base[j]))
			}
			i += k
		case p < 0.85:
			for range k {
				v = append(v, inserted(r))
			}
		default:
			i += k
		}
	}
	return v
}

// Repetitive returns n lines of code in the style generated code and table
// tests have: small functions with unique names whose bodies repeat a few
// lines that differ only in a small number, so that most lines occur
// hundreds of times. It is the worst case of a Myers diff with a cost cap
// (issue 15): there, a moved block shows as tens of thousands of changed
// lines.
func Repetitive(n int, seed int64) []string {
	r := rand.New(rand.NewSource(seed))
	var lines []string
	for f := 0; len(lines) < n; f++ {
		lines = append(lines, fmt.Sprintf("func handle%d(ctx context.Context, req *Request) error {\n", f))
		for range 1 + r.Intn(6) {
			switch r.Intn(5) {
			case 0:
				lines = append(lines, "\tif err := req.Validate(); err != nil {\n", "\t\treturn err\n", "\t}\n")
			case 1:
				lines = append(lines, fmt.Sprintf("\treq.Count += %d\n", r.Intn(10)))
			case 2:
				lines = append(lines, fmt.Sprintf("\tlog.Printf(\"step %%d\", %d)\n", r.Intn(20)))
			case 3:
				lines = append(lines, "\n")
			default:
				lines = append(lines, fmt.Sprintf("\tif req.Field%d == nil {\n", r.Intn(8)), "\t\treq.Reset()\n", "\t}\n")
			}
		}
		lines = append(lines, "\treturn nil\n", "}\n", "\n")
	}
	return lines[:n]
}

// RepetitiveMove returns the worst case of issue 15: 100,000 lines of
// Repetitive code, and the same with the 5,000 lines from line 25,000
// moved to line 75,000.
func RepetitiveMove() (base, variant []string) {
	base = Repetitive(100_000, 1)
	const from, k, to = 25_000, 5_000, 75_000
	variant = append([]string{}, base[:from]...)
	variant = append(variant, base[from+k:to]...)
	variant = append(variant, base[from:from+k]...)
	return base, append(variant, base[to:]...)
}
