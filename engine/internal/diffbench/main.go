// Command diffbench compares DiffDesk's diff command (deskdiff, or deskctl
// diff) with `git diff --histogram` as whole processes, side by side, in
// time and in changed lines, on:
//   - the inputs of ../shared/docs/perf-baselines.md §1: real Go code from
//     GOROOT at 10k and 100k lines, and four variants of it (scattered,
//     pct10, moved, different);
//   - the worst case of issue 15: a 5,000-line block moved within 100,000
//     lines of repetitive code (corpus.Repetitive);
//   - real history: the .go files that the last commits of a repository
//     (by default this one) changed, each before and after its commit.
//
// It builds nothing; give it the command to measure, and optionally a
// second one whose start-up to show on the real history:
//
//	go build -o /tmp/deskdiff ./cmd/deskdiff
//	go build -o /tmp/deskctl ./cmd/deskctl
//	go run ./engine/internal/diffbench -diff /tmp/deskdiff -also "/tmp/deskctl diff"
//
// In each round every command runs once on each pair, ours and git side
// by side on one pair before the next, alternating which goes first, with
// stdout to /dev/null: the machine's drift over a round (it is large on a
// shared VM) then falls on both alike. It prints the median wall time of each and
// the median of the per-round ratios, which a shared, noisy machine
// disturbs least, against the targets: at most 1.0× git on ordinary edits
// (scattered, pct10, moved, history), 1.5× on completely different files
// and on the worst case. The changed lines are counted once, from -U0
// output.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/engine/internal/diffbench/corpus"
)

func main() {
	diff := flag.String("diff", "", "the diff command to measure, split at spaces, given OLD NEW and -U 0 (required): bin/deskdiff, or \"bin/deskctl diff\"")
	also := flag.String("also", "", "another such command, measured on the real history only, for its start-up")
	git := flag.String("git", "git", "path of git")
	rounds := flag.Int("rounds", 7, "rounds per case")
	sizes := flag.String("sizes", "10000,100000", "comma-separated file sizes in lines")
	repo := flag.String("repo", ".", "git repository whose history gives the real-history pairs")
	history := flag.Int("history", 300, "most real-history pairs (0: none)")
	flag.Parse()
	if *diff == "" {
		fmt.Fprintln(os.Stderr, "diffbench: -diff is required (go build -o /tmp/deskdiff ./cmd/deskdiff; -diff /tmp/deskdiff)")
		os.Exit(2)
	}
	b := bench{diff: strings.Fields(*diff), git: *git, rounds: *rounds}
	if err := b.run(*sizes, *repo, *history, strings.Fields(*also)); err != nil {
		fmt.Fprintf(os.Stderr, "diffbench: %v\n", err)
		os.Exit(1)
	}
}

// bench holds what every case needs.
type bench struct {
	diff   []string // the command measured, without its files
	git    string
	rounds int
	dir    string   // temporary files
	null   *os.File // os.DevNull
}

// pair is a before and after file.
type pair struct{ a, b string }

