package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/ui"
)

// `diffdesk OLD NEW` is a read-only comparison of two files, so that the
// window serves as git's difftool (README): no desk, nothing written.

// compareArgs reports whether args ask for a comparison: two arguments
// that are not flags, or any two after "--", after an optional
// --path PATH (or --path=PATH): the file's real path, which git difftool
// passes as "$MERGED" while OLD and NEW are temporary copies.
func compareArgs(args []string) (old, new, path string, ok bool) {
	switch {
	case len(args) > 0 && strings.HasPrefix(args[0], "--path="):
		path, args = strings.TrimPrefix(args[0], "--path="), args[1:]
		if path == "" {
			return "", "", "", false
		}
	case len(args) > 1 && (args[0] == "--path" || args[0] == "-path"):
		path, args = args[1], args[2:]
	}
	if len(args) == 3 && args[0] == "--" {
		return args[1], args[2], path, true
	}
	if len(args) == 2 && !strings.HasPrefix(args[0], "-") && !strings.HasPrefix(args[1], "-") {
		return args[0], args[1], path, true
	}
	return "", "", "", false
}

// gitLabel is what the window says of a comparison git difftool started:
// the file's real path (--path, else $BASE, which git exports to a
// difftool run with -x/--extcmd; OLD and NEW are temporary copies such as
// /tmp/git-blob-Xy12/f.go), and which file of how many it is.
type gitLabel struct {
	path      string // "" if not known
	count, of string // GIT_DIFF_PATH_COUNTER, GIT_DIFF_PATH_TOTAL
}

// labelOf is the label of a comparison with --path path (or "") in the
// environment getenv: git's variables count only under git difftool
// (GIT_EXTERNAL_DIFF is its helper), so a $BASE of the person's own is
// never taken for a file name.
func labelOf(path string, getenv func(string) string) gitLabel {
	l := gitLabel{path: path}
	if getenv("GIT_EXTERNAL_DIFF") != "git-difftool--helper" {
		return l
	}
	if l.path == "" {
		l.path = getenv("BASE")
	}
	l.count, l.of = getenv("GIT_DIFF_PATH_COUNTER"), getenv("GIT_DIFF_PATH_TOTAL")
	return l
}

// name applies the label to the sides: the real path with git's a/ and b/
// (the view highlights by b/'s extension), escaped as a terminal would
// show it (a name is not to draw lines or colours); the temporary names
// are not shown.
func (l gitLabel) name(old, new *ui.CompareSide) {
	if l.path == "" {
		return
	}
	if filepath.IsAbs(l.path) {
		old.Name = review.Printable(l.path)
		new.Name = old.Name
		return
	}
	old.Name, new.Name = review.Printable("a/"+l.path), review.Printable("b/"+l.path)
}

// note is what the label says above the diff: which file of how many.
func (l gitLabel) note() string {
	if l.count == "" || l.of == "" || l.of == "1" {
		return ""
	}
	return fmt.Sprintf("git difftool: file %s of %s.", review.Printable(l.count), review.Printable(l.of))
}

// compareMax is the largest file a comparison shows: the engine's limit.
const compareMax = engine.MaxSize

// errNotText is wrapped by readSide's error for a binary file.
var errNotText = errors.New("binary")

// readSide reads one file of a comparison: /dev/null is a missing side (a
// file git difftool shows added or deleted). A directory, a file that
// cannot be read, one over compareMax, and a binary one (a NUL byte in its
// first 8,000 bytes, git's test; errNotText) are errors. utf8 is false
// when its bytes are not all UTF-8: they are shown as U+FFFD.
func readSide(name string) (s ui.CompareSide, utf8OK bool, err error) {
	s.Name = name
	if name == os.DevNull {
		s.Missing = true
		return s, true, nil
	}
	info, err := os.Stat(name)
	if err != nil {
		return s, false, err
	}
	if info.IsDir() {
		return s, false, fmt.Errorf("%s is a directory", name)
	}
	if info.Size() > compareMax {
		return s, false, fmt.Errorf("%s is %d bytes, over the %d bytes diffdesk shows; deskdiff %s … prints the diff of any size", name, info.Size(), compareMax, name)
	}
	// Read at most one byte past the limit: a pipe (diffdesk <(…) <(…)) or
	// a device has no size to check first, and /dev/zero never ends.
	f, err := os.Open(name)
	if err != nil {
		return s, false, err
	}
	defer f.Close()
	b, err := readMax(f)
	if errors.Is(err, errNotText) || errors.Is(err, errTooLarge) {
		return s, false, fmt.Errorf("%s: %w", name, err)
	}
	if err != nil {
		return s, false, fmt.Errorf("%s: %w", name, err)
	}
	s.Text = string(b)
	if !utf8.ValidString(s.Text) {
		s.Text = strings.ToValidUTF8(s.Text, "\uFFFD")
		return s, false, nil
	}
	return s, true, nil
}

