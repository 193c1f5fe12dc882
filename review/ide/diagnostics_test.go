package ide

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestClaudeGetDiagnostics: getDiagnostics answers with the problems the
// project's checkers find in the file as it is on disk, in VS Code's
// shape (0-based positions); without a uri, for the files the door
// reviewed.
func TestClaudeGetDiagnostics(t *testing.T) {
	if _, err := exec.LookPath("gofmt"); err != nil {
		t.Skip("gofmt not on PATH")
	}
	d := reviewtest.NewDesk(t, "", "[[checker]]\npreset = \"gofmt\"\n")
	bad := filepath.Join(d.Root, "bad.go")
	good := filepath.Join(d.Root, "good.go")
	reviewtest.WriteFile(t, bad, "package a\n\nfunc A() {\n\tif {\n\t}\n}\n")
	reviewtest.WriteFile(t, good, "package a\n")
	pending := pendingProposals(t, d.Desk)
	cs := dialClaude(t, doorStatus(t, startTestDoors(t, d.Desk), "claude-code"))
	ctx := reviewtest.Context(t)
	diagnose := func(args map[string]any) []claudeFileDiagnostics {
		t.Helper()
		res, err := callTool(ctx, cs, "getDiagnostics", args)
		if err != nil || res.IsError {
			t.Fatalf("getDiagnostics(%v) = %q, %v", args, resultTexts(res), err)
		}
		var out []claudeFileDiagnostics
		if err := json.Unmarshal([]byte(strings.Join(resultTexts(res), "")), &out); err != nil {
			t.Fatalf("getDiagnostics(%v) = %q: %v", args, resultTexts(res), err)
		}
		return out
	}
	uri := "file://" + bad
	want := []claudeFileDiagnostics{{URI: uri, Diagnostics: []claudeDiagnostic{{Message: "missing condition in if statement", Severity: "Error",
		Range: claudeRange{Start: claudePosition{Line: 3, Character: 4}, End: claudePosition{Line: 3, Character: 4}}, Source: "gofmt"}}}}
	if got := diagnose(map[string]any{"uri": uri}); !reflect.DeepEqual(got, want) {
		t.Errorf("getDiagnostics(bad.go) = %+v; want %+v", got, want)
	}
	if got := diagnose(map[string]any{"uri": "file://" + good}); len(got) != 1 || len(got[0].Diagnostics) != 0 {
		t.Errorf("getDiagnostics(good.go) = %+v; want the file with no diagnostics", got)
	}
	if got := diagnose(map[string]any{"uri": "file:///etc/passwd"}); len(got) != 0 {
		t.Errorf("getDiagnostics(/etc/passwd) = %+v; want nothing (the desk does not review it)", got)
	}
	if got := diagnose(map[string]any{}); len(got) != 0 {
		t.Errorf("getDiagnostics{} before any review = %+v; want none", got)
	}
	// The door reviews bad.go (the person answers in the terminal): {}
	// now covers it.
	done := make(chan error, 1)
	// Ends when openDiff is answered (close_tab below).
	go func() {
		_, err := callTool(ctx, cs, "openDiff", claudeOpenDiffArgs{OldFilePath: bad, NewFilePath: bad, NewFileContents: "package a\n", TabName: "t"})
		done <- err
	}()
	next(t, pending, "the proposal")
	if _, err := callTool(ctx, cs, "close_tab", claudeTabArgs{TabName: "t"}); err != nil {
		t.Fatal(err)
	}
	if err := next(t, done, "openDiff's answer"); err != nil {
		t.Fatal(err)
	}
	got := diagnose(map[string]any{})
	if len(got) != 1 || got[0].URI != "file://"+bad || len(got[0].Diagnostics) != 1 {
		t.Errorf("getDiagnostics{} after reviewing bad.go = %+v; want its one problem", got)
	}
}
