package engine

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine/internal/diffbench/corpus"
)

// DiffLines is git's histogram diff with its indent heuristic; these tests
// hold it to the git binary: on every pair, the same hunks as
// `git diff --no-index --histogram -U0`, or fewer changed lines.

// textPair is a before and after text to diff.
type textPair struct {
	name string
	a, b []string
}

// gitHunk is a change as git's -U0 hunk header gives it, in 0-based
// half-open line ranges.
type gitHunk struct{ A0, A1, B0, B1 int }

// gitHistogram diffs every pair with one run of git over two directories
// and returns, per pair, git's hunks.
func gitHistogram(t *testing.T, pairs []textPair) [][]gitHunk {
	t.Helper()
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	for _, side := range []string{"a", "b"} {
		if err := os.Mkdir(filepath.Join(dir, side), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for i, p := range pairs {
		name := fmt.Sprintf("%05d", i)
		for _, f := range []struct {
			side  string
			lines []string
		}{{"a", p.a}, {"b", p.b}} {
			if err := os.WriteFile(filepath.Join(dir, f.side, name), []byte(strings.Join(f.lines, "")), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	cmd := exec.Command(git, "-c", "diff.indentHeuristic=true", "diff", "--no-index", "--no-color", "--no-ext-diff",
		"--no-renames", "--text", "--histogram", "-U0", "a", "b")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
		err = nil
	}
	if err != nil {
		t.Fatalf("git diff: %v: %s", err, stderr.String())
	}
	hunks := make([][]gitHunk, len(pairs))
	cur := -1
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "diff --git a/a/"):
			if _, err := fmt.Sscanf(line[len("diff --git a/a/"):], "%d", &cur); err != nil {
				t.Fatalf("git diff: cannot read %q: %v", line, err)
			}
		case strings.HasPrefix(line, "@@ "):
			var a, na, b, nb int
			if _, err := fmt.Sscanf(gitHunkHeader(line), "-%d,%d +%d,%d", &a, &na, &b, &nb); err != nil {
				t.Fatalf("git diff: cannot read %q: %v", line, err)
			}
			h := gitHunk{a - 1, a - 1 + na, b - 1, b - 1 + nb}
			if na == 0 {
				h.A0, h.A1 = a, a
			}
			if nb == 0 {
				h.B0, h.B1 = b, b
			}
			hunks[cur] = append(hunks[cur], h)
		}
	}
	return hunks
}

// gitHunkHeader returns "-a,na +b,nb" of a hunk header, with the counts
// git leaves out when they are 1.
func gitHunkHeader(line string) string {
	f := strings.Fields(line)
	for i := 1; i <= 2; i++ {
		if !strings.Contains(f[i], ",") {
			f[i] += ",1"
		}
	}
	return f[1] + " " + f[2]
}

// opHunks returns the changes of ops as git's -U0 hunks.
func opHunks(ops []Op) []gitHunk {
	var hs []gitHunk
	for _, op := range ops {
		if op.Kind != OpEqual {
			hs = append(hs, gitHunk{op.A0, op.A1, op.B0, op.B1})
		}
	}
	return hs
}

// hunkLines counts the changed lines of hunks.
func hunkLines(hs []gitHunk) int {
	n := 0
	for _, h := range hs {
		n += h.A1 - h.A0 + h.B1 - h.B0
	}
	return n
}

// compareWithGit checks DiffLines on every pair against git's histogram
// diff and returns how many pairs have other hunks than git's (and fewer
// changed lines).
func compareWithGit(t *testing.T, pairs []textPair) (differ int) {
	t.Helper()
	want := gitHistogram(t, pairs)
	for i, p := range pairs {
		ops := DiffLines(p.a, p.b)
		if err := checkOps(p.a, p.b, ops); err != nil {
			t.Fatalf("%s: DiffLines = %v: %v", p.name, ops, err)
		}
		got := opHunks(ops)
		if g, w := hunkLines(got), hunkLines(want[i]); g > w {
			t.Errorf("%s: DiffLines changes %d lines; git diff --histogram %d", p.name, g, w)
		}
		if !slices.Equal(got, want[i]) {
			// Where git's Myers fallback is not minimal, or git (before
			// 2.54) does not diff again the groups compacting joined, ours
			// may change fewer lines; otherwise the hunks are git's.
			differ++
			if g, w := hunkLines(got), hunkLines(want[i]); g == w {
				t.Errorf("%s: DiffLines hunks %v; git's %v", p.name, got, want[i])
			} else if testing.Verbose() {
				t.Logf("%s: %d changed lines, git %d", p.name, g, w)
			}
		}
	}
	return differ
}

func TestDiffLinesVsGitGenerated(t *testing.T) {
	r := rand.New(rand.NewSource(15))
	var pairs []textPair
	for n := range 600 {
		// Small alphabets: lines repeat, and the histogram falls back to
		// Myers' algorithm.
		a := randomLines(r, r.Intn(60), 2+n%9)
		b := randomLines(r, r.Intn(60), 2+n%7)
		pairs = append(pairs, textPair{fmt.Sprintf("random %d", n), a, b})
	}
	for n := range 300 {
		a := synthCode(r, 50+r.Intn(400))
		b := splitLines(strings.Join(synthEdit(r, a, float64(1+n%30)), "")) // an edited line is two
		pairs = append(pairs, textPair{fmt.Sprintf("code %d", n), a, b})
	}
	differ := compareWithGit(t, pairs)
	t.Logf("%d of %d pairs have other hunks than git's", differ, len(pairs))
}

// TestDiffLinesVsGitCorpus diffs real Go code from GOROOT, edited the ways
// the benchmarks edit it, and the worst case of issue 15: a 5,000-line
// block moved within 100,000 lines of repetitive code.
func TestDiffLinesVsGitCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	rep, moved := corpus.RepetitiveMove()
	base, spread := spreadPair(20_000)
	pairs := []textPair{{"repetitive moved block", rep, moved}, {"changes spread evenly", base, spread}}
	if lines, err := benchCorpus(); err == nil {
		for _, kind := range corpus.Kinds {
			for seed := range int64(3) {
				a, b, err := corpus.Make(lines, 10_000, kind, seed)
				if err != nil {
					t.Fatal(err)
				}
				pairs = append(pairs, textPair{fmt.Sprintf("%s seed %d", kind, seed), a, b})
			}
		}
	}
	differ := compareWithGit(t, pairs)
	t.Logf("%d of %d pairs have other hunks than git's", differ, len(pairs))
	if got := changedLines(DiffLines(pairs[0].a, pairs[0].b)); got != 10_000 {
		t.Errorf("repetitive moved block: %d changed lines; want 10000 (the block, deleted and inserted)", got)
	}
}

