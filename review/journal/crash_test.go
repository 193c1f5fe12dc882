package journal

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review/atomicfile"
	"github.com/diffdesk/diffdesk/review/decision"
)

// The crash test kills a real desk-like process with SIGKILL at each point
// of an approved write and checks that the file is exactly oldContent or exactly
// newContent and that Recover makes the journal consistent. The child is this
// test binary, re-executed to run TestHelperCrashChild.
const (
	crashStageEnv   = "DIFFDESK_CRASH_STAGE"
	crashJournalEnv = "DIFFDESK_CRASH_JOURNAL"
	crashTargetEnv  = "DIFFDESK_CRASH_TARGET"
)

// crashContent returns the file's content before and after the write:
// about 1 MB, and the same with 300 KB appended, so the new content spans
// two SaveFile chunks and the child can be killed with the temp file
// half-written.
func crashContent() (oldContent, newContent []byte) {
	return bigText(1<<20, 7), bigText(1<<20+300<<10, 7)
}

func TestCrashDuringWrite(t *testing.T) {
	oldContent, newContent := crashContent()
	tests := []struct {
		stage     string     // where the child is killed
		wantFile  []byte     // the file after the kill
		wantTemp  bool       // a temp file is left before Recover
		wantState WriteState // the checkpoint after Recover
	}{
		{stage: "journaled", wantFile: oldContent, wantState: WriteInterrupted},
		{stage: "partial", wantFile: oldContent, wantTemp: true, wantState: WriteInterrupted},
		{stage: "synced", wantFile: oldContent, wantTemp: true, wantState: WriteInterrupted},
		{stage: "renamed", wantFile: newContent, wantState: WriteWritten},
		{stage: "finished", wantFile: newContent, wantState: WriteWritten},
	}
	for _, tt := range tests {
		t.Run(tt.stage, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			dir := t.TempDir()
			journalPath := filepath.Join(dir, "journal", "journal.db")
			target := filepath.Join(dir, "work", "big.txt")
			mustMkdir(t, filepath.Dir(target))
			if err := os.WriteFile(target, oldContent, 0o640); err != nil {
				t.Fatal(err)
			}
			killChildAt(t, tt.stage, journalPath, target)

			got, err := os.ReadFile(target)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, tt.wantFile) {
				t.Fatalf("after kill at %s the file has %d bytes (oldContent %d, newContent %d); want exactly the %s content",
					tt.stage, len(got), len(oldContent), len(newContent), map[bool]string{true: "oldContent", false: "newContent"}[bytes.Equal(tt.wantFile, oldContent)])
			}
			temps := saveTemps(t, filepath.Dir(target))
			if (len(temps) > 0) != tt.wantTemp {
				t.Errorf("after kill at %s temp files %q; want some: %v", tt.stage, temps, tt.wantTemp)
			}
			if tt.stage == "partial" && len(temps) == 1 {
				info, err := os.Stat(filepath.Join(filepath.Dir(target), temps[0]))
				if err != nil {
					t.Fatal(err)
				}
				if info.Size() >= int64(len(newContent)) {
					t.Errorf("temp file at kill has %d of %d bytes; want it partly written", info.Size(), len(newContent))
				}
			}

			j, err := Open(ctx, journalPath)
			if err != nil {
				t.Fatalf("Open after kill = %v", err)
			}
			defer j.Close()
			recovered, err := j.Recover(ctx)
			if err != nil {
				t.Fatalf("Recover() = %v", err)
			}
			if wantRecovered := tt.stage != "finished"; (len(recovered) == 1) != wantRecovered {
				t.Errorf("Recover() = %+v; want one write settled: %v", recovered, wantRecovered)
			}
			if len(recovered) == 1 && len(recovered[0].Files[0].TempFiles) != len(temps) {
				t.Errorf("Recover() removed %q; want the %d left", recovered[0].Files[0].TempFiles, len(temps))
			}
			if temps := saveTemps(t, filepath.Dir(target)); len(temps) > 0 {
				t.Errorf("temp files %q left after Recover", temps)
			}
			cps, err := j.Checkpoints(ctx, CheckpointFilter{})
			if err != nil || len(cps) != 1 {
				t.Fatalf("Checkpoints() = %+v, %v; want the one write", cps, err)
			}
			cp := cps[0]
			if cp.State != tt.wantState || cp.Files[0].Final != atomicfile.Hash(tt.wantFile) {
				t.Errorf("checkpoint after Recover: state %s, final %s; want %s, the disk's %s",
					cp.State, cp.Files[0].Final, tt.wantState, atomicfile.Hash(tt.wantFile))
			}
			if status, _, err := j.ProposalStatus(ctx, "crash"); err != nil || status != string(decision.Approved) {
				t.Errorf("ProposalStatus(crash) = %q, %v; want the approval journaled before the kill", status, err)
			}
			if info, err := os.Stat(target); err != nil || info.Mode().Perm() != 0o640 {
				t.Errorf("file mode after kill at %s: %v, %v; want 0640 kept", tt.stage, info.Mode().Perm(), err)
			}
		})
	}
}

