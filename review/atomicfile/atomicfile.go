// Package atomicfile saves files so that a reader, or a crash at any point,
// sees either the old content or the new, never a mix; it also takes the
// snapshots the desk compares against before writing.
package atomicfile

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// DefaultFileMode is the permission a new file gets when Save is not
// told one: rw-r--r--, what editors and agents create.
const DefaultFileMode fs.FileMode = 0o644

// saveDirMode is the permission of parent directories Save creates.
const saveDirMode fs.FileMode = 0o755

// saveChunk is how many bytes Save writes per call; the crash test stops
// a writer between chunks, so a large file really is half-written then.
const saveChunk = 1 << 20

// TempMarker is part of every temporary file name Save uses, so that
// Recover can find leftovers of a killed writer and nothing else.
const TempMarker = ".diffdesk-"

// SetTestHook sets (nil clears) a function Save calls at each step, for
// crash tests only. See saveTestHook.
func SetTestHook(hook func(step string)) {
	if hook == nil {
		saveTestHook.Store(nil)
		return
	}
	saveTestHook.Store(&hook)
}

// saveTestHook, when set (by tests only), holds a function Save calls
// at each step with the step's name: "partial" after the first chunk of a
// multi-chunk file, "synced" after the temp file is complete and fsynced,
// "renamed" after the rename and before the directory fsync. A test blocks
// in it to be killed at that exact point.
var saveTestHook atomic.Pointer[func(step string)]

// Error is a failed Save: which file, which step, and why. The target
// file is untouched unless Step is "fsync dir" (then it holds the new content
// but the rename may not survive a power loss).
type Error struct {
	Path string // the file being saved
	Step string // "mkdir", "create temp", "write", "fsync", "chmod", "rename", "fsync dir", …
	Err  error
}

// Error names the file and the step.
func (e *Error) Error() string {
	return fmt.Sprintf("save %s: %s: %v", e.Path, e.Step, e.Err)
}

// Unwrap returns the underlying error, so errors.Is(err, fs.ErrPermission)
// works.
func (e *Error) Unwrap() error { return e.Err }

// Save writes content to path atomically: a reader, or a crash at any
// point, sees either the old file or the new one, never a mix. It writes a
// temporary file in the same directory (mode 0600 while writing), sets
// mode, fsyncs it, renames it over path and fsyncs the directory. A mode of 0
// keeps the existing file's permission bits, or DefaultFileMode for a new
// file. An existing file's owner and group are kept where the process may
// set them. If path is a symlink the file it points to is replaced and the
// link is kept. Missing parent directories are created (0755); created lists them,
// outermost first, even when a later step fails, so the caller can remove
// them again with RemoveCreatedDirs. On error no temporary file is left
// behind and the error is a *Error.
func Save(path string, content []byte, mode fs.FileMode) (created []string, err error) {
	target, err := saveTarget(path)
	if err != nil {
		return nil, err
	}
	created, err = MkdirParents(target)
	if err != nil {
		return created, err
	}
	dir, err := os.OpenRoot(filepath.Dir(target))
	if err != nil {
		return created, &Error{Path: path, Step: "open dir", Err: err}
	}
	defer dir.Close()
	return created, saveAt(dir, path, filepath.Base(target), content, mode)
}

// saveAt is Save's write of the file name in the opened directory dir:
// the temp file is created, and renamed over name, relative to dir, so
// nothing that happens to the path of dir meanwhile can redirect it. path
// names the file in errors.
func saveAt(dir *os.Root, path, name string, content []byte, mode fs.FileMode) error {
	old, statErr := dir.Lstat(name)
	switch {
	case statErr == nil && !old.Mode().IsRegular():
		return &Error{Path: path, Step: "check file", Err: fmt.Errorf("not a regular file (%s)", old.Mode().Type())}
	case statErr != nil && !errors.Is(statErr, fs.ErrNotExist):
		return &Error{Path: path, Step: "stat", Err: statErr}
	}
	if mode == 0 {
		mode = DefaultFileMode
		if statErr == nil {
			mode = old.Mode().Perm()
		}
	}
	tmp, tmpName, err := createTemp(dir, name)
	if err != nil {
		return &Error{Path: path, Step: "create temp", Err: err}
	}
	tmpPath := filepath.Join(dir.Name(), tmpName)
	renamed := false
	defer func() {
		if !renamed {
			tmp.Close()
			dir.Remove(tmpName)
		}
	}()
	if err := writeChunks(tmp, content); err != nil {
		return &Error{Path: path, Step: "write " + tmpPath, Err: err}
	}
	if statErr == nil {
		if err := keepOwner(tmp, old); err != nil {
			return &Error{Path: path, Step: "chown " + tmpPath, Err: err}
		}
	}
	if err := tmp.Chmod(mode); err != nil {
		return &Error{Path: path, Step: "chmod " + tmpPath, Err: err}
	}
	if err := tmp.Sync(); err != nil {
		return &Error{Path: path, Step: "fsync " + tmpPath, Err: err}
	}
	if err := tmp.Close(); err != nil {
		return &Error{Path: path, Step: "close " + tmpPath, Err: err}
	}
	callSaveHook("synced")
	if err := dir.Rename(tmpName, name); err != nil {
		return &Error{Path: path, Step: "rename", Err: err}
	}
	renamed = true
	callSaveHook("renamed")
	if err := syncRoot(dir, "."); err != nil {
		return &Error{Path: path, Step: "fsync dir " + dir.Name(), Err: err}
	}
	return nil
}

