package main

import (
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
)

// runApply implements `deskctl apply`: it applies an edit in memory and
// prints the resulting content byte for byte. It never writes the target.
func runApply(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("deskctl apply", flag.ContinueOnError)
	fl.SetOutput(stderr)
	format := fl.String("format", "", "edit format: write, search-replace, edit, multi-edit, smart-edit, patch")
	file := fl.String("file", "", "the file the edit applies to (a missing file counts as new and empty)")
	root := fl.String("root", "", "for --format patch: the directory patch paths are relative to")
	editFile := fl.String("edit", "", "read the edit payload from this file instead of standard input")
	asJSON := fl.Bool("json", false, "print a JSON object instead of the raw content")
	if err := parseFlags(fl, args); err != nil {
		return 2
	}
	payload, err := readPayload(*editFile, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "deskctl apply: %v\n", err)
		return 1
	}
	f := engine.Format(*format)
	if f == engine.FormatPatch {
		if *root == "" {
			fmt.Fprintln(stderr, "deskctl apply: --format patch needs --root DIR, the directory the patch's paths are relative to")
			return 2
		}
		return applyPatch(*root, payload, stdout, stderr)
	}
	if *file == "" || *format == "" {
		fmt.Fprintln(stderr, "deskctl apply: --format and --file are required (see deskctl help)")
		return 2
	}
	original, exists, err := readTarget(*file)
	if err != nil {
		fmt.Fprintf(stderr, "deskctl apply: %v\n", err)
		return 1
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
		if *asJSON {
			writeJSON(stdout, map[string]any{"error": review.ErrorJSON(err)})
		}
		fmt.Fprint(stderr, review.FailureText(*file, err))
		return 1
	}
	if *asJSON {
		matches := res.Matches
		if matches == nil {
			matches = []engine.Match{}
		}
		writeJSON(stdout, map[string]any{"content": res.Content, "matches": matches})
		return 0
	}
	io.WriteString(stdout, res.Content)
	return 0
}

// applyPatch implements `deskctl apply --format patch`.
func applyPatch(root, payload string, stdout, stderr io.Writer) int {
	read := func(rel string) (string, bool, error) {
		return readTarget(filepath.Join(root, filepath.FromSlash(rel)))
	}
	changes, err := engine.ApplyPatch(payload, read)
	if err != nil {
		fmt.Fprint(stderr, review.FailureText(root, err))
		return 1
	}
	files := map[string]*string{}
	for _, c := range changes {
		switch {
		case c.Op == engine.PatchDelete:
			files[c.Path] = nil
		case c.MoveTo != "":
			files[c.Path] = nil
			files[c.MoveTo] = &c.New
		default:
			files[c.Path] = &c.New
		}
	}
	writeJSON(stdout, map[string]any{"files": files})
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

func readPayload(editFile string, stdin io.Reader) (string, error) {
	if editFile != "" {
		b, err := os.ReadFile(editFile)
		if err != nil {
			return "", fmt.Errorf("cannot read the edit payload: %w", err)
		}
		return string(b), nil
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

// parseFlags parses fl from args, allowing flags after positional arguments.
func parseFlags(fl *flag.FlagSet, args []string) error {
	var positional []string
	for {
		if err := fl.Parse(args); err != nil {
			return err
		}
		args = fl.Args()
		if len(args) == 0 {
			break
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
	return fl.Parse(append([]string{"--"}, positional...))
}
