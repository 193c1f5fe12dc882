package journal

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/diffdesk/diffdesk/review/atomicfile"
	"github.com/diffdesk/diffdesk/review/decision"
)

// Environment of TestHelperRestoreChild.
const (
	restoreCrashStepEnv    = "DIFFDESK_RESTORE_CRASH_STEP" // SaveFile step to die at, e.g. "renamed"
	restoreCrashNthEnv     = "DIFFDESK_RESTORE_CRASH_NTH"  // at its nth occurrence (1-based)
	restoreCrashJournalEnv = "DIFFDESK_RESTORE_CRASH_JOURNAL"
	restoreCrashCheckEnv   = "DIFFDESK_RESTORE_CRASH_CHECKPOINT"
)

// writeTwoFiles journals and writes one approved proposal changing a and b
// to newA and newB, and returns its checkpoint.
func writeTwoFiles(t *testing.T, j *Journal, a, b string, newA, newB []byte) int64 {
	t.Helper()
	ctx := context.Background()
	var files []ProposalFileRecord
	var writes []FileWrite
	var approved []DecisionFile
	for _, f := range []struct {
		path    string
		content []byte
	}{{a, newA}, {b, newB}} {
		disk, err := atomicfile.ReadSnapshot(f.path)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, ProposalFileRecord{Path: f.path, Root: filepath.Dir(f.path), BaseExists: true, Base: disk.Content, Proposed: f.content})
		writes = append(writes, FileWrite{Path: f.path, Root: filepath.Dir(f.path), BeforeExists: true, Before: disk.Content, After: f.content})
		approved = append(approved, DecisionFile{Path: f.path, Approved: f.content})
	}
	if err := j.RecordProposal(ctx, ProposalRecord{ID: "two", Agent: "codex", Session: "s", Format: "patch", Status: "pending", Files: files}); err != nil {
		t.Fatal(err)
	}
	if _, err := j.RecordDecision(ctx, DecisionRecord{ProposalID: "two", Decision: decision.Approved, Files: approved}); err != nil {
		t.Fatal(err)
	}
	cp, err := j.BeginWrite(ctx, WriteIntent{ProposalID: "two", Files: writes})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range writes {
		if _, err := atomicfile.Save(w.Path, w.After, 0); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.FinishWrite(ctx, cp, nil); err != nil {
		t.Fatal(err)
	}
	return cp
}