// createTemp creates a new temporary file (mode 0600) for name in dir,
// named so that RemoveTemps finds it.
func createTemp(dir *os.Root, name string) (*os.File, string, error) {
	for range 100 {
		tmpName := "." + name + TempMarker + strconv.FormatUint(uint64(rand.Uint32()), 10) + ".tmp"
		f, err := dir.OpenFile(tmpName, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, tmpName, err
	}
	return nil, "", fmt.Errorf("no unused temporary name for %s in %s", name, dir.Name())
}

// saveTarget resolves path to the regular file Save must replace:
// path itself, or the end of its symlink chain.
func saveTarget(path string) (string, error) {
	if !filepath.IsAbs(path) {
		return "", &Error{Path: path, Step: "check path", Err: errors.New("path is not absolute")}
	}
	info, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		return path, nil // MkdirParents creates or names the missing directory
	case err != nil:
		return "", &Error{Path: path, Step: "stat", Err: err}
	case info.Mode()&fs.ModeSymlink != 0:
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			return "", &Error{Path: path, Step: "resolve symlink", Err: err}
		}
		return saveTarget(real)
	case !info.Mode().IsRegular():
		return "", &Error{Path: path, Step: "check file", Err: fmt.Errorf("not a regular file (%s)", info.Mode().Type())}
	}
	return path, nil
}

func writeChunks(f *os.File, content []byte) error {
	for off := 0; off < len(content); off += saveChunk {
		end := min(off+saveChunk, len(content))
		if _, err := f.Write(content[off:end]); err != nil {
			return err
		}
		if off == 0 && end < len(content) {
			callSaveHook("partial")
		}
	}
	return nil
}

func callSaveHook(step string) {
	if hook := saveTestHook.Load(); hook != nil {
		(*hook)(step)
	}
}

// syncRoot fsyncs the directory name inside root.
func syncRoot(root *os.Root, name string) error {
	d, err := root.Open(name)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// MkdirParents creates the missing parent directories of path (mode 0755)
// and returns those it created, outermost first, so they can be removed
// again with RemoveCreatedDirs. When it fails it still returns what it had
// created; the error is a *Error.
func MkdirParents(path string) (created []string, err error) {
	missing, err := MissingParents(path)
	if err != nil {
		return nil, err
	}
	for _, dir := range missing {
		if err := os.Mkdir(dir, saveDirMode); err != nil {
			return created, &Error{Path: path, Step: "mkdir " + dir, Err: err}
		}
		created = append(created, dir)
		if err := syncDir(filepath.Dir(dir)); err != nil {
			return created, &Error{Path: path, Step: "fsync dir " + filepath.Dir(dir), Err: err}
		}
	}
	return created, nil
}

// MissingParents returns the parent directories of path that do not
// exist, outermost first: those Save would create.
func MissingParents(path string) ([]string, error) {
	var missing []string
	for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
		info, err := os.Stat(dir)
		if err == nil {
			if !info.IsDir() {
				return nil, &Error{Path: path, Step: "mkdir", Err: fmt.Errorf("%s is not a directory", dir)}
			}
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, &Error{Path: path, Step: "mkdir", Err: err}
		}
		missing = append([]string{dir}, missing...)
		if filepath.Dir(dir) == dir {
			break
		}
	}
	return missing, nil
}

// Remove deletes the file at path durably: it removes it (a file already
// gone is not an error) and fsyncs its directory. The error is a *Error.
func Remove(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return &Error{Path: path, Step: "remove", Err: err}
	}
	if err := syncDir(filepath.Dir(path)); err != nil {
		return &Error{Path: path, Step: "fsync dir " + filepath.Dir(path), Err: err}
	}
	return nil
}

// RemoveCreatedDirs removes the directories MkdirParents or Save
// reported as created, innermost first, skipping any that are no longer
// empty (someone else put a file there). It returns the first error other
// than "not empty" or "already gone".
func RemoveCreatedDirs(created []string) error {
	var first error
	for i := len(created) - 1; i >= 0; i-- {
		err := os.Remove(created[i])
		if err == nil || errors.Is(err, fs.ErrNotExist) || dirNotEmpty(created[i]) {
			continue
		}
		if first == nil {
			first = fmt.Errorf("remove created directory %s: %w", created[i], err)
		}
	}
	return first
}

