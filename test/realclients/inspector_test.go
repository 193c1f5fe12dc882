package realclients

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestInspectorDeskctlMCP has MCP Inspector's CLI list `deskctl mcp`'s
// tools and call write_to_file, which the person approves with their text.
func TestInspectorDeskctlMCP(t *testing.T) {
	dir := clients(t, "@modelcontextprotocol/inspector")
	inspector := filepath.Join(dir, "node_modules", ".bin", "mcp-inspector")
	e := newEnv(t)
	dk := startDesk(t, e, approveAs("written by a person\n"))

	out, errOut, err := run(t, e, dk.root, 60*time.Second, inspector, "--cli", deskctlBin, "mcp", "--socket", dk.sock, "--method", "tools/list")
	if err != nil {
		t.Fatalf("tools/list: %v\n%s\n%s", err, out, errOut)
	}
	var list struct{ Tools []struct{ Name string } }
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("tools/list printed %q: %v", out, err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	if got, want := strings.Join(names, " "), "apply_patch approve edit multi_edit replace_in_file write_to_file"; got != want {
		t.Errorf("tools/list = %s; want %s", got, want)
	}

	out, errOut, err = run(t, e, dk.root, 60*time.Second, inspector, "--cli", deskctlBin, "mcp", "--socket", dk.sock,
		"--method", "tools/call", "--tool-name", "write_to_file", "--tool-arg", "path=new.txt", "content=from the agent")
	if err != nil {
		t.Fatalf("tools/call: %v\n%s\n%s", err, out, errOut)
	}
	var res struct {
		Content []struct{ Text string }
		IsError bool
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.IsError || len(res.Content) == 0 || !strings.Contains(res.Content[0].Text, "written by a person") {
		t.Errorf("tools/call write_to_file = %s (%v); want the approved outcome with the person's text", out, err)
	}
	if got := readFile(t, filepath.Join(dk.root, "new.txt")); got != "written by a person\n" {
		t.Errorf("new.txt = %q; want the person's text", got)
	}
}
