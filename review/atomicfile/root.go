package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// ErrOutsideRoot is wrapped by the *Error of SaveIn and RemoveIn when the
// path, or a symlink on the way to it, leads out of their root.
var ErrOutsideRoot = errors.New("it leads outside the workspace root")

// maxLinks bounds the symlink chain SaveIn follows from the file's name.
const maxLinks = 40

// SaveIn is Save confined to the directory tree root (absolute, symlinks
// resolved): path must lie inside it, and so must everything the write
// goes through. Directories on the way are reached through root, following
// only symlinks that stay inside it (os.Root: openat without following
// links, component by component); the temporary file is created, and
// renamed over the file, relative to the opened parent directory. So a
// directory or the file replaced by a symlink that leads out of root —
// before SaveIn, or while it runs — cannot redirect the write: it fails
// with a *Error wrapping ErrOutsideRoot and nothing is written there. A
// symlink at path that stays inside root is written through and kept, as
// Save does; an absolute one must name a path under root.
func SaveIn(root, path string, content []byte, mode fs.FileMode) (created []string, err error) {
	r, rel, err := openIn(root, path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if rel, err = followIn(r, path, rel); err != nil {
		return nil, err
	}
	created, err = mkdirIn(r, path, rel)
	if err != nil {
		return created, err
	}
	dir, err := r.OpenRoot(filepath.Dir(rel))
	if err != nil {
		return created, inError(r, path, "open dir", err)
	}
	defer dir.Close()
	return created, saveAt(dir, path, filepath.Base(rel), content, mode)
}

// RemoveIn is Remove confined to root, as SaveIn is: the file is removed
// relative to its opened parent directory, and a directory on the way
// replaced by a symlink leading out of root is an error wrapping
// ErrOutsideRoot. A symlink at path is itself removed, not its target.
func RemoveIn(root, path string) error {
	r, rel, err := openIn(root, path)
	if err != nil {
		return err
	}
	defer r.Close()
	dir, err := r.OpenRoot(filepath.Dir(rel))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return inError(r, path, "open dir", err)
	}
	defer dir.Close()
	if err := dir.Remove(filepath.Base(rel)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return &Error{Path: path, Step: "remove", Err: err}
	}
	if err := syncRoot(dir, "."); err != nil {
		return &Error{Path: path, Step: "fsync dir " + dir.Name(), Err: err}
	}
	return nil
}

// openIn opens root and returns path relative to it; path must be inside
// root (lexically: both are absolute and clean).
func openIn(root, path string) (*os.Root, string, error) {
	rel, ok := relIn(root, path)
	if !ok {
		return nil, "", &Error{Path: path, Step: "check path", Err: fmt.Errorf("%w %s", ErrOutsideRoot, root)}
	}
	r, err := os.OpenRoot(root)
	if errors.Is(err, fs.ErrNotExist) {
		err = fmt.Errorf("the workspace root %s no longer exists; recreate it to write there", root)
	}
	if err != nil {
		return nil, "", &Error{Path: path, Step: "open root " + root, Err: err}
	}
	return r, rel, nil
}

// relIn returns path relative to root if it lies inside it.
func relIn(root, path string) (string, bool) {
	if !filepath.IsAbs(root) || !filepath.IsAbs(path) {
		return "", false
	}
	rel, err := filepath.Rel(root, path)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return rel, true
}

// followIn follows the symlink chain at rel (relative to r) to the file
// it names, which must lie inside r; a missing file is rel itself.
func followIn(r *os.Root, path, rel string) (string, error) {
	for range maxLinks {
		info, err := r.Lstat(rel)
		switch {
		case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
			return rel, nil // mkdirIn creates or names the missing directory
		case err != nil:
			return "", inError(r, path, "stat", err)
		case info.Mode()&fs.ModeSymlink == 0:
			return rel, nil
		}
		link, err := r.Readlink(rel)
		if err != nil {
			return "", inError(r, path, "resolve symlink", err)
		}
		target := link
		if !filepath.IsAbs(link) {
			target = filepath.Join(r.Name(), filepath.Dir(rel), link)
		}
		next, ok := relIn(r.Name(), filepath.Clean(target))
		if !ok {
			return "", &Error{Path: path, Step: "resolve symlink", Err: fmt.Errorf("%w %s: %s is a symlink to %s", ErrOutsideRoot, r.Name(), filepath.Join(r.Name(), rel), link)}
		}
		rel = next
	}
	return "", &Error{Path: path, Step: "resolve symlink", Err: fmt.Errorf("more than %d symlinks in a chain", maxLinks)}
}

// mkdirIn creates the missing parent directories of rel inside r, as
// MkdirParents does, and returns those it created (absolute).
func mkdirIn(r *os.Root, path, rel string) (created []string, err error) {
	var missing []string
	for dir := filepath.Dir(rel); dir != "."; dir = filepath.Dir(dir) {
		info, err := r.Stat(dir)
		if err == nil {
			if !info.IsDir() {
				return nil, &Error{Path: path, Step: "mkdir", Err: fmt.Errorf("%s is not a directory", filepath.Join(r.Name(), dir))}
			}
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, inError(r, path, "mkdir", err)
		}
		missing = append([]string{dir}, missing...)
	}
	for _, dir := range missing {
		abs := filepath.Join(r.Name(), dir)
		if err := r.Mkdir(dir, saveDirMode); err != nil {
			return created, inError(r, path, "mkdir "+abs, err)
		}
		created = append(created, abs)
		if err := syncRoot(r, filepath.Dir(dir)); err != nil {
			return created, &Error{Path: path, Step: "fsync dir " + filepath.Dir(abs), Err: err}
		}
	}
	return created, nil
}

// inError is the *Error of a step that failed inside r, wrapping
// ErrOutsideRoot when path, as the file system has it now, leads out of r
// (os.Root refused a symlink on the way).
func inError(r *os.Root, path, step string, err error) error {
	if real, ok := leadsOutside(r.Name(), path); ok {
		err = fmt.Errorf("%w %s (it resolves to %s): %v", ErrOutsideRoot, r.Name(), real, err)
	}
	return &Error{Path: path, Step: step, Err: err}
}

// leadsOutside resolves the symlinks of path, or of its nearest existing
// parent, and reports whether that leads out of root.
func leadsOutside(root, path string) (string, bool) {
	real, err := Resolve(path)
	if err != nil {
		return "", false
	}
	_, inside := relIn(root, real)
	return real, !inside && real != root
}

// Resolve returns path (absolute, clean) with its symlinks resolved; for a
// path that does not exist, its nearest existing parent's, with the rest
// appended. Compare it with path to see whether a symlink now sends a
// write elsewhere.
func Resolve(path string) (string, error) {
	var rest []string
	for p := path; ; p = filepath.Dir(p) {
		real, err := filepath.EvalSymlinks(p)
		if err == nil {
			return filepath.Join(append([]string{real}, rest...)...), nil
		}
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) || filepath.Dir(p) == p {
			return "", fmt.Errorf("resolve %s: %w", path, err)
		}
		rest = append([]string{filepath.Base(p)}, rest...)
	}
}
