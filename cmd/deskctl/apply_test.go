package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// applyJSON runs deskctl apply --json on a file holding original and decodes
// what it prints.
func applyJSON(t *testing.T, format, original, payload string, v any) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "f.txt")
	os.WriteFile(path, []byte(original), 0o644)
	out, errOut, code := deskctl(t, payload, "apply", "--format", format, "--file", path, "--json")
	if code != 0 {
		t.Fatalf("apply --json = exit %d, %q, %q", code, out, errOut)
	}
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("apply --json printed %q: %v", out, err)
	}
}

func TestApplyJSONIncomplete(t *testing.T) {
	var got struct {
		Content    string
		Incomplete *struct {
			Block, Line int
			Reason, Cut string
		}
	}
	applyJSON(t, "search-replace", "a\nb\nc\n", "------- SEARCH\nb\n=======\nB\n+++++++ REPLAC", &got)
	if got.Content != "a\nB\nc\n" || got.Incomplete == nil || got.Incomplete.Block != 1 || got.Incomplete.Cut != "+++++++ REPLAC" || got.Incomplete.Reason == "" {
		t.Errorf("apply --json of a cut-off block = %+v; want the content and incomplete {block 1, cut, reason}", got)
	}
	var complete map[string]any
	applyJSON(t, "search-replace", "a\nb\nc\n", "------- SEARCH\nb\n=======\nB\n+++++++ REPLACE\n", &complete)
	if _, ok := complete["incomplete"]; ok {
		t.Errorf("apply --json of a complete block = %v; want no \"incomplete\"", complete)
	}
}
