package atomicfile

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// saveTemps lists Save's temporary files in dir.
func saveTemps(t *testing.T, dir string) []string {
	t.Helper()
	temps, err := Temps(dir)
	if err != nil {
		t.Fatal(err)
	}
	return temps
}

func TestSaveFile(t *testing.T) {
	tests := []struct {
		name     string
		existing []byte      // nil: no file before
		oldMode  fs.FileMode // mode of the existing file
		mode     fs.FileMode // passed to Save
		rel      string      // path under the temp dir
		wantMode fs.FileMode
		wantDirs []string // created, relative
	}{
		{name: "new file", rel: "a.txt", wantMode: 0o644},
		{name: "new file with mode", rel: "run.sh", mode: 0o755, wantMode: 0o755},
		{name: "new file in new dirs", rel: "x/y/z.go", wantMode: 0o644, wantDirs: []string{"x", "x/y"}},
		{name: "overwrite keeps mode", existing: []byte("old\r\n"), oldMode: 0o750, rel: "keep.sh", wantMode: 0o750},
		{name: "overwrite with explicit mode", existing: []byte("old"), oldMode: 0o600, mode: 0o640, rel: "m.txt", wantMode: 0o640},
		{name: "overwrite with empty", existing: []byte("old"), oldMode: 0o644, rel: "empty.txt", wantMode: 0o644},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, tt.rel)
			if tt.existing != nil {
				if err := os.WriteFile(path, tt.existing, tt.oldMode); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(path, tt.oldMode); err != nil {
					t.Fatal(err)
				}
			}
			content := []byte("\ufeffnew\r\ncontent\r\n")
			if tt.name == "overwrite with empty" {
				content = []byte{}
			}
			created, err := Save(path, content, tt.mode)
			if err != nil {
				t.Fatalf("Save(%s) = %v", path, err)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, content) {
				t.Errorf("Save(%s) wrote %q; want %q", path, got, content)
			}
			info, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if info.Mode().Perm() != tt.wantMode {
				t.Errorf("Save(%s) mode %v; want %v", path, info.Mode().Perm(), tt.wantMode)
			}
			var wantDirs []string
			for _, d := range tt.wantDirs {
				wantDirs = append(wantDirs, filepath.Join(dir, d))
			}
			if strings.Join(created, "|") != strings.Join(wantDirs, "|") {
				t.Errorf("Save(%s) created %q; want %q", path, created, wantDirs)
			}
			if temps := saveTemps(t, filepath.Dir(path)); len(temps) > 0 {
				t.Errorf("Save(%s) left temp files %q", path, temps)
			}
		})
	}
}

func TestSaveFileKeepsSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.txt")
	link := filepath.Join(dir, "link.txt")
	if err := os.WriteFile(real, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real.txt", link); err != nil {
		t.Fatal(err)
	}
	if _, err := Save(link, []byte("new"), 0); err != nil {
		t.Fatalf("Save(%s) = %v", link, err)
	}
	info, err := os.Lstat(link)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("Save(%s) replaced the symlink with %v", link, info.Mode())
	}
	got, _ := os.ReadFile(real)
	if string(got) != "new" {
		t.Errorf("Save(%s) target holds %q; want %q", link, got, "new")
	}
	if info, _ := os.Stat(real); info.Mode().Perm() != 0o600 {
		t.Errorf("Save(%s) target mode %v; want 0600", link, info.Mode().Perm())
	}
}

func TestSaveFileErrors(t *testing.T) {
	tests := []struct {
		name     string
		setup    func(t *testing.T, dir string) string // returns the path to save
		hook     func(t *testing.T, path string) func(step string)
		wantStep string
	}{
		{
			name:     "relative path",
			setup:    func(t *testing.T, dir string) string { return "rel.txt" },
			wantStep: "check path",
		},
		{
			name: "target is a directory",
			setup: func(t *testing.T, dir string) string {
				p := filepath.Join(dir, "d")
				mustMkdir(t, p)
				return p
			},
			wantStep: "check file",
		},
		{
			name: "parent is a file",
			setup: func(t *testing.T, dir string) string {
				p := filepath.Join(dir, "f")
				if err := os.WriteFile(p, nil, 0o644); err != nil {
					t.Fatal(err)
				}
				return filepath.Join(p, "child.txt")
			},
			wantStep: "mkdir",
		},
		{
			name: "rename fails",
			setup: func(t *testing.T, dir string) string {
				return filepath.Join(dir, "raced.txt")
			},
			// Someone puts a non-empty directory where the file goes
			// while Save writes the temp file.
			hook: func(t *testing.T, path string) func(string) {
				return func(step string) {
					if step == "synced" {
						mustMkdir(t, filepath.Join(path, "sub"))
					}
				}
			},
			wantStep: "rename",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := tt.setup(t, dir)
			if tt.hook != nil {
				hook := tt.hook(t, path)
				SetTestHook(hook)
				t.Cleanup(func() { SetTestHook(nil) })
			}
			_, err := Save(path, []byte("x"), 0)
			var se *Error
			if !errors.As(err, &se) {
				t.Fatalf("Save(%s) = %v; want a *Error", path, err)
			}
			if !strings.HasPrefix(se.Step, tt.wantStep) {
				t.Errorf("Save(%s) failed at step %q; want %q", path, se.Step, tt.wantStep)
			}
			if !strings.Contains(err.Error(), path) {
				t.Errorf("Save error %q does not name %s", err, path)
			}
			if temps := saveTemps(t, dir); len(temps) > 0 {
				t.Errorf("Save(%s) left temp files %q", path, temps)
			}
		})
	}
}

func mustMkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

func TestRemoveCreatedDirs(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a", "b", "c", "f.txt")
	created, err := MkdirParents(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(created) != 3 {
		t.Fatalf("MkdirParents(%s) created %q; want 3 dirs", path, created)
	}
	// Someone else puts a file in a/: a/ must stay, b/ and c/ go.
	other := filepath.Join(dir, "a", "other.txt")
	if err := os.WriteFile(other, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := RemoveCreatedDirs(created); err != nil {
		t.Fatalf("RemoveCreatedDirs(%q) = %v", created, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "a", "b")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("RemoveCreatedDirs left a/b: %v", err)
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("RemoveCreatedDirs removed a/ with a file in it: %v", err)
	}
}

func TestSnapshotFileAndChanged(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.txt")
	missing, err := ReadSnapshot(path)
	if err != nil || missing.Exists {
		t.Fatalf("ReadSnapshot(missing) = %+v, %v; want Exists false, nil", missing, err)
	}
	if err := os.WriteFile(path, []byte("one\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	one, err := ReadSnapshot(path)
	if err != nil {
		t.Fatal(err)
	}
	if !one.Exists || string(one.Content) != "one\n" || one.Size != 4 || one.Mode != 0o640 ||
		one.SHA256 != Hash([]byte("one\n")) || one.ModTime.IsZero() {
		t.Errorf("ReadSnapshot(%s) = %+v", path, one)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	chmodded, _ := ReadSnapshot(path)
	if err := os.WriteFile(path, []byte("two\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	two, _ := ReadSnapshot(path)
	tests := []struct {
		name    string
		a, b    Snapshot
		changed bool
	}{
		{"same", one, one, false},
		{"mode only", one, chmodded, false},
		{"content", one, two, true},
		{"appeared", missing, one, true},
		{"disappeared", one, missing, true},
		{"both missing", missing, missing, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.a.Changed(tt.b); got != tt.changed {
				t.Errorf("Changed() = %v; want %v", got, tt.changed)
			}
		})
	}
	if _, err := ReadSnapshot(dir); err == nil || !strings.Contains(err.Error(), dir) {
		t.Errorf("ReadSnapshot(dir) = %v; want an error naming %s", err, dir)
	}
}

func TestRemoveSaveTemps(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.txt")
	names := map[string]bool{ // name → removed
		".f.txt" + TempMarker + "123.tmp":     true,
		".f.txt" + TempMarker + "456.tmp":     true,
		".g.txt" + TempMarker + "123.tmp":     false, // another file's
		".f.txt.swp":                          false,
		"f.txt":                               false,
		".f.txt" + TempMarker + "123.tmp.bak": false,
	}
	for name := range names {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	removed, err := RemoveTemps(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(removed) != 2 {
		t.Errorf("RemoveTemps(%s) removed %q; want 2 files", path, removed)
	}
	for name, gone := range names {
		_, err := os.Stat(filepath.Join(dir, name))
		if gone != errors.Is(err, fs.ErrNotExist) {
			t.Errorf("RemoveTemps: %s gone = %v; want %v", name, !gone, gone)
		}
	}
}

// A file is refused from its size on disk, before it is read: a sparse
// file of 1 GiB costs nothing. A file whose size stat does not tell (one
// that grows while it is read; /proc's files say 0) is read no further
// than the limit and one byte. A FIFO is refused at once, not waited on.
func TestReadSnapshotMaxRefusesBigFilesUnread(t *testing.T) {
	dir := t.TempDir()
	sparse := filepath.Join(dir, "sparse.log")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = ReadSnapshotMax(sparse, 1000)
	runtime.ReadMemStats(&after)
	var big *TooLargeError
	if !errors.As(err, &big) || big.Size != 1<<30 || big.Limit != 1000 || !strings.Contains(err.Error(), "1000-byte limit") {
		t.Errorf("ReadSnapshotMax(1 GiB sparse, 1000) = %v; want a TooLargeError naming the 1000-byte limit", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("refusing a 1 GiB file allocated %d bytes; want it refused from stat, unread", got)
	}
	if _, err := ReadSnapshotMax("/proc/self/maps", 10); !errors.As(err, &big) || big.Size != -1 {
		t.Errorf("ReadSnapshotMax(/proc/self/maps, 10) = %v; want too large once 11 bytes were read", err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadSnapshotMax(fifo, 1000); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("ReadSnapshotMax(FIFO) = %v; want refused as not a regular file, without waiting for a writer", err)
	}
}
