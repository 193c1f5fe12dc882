package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
)

// TestExternalEditorOpensAtTheCurrentHunk: `x` on the second of two hunks
// opens an editor that takes +LINE (here a stand-in named vi) at that hunk's
// first changed line of the proposed text, and the file it is given is
// the proposed text.
func TestExternalEditorOpensAtTheCurrentHunk(t *testing.T) {
	e := newE2E(t)
	var old, proposed strings.Builder
	for i := 1; i <= 60; i++ {
		fmt.Fprintf(&old, "line %d\n", i)
		switch i {
		case 5:
			proposed.WriteString("line five\n")
		case 40:
			proposed.WriteString("line forty\nline forty and a half\n")
		default:
			fmt.Fprintf(&proposed, "line %d\n", i)
		}
	}
	e.write("long.txt", old.String())
	_, ch := e.proposeOverSocket(engine.FormatWrite, "long.txt", proposed.String())
	e.until("the proposal is shown", func() bool { return e.Shown() != "" })

	dir := t.TempDir()
	args, content := filepath.Join(dir, "args"), filepath.Join(dir, "content")
	vi := filepath.Join(dir, "vi") // the name decides how the line is given
	os.WriteFile(vi, []byte("#!/bin/sh\ncat \"$2\" > '"+content+"'\nprintf '%s\\n' \"$@\" > '"+args+"'\n"), 0o755)
	e.SetEditor([]string{vi})
	e.Keys("j") // the second hunk: the proposal's lines 40-41
	e.Keys("x")
	e.until("the editor ran and closed", func() bool {
		_, err := os.Stat(args)
		return err == nil && !e.ExternalEditorOpen()
	})
	b, _ := os.ReadFile(args)
	got := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(got) != 2 || got[0] != "+40" {
		t.Fatalf("the editor was given %q; want +40 (the current hunk's first line), then the file", got)
	}
	if text, _ := os.ReadFile(content); string(text) != proposed.String() {
		t.Errorf("the editor's file %s held %q; want the proposed text", got[1], text)
	}
	e.win.Approve()
	e.ApproveAnywayIfAsked()
	e.answer(ch)
}
