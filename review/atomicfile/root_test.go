package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// rootAndOutside makes a workspace root holding sub/a.txt ("old") and a
// directory outside it holding a.txt ("outside"); both symlink-resolved.
func rootAndOutside(t *testing.T) (root, outside string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root, outside = filepath.Join(base, "ws"), filepath.Join(base, "outside")
	mustMkdir(t, filepath.Join(root, "sub"))
	mustMkdir(t, outside)
	mustWrite(t, filepath.Join(root, "sub", "a.txt"), "old")
	mustWrite(t, filepath.Join(outside, "a.txt"), "outside")
	return root, outside
}

func mustWrite(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// wantOutsideUntouched fails the test unless outside holds exactly a.txt
// with "outside".
func wantOutsideUntouched(t *testing.T, outside string) {
	t.Helper()
	entries, err := os.ReadDir(outside)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "a.txt" {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("outside the root: %q; want only a.txt", names)
	}
	if got, _ := os.ReadFile(filepath.Join(outside, "a.txt")); string(got) != "outside" {
		t.Errorf("outside a.txt = %q; want it untouched", got)
	}
}

// TestSaveInRefusesLinksOutOfRoot: a parent directory or the file itself
// replaced by a symlink leading out of the root is refused, and nothing is
// written outside.
func TestSaveInRefusesLinksOutOfRoot(t *testing.T) {
	for _, tt := range []struct {
		name string
		swap func(t *testing.T, root, outside string)
		file string // relative to root
	}{
		{"parent swapped", func(t *testing.T, root, outside string) {
			os.RemoveAll(filepath.Join(root, "sub"))
			mustSymlink(t, outside, filepath.Join(root, "sub"))
		}, "sub/a.txt"},
		{"parent swapped, relative link", func(t *testing.T, root, outside string) {
			os.RemoveAll(filepath.Join(root, "sub"))
			mustSymlink(t, "../outside", filepath.Join(root, "sub"))
		}, "sub/a.txt"},
		{"parent swapped, new file", func(t *testing.T, root, outside string) {
			os.RemoveAll(filepath.Join(root, "sub"))
			mustSymlink(t, outside, filepath.Join(root, "sub"))
		}, "sub/new/b.txt"},
		{"file swapped", func(t *testing.T, root, outside string) {
			os.Remove(filepath.Join(root, "sub", "a.txt"))
			mustSymlink(t, filepath.Join(outside, "a.txt"), filepath.Join(root, "sub", "a.txt"))
		}, "sub/a.txt"},
		{"file swapped, relative link", func(t *testing.T, root, outside string) {
			os.Remove(filepath.Join(root, "sub", "a.txt"))
			mustSymlink(t, "../../outside/a.txt", filepath.Join(root, "sub", "a.txt"))
		}, "sub/a.txt"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root, outside := rootAndOutside(t)
			tt.swap(t, root, outside)
			path := filepath.Join(root, tt.file)
			_, err := SaveIn(root, path, []byte("new"), 0)
			var se *Error
			if !errors.As(err, &se) || !errors.Is(err, ErrOutsideRoot) {
				t.Fatalf("SaveIn(%s) = %v; want a *Error wrapping ErrOutsideRoot", path, err)
			}
			wantOutsideUntouched(t, outside)
		})
	}
}

// TestSaveInFollowsLinksInsideRoot: a symlink at the path that stays in
// the root is written through and kept, relative or absolute.
func TestSaveInFollowsLinksInsideRoot(t *testing.T) {
	for _, abs := range []bool{false, true} {
		root, _ := rootAndOutside(t)
		target := "sub/a.txt"
		if abs {
			target = filepath.Join(root, "sub", "a.txt")
		}
		link := filepath.Join(root, "link.txt")
		mustSymlink(t, target, link)
		if _, err := SaveIn(root, link, []byte("new"), 0); err != nil {
			t.Fatalf("SaveIn(link -> %s) = %v", target, err)
		}
		if info, err := os.Lstat(link); err != nil || info.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("SaveIn(link -> %s) replaced the link", target)
		}
		if got, _ := os.ReadFile(filepath.Join(root, "sub", "a.txt")); string(got) != "new" {
			t.Errorf("SaveIn(link -> %s): target holds %q; want new", target, got)
		}
	}
}

// TestSaveInParentSwappedMidWrite: a parent directory renamed away and
// replaced by a symlink out of the root while the temp file is written
// does not redirect the rename: the file lands in the directory SaveIn
// opened, and nothing outside changes.
func TestSaveInParentSwappedMidWrite(t *testing.T) {
	root, outside := rootAndOutside(t)
	sub := filepath.Join(root, "sub")
	SetTestHook(func(step string) {
		if step == "synced" {
			if err := os.Rename(sub, sub+".moved"); err != nil {
				t.Error(err)
			}
			mustSymlink(t, outside, sub)
		}
	})
	t.Cleanup(func() { SetTestHook(nil) })
	if _, err := SaveIn(root, filepath.Join(sub, "a.txt"), []byte("new"), 0); err != nil {
		t.Fatalf("SaveIn = %v", err)
	}
	wantOutsideUntouched(t, outside)
	if got, _ := os.ReadFile(filepath.Join(sub+".moved", "a.txt")); string(got) != "new" {
		t.Errorf("the directory SaveIn opened holds %q; want new", got)
	}
}

// TestSaveInRefusesPathOutsideRoot: a path that is not under the root at
// all is refused before anything is touched.
func TestSaveInRefusesPathOutsideRoot(t *testing.T) {
	root, outside := rootAndOutside(t)
	if _, err := SaveIn(root, filepath.Join(outside, "a.txt"), []byte("new"), 0); !errors.Is(err, ErrOutsideRoot) {
		t.Fatalf("SaveIn(outside) = %v; want ErrOutsideRoot", err)
	}
	wantOutsideUntouched(t, outside)
}

// TestRemoveInRefusesLinksOutOfRoot: removing through a parent swapped for
// a symlink out of the root removes nothing there.
func TestRemoveInRefusesLinksOutOfRoot(t *testing.T) {
	root, outside := rootAndOutside(t)
	os.RemoveAll(filepath.Join(root, "sub"))
	mustSymlink(t, outside, filepath.Join(root, "sub"))
	if err := RemoveIn(root, filepath.Join(root, "sub", "a.txt")); !errors.Is(err, ErrOutsideRoot) {
		t.Fatalf("RemoveIn = %v; want ErrOutsideRoot", err)
	}
	wantOutsideUntouched(t, outside)
	if err := RemoveIn(root, filepath.Join(root, "gone", "x.txt")); err != nil {
		t.Errorf("RemoveIn(missing) = %v; want nil", err)
	}
}