// killChildAt runs TestHelperCrashChild in a child process, waits until it
// signals that it reached stage, and SIGKILLs it.
func killChildAt(t *testing.T, stage, journalPath, target string) {
	t.Helper()
	killTestChild(t, "TestHelperCrashChild", stage,
		crashStageEnv+"="+stage, crashJournalEnv+"="+journalPath, crashTargetEnv+"="+target)
}

// killTestChild runs the test named helper in a child process of this test
// binary with env added, waits until it writes one byte on fd 3 (it reached
// the point named what), and SIGKILLs it there. The child's stdin is a pipe
// nobody writes, for it to block on.
func killTestChild(t *testing.T, helper, what string, env ...string) {
	t.Helper()
	signalR, signalW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer signalR.Close()
	holdR, holdW, err := os.Pipe() // never written: the child blocks reading it
	if err != nil {
		t.Fatal(err)
	}
	defer holdW.Close()
	var out bytes.Buffer
	cmd := exec.Command(os.Args[0], "-test.run=^"+helper+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = holdR, &out, &out
	cmd.ExtraFiles = []*os.File{signalW} // fd 3 in the child
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	signalW.Close()
	holdR.Close()
	reached := make(chan error, 1)
	// Ends when the child writes its byte, exits, or is killed.
	go func() {
		_, err := io.ReadFull(signalR, make([]byte, 1))
		reached <- err
	}()
	select {
	case err := <-reached:
		if err != nil {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("%s exited before reaching %s: %v\n%s", helper, what, err, out.String())
		}
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("%s did not reach %s in 2 minutes\n%s", helper, what, out.String())
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("%s ended with %v; want killed by SIGKILL\n%s", helper, err, out.String())
	}
}

// TestHelperCrashChild is the desk side of TestCrashDuringWrite: it does
// what the desk does for an approved proposal and, at the stage named in
// its environment, signals its parent and blocks until killed. It is
// skipped in a normal test run.
func TestHelperCrashChild(t *testing.T) {
	stage := os.Getenv(crashStageEnv)
	if stage == "" {
		t.Skip("runs only as TestCrashDuringWrite's child process")
	}
	signal := os.NewFile(3, "signal")
	reached := func() {
		if _, err := signal.Write([]byte{1}); err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, os.Stdin) // blocks: the parent never writes, and kills us
		t.Fatal("parent closed stdin instead of killing the child")
	}
	ctx := context.Background()
	journalPath, target := os.Getenv(crashJournalEnv), os.Getenv(crashTargetEnv)
	_, newContent := crashContent()
	j, err := Open(ctx, journalPath)
	if err != nil {
		t.Fatal(err)
	}
	base, err := atomicfile.ReadSnapshot(target)
	if err != nil {
		t.Fatal(err)
	}
	recordApproved(t, j, "crash", "claude", target, base.Content, newContent)
	id, err := j.BeginWrite(ctx, WriteIntent{ProposalID: "crash", Files: []FileWrite{
		{Path: target, Root: filepath.Dir(target), BeforeExists: true, Before: base.Content, After: newContent}}})
	if err != nil {
		t.Fatal(err)
	}
	if stage == "journaled" {
		reached()
	}
	atomicfile.SetTestHook(func(step string) {
		if step == stage {
			reached()
		}
	})
	created, err := atomicfile.Save(target, newContent, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.FinishWrite(ctx, id, []FileFinal{{Path: target, Final: newContent, CreatedDirs: created}}); err != nil {
		t.Fatal(err)
	}
	if stage == "finished" {
		reached()
	}
	t.Fatalf("unknown stage %q", stage)
}
