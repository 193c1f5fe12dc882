// Command diffbench compares `deskctl diff` with `git diff --histogram` as
// whole processes, on the inputs of ../shared/docs/perf-baselines.md §1: real
// Go code from GOROOT at 10k and 100k lines, and four variants of it
// (scattered, pct10, moved, different). It builds nothing; give it a
// deskctl binary:
//
//	go build -o /tmp/deskctl ./cmd/deskctl
//	go run ./engine/internal/diffbench -deskctl /tmp/deskctl
//
// In each round every command runs once, deskctl and git alternating which
// goes first, with stdout to /dev/null. It prints the median wall time of
// each and the median of the per-round ratios, which a shared, noisy
// machine disturbs least, against the targets: at most 1.0× git for
// scattered, pct10 and moved, 1.5× for different.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/diffdesk/diffdesk/engine/internal/diffbench/corpus"
)

func main() {
	deskctl := flag.String("deskctl", "", "path of the deskctl binary to measure (required)")
	git := flag.String("git", "git", "path of git")
	rounds := flag.Int("rounds", 7, "rounds per size and variant")
	sizes := flag.String("sizes", "10000,100000", "comma-separated file sizes in lines")
	flag.Parse()
	if *deskctl == "" {
		fmt.Fprintln(os.Stderr, "diffbench: -deskctl is required (go build -o /tmp/deskctl ./cmd/deskctl)")
		os.Exit(2)
	}
	if err := run(*deskctl, *git, *sizes, *rounds); err != nil {
		fmt.Fprintf(os.Stderr, "diffbench: %v\n", err)
		os.Exit(1)
	}
}

func run(deskctl, git, sizeList string, rounds int) error {
	var sizes []int
	for _, s := range strings.Split(sizeList, ",") {
		var n int
		if _, err := fmt.Sscan(s, &n); err != nil || n <= 0 {
			return fmt.Errorf("bad size %q", s)
		}
		sizes = append(sizes, n)
	}
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return fmt.Errorf("go env GOROOT: %w", err)
	}
	lines, err := corpus.Load(strings.TrimSpace(string(out)), 2*slices.Max(sizes))
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "diffbench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer null.Close()

	fmt.Printf("%-6s %-10s %12s %12s %8s %7s\n", "lines", "variant", "deskctl ms", "git ms", "ratio", "target")
	for _, n := range sizes {
		for _, kind := range corpus.Kinds {
			base, variant, err := corpus.Make(lines, n, kind, 1)
			if err != nil {
				return err
			}
			a := filepath.Join(dir, fmt.Sprintf("%d-base.go", n))
			b := filepath.Join(dir, fmt.Sprintf("%d-%s.go", n, kind))
			if err := os.WriteFile(a, []byte(strings.Join(base, "")), 0o644); err != nil {
				return err
			}
			if err := os.WriteFile(b, []byte(strings.Join(variant, "")), 0o644); err != nil {
				return err
			}
			cmds := [][]string{
				{deskctl, "diff", a, b},
				{git, "diff", "--no-index", "--no-color", "--histogram", a, b},
			}
			var td, tg, ratios []float64
			for r := range rounds {
				var t [2]float64
				for i := range 2 {
					k := (i + r) % 2 // alternate which command goes first
					if t[k], err = timeRun(cmds[k], null); err != nil {
						return err
					}
				}
				td, tg = append(td, t[0]), append(tg, t[1])
				ratios = append(ratios, t[0]/t[1])
			}
			target := 1.0
			if kind == "different" {
				target = 1.5
			}
			verdict := "ok"
			if median(ratios) > target {
				verdict = "OVER"
			}
			fmt.Printf("%-6s %-10s %12.1f %12.1f %7.2f× %6.1f× %s\n", fmt.Sprintf("%dk", n/1000), kind, median(td), median(tg), median(ratios), target, verdict)
		}
	}
	return nil
}

// timeRun runs argv with stdout to null and returns its wall time in ms.
// Exit status 1 counts as success: diff tools use it for "files differ".
func timeRun(argv []string, null *os.File) (float64, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout = null
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	elapsed := time.Since(start)
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 && stderr.Len() == 0 {
		err = nil
	}
	if err != nil {
		return 0, fmt.Errorf("%s: %v: %s", strings.Join(argv, " "), err, stderr.String())
	}
	return float64(elapsed.Microseconds()) / 1000, nil
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