func TestCrashDuringRestore(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	tests := []struct {
		step      string
		nth       int
		wantA     string // content of a after the kill
		wantB     string
		wantState WriteState // the restore checkpoint after Recover
	}{
		{"synced", 1, "a1\n", "b1\n", WriteInterrupted},
		{"renamed", 1, "a0\n", "b1\n", WriteInterrupted},
		{"synced", 2, "a0\n", "b1\n", WriteInterrupted},
		{"renamed", 2, "a0\n", "b0\n", WriteWritten},
	}
	for _, tt := range tests {
		t.Run(tt.step+strconv.Itoa(tt.nth), func(t *testing.T) {
			ctx := context.Background()
			dir := t.TempDir()
			journalPath := filepath.Join(dir, "journal.db")
			a, b := filepath.Join(dir, "w", "a.txt"), filepath.Join(dir, "w", "b.txt")
			os.MkdirAll(filepath.Dir(a), 0o755)
			os.WriteFile(a, []byte("a0\n"), 0o644)
			os.WriteFile(b, []byte("b0\n"), 0o644)
			j, err := Open(ctx, journalPath)
			if err != nil {
				t.Fatal(err)
			}
			cp := writeTwoFiles(t, j, a, b, []byte("a1\n"), []byte("b1\n"))
			j.Close()

			killRestoreChild(t, tt.step, tt.nth, journalPath, cp)

			if got := readOrMissing(t, a); got != tt.wantA {
				t.Errorf("after kill at %s #%d: a = %q; want %q", tt.step, tt.nth, got, tt.wantA)
			}
			if got := readOrMissing(t, b); got != tt.wantB {
				t.Errorf("after kill at %s #%d: b = %q; want %q", tt.step, tt.nth, got, tt.wantB)
			}
			j, err = Open(ctx, journalPath)
			if err != nil {
				t.Fatal(err)
			}
			defer j.Close()
			settled, err := j.Recover(ctx)
			if err != nil || len(settled) != 1 || settled[0].State != tt.wantState || settled[0].ProposalID != "" {
				t.Fatalf("Recover = %+v, %v; want the restore settled as %s", settled, err, tt.wantState)
			}
			entries, _ := os.ReadDir(filepath.Dir(a))
			if len(entries) != 2 {
				t.Errorf("after Recover the directory holds %d entries; want a.txt and b.txt only", len(entries))
			}
			// The journal agrees with the disk, and the next restore works.
			last := settled[0].Checkpoint
			for _, p := range []string{a, b} {
				content, exists, err := j.FileAt(ctx, p, last)
				if err != nil || !exists || string(content) != readOrMissing(t, p) {
					t.Errorf("FileAt(%s, %d) = %q, %v; want what is on disk", p, last, content, err)
				}
			}
			plan, err := j.PlanRestore(ctx, RestoreRequest{Checkpoint: cp})
			if err != nil || len(plan.Refused()) != 0 {
				t.Fatalf("PlanRestore after Recover = %+v, %v; want nothing refused", plan, err)
			}
			if _, err := j.ApplyRestore(ctx, plan); err != nil {
				t.Fatal(err)
			}
			if readOrMissing(t, a) != "a0\n" || readOrMissing(t, b) != "b0\n" {
				t.Errorf("restore after Recover: a %q, b %q; want a0 and b0", readOrMissing(t, a), readOrMissing(t, b))
			}
		})
	}
}

// killRestoreChild runs TestHelperRestoreChild, waits until it signals
// that SaveFile reached step for the nth time, and SIGKILLs it.
func killRestoreChild(t *testing.T, step string, nth int, journalPath string, cp int64) {
	t.Helper()
	killTestChild(t, "TestHelperRestoreChild", fmt.Sprintf("%s #%d", step, nth),
		restoreCrashStepEnv+"="+step, restoreCrashNthEnv+"="+strconv.Itoa(nth),
		restoreCrashJournalEnv+"="+journalPath, restoreCrashCheckEnv+"="+strconv.FormatInt(cp, 10))
}

// TestHelperRestoreChild is the deskctl side of TestCrashDuringRestore: it
// restores to before the checkpoint in its environment and, at the SaveFile
// step named there, signals its parent and blocks until killed. It is
// skipped in a normal test run.
func TestHelperRestoreChild(t *testing.T) {
	step := os.Getenv(restoreCrashStepEnv)
	if step == "" {
		t.Skip("runs only as TestCrashDuringRestore's child process")
	}
	nth, _ := strconv.Atoi(os.Getenv(restoreCrashNthEnv))
	cp, _ := strconv.ParseInt(os.Getenv(restoreCrashCheckEnv), 10, 64)
	signal := os.NewFile(3, "signal")
	seen := 0
	atomicfile.SetTestHook(func(s string) {
		if s != step {
			return
		}
		if seen++; seen == nth {
			signal.Write([]byte{1})
			io.Copy(io.Discard, os.Stdin) // blocks: the parent never writes, and kills us
			t.Fatal("parent closed stdin instead of killing the child")
		}
	})
	ctx := context.Background()
	j, err := Open(ctx, os.Getenv(restoreCrashJournalEnv))
	if err != nil {
		t.Fatal(err)
	}
	plan, err := j.PlanRestore(ctx, RestoreRequest{Checkpoint: cp})
	if err != nil {
		t.Fatal(err)
	}
	_, err = j.ApplyRestore(ctx, plan)
	t.Fatalf("restore finished (%v) before SaveFile reached %s #%d", err, step, nth)
}
