package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCompareDirsReadsOnlyFiles: two directories (git difftool -d, or a
// person's two folders) are compared file by file; a FIFO in both with no
// writer (os.Open waited on it for good), a device or a link loop is not
// read as a file: it is listed as not compared, and the listing comes at
// once.
func TestCompareDirsReadsOnlyFiles(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	for _, dir := range []string{a, b} {
		if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o600); err != nil {
			t.Skip(err)
		}
		if err := os.Symlink("loop", filepath.Join(dir, "loop")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero")); err != nil {
			t.Fatal(err)
		}
		write(t, dir, "same.txt", "same\n")
	}
	done := make(chan string, 1)
	go func() {
		var errOut strings.Builder
		compareDirs(a, b, &errOut)
		done <- errOut.String()
	}()
	select {
	case out := <-done:
		for _, name := range []string{"pipe", "loop", "zero"} {
			if !strings.Contains(out, "skipped  "+name) {
				t.Errorf("the listing %q does not say %s is not a file it compares", out, name)
			}
		}
		if strings.Contains(out, "same.txt") {
			t.Errorf("the listing %q names a file both hold alike", out)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("compareDirs is still reading a FIFO without a writer")
	}
}

// TestCompareRefusesALinkLoopAndABigFileUnread: a side that is a link
// loop is an error naming it, and one over the limit is refused from its
// size (a sparse file: nothing read); no window opens.
func TestCompareRefusesALinkLoopAndABigFileUnread(t *testing.T) {
	dir := t.TempDir()
	a := write(t, dir, "a.go", "package a\n")
	loop := filepath.Join(dir, "loop")
	if err := os.Symlink("loop", loop); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.txt")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, 2<<30); err != nil {
		t.Skip(err)
	}
	for _, side := range []string{loop, big} {
		code, _, errOut, s := runCompare(t, a, side)
		if code != 2 || s.opened || !strings.Contains(errOut, side) {
			t.Errorf("diffdesk a.go %s: code %d, %q, opened %v; want 2 and a message naming it", filepath.Base(side), code, errOut, s.opened)
		}
	}
}
