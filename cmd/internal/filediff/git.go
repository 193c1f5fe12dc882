package filediff

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"io"
	"strings"

	"github.com/diffdesk/diffdesk/engine"
)

// devNull is how git names the missing side of an added or deleted file.
const devNull = "/dev/null"

// Git prints the diff of one path as git's external diff driver is asked
// for it (GIT_EXTERNAL_DIFF or diff.external), with the headers git's own
// diff prints, so the output reads, applies and splits as git's does:
//
//	PATH OLD-FILE OLD-HEX OLD-MODE NEW-FILE NEW-HEX NEW-MODE [NEW-PATH MESSAGE]
//
// (the two last for a rename or copy, MESSAGE being git's "similarity
// index" lines), or PATH alone for an unmerged path. A side that is not
// text is "Binary files … differ", as in git, never an error: an error
// stops git's whole diff.
func Git(w io.Writer, args []string, context int) error {
	if len(args) == 1 {
		_, err := fmt.Fprintf(w, "* Unmerged path %s\n", args[0])
		return err
	}
	if len(args) != 7 && len(args) != 9 {
		return fmt.Errorf("git passes 1, 7 or 9 arguments to an external diff, not %d", len(args))
	}
	path, newPath, message := args[0], args[0], ""
	if len(args) == 9 {
		newPath, message = args[7], args[8]
	}
	old := gitSide{file: args[1], hex: args[2], mode: args[3]}
	new := gitSide{file: args[4], hex: args[5], mode: args[6]}
	a, aText, err := old.read()
	if err != nil {
		return err
	}
	b, bText, err := new.read()
	if err != nil {
		return err
	}
	oldName, newName := GitName("a/", path), GitName("b/", newPath)

	var head strings.Builder
	fmt.Fprintf(&head, "diff --git %s %s\n", oldName, newName)
	switch {
	case old.missing():
		fmt.Fprintf(&head, "new file mode %s\n", new.mode)
	case new.missing():
		fmt.Fprintf(&head, "deleted file mode %s\n", old.mode)
	case old.mode != new.mode:
		fmt.Fprintf(&head, "old mode %s\nnew mode %s\n", old.mode, new.mode)
	}
	oldHash, newHash := old.hash(a), new.hash(b)
	switch {
	case message != "":
		head.WriteString(message)
		if !strings.HasSuffix(message, "\n") {
			head.WriteByte('\n')
		}
	case oldHash != newHash:
		fmt.Fprintf(&head, "index %s..%s", oldHash[:7], newHash[:7])
		if old.mode == new.mode {
			fmt.Fprintf(&head, " %s", old.mode)
		}
		head.WriteByte('\n')
	}
	if _, err := io.WriteString(w, head.String()); err != nil {
		return err
	}
	if old.missing() {
		oldName = devNull
	}
	if new.missing() {
		newName = devNull
	}
	if !aText || !bText {
		if oldHash == newHash {
			return nil
		}
		_, err := fmt.Fprintf(w, "Binary files %s and %s differ\n", oldName, newName)
		return err
	}
	return write(w, oldName, newName, engine.SplitLines(a), engine.SplitLines(b), context)
}

// gitSide is one side of git's external-diff arguments.
type gitSide struct{ file, hex, mode string }

// missing is whether this side does not exist (an added or deleted file).
func (s gitSide) missing() bool { return s.file == devNull }

// read reads the side's content and says whether it is text.
func (s gitSide) read() (string, bool, error) {
	if s.missing() {
		return "", true, nil
	}
	data, err := readString(s.file)
	return data, isText(data), err
}

// hash is the side's blob name: the one git gave, else (a file of the work
// tree, whose name git leaves as zeros) the blob's SHA-1 worked out as git
// does; zeros for a missing side.
func (s gitSide) hash(content string) string {
	zero := strings.Repeat("0", 40)
	switch {
	case s.missing():
		return zero
	case len(s.hex) == 40 && s.hex != zero:
		return s.hex
	}
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(content))
	io.WriteString(h, content)
	return hex.EncodeToString(h.Sum(nil))
}

// isText is git's test for text (buffer_is_binary): no NUL byte in the
// first 8,000 bytes. Text in any encoding is diffed line by line, as git
// does.
func isText(data string) bool {
	return strings.IndexByte(data[:min(len(data), 8000)], 0) < 0
}
