// Command historybench times `deskctl history list --file` against
// `git log -- FILE` on the same history, side by side: a journal and a git
// repository each of N entries (one file changed per entry, over F files in
// 100 directories, as the desk records approved writes and git commits),
// then both commands run in turn, A B A B …, and the ratio taken pair by
// pair (the machine's speed drifts less within a pair than across a run).
// The repository has a commit graph with changed-path Bloom filters (git's
// index for log -- FILE; without it git reads every commit's tree).
// Whole processes: start-up included on both sides. For a plain file
// (dirK/fileN.go, at any depth) and a directory pattern (dirK/*).
//
// Usage: go run ./test/historybench -deskctl bin/deskctl [-entries 10000]
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/journal"
)

func main() {
	deskctl := flag.String("deskctl", "bin/deskctl", "the deskctl binary")
	entries := flag.Int("entries", 10000, "history entries (one file changed each)")
	files := flag.Int("files", 1000, "files, in 100 directories")
	runs := flag.Int("runs", 15, "pairs of runs per case")
	flag.Parse()
	if err := run(*deskctl, *entries, *files, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "historybench:", err)
		os.Exit(1)
	}
}

func run(deskctl string, entries, files, runs int) error {
	deskctl, err := filepath.Abs(deskctl)
	if err != nil {
		return err
	}
	tmp := ""
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		tmp = "/dev/shm" // no fsync per entry while filling
	}
	dir, err := os.MkdirTemp(tmp, "historybench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	ws, repo, db := filepath.Join(dir, "ws"), filepath.Join(dir, "repo"), filepath.Join(dir, "journal.db")
	t0 := time.Now()
	if err := fillJournal(db, ws, entries, files); err != nil {
		return err
	}
	if err := fillRepo(repo, entries, files); err != nil {
		return err
	}
	fmt.Printf("== history: %d entries over %d files (journal and git repository made in %.0f s)\n", entries, files, time.Since(t0).Seconds())
	cases := []struct{ name, file string }{
		{"one file", relPath(42 % files)},
		{"a directory pattern", fmt.Sprintf("dir%d/*", 42%100)},
	}
	for _, c := range cases {
		a := []string{deskctl, "history", "list", "--journal", db, "--limit", "1000", "--file", c.file}
		b := []string{"git", "-C", repo, "log", "--", c.file}
		var ta, tb, ratio []float64
		for i := -1; i < runs; i++ { // the first pair warms the caches
			da, na, err := timed(a)
			if err != nil {
				return err
			}
			db, nb, err := timed(b)
			if err != nil {
				return err
			}
			if i < 0 {
				if na == 0 || nb == 0 {
					return fmt.Errorf("%s: deskctl printed %d lines, git %d; want both to list the file's entries", c.name, na, nb)
				}
				continue
			}
			ta, tb, ratio = append(ta, da), append(tb, db), append(ratio, da/db)
		}
		fmt.Printf("history list --file %-10s  deskctl %6.1f ms  git log %6.1f ms  ratio %.2f× (pairs: %.2f–%.2f×), medians of %d\n",
			c.file, median(ta), median(tb), median(ratio), slices.Min(ratio), slices.Max(ratio), runs)
	}
	return nil
}

// relPath is file f's path in the workspace and the repository.
func relPath(f int) string { return fmt.Sprintf("dir%d/file%d.go", f%100, f) }

// fillJournal records entries approved one-file writes, as the desk does.
func fillJournal(db, ws string, entries, files int) error {
	ctx := context.Background()
	j, err := journal.Open(ctx, db)
	if err != nil {
		return err
	}
	defer j.Close()
	last := make([][]byte, files)
	for i := range entries {
		f := i % files
		path := filepath.Join(ws, relPath(f))
		content := fmt.Appendf(nil, "%s v%d\n", relPath(f), i)
		id := fmt.Sprint("p", i)
		agent := fmt.Sprint("agent", i%3)
		if err := j.RecordProposal(ctx, journal.ProposalRecord{ID: id, Agent: agent, Session: "s-" + agent, Format: "write",
			Payload: content, Status: "pending", Files: []journal.ProposalFileRecord{{Path: path, Root: ws,
				BaseExists: last[f] != nil, Base: last[f], Proposed: content}}}); err != nil {
			return err
		}
		if _, err := j.RecordDecision(ctx, journal.DecisionRecord{ProposalID: id, Decision: decision.Approved,
			Files: []journal.DecisionFile{{Path: path, Approved: content}}}); err != nil {
			return err
		}
		cp, err := j.BeginWrite(ctx, journal.WriteIntent{ProposalID: id, Files: []journal.FileWrite{{Path: path, Root: ws,
			BeforeExists: last[f] != nil, Before: last[f], After: content}}})
		if err != nil {
			return err
		}
		if err := j.FinishWrite(ctx, cp, []journal.FileFinal{{Path: path, Final: content}}); err != nil {
			return err
		}
		last[f] = content
	}
	return nil
}

// fillRepo makes a git repository of the same history, a commit an entry,
// by git fast-import.
func fillRepo(repo string, entries, files int) error {
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		return fmt.Errorf("git init: %v: %s", err, out)
	}
	var in bytes.Buffer
	for i := range entries {
		content := fmt.Sprintf("%s v%d\n", relPath(i%files), i)
		msg := fmt.Sprintf("entry %d", i)
		fmt.Fprintf(&in, "commit refs/heads/main\ncommitter agent <a@example.com> %d +0000\ndata %d\n%s\n", 1700000000+i, len(msg), msg)
		fmt.Fprintf(&in, "M 100644 inline %s\ndata %d\n%s\n", relPath(i%files), len(content), content)
	}
	cmd := exec.Command("git", "-C", repo, "fast-import", "--quiet")
	cmd.Stdin = &in
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git fast-import: %v: %s", err, out)
	}
	if out, err := exec.Command("git", "-C", repo, "symbolic-ref", "HEAD", "refs/heads/main").CombinedOutput(); err != nil {
		return fmt.Errorf("git symbolic-ref: %v: %s", err, out)
	}
	// git at its fastest: a commit graph with changed-path Bloom filters,
	// git's own index of what log -- FILE filters on.
	if out, err := exec.Command("git", "-C", repo, "commit-graph", "write", "--reachable", "--changed-paths").CombinedOutput(); err != nil {
		return fmt.Errorf("git commit-graph write: %v: %s", err, out)
	}
	return nil
}

// timed runs argv and returns its wall time in milliseconds and the lines
// it printed.
func timed(argv []string) (float64, int, error) {
	var out bytes.Buffer
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout = &out
	t0 := time.Now()
	if err := cmd.Run(); err != nil {
		return 0, 0, fmt.Errorf("%v: %v", argv, err)
	}
	return float64(time.Since(t0).Microseconds()) / 1e3, bytes.Count(out.Bytes(), []byte("\n")), nil
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
