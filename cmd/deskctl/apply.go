package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
)

var applyCmd = &command{
	name:  "apply",
	usage: "--format F (--file PATH | --root DIR) [flags]",
	short: "apply an edit in memory and print the resulting file (never writes it)",
	long: `Apply an edit in memory and print the resulting file byte for byte; the file is never written.
F is write, search-replace, edit, multi-edit or smart-edit, applied to --file PATH (a missing
file counts as new and empty); or patch, a Codex apply_patch envelope or unified diff whose paths
are relative to --root DIR, printed as {"files":{path: content|null}, "matches":{path: [match]}}.
The edit payload is read from EDITFILE, or from standard input when --edit is absent. With --json
a single-file edit prints {"content", "matches"}: each match's strategy, lines, similarity,
candidates, and for a loose match the searched and found text. On failure it exits 1 with the
agent-facing explanation on stderr and nothing on stdout. An edit cut short (a SEARCH/REPLACE
block without its end marker) applies as far as it arrived and says so on stderr, or in
"incomplete" with --json.`,
	flags: func(fl *flag.FlagSet) runFunc {
		format, editFile := editFlags(fl)
		file := fl.String("file", "", "the `PATH` the edit applies to (a missing file counts as new and empty)")
		root := fl.String("root", "", "for --format patch: the `DIR` the patch's paths are relative to")
		asJSON := fl.Bool("json", false, "print a JSON object instead of the raw content")
		return func(_ context.Context, x *invocation) int {
			return runApply(x, applyOptions{*format, *file, *root, *editFile, *asJSON})
		}
	},
}

// applyOptions are the flags of deskctl apply.
type applyOptions struct {
	format, file, root, editFile string
	json                         bool
}

// runApply implements `deskctl apply`: it applies an edit in memory and
// prints the resulting content byte for byte. It never writes the target.
func runApply(x *invocation, o applyOptions) int {
	if msg := formatError(o.format); msg != "" {
		return x.usageError("%s", msg)
	}
	f := engine.Format(o.format)
	switch {
	case f == engine.FormatPatch && o.root == "":
		return x.usageError("--format patch needs --root DIR, the directory the patch's paths are relative to")
	case f != engine.FormatPatch && (o.file == "" || o.format == ""):
		return x.usageError("--format and --file are required")
	}
	payload, err := readPayload(o.editFile, x.stdin, x.stderr)
	if err != nil {
		return x.fail(err)
	}
	if f == engine.FormatPatch {
		return applyPatch(o.root, payload, x.stdout, x.stderr)
	}
	original, exists, err := readTarget(o.file)
	if err != nil {
		return x.fail(err)
	}
	edit, err := engine.Parse(f, payload)
	var res engine.Result
	if err == nil {
		if exists {
			res, err = engine.Apply(original, edit)
		} else {
			res, err = engine.Create(edit)
		}
	}
	if err != nil {
		if o.json {
			writeJSON(x.stdout, map[string]any{"error": review.ErrorJSON(err)})
		}
		fmt.Fprint(x.stderr, agenttext.Failure(review.EditFailure(o.file, err)))
		return 1
	}
	if o.json {
		writeJSON(x.stdout, resultJSON(res))
		return 0
	}
	for _, m := range res.Matches {
		if m.Loose() {
			fmt.Fprintf(x.stderr, "deskctl apply: %s\n", looseNote(m))
		}
	}
	if res.Incomplete != nil {
		fmt.Fprintf(x.stderr, "deskctl apply: incomplete edit: %s\n", res.Incomplete.Reason)
	}
	io.WriteString(x.stdout, res.Content)
	return 0
}

// looseNote describes a loose match on one line.
func looseNote(m engine.Match) string {
	s := fmt.Sprintf("block %d matched loosely (%s, %.0f%% similar) at lines %d-%d", m.Block, m.Strategy, 100*m.Similarity, m.StartLine, m.EndLine)
	if m.Candidates > 1 {
		s += fmt.Sprintf(", the first of %d places", m.Candidates)
	}
	return s
}

// resultJSON is what apply --json prints for an applied edit: the content,
// every match, and "incomplete" when the payload was cut short.
func resultJSON(res engine.Result) map[string]any {
	matches := res.Matches
	if matches == nil {
		matches = []engine.Match{}
	}
	out := map[string]any{"content": res.Content, "matches": matches}
	if res.Incomplete != nil {
		out["incomplete"] = res.Incomplete
	}
	return out
}

// applyPatch implements `deskctl apply --format patch`.
func applyPatch(root, payload string, stdout, stderr io.Writer) int {
	read := func(rel string) (string, bool, error) {
		return readTarget(filepath.Join(root, filepath.FromSlash(rel)))
	}
	changes, err := engine.ApplyPatch(payload, read)
	if err != nil {
		fmt.Fprint(stderr, agenttext.Failure(review.EditFailure(root, err)))
		return 1
	}
	files := map[string]*string{}
	matches := map[string][]engine.Match{}
	for _, c := range changes {
		switch {
		case c.Op == engine.PatchDelete:
			files[c.Path] = nil
		case c.MoveTo != "":
			files[c.Path] = nil
			files[c.MoveTo] = &c.New
			matches[c.MoveTo] = c.Matches
		default:
			files[c.Path] = &c.New
			matches[c.Path] = c.Matches
		}
	}
	writeJSON(stdout, map[string]any{"files": files, "matches": matches})
	return 0
}

// readTarget reads the file an edit applies to; a missing file is new and
// empty.
func readTarget(path string) (content string, exists bool, err error) {
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", false, nil
	case err != nil:
		return "", false, fmt.Errorf("cannot read %s: %w", path, err)
	}
	return string(b), true, nil
}

func readPayload(editFile string, stdin io.Reader, stderr io.Writer) (string, error) {
	if editFile != "" {
		b, err := os.ReadFile(editFile)
		if err != nil {
			return "", fmt.Errorf("cannot read the edit payload: %w", err)
		}
		return string(b), nil
	}
	if f, ok := stdin.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			// A terminal: without this, the command seems to hang.
			fmt.Fprintln(stderr, "deskctl: reading the edit from standard input, a terminal: type or paste it and end with Ctrl+D (or give it with --edit FILE, or pipe it in)")
		}
	}
	b, err := io.ReadAll(stdin)
	if err != nil {
		return "", fmt.Errorf("cannot read the edit payload from standard input: %w", err)
	}
	return string(b), nil
}

func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}