func dirNotEmpty(dir string) bool {
	entries, err := os.ReadDir(dir)
	return err == nil && len(entries) > 0
}

// RemoveTemps removes temporary files a killed Save left beside
// path, and returns their names. Only names Save itself makes for this
// file's base name are touched.
func RemoveTemps(path string) ([]string, error) {
	dir, base := filepath.Dir(path), filepath.Base(path)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("clean temp files of %s: %w", path, err)
	}
	prefix := "." + base + TempMarker
	var removed []string
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasPrefix(name, prefix) || !strings.HasSuffix(name, ".tmp") {
			continue
		}
		full := filepath.Join(dir, name)
		if err := os.Remove(full); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return removed, fmt.Errorf("clean temp files of %s: %w", path, err)
		}
		removed = append(removed, full)
	}
	return removed, nil
}

// Temps lists the names of Save's temporary files in dir: leftovers of a
// writer that was killed, or of one still writing.
func Temps(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var temps []string
	for _, e := range entries {
		if strings.Contains(e.Name(), TempMarker) {
			temps = append(temps, e.Name())
		}
	}
	return temps, nil
}

// Snapshot is a file as it was at one moment: the desk's base for a
// proposal, and what it compares against before writing (the stale check).
type Snapshot struct {
	Path    string      // absolute path as given
	Exists  bool        // false: no file there; the other fields are zero
	Content []byte      // the file's bytes, line endings and BOM included
	SHA256  string      // lowercase hex SHA-256 of Content
	Size    int64       // length of Content in bytes
	ModTime time.Time   // modification time reported by the file system
	Mode    fs.FileMode // permission bits (Perm only)
}

// ReadSnapshot reads the file at path as it is now, whatever its size (the
// journal's restores; the desk reads through ReadSnapshotMax). A missing
// file is not an error: it gives a Snapshot with Exists false. A directory
// or other non-regular file is an error naming the path.
func ReadSnapshot(path string) (Snapshot, error) {
	return ReadSnapshotMax(path, 0)
}

// TooLargeError is a file over the size limit ReadSnapshotMax was given:
// refused from its size on disk before anything is read, or, for a file
// that grew while it was read (or whose size the file system does not
// report), once limit+1 bytes were read.
type TooLargeError struct {
	Path  string
	Size  int64 // the size stat reported; -1 when the file was read past the limit
	Limit int64
}

func (e *TooLargeError) Error() string {
	if e.Size < 0 {
		return fmt.Sprintf("%s: more than %d bytes (it grew while it was read), over the %d-byte limit", e.Path, e.Limit, e.Limit)
	}
	return fmt.Sprintf("%s: %d bytes, over the %d-byte limit", e.Path, e.Size, e.Limit)
}

// ReadSnapshotMax is ReadSnapshot for a file of at most limit bytes
// (limit <= 0: no limit). The size is checked from stat before anything
// is read, and at most limit+1 bytes are read, so a huge or sparse file
// costs nothing: it is a *TooLargeError. The file is opened without
// blocking, so a FIFO swapped in for a file is refused, not waited on.
func ReadSnapshotMax(path string, limit int64) (Snapshot, error) {
	s := Snapshot{Path: path}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, fmt.Errorf("snapshot %s: %w", path, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return s, fmt.Errorf("snapshot %s: %w", path, err)
	}
	if !info.Mode().IsRegular() {
		return s, fmt.Errorf("snapshot %s: not a regular file (%s)", path, info.Mode().Type())
	}
	size := info.Size()
	if limit > 0 && size > limit {
		return s, &TooLargeError{Path: path, Size: size, Limit: limit}
	}
	var r io.Reader = f
	if limit > 0 {
		r = io.LimitReader(f, limit+1)
	}
	var buf bytes.Buffer
	buf.Grow(int(size) + bytes.MinRead) // room for the read that sees EOF: no second, doubled buffer
	if _, err := buf.ReadFrom(r); err != nil {
		return s, fmt.Errorf("snapshot %s: read: %w", path, err)
	}
	if limit > 0 && int64(buf.Len()) > limit {
		return s, &TooLargeError{Path: path, Size: -1, Limit: limit}
	}
	s.Exists = true
	s.Content = buf.Bytes()
	s.SHA256 = Hash(s.Content)
	s.Size = int64(len(s.Content))
	s.ModTime = info.ModTime()
	s.Mode = info.Mode().Perm()
	return s, nil
}

// Changed reports whether the file differs between s and now: it appeared,
// disappeared, or its content hash differs. Mode and mtime alone do not
// count (a touch or chmod does not make a proposal stale).
func (s Snapshot) Changed(now Snapshot) bool {
	if s.Exists != now.Exists {
		return true
	}
	return s.Exists && s.SHA256 != now.SHA256
}

// Hash returns the lowercase hex SHA-256 of content: the key of a
// journal blob and the finalSha256 agents are told.
func Hash(content []byte) string {
	sum := sha256.Sum256(content)
	return hex.EncodeToString(sum[:])
}
