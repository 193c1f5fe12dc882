package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/review/atomicfile"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/journal"
)

// journalWrite journals and writes an approved one-file proposal as the
// desk does, and returns its checkpoint.
func journalWrite(t *testing.T, j *journal.Journal, id, agent, path, content string) int64 {
	t.Helper()
	ctx := context.Background()
	disk, err := atomicfile.ReadSnapshot(path)
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Dir(path)
	if err := j.RecordProposal(ctx, journal.ProposalRecord{ID: id, Agent: agent, Session: "s1", Format: "write", Payload: []byte(content),
		Status: "pending", Files: []journal.ProposalFileRecord{{Path: path, Root: root, BaseExists: disk.Exists, Base: disk.Content, Proposed: []byte(content)}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := j.RecordDecision(ctx, journal.DecisionRecord{ProposalID: id, Decision: decision.Approved,
		Files: []journal.DecisionFile{{Path: path, Approved: []byte(content)}}}); err != nil {
		t.Fatal(err)
	}
	cp, err := j.BeginWrite(ctx, journal.WriteIntent{ProposalID: id, Files: []journal.FileWrite{{Path: path, Root: root,
		BeforeExists: disk.Exists, Before: disk.Content, After: []byte(content)}}})
	if err != nil {
		t.Fatal(err)
	}
	created, err := atomicfile.Save(path, []byte(content), 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.FinishWrite(ctx, cp, []journal.FileFinal{{Path: path, Final: []byte(content), CreatedDirs: created}}); err != nil {
		t.Fatal(err)
	}
	return cp
}

// historyFixture makes a journal with two writes to a.txt (claude), one
// to b.txt (gemini) and a rejected proposal, and returns its path.
func historyFixture(t *testing.T) (journalPath, dir string, cps []int64) {
	t.Helper()
	ctx := context.Background()
	dir = t.TempDir()
	journalPath = filepath.Join(t.TempDir(), "journal.db")
	j, err := journal.Open(ctx, journalPath)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	os.WriteFile(a, []byte("one\n"), 0o644)
	cps = append(cps, journalWrite(t, j, "p1", "claude", a, "one\ntwo\n"))
	cps = append(cps, journalWrite(t, j, "p2", "gemini", b, "bee\n"))
	cps = append(cps, journalWrite(t, j, "p3", "claude", a, "one\ntwo\nthree\n"))
	if err := j.RecordProposal(ctx, journal.ProposalRecord{ID: "p4", Agent: "claude", Session: "s1", Format: "write", Status: "pending",
		Files: []journal.ProposalFileRecord{{Path: a, Root: dir, BaseExists: true, Base: []byte("one\ntwo\nthree\n"), Proposed: []byte("nope\n")}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := j.RecordDecision(ctx, journal.DecisionRecord{ProposalID: "p4", Decision: decision.Rejected, Feedback: "keep the lines"}); err != nil {
		t.Fatal(err)
	}
	return journalPath, dir, cps
}

func TestHistoryListAndShow(t *testing.T) {
	journal, dir, cps := historyFixture(t)
	t.Chdir(dir)
	tests := []struct {
		name string
		args []string
		want []string // in stdout, in order
		not  []string
	}{
		{"list", []string{"list"}, []string{"d4 ", "rejected", "keep the lines", fmt.Sprint(cps[2], " "), fmt.Sprint(cps[1], " "), "b.txt", fmt.Sprint(cps[0], " ")}, nil},
		{"agent", []string{"list", "--agent", "gemini"}, []string{"gemini/s1", "b.txt"}, []string{"a.txt"}},
		{"file", []string{"list", "--file", "a.txt"}, []string{"a.txt"}, []string{"b.txt"}},
		{"glob", []string{"list", "--file", "*.txt", "--decision", "approved"}, []string{"a.txt", "b.txt"}, []string{"rejected"}},
		{"since", []string{"list", "--since", "1h"}, []string{"a.txt"}, nil},
		{"future", []string{"list", "--since", "2999-01-01"}, []string{"no history matches"}, nil},
		{"page", []string{"list", "--limit", "1"}, []string{"d4", "more: add --page"}, []string{"b.txt"}},
		{"show", []string{"show", fmt.Sprint(cps[2])}, []string{"checkpoint", "approved", "claude / session s1", "proposal: p3", "a.txt", "=== the change", "+three"}, nil},
		{"show decision", []string{"show", "d4"}, []string{"decision d4", "rejected", "reason:", "keep the lines", "=== the proposal", "+nope"}, nil},
		{"diff", []string{"diff", fmt.Sprint(cps[0])}, []string{"--- ", "before checkpoint", "+two"}, nil},
		{"diff two", []string{"diff", fmt.Sprint(cps[0]), fmt.Sprint(cps[2])}, []string{"+three", "+bee"}, nil},
		{"diff two one file", []string{"diff", fmt.Sprint(cps[0]), fmt.Sprint(cps[2]), "--file", "a.txt"}, []string{"+three"}, []string{"bee"}},
		{"diff json", []string{"diff", fmt.Sprint(cps[0]), fmt.Sprint(cps[2]), "--json"}, []string{`"path":`, `"old":"after checkpoint`, `"oldExists":true`, `"added":1`, `"unified":"---`, `"newContent":"`, "three"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := deskctl(t, "", append([]string{"history"}, append(tt.args, "--journal", journal)...)...)
			if code != 0 {
				t.Fatalf("history %v = exit %d, stderr %q", tt.args, code, errOut)
			}
			rest := out
			for _, w := range tt.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("history %v output lacks %q (in order):\n%s", tt.args, w, out)
				}
				rest = rest[i+len(w):]
			}
			for _, n := range tt.not {
				if strings.Contains(out, n) {
					t.Errorf("history %v output has %q:\n%s", tt.args, n, out)
				}
			}
		})
	}
	out, _, code := deskctl(t, "", "history", "list", "--json", "--agent", "claude", "--journal", journal)
	var page struct {
		Entries []struct {
			ID, Kind, Decision string
			Files              []string
		}
	}
	if code != 0 || json.Unmarshal([]byte(out), &page) != nil || len(page.Entries) != 3 || page.Entries[0].ID != "d4" || page.Entries[0].Kind != "decision" {
		t.Errorf("history list --json = %s (exit %d); want 3 claude entries, the rejection first", out, code)
	}
}

func TestHistoryRestoreCommand(t *testing.T) {
	journal, dir, cps := historyFixture(t)
	t.Chdir(dir)
	a := filepath.Join(dir, "a.txt")
	run := func(args ...string) (string, string, int) {
		return deskctl(t, "", append(append([]string{"history"}, args...), "--journal", journal)...)
	}
	out, _, code := run("restore", fmt.Sprint(cps[2]), "--diff")
	if code != 0 || !strings.Contains(out, "write") || !strings.Contains(out, "dry run") || !strings.Contains(out, "-three") {
		t.Fatalf("restore (dry run) = %q (exit %d)", out, code)
	}
	if b, _ := os.ReadFile(a); string(b) != "one\ntwo\nthree\n" {
		t.Fatalf("dry run wrote a.txt: %q", b)
	}
	out, errOut, code := run("restore", fmt.Sprint(cps[2]), "--apply")
	if code != 0 || !strings.Contains(out, "restored 1 file(s) as checkpoint") {
		t.Fatalf("restore --apply = %q, %q (exit %d)", out, errOut, code)
	}
	if b, _ := os.ReadFile(a); string(b) != "one\ntwo\n" {
		t.Fatalf("after restore a.txt = %q; want the content before checkpoint %d", b, cps[2])
	}
	var undo int64
	fmt.Sscanf(out[strings.Index(out, "undo with: deskctl history restore ")+len("undo with: deskctl history restore "):], "%d", &undo)
	if _, _, code := run("restore", fmt.Sprint(undo), "--apply"); code != 0 {
		t.Fatalf("restore of the restore exit %d", code)
	}
	if b, _ := os.ReadFile(a); string(b) != "one\ntwo\nthree\n" {
		t.Fatalf("after undoing the restore a.txt = %q; want three lines back", b)
	}

	// A file changed outside the desk is refused, then forced.
	os.WriteFile(a, []byte("mine\n"), 0o644)
	out, errOut, code = run("restore", fmt.Sprint(cps[0]), "--apply")
	if code != 1 || !strings.Contains(out, "refused") || !strings.Contains(out, "changed on disk") || !strings.Contains(errOut, "--force") {
		t.Fatalf("restore of a changed file = %q, %q (exit %d); want refused, exit 1", out, errOut, code)
	}
	out, _, code = run("restore", fmt.Sprint(cps[0]), "--apply", "--force")
	if code != 0 || !strings.Contains(out, "kept the replaced content of a.txt in the journal") {
		t.Fatalf("restore --force = %q (exit %d); want where the replaced content is kept", out, code)
	}
	if b, _ := os.ReadFile(a); string(b) != "one\n" {
		t.Errorf("after forced restore a.txt = %q; want one", b)
	}

	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"decision id", []string{"restore", "d4"}, 1, "d4 is a decision that wrote nothing"},
		{"unknown id", []string{"show", "999"}, 1, "checkpoint 999"},
		{"bad id", []string{"show", "abc"}, 1, `"abc" is not a history id`},
		{"file not in checkpoint", []string{"restore", fmt.Sprint(cps[1]), "--file", "a.txt"}, 1, "did not touch " + a},
		{"bad since", []string{"list", "--since", "yesterday"}, 2, `time "yesterday"`},
		{"bad decision", []string{"list", "--decision", "maybe"}, 1, `unknown decision "maybe"`},
		{"prune needs a limit", []string{"prune"}, 2, "--older-than"},
		{"bad size", []string{"prune", "--max-size", "huge"}, 2, "history.max_size"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := run(tt.args...)
			if code != tt.code || !strings.Contains(errOut, tt.want) {
				t.Errorf("history %v = exit %d, stderr %q; want exit %d naming %q", tt.args, code, errOut, tt.code, tt.want)
			}
		})
	}
	_, errOut, code = deskctl(t, "", "history", "list", "--journal", filepath.Join(dir, "none.db"))
	if code != 1 || !strings.Contains(errOut, "no journal at") || !strings.Contains(errOut, "none.db") {
		t.Errorf("history list with a missing journal = exit %d, %q", code, errOut)
	}
	out, _, code = run("prune", "--older-than", "1d", "--dry-run")
	if code != 0 || !strings.Contains(out, "dry run: would drop 0 checkpoint(s)") {
		t.Errorf("prune --dry-run = %q (exit %d)", out, code)
	}
}
