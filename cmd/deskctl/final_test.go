package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/review/decision"
)

// TestProposeJSONCarriesFinalContentOnlyWhenAsked: issue 25 item 11 —
// deskctl propose --json printed every file's whole text for an approval
// as proposed. It prints finalAsProposed and the hash instead, whole or
// streamed; --final-content prints the text.
func TestProposeJSONCarriesFinalContentOnlyWhenAsked(t *testing.T) {
	root, sock := startServe(t, decision.Approved)
	content := strings.Repeat("line\n", 500)
	for _, tt := range []struct {
		name  string
		args  []string
		final bool
	}{
		{"whole", nil, false},
		{"streamed", []string{"--stream", "4"}, false},
		{"whole, --final-content", []string{"--final-content"}, true},
		{"streamed, --final-content", []string{"--stream", "4", "--final-content"}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(root, strings.NewReplacer(" ", "", ",", "", "-", "").Replace(tt.name)+".txt")
			os.Remove(path)
			args := append([]string{"propose", "--socket", sock, "--format", "write", "--file", path, "--json"}, tt.args...)
			out, errOut, code := deskctl(t, content, args...)
			var o struct {
				Files []map[string]any `json:"files"`
			}
			if code != 0 || json.Unmarshal([]byte(out), &o) != nil || len(o.Files) != 1 {
				t.Fatalf("exit %d, %q, %q", code, out, errOut)
			}
			f := o.Files[0]
			got, has := f["finalContent"].(string)
			switch {
			case tt.final && (!has || got != content):
				t.Errorf("--final-content: finalContent %.30q; want the file's text", got)
			case !tt.final && (has || f["finalAsProposed"] != true || f["finalSha256"] == ""):
				t.Errorf("finalContent %.30q, finalAsProposed %v, finalSha256 %v; want only finalAsProposed and the hash", got, f["finalAsProposed"], f["finalSha256"])
			}
		})
	}
}
