package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/diffdesk/diffdesk/engine"
)

var diffCmd = &command{
	name:  "diff",
	usage: "[flags] OLD NEW",
	short: "unified diff of two files; --json gives hunks with word-level spans",
	long: `The unified diff of two text files, as git prints it after its "diff --git" and "index" lines,
or with --json their hunks with word-level spans. Lines are compared and printed as the files
have them, so a change of line endings shows, as in git. It exits 0 whether or not the files
differ, 1 if a file cannot be read or is not text.`,
	flags: func(fl *flag.FlagSet) runFunc {
		asJSON := fl.Bool("json", false, "print the hunks, with word-level spans, as JSON")
		lines := fl.Int("U", 3, "lines of context around each change")
		return func(_ context.Context, x *invocation) int { return runDiff(x, *asJSON, *lines) }
	},
}

// runDiff implements `deskctl diff OLD NEW`: the unified diff of two text
// files on stdout, or with asJSON their hunks (see diffJSON).
func runDiff(x *invocation, asJSON bool, context int) int {
	if len(x.args) != 2 {
		return x.usageError("want two files, OLD and NEW")
	}
	oldPath, newPath := x.args[0], x.args[1]
	a, err := readDiffFile(oldPath)
	if err != nil {
		return x.fail(err)
	}
	b, err := readDiffFile(newPath)
	if err != nil {
		return x.fail(err)
	}
	ops := engine.DiffLines(a, b)
	if asJSON {
		writeJSON(x.stdout, diffJSON(oldPath, newPath, a, b, ops, context))
		return 0
	}
	err = engine.WriteUnified(x.stdout, gitName("a/", oldPath), gitName("b/", newPath), a, b, ops, context)
	if err != nil {
		return x.fail(fmt.Errorf("writing the diff: %w", err))
	}
	return 0
}

// readDiffFile reads a file and splits it into lines as the file has them
// (each keeps its "\r\n" or "\n"; a BOM is part of the first line), so a
// change of line endings or BOM shows, as it does in git. A file that is not
// text is refused.
func readDiffFile(path string) ([]string, error) {
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

// gitName names a file in a diff header as git does: prefix plus the path,
// without a leading "./" or "/".
func gitName(prefix, path string) string {
	for {
		switch {
		case strings.HasPrefix(path, "./"):
			path = path[2:]
		case strings.HasPrefix(path, "/"):
			path = path[1:]
		default:
			return prefix + path
		}
	}
}

// The --json output: {"old": OLD, "new": NEW, "hunks": [hunk…]}.
type (
	diffJSONOut struct {
		Old   string         `json:"old"`
		New   string         `json:"new"`
		Hunks []diffJSONHunk `json:"hunks"`
	}
	// diffJSONHunk is one change with its context (engine.Hunk). Starts
	// are 1-based as in a unified diff header; an empty side's start is
	// the line before it.
	diffJSONHunk struct {
		ID       string         `json:"id"`
		OldStart int            `json:"oldStart"`
		OldLines int            `json:"oldLines"`
		NewStart int            `json:"newStart"`
		NewLines int            `json:"newLines"`
		Lines    []diffJSONLine `json:"lines"`
	}
	// diffJSONLine is a line of a hunk: its kind ("context", "delete" or
	// "insert"), its text without line ending, the changed parts of a
	// deleted or inserted line paired with one on the other side (byte
	// offsets into text), and whether it lacks a line ending (end of file).
	diffJSONLine struct {
		Kind      string        `json:"kind"`
		Text      string        `json:"text"`
		Spans     []engine.Span `json:"spans,omitempty"`
		NoNewline bool          `json:"noNewline,omitempty"`
	}
)

// diffJSON builds the --json output for ops, the diff of lines a to b.
func diffJSON(oldPath, newPath string, a, b []string, ops []engine.Op, context int) diffJSONOut {
	out := diffJSONOut{Old: oldPath, New: newPath, Hunks: []diffJSONHunk{}}
	for _, h := range engine.Hunks(a, b, ops, max(context, 0)) {
		c := h.Change
		jh := diffJSONHunk{
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

func jsonLine(kind, l string, spans []engine.Span) diffJSONLine {
	text, ok := strings.CutSuffix(l, "\n")
	return diffJSONLine{Kind: kind, Text: text, Spans: spans, NoNewline: !ok}
}