// compare runs `diffdesk OLD NEW`: the window, or, for what it cannot
// show, a clear message. It returns the exit code: 0 shown (or binary
// files that are the same), 1 binary files that differ (as diff), 2 bad
// arguments.
func compare(oldName, newName string, label gitLabel, stdout, stderr io.Writer, show func(old, new ui.CompareSide, note string) int) int {
	if dirA, dirB := isDir(oldName), isDir(newName); dirA || dirB {
		if !dirA || !dirB {
			fmt.Fprintf(stderr, "diffdesk: %s is a directory and %s is not: diffdesk OLD NEW compares two files\n", dirName(oldName, newName, dirA), dirName(oldName, newName, !dirA))
			return 2
		}
		return compareDirs(oldName, newName, stderr)
	}
	if oldName == os.DevNull && newName == os.DevNull {
		fmt.Fprintln(stderr, "diffdesk: both sides are /dev/null: nothing to compare")
		return 2
	}
	old, okA, errA := readSide(oldName)
	new, okB, errB := readSide(newName)
	if errors.Is(errA, errNotText) || errors.Is(errB, errNotText) {
		if errA != nil && !errors.Is(errA, errNotText) || errB != nil && !errors.Is(errB, errNotText) {
			fmt.Fprintf(stderr, "diffdesk: %v\n", errors.Join(errA, errB))
			return 2
		}
		if sameBytes(oldName, newName) {
			fmt.Fprintf(stdout, "Binary files %s and %s are the same\n", oldName, newName)
			return 0
		}
		fmt.Fprintf(stdout, "Binary files %s and %s differ (diffdesk shows text files)\n", oldName, newName)
		return 1
	}
	if err := errors.Join(errA, errB); err != nil {
		fmt.Fprintf(stderr, "diffdesk: %v\n", err)
		return 2
	}
	label.name(&old, &new)
	var note string
	switch {
	case !okA && !okB:
		note = "Neither file is all UTF-8: the bytes that are not are shown as �."
	case !okA:
		note = old.Name + " is not all UTF-8: the bytes that are not are shown as �."
	case !okB:
		note = new.Name + " is not all UTF-8: the bytes that are not are shown as �."
	}
	if n := label.note(); n != "" {
		note = strings.TrimSpace(n + " " + note)
	}
	return show(old, new, note)
}

// isFile reports whether name is, or links to, a regular file: one
// compareDirs may read (a FIFO without a writer is waited on for good).
func isFile(name string) bool {
	info, err := os.Stat(name)
	return err == nil && info.Mode().IsRegular()
}

func isDir(name string) bool {
	info, err := os.Stat(name)
	return err == nil && info.IsDir()
}

func dirName(a, b string, first bool) string {
	if first {
		return a
	}
	return b
}

// errTooLarge is readMax's error for more than compareMax bytes.
var errTooLarge = fmt.Errorf("more than the %d bytes diffdesk shows", compareMax)

// readMax reads r to its end, but no more than compareMax bytes
// (errTooLarge) and only while its first 8,000 bytes hold no NUL
// (errNotText: binary, by git's test).
func readMax(r io.Reader) ([]byte, error) {
	head := make([]byte, 8000)
	n, err := io.ReadFull(r, head)
	head = head[:n]
	if bytes.IndexByte(head, 0) >= 0 {
		return nil, errNotText
	}
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return head, nil
	}
	if err != nil {
		return nil, err
	}
	rest, err := io.ReadAll(io.LimitReader(r, compareMax+1-int64(n)))
	if err != nil {
		return nil, err
	}
	if n+len(rest) > compareMax {
		return nil, errTooLarge
	}
	return append(head, rest...), nil
}

// sameBytes reports whether two files (or /dev/null) hold the same bytes,
// reading both side by side up to the first difference, and no more than
// compareMax of either (more is not the same: /dev/zero never ends).
func sameBytes(a, b string) bool {
	fa, err := os.Open(a)
	if err != nil {
		return false
	}
	defer fa.Close()
	fb, err := os.Open(b)
	if err != nil {
		return false
	}
	defer fb.Close()
	ra, rb := io.LimitReader(fa, compareMax+1), io.LimitReader(fb, compareMax+1)
	x, y := make([]byte, 64<<10), make([]byte, 64<<10)
	for read := int64(0); read <= compareMax; {
		n, errA := io.ReadFull(ra, x)
		m, errB := io.ReadFull(rb, y)
		if n != m || !bytes.Equal(x[:n], y[:m]) {
			return false
		}
		read += int64(n)
		endA, endB := errA != nil, errB != nil
		if endA || endB {
			return endA && endB && (errA == io.EOF || errA == io.ErrUnexpectedEOF) && (errB == io.EOF || errB == io.ErrUnexpectedEOF) && read <= compareMax
		}
	}
	return false
}

// compareDirs answers two directories (git difftool --dir-diff): the
// files that differ, and how to review them one at a time.
func compareDirs(a, b string, stderr io.Writer) int {
	files := map[string]int{} // 1: only in a, 2: only in b, 3: both
	for bit, root := range []string{a, b} {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			rel, _ := filepath.Rel(root, p)
			files[rel] |= 1 << bit
			return nil
		})
	}
	var lines []string
	for rel, in := range files {
		switch in {
		case 1:
			lines = append(lines, "  deleted  "+rel)
		case 2:
			lines = append(lines, "  added    "+rel)
		default:
			if !isFile(filepath.Join(a, rel)) || !isFile(filepath.Join(b, rel)) {
				lines = append(lines, "  skipped  "+rel+" (not a file on both sides: a pipe, a device or a link to none)")
			} else if !sameBytes(filepath.Join(a, rel), filepath.Join(b, rel)) {
				lines = append(lines, "  changed  "+rel)
			}
		}
	}
	sort.Slice(lines, func(i, j int) bool { return lines[i][11:] < lines[j][11:] })
	fmt.Fprintf(stderr, "diffdesk: %s and %s are directories (git difftool --dir-diff): diffdesk compares two files, one window each.\n", a, b)
	if len(lines) == 0 {
		fmt.Fprintln(stderr, "No file differs.")
		return 0
	}
	fmt.Fprintf(stderr, "%d %s differ:\n%s\nRun git difftool without -d (--dir-diff) to review them one by one.\n", len(lines), plural(len(lines), "file", "files"), strings.Join(lines, "\n"))
	return 2
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
