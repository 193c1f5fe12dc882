package review_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/reviewtest"
	"github.com/diffdesk/diffdesk/review/workspace"
)

// A big or sparse file is refused from its size on disk, through every
// way the desk reads a file (Read, each proposal format), with the limit
// in the message; nothing of it is read (a 4 GiB sparse file once took
// the desk out of memory: it read the file whole before the size check).
func TestBigSparseFileIsRefusedUnread(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "[limits]\nmax_file_bytes = 100000\n")
	path := filepath.Join(d.Root, "huge.log")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(512 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	doors := map[string]func() error{
		"read": func() error { _, err := d.Read("huge.log"); return err },
		"search-replace": func() error {
			_, err := d.Propose(context.Background(), review.Request{Format: engine.FormatSearchReplace, Path: "huge.log", Payload: reviewtest.SR("a\n", "b\n")})
			return err
		},
		"write": func() error {
			_, err := d.Propose(context.Background(), review.Request{Format: engine.FormatWrite, Path: "huge.log", Payload: "small\n"})
			return err
		},
		"stream": func() error {
			_, err := d.Propose(context.Background(), review.Request{Format: engine.FormatWrite, Path: "huge.log", Stream: true})
			return err
		},
		"patch": func() error {
			_, err := d.Propose(context.Background(), review.Request{Format: engine.FormatPatch,
				Payload: "*** Begin Patch\n*** Update File: huge.log\n@@\n-a\n+b\n*** End Patch\n"})
			return err
		},
	}
	for name, door := range doors {
		t.Run(name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			err := door()
			runtime.ReadMemStats(&after)
			var refusal *workspace.RefusalError
			if !errors.As(err, &refusal) || refusal.Rule != workspace.RuleTooLarge || !strings.Contains(err.Error(), "100000-byte limit") {
				t.Errorf("%s of a 512 MiB sparse file: %v; want refused as over the 100000-byte limit", name, err)
			}
			if got := after.TotalAlloc - before.TotalAlloc; got > 8<<20 {
				t.Errorf("%s of a 512 MiB sparse file allocated %d MiB; want it refused from its size, unread", name, got>>20)
			}
		})
	}
}

// A FIFO, a device or a directory in the workspace is refused as not a
// file, through Read and a proposal, without waiting for a writer.
func TestNonRegularFilesAreRefused(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	if err := syscall.Mkfifo(filepath.Join(d.Root, "pipe"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(d.Root, "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(d.Root, "zero")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"pipe", "dir", "zero"} {
		if _, err := d.Read(name); err == nil {
			t.Errorf("Read(%s) succeeded; want refused", name)
		}
		_, err := d.Propose(context.Background(), review.Request{Format: engine.FormatWrite, Path: name, Payload: "x\n"})
		if err == nil {
			t.Errorf("a proposal to %s succeeded; want refused", name)
		}
	}
}
