package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The person at the desk, facing a held failure: dismiss it, or use the
// lines of its first candidate (a closest match, or the first place).
func dismissHeld(d *review.Desk, p review.Proposal) { d.Dismiss(context.Background(), p.ID) }

func pickFirst(d *review.Desk, p review.Proposal) {
	c := p.Mismatch.Closest
	if len(p.Mismatch.Places) > 0 {
		c = p.Mismatch.Places
	}
	d.Place(context.Background(), p.ID, "", p.Mismatch.Block, engine.Region{StartLine: c[0].StartLine, EndLine: c[0].EndLine})
}

// heldCases are an edit whose old_string matches nowhere in "a\nbeta\n"
// ("betta" is closest to line 2), handled three ways: dismissed, picked,
// and with nobody at the desk (answered at once).
var heldCases = []heldCase{
	{"dismissed", dismissHeld, true, "betta", "a\nbeta\n"},
	{"picked", pickFirst, false, "the person chose line 2 of", "a\nB\n"},
	{"nobody at the desk", nil, true, "betta", "a\nbeta\n"},
}

// heldCase is one of heldCases.
type heldCase struct {
	name     string
	held     func(*review.Desk, review.Proposal) // nil: nobody at the desk
	wantErr  bool
	wantText string
	wantFile string // what the desk writes (MCP), or what the agent is told to write (hook)
}

// heldCaseDesk serves a desk for tc (one that holds failures for the
// person, or one nobody attends) over a workspace holding f.txt, whose
// path it returns with the root and the socket.
func heldCaseDesk(t *testing.T, tc heldCase) (root, sock, path string) {
	t.Helper()
	if tc.held == nil {
		root, sock = deskDeciding(t, approveAs(""))
	} else {
		root, sock = deskHolding(t, approveAs(""), tc.held)
	}
	path = filepath.Join(root, "f.txt")
	os.WriteFile(path, []byte("a\nbeta\n"), 0o644)
	return root, sock, path
}

// TestMCPHeldFailure: the MCP edit tool's call waits on a held failure;
// Dismiss answers it with the failure, a pick with the person-chosen
// outcome, and with nobody at the desk the failure comes at once.
func TestMCPHeldFailure(t *testing.T) {
	for _, tc := range heldCases {
		t.Run(tc.name, func(t *testing.T) {
			root, sock, path := heldCaseDesk(t, tc)
			cs := mcpClient(t, sock, root)
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "edit",
				Arguments: map[string]any{"file_path": "f.txt", "old_string": "betta", "new_string": "B"}})
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError != tc.wantErr || !strings.Contains(toolText(res), tc.wantText) {
				t.Errorf("edit = error %v, %q; want error %v and %q", res.IsError, toolText(res), tc.wantErr, tc.wantText)
			}
			if b, _ := os.ReadFile(path); string(b) != tc.wantFile {
				t.Errorf("%s holds %q; want %q", path, b, tc.wantFile)
			}
		})
	}
}

// TestHookHeldFailure: Claude Code's PreToolUse hook waits on a held
// failure; Dismiss denies with the failure, a pick allows with the whole
// file rewritten to the person-chosen text and says where it went, and
// with nobody at the desk the denial comes at once.
func TestHookHeldFailure(t *testing.T) {
	for _, tc := range heldCases {
		t.Run(tc.name, func(t *testing.T) {
			root, sock, path := heldCaseDesk(t, tc)
			in := map[string]any{"file_path": path, "old_string": "betta", "new_string": "B", "replace_all": false}
			out, errOut, code := deskctl(t, hookJSON(t, "PreToolUse", "Edit", root, in), "hook", "claude", "--socket", sock)
			decision := `"permissionDecision":"allow"`
			if tc.wantErr {
				decision = `"permissionDecision":"deny"`
			}
			for _, want := range []string{decision, tc.wantText} {
				if code != 0 || !strings.Contains(out, want) {
					t.Errorf("hook = exit %d, %s (stderr %q); want %s", code, out, errOut, want)
				}
			}
			if !tc.wantErr && !strings.Contains(out, `"updatedInput":{"file_path":"`+path+`","new_string":"a\nB\n","old_string":"a\nbeta\n"`) {
				t.Errorf("hook = %s; want the input rewritten to the person-chosen text", out)
			}
			if b, _ := os.ReadFile(path); string(b) != "a\nbeta\n" {
				t.Errorf("the desk wrote %s (%q); the agent writes it", path, b)
			}
		})
	}
}