func (b *bench) run(sizeList, repo string, history int, also []string) error {
	var sizes []int
	for _, s := range strings.Split(sizeList, ",") {
		var n int
		if _, err := fmt.Sscan(s, &n); err != nil || n <= 0 {
			return fmt.Errorf("bad size %q in -sizes", s)
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
	if b.dir, err = os.MkdirTemp("", "diffbench"); err != nil {
		return err
	}
	defer os.RemoveAll(b.dir)
	if b.null, err = os.OpenFile(os.DevNull, os.O_WRONLY, 0); err != nil {
		return err
	}
	defer b.null.Close()

	name := filepath.Base(b.diff[0])
	fmt.Printf("%-6s %-12s %11s %9s %7s %7s %21s\n", "lines", "variant", name+" ms", "git ms", "ratio", "target", "changed "+name+" / git")
	for _, n := range sizes {
		for _, kind := range corpus.Kinds {
			base, variant, err := corpus.Make(lines, n, kind, 1)
			if err != nil {
				return err
			}
			p, err := b.write(fmt.Sprintf("%d-%s", n, kind), base, variant)
			if err != nil {
				return err
			}
			target := 1.0
			if kind == "different" {
				target = 1.5
			}
			if err := b.report(b.diff, fmt.Sprintf("%dk", n/1000), kind, []pair{p}, target); err != nil {
				return err
			}
		}
	}
	base, variant := corpus.RepetitiveMove()
	p, err := b.write("repetitive", base, variant)
	if err != nil {
		return err
	}
	if err := b.report(b.diff, "100k", "moved-rep", []pair{p}, 1.5); err != nil {
		return err
	}
	if history > 0 {
		pairs, err := b.historyPairs(repo, history)
		if err != nil {
			return err
		}
		size := fmt.Sprintf("%d×", len(pairs))
		if err := b.report(b.diff, size, "history", pairs, 1.0); err != nil {
			return err
		}
		if len(also) > 0 {
			// No target: the row shows what a program that links the
			// whole desk pays to start, beside the diff alone.
			if err := b.report(also, size, "history", pairs, 0); err != nil {
				return err
			}
		}
		if err := b.inProcess(pairs); err != nil {
			return err
		}
	}
	return nil
}

// inProcess prints the history pairs' diff as deskdiff computes and prints
// it (engine.DiffLines and WriteGitUnified), in this process: the
// whole-process time less any program's start-up.
func (b *bench) inProcess(pairs []pair) error {
	type texts struct{ a, b []string }
	var in []texts
	for _, p := range pairs {
		a, err := os.ReadFile(p.a)
		if err != nil {
			return err
		}
		bb, err := os.ReadFile(p.b)
		if err != nil {
			return err
		}
		in = append(in, texts{engine.SplitLines(string(a)), engine.SplitLines(string(bb))})
	}
	var ms []float64
	for range b.rounds {
		start := time.Now()
		for _, t := range in {
			if err := engine.WriteGitUnified(io.Discard, "a", "b", t.a, t.b, engine.DiffLines(t.a, t.b), 3); err != nil {
				return err
			}
		}
		ms = append(ms, float64(time.Since(start).Microseconds())/1000)
	}
	fmt.Printf("%-6s %-12s %11.1f   (in this process: the diff and its output alone, without a program's start-up)\n", fmt.Sprintf("%d×", len(pairs)), "history-diff", median(ms))
	return nil
}

// write writes the two texts of a case and returns their paths.
func (b *bench) write(name string, base, variant []string) (pair, error) {
	p := pair{filepath.Join(b.dir, name+"-a.go"), filepath.Join(b.dir, name+"-b.go")}
	if err := os.WriteFile(p.a, []byte(strings.Join(base, "")), 0o644); err != nil {
		return p, err
	}
	return p, os.WriteFile(p.b, []byte(strings.Join(variant, "")), 0o644)
}

// report times ours (a command line without its files) and git over the
// pairs, counts their changed lines and prints one row; a target of 0 is
// none, and the row names ours.
func (b *bench) report(ours []string, size, kind string, pairs []pair, target float64) error {
	// The two commands on a pair, with -U0 when counting changed lines.
	cmds := [2]func(p pair, u0 bool) []string{
		func(p pair, u0 bool) []string {
			argv := slices.Clone(ours)
			if u0 {
				argv = append(argv, "-U", "0")
			}
			return append(argv, p.a, p.b)
		},
		func(p pair, u0 bool) []string {
			argv := []string{b.git, "diff", "--no-index", "--no-color", "--no-ext-diff", "--histogram"}
			if u0 {
				argv = append(argv, "-U0")
			}
			return append(argv, p.a, p.b)
		},
	}
	var td, tg, ratios []float64
	for r := range b.rounds {
		var t [2]float64
		for j, p := range pairs {
			for i := range 2 {
				k := (i + j + r) % 2 // alternate which command goes first
				ms, err := b.time(cmds[k](p, false))
				if err != nil {
					return err
				}
				t[k] += ms
			}
		}
		td, tg = append(td, t[0]), append(tg, t[1])
		ratios = append(ratios, t[0]/t[1])
	}
	var changed [2]int
	for k, cmd := range cmds {
		for _, p := range pairs {
			n, err := b.changedLines(cmd(p, true))
			if err != nil {
				return err
			}
			changed[k] += n
		}
	}
	targetCol, verdict := fmt.Sprintf("%6.1f×", target), "ok"
	switch {
	case target == 0:
		targetCol, verdict = "      –", "("+strings.Join(ours, " ")+": its start-up)"
	case median(ratios) > target:
		verdict = "OVER"
	}
	fmt.Printf("%-6s %-12s %11.1f %9.1f %6.2f× %s %10d / %-8d %s\n", size, kind, median(td), median(tg), median(ratios), targetCol, changed[0], changed[1], verdict)
	return nil
}

// time runs argv with stdout to /dev/null and returns its wall time in ms.
func (b *bench) time(argv []string) (float64, error) {
	start := time.Now()
	err := b.exec(argv, b.null)
	return float64(time.Since(start).Microseconds()) / 1000, err
}

// changedLines runs argv, a unified diff of one pair of files, and counts
// the lines its hunks add and remove.
func (b *bench) changedLines(argv []string) (int, error) {
	var out bytes.Buffer
	if err := b.exec(argv, &out); err != nil {
		return 0, err
	}
	n, inHunks := 0, false
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		switch l := sc.Text(); {
		case strings.HasPrefix(l, "@@"):
			inHunks = true
		case inHunks && (strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-")):
			n++
		}
	}
	return n, sc.Err()
}

// exec runs argv with stdout to w. Exit status 1 counts as success: diff
// tools use it for "files differ".
func (b *bench) exec(argv []string, w io.Writer) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout = w
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 && stderr.Len() == 0 {
		err = nil
	}
	if err != nil {
		return fmt.Errorf("%s: %v: %s", strings.Join(argv, " "), err, stderr.String())
	}
	return nil
}

// historyPairs writes, for up to max .go files that the latest commits of
// repo modified (merges aside), the file before and after its commit.
func (b *bench) historyPairs(repo string, max int) ([]pair, error) {
	git := func(args ...string) (string, error) {
		out, err := exec.Command(b.git, append([]string{"-C", repo}, args...)...).Output()
		if err != nil {
			return "", fmt.Errorf("git -C %s %s: %w (-repo names the repository whose history to diff)", repo, strings.Join(args, " "), err)
		}
		return string(out), nil
	}
	// Each commit's line, then the files it modified.
	log, err := git("log", "--no-merges", "--diff-filter=M", "--name-only", "--format=commit %H", "--", "*.go")
	if err != nil {
		return nil, err
	}
	var pairs []pair
	commit := ""
	for _, l := range strings.Split(log, "\n") {
		if len(pairs) == max {
			break
		}
		if c, ok := strings.CutPrefix(l, "commit "); ok {
			commit = c
			continue
		}
		if l == "" || commit == "" {
			continue
		}
		before, err := git("show", commit+"^:"+l)
		if err != nil {
			return nil, err
		}
		after, err := git("show", commit+":"+l)
		if err != nil {
			return nil, err
		}
		p, err := b.write(fmt.Sprintf("history-%d", len(pairs)), []string{before}, []string{after})
		if err != nil {
			return nil, err
		}
		pairs = append(pairs, p)
	}
	if len(pairs) == 0 {
		return nil, fmt.Errorf("no modified .go files in the history of %s", repo)
	}
	return pairs, nil
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
