// Package filediff is the diff of two text files as the command lines print
// it (deskctl diff, deskdiff): git's unified diff, or hunks with word-level
// spans as JSON, and git's external-diff convention. It needs only the
// engine, so a command that links nothing else starts as fast as git.
package filediff

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/diffdesk/diffdesk/engine"
)

// Options are the diff flags both commands take.
type Options struct {
	JSON    bool // hunks with word-level spans as JSON, not a unified diff
	Context int  // lines of context around each change
}

// Flags defines --json and -U on fl.
func Flags(fl *flag.FlagSet) *Options {
	o := new(Options)
	fl.BoolVar(&o.JSON, "json", false, "print the hunks, with word-level spans, as JSON")
	fl.IntVar(&o.Context, "U", 3, "lines of context around each change")
	return o
}

// Files prints the diff of the text files at oldPath and newPath, named in
// the headers as git names them ("a/" and "b/" plus the path). A file that
// cannot be read or is not text is an error, and nothing is printed.
func Files(w io.Writer, oldPath, newPath string, o Options) error {
	a, err := ReadLines(oldPath)
	if err != nil {
		return err
	}
	b, err := ReadLines(newPath)
	if err != nil {
		return err
	}
	return write(w, oldPath, newPath, GitName("a/", oldPath), GitName("b/", newPath), a, b, o)
}

// write prints the diff of lines a and b: JSON naming the files as given,
// or a unified diff with the header names oldName and newName.
func write(w io.Writer, oldPath, newPath, oldName, newName string, a, b []string, o Options) error {
	ops := engine.DiffLines(a, b)
	if o.JSON {
		return writeJSON(w, JSON(oldPath, newPath, a, b, ops, o.Context))
	}
	if err := engine.WriteGitUnified(w, tabbed(oldName), tabbed(newName), a, b, ops, o.Context); err != nil {
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

func writeJSON(w io.Writer, out JSONOut) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// ReadLines reads a file and splits it into lines as the file has them
// (each keeps its "\r\n" or "\n"; a BOM is part of the first line), so a
// change of line endings or BOM shows, as it does in git. A file that is
// not text is refused.
func ReadLines(path string) ([]string, error) {
	data, err := readString(path)
	if pe, ok := err.(*fs.PathError); ok {
		err = pe.Err // the path is in the message already
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", path, err)
	}
	if _, err := engine.Decode(data); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return engine.SplitLines(data), nil
}

// readString reads a whole file into a string without the copy that
// string(os.ReadFile(…)) makes.
func readString(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var sb strings.Builder
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		sb.Grow(int(st.Size()))
	}
	_, err = io.Copy(&sb, f)
	return sb.String(), err
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

// The --json output: {"old": OLD, "new": NEW, "hunks": [hunk…]}, with
// "binary": true and no hunks where git's external diff hands over a file
// that is not text.
type (
	JSONOut struct {
		Old    string     `json:"old"`
		New    string     `json:"new"`
		Binary bool       `json:"binary,omitempty"`
		Hunks  []JSONHunk `json:"hunks"`
	}
	// JSONHunk is one change with its context (engine.Hunk). Starts are
	// 1-based as in a unified diff header; an empty side's start is the
	// line before it.
	JSONHunk struct {
		ID       string     `json:"id"`
		OldStart int        `json:"oldStart"`
		OldLines int        `json:"oldLines"`
		NewStart int        `json:"newStart"`
		NewLines int        `json:"newLines"`
		Lines    []JSONLine `json:"lines"`
	}
	// JSONLine is a line of a hunk: its kind ("context", "delete" or
	// "insert"), its text without line ending, the changed parts of a
	// deleted or inserted line paired with one on the other side (byte
	// offsets into text), and whether it lacks a line ending (end of file).
	JSONLine struct {
		Kind      string        `json:"kind"`
		Text      string        `json:"text"`
		Spans     []engine.Span `json:"spans,omitempty"`
		NoNewline bool          `json:"noNewline,omitempty"`
	}
)

// JSON builds the --json output for ops, the diff of lines a to b.
func JSON(oldPath, newPath string, a, b []string, ops []engine.Op, context int) JSONOut {
	out := JSONOut{Old: oldPath, New: newPath, Hunks: []JSONHunk{}}
	for _, h := range engine.Hunks(a, b, ops, max(context, 0)) {
		c := h.Change
		jh := JSONHunk{
			ID:       h.ID,
			OldStart: engine.UnifiedStart(h.A0, h.A1), OldLines: h.A1 - h.A0,
			NewStart: engine.UnifiedStart(h.B0, h.B1), NewLines: h.B1 - h.B0,
		}
		for _, l := range a[h.A0:c.A0] {
			jh.Lines = append(jh.Lines, jsonLine("context", l, nil))
		}
		del, ins := a[c.A0:c.A1], b[c.B0:c.B1]
		delSpans, insSpans := make([][]engine.Span, len(del)), make([][]engine.Span, len(ins))
		for _, p := range engine.PairLines(del, ins) {
			delSpans[p[0]], insSpans[p[1]] = engine.WordSpans(strings.TrimSuffix(del[p[0]], "\n"), strings.TrimSuffix(ins[p[1]], "\n"))
		}
		for i, l := range del {
			jh.Lines = append(jh.Lines, jsonLine("delete", l, delSpans[i]))
		}
		for i, l := range ins {
			jh.Lines = append(jh.Lines, jsonLine("insert", l, insSpans[i]))
		}
		for _, l := range a[c.A1:h.A1] {
			jh.Lines = append(jh.Lines, jsonLine("context", l, nil))
		}
		out.Hunks = append(out.Hunks, jh)
	}
	return out
}

func jsonLine(kind, l string, spans []engine.Span) JSONLine {
	text, ok := strings.CutSuffix(l, "\n")
	return JSONLine{Kind: kind, Text: text, Spans: spans, NoNewline: !ok}
}
