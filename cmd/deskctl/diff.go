package main

import (
	"context"
	"flag"
	"strings"

	"github.com/diffdesk/diffdesk/cmd/internal/filediff"
	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/engine/words"
)

var diffCmd = &command{
	name:  "diff",
	usage: "[flags] OLD NEW",
	short: "unified diff of two files; --json gives hunks with word-level spans",
	long: `The unified diff of two text files, as git prints it after its "diff --git" and "index" lines,
or with --json their hunks with word-level spans. Lines are compared and printed as the files
have them, so a change of line endings shows, as in git. It exits 0 whether or not the files
differ, 1 if a file cannot be read or is not text. deskdiff prints the same unified diff, and
serves as git's external diff; it starts faster, as it links nothing but the line diff.`,
	flags: func(fl *flag.FlagSet) runFunc {
		asJSON := fl.Bool("json", false, "print the hunks, with word-level spans, as JSON")
		lines := filediff.ContextFlag(fl)
		return func(_ context.Context, x *invocation) int { return runDiff(x, *asJSON, *lines) }
	},
}

// runDiff implements `deskctl diff OLD NEW`: the unified diff of two text
// files (filediff.Files), or with asJSON their hunks (see diffJSON).
func runDiff(x *invocation, asJSON bool, context int) int {
	if len(x.args) != 2 {
		return x.usageError("want two files, OLD and NEW")
	}
	oldPath, newPath := x.args[0], x.args[1]
	if !asJSON {
		if err := filediff.Files(x.stdout, oldPath, newPath, context); err != nil {
			return x.fail(err)
		}
		return 0
	}
	a, b, err := filediff.ReadPair(oldPath, newPath)
	if err != nil {
		return x.fail(err)
	}
	writeJSON(x.stdout, diffJSON(oldPath, newPath, a, b, engine.DiffLines(a, b), context))
	return 0
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
		Kind      string       `json:"kind"`
		Text      string       `json:"text"`
		Spans     []words.Span `json:"spans,omitempty"`
		NoNewline bool         `json:"noNewline,omitempty"`
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
		delSpans, insSpans := make([][]words.Span, len(del)), make([][]words.Span, len(ins))
		for _, p := range words.PairLines(del, ins) {
			delSpans[p[0]], insSpans[p[1]] = words.Spans(strings.TrimSuffix(del[p[0]], "\n"), strings.TrimSuffix(ins[p[1]], "\n"))
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

func jsonLine(kind, l string, spans []words.Span) diffJSONLine {
	text, ok := strings.CutSuffix(l, "\n")
	return diffJSONLine{Kind: kind, Text: text, Spans: spans, NoNewline: !ok}
}
