// Package filediff is the diff of two text files as the command lines print
// it (deskctl diff, deskdiff): git's unified diff, and git's external-diff
// convention. It needs only the engine (not even engine/words), so a
// command that links nothing else starts as fast as git.
package filediff

import (
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"unsafe"

	"github.com/diffdesk/diffdesk/engine"
)

// ContextFlag defines -U, the lines of context around each change.
func ContextFlag(fl *flag.FlagSet) *int {
	return fl.Int("U", 3, "lines of context around each change")
}

// Files prints the unified diff of the text files at oldPath and newPath,
// named in the headers as git names them ("a/" and "b/" plus the path),
// with context lines around each change. A file that cannot be read or is
// not text is an error, and nothing is printed.
func Files(w io.Writer, oldPath, newPath string, context int) error {
	a, b, err := ReadPair(oldPath, newPath)
	if err != nil {
		return err
	}
	return write(w, GitName("a/", oldPath), GitName("b/", newPath), a, b, context)
}

// ReadPair reads the two files of a diff (ReadLines).
func ReadPair(oldPath, newPath string) (a, b []string, err error) {
	if a, err = ReadLines(oldPath); err == nil {
		b, err = ReadLines(newPath)
	}
	return a, b, err
}

// write prints the unified diff of lines a and b with the header names
// oldName and newName.
func write(w io.Writer, oldName, newName string, a, b []string, context int) error {
	err := engine.WriteGitUnified(w, tabbed(oldName), tabbed(newName), a, b, engine.DiffLines(a, b), context)
	if err != nil {
		return fmt.Errorf("writing the diff: %w", err)
	}
	return nil
}

// tabbed is a name for a "---" or "+++" line: git ends one that holds a
// space with a tab, so that patch tools know where it ends.
func tabbed(name string) string {
	if strings.IndexByte(name, ' ') >= 0 {
		return name + "\t"
	}
	return name
}

// ReadLines reads a file and splits it into lines as the file has them
// (each keeps its "\r\n" or "\n"; a BOM is part of the first line), so a
// change of line endings or BOM shows, as it does in git. A file that is
// not text is refused.
func ReadLines(path string) ([]string, error) {
	data, err := readString(path)
	if err != nil {
		return nil, err
	}
	if _, err := engine.Decode(data); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return engine.SplitLines(data), nil
}

// readString reads a whole file into a string without the copy that
// string(os.ReadFile(…)) makes (nor io.Copy's buffer): the bytes are
// never written again. Every page a short-lived diff touches costs it
// start-up time. A file it cannot read is "cannot read PATH: why".
func readString(path string) (string, error) {
	data, err := os.ReadFile(path)
	if pe, ok := err.(*fs.PathError); ok {
		err = pe.Err // the path is in the message already
	}
	if err != nil {
		return "", fmt.Errorf("cannot read %s: %w", path, err)
	}
	if len(data) == 0 {
		return "", nil
	}
	return unsafe.String(&data[0], len(data)), nil
}

// GitName names a file in a diff header as git does: prefix plus the path,
// without a leading "./" or "/", quoted as git quotes it (quoteName).
func GitName(prefix, path string) string {
	for {
		switch {
		case strings.HasPrefix(path, "./"):
			path = path[2:]
		case strings.HasPrefix(path, "/"):
			path = path[1:]
		default:
			return quoteName(prefix + path)
		}
	}
}

// quoteName quotes a header name as git does by default (core.quotePath):
// a name with a control character, a double quote, a backslash or a byte
// of a multi-byte character is put in double quotes, with C escapes and
// octal for the rest.
func quoteName(name string) string {
	plain := true
	for i := 0; i < len(name) && plain; i++ {
		c := name[i]
		plain = c >= 0x20 && c < 0x7f && c != '"' && c != '\\'
	}
	if plain {
		return name
	}
	var sb strings.Builder
	sb.WriteByte('"')
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c == '"' || c == '\\':
			sb.WriteByte('\\')
			sb.WriteByte(c)
		case strings.IndexByte("\a\b\t\n\v\f\r", c) >= 0:
			sb.WriteByte('\\')
			sb.WriteByte("abtnvfr"[strings.IndexByte("\a\b\t\n\v\f\r", c)])
		case c < 0x20 || c >= 0x7f:
			fmt.Fprintf(&sb, "\\%03o", c)
		default:
			sb.WriteByte(c)
		}
	}
	sb.WriteByte('"')
	return sb.String()
}