// TestDiffLinesVsGitFixtures diffs the texts before and after every
// upstream conformance vector that has both.
func TestDiffLinesVsGitFixtures(t *testing.T) {
	dir := fixturesDir(t)
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var pairs []textPair
	for _, f := range files {
		for _, c := range loadFixtures(t, filepath.Base(f)) {
			before, after := fixtureTexts(c)
			for _, a := range before {
				for _, b := range after {
					if !strings.ContainsRune(a+b, 0) {
						pairs = append(pairs, textPair{c.ID, splitLines(a), splitLines(b)})
					}
				}
			}
		}
	}
	if len(pairs) == 0 {
		t.Fatal("no before/after texts in the fixtures")
	}
	differ := compareWithGit(t, pairs)
	t.Logf("%d of %d pairs have other hunks than git's", differ, len(pairs))
}

// fixtureTexts returns a vector's file texts before (the input's original,
// fileContent, content or str) and after (every string the expectation
// holds).
func fixtureTexts(c fixtureCase) (before, after []string) {
	var in map[string]any
	if json.Unmarshal(c.Input, &in) != nil {
		return nil, nil
	}
	for _, k := range []string{"original", "fileContent", "content", "str"} {
		// An input "content" beside an "op" is an edit payload, not a file.
		if s, ok := in[k].(string); ok && (k != "content" || in["op"] == nil) {
			before = append(before, s)
		}
	}
	var out any
	if json.Unmarshal(c.Expect, &out) != nil {
		return nil, nil
	}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			after = append(after, v)
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(out)
	slices.Sort(after)
	return before, after
}
