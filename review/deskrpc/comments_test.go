package deskrpc

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestDecideWithComments: decide takes comments; the outcome and its text
// carry them with the lines quoted by the desk (a quote sent is ignored),
// and a bad comment is invalid params naming it, the proposal still open.
func TestDecideWithComments(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	cl := dialTestDesk(t, d.Desk)
	ctx := reviewtest.Context(t)
	if err := cl.Call(ctx, "hello", map[string]any{"protocol": 1, "agent": "script", "role": "reviewer"}, nil); err != nil {
		t.Fatal(err)
	}
	reviewtest.WriteFile(t, filepath.Join(d.Root, "a.go"), "package a\n")
	p := d.MustPropose(t, engine.FormatWrite, "a.go", "package a\n\nfunc F() {}\n")
	tests := []struct {
		name    string
		comment map[string]any
		want    string
	}{
		{"unknown file", map[string]any{"path": "b.go", "side": "new", "line": 1, "text": "t"}, "comment 1 (on b.go): not a file of proposal"},
		{"bad side", map[string]any{"path": "a.go", "side": "right", "line": 1, "text": "t"}, `side "right" is neither`},
		{"past the end", map[string]any{"path": "a.go", "side": "new", "line": 2, "endLine": 4, "text": "t"}, "line 4 is past the end of the new side, which has 3 lines"},
		{"no text", map[string]any{"path": "a.go", "side": "old", "line": 1}, "the text is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, err := callCode(t, cl, "decide", map[string]any{"id": p.ID, "decision": "reject", "comments": []any{tt.comment}})
			if code != codeInvalidParams || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("decide with a bad comment: %v (code %d); want %d saying %q", err, code, codeInvalidParams, tt.want)
			}
		})
	}
	var res wireResult
	err := cl.Call(ctx, "decide", map[string]any{"id": p.ID, "decision": "approve", "comments": []any{
		map[string]any{"path": "a.go", "side": "new", "line": 3, "text": "document F", "quote": "forged"},
	}}, &res)
	if err != nil {
		t.Fatal(err)
	}
	cs := res.Outcome.Comments
	if len(cs) != 1 || cs[0].Quote != "func F() {}\n" || cs[0].EndLine != 3 || cs[0].Path != filepath.Join(d.Root, "a.go") {
		t.Fatalf("outcome comments = %+v; want line 3 of a.go quoted by the desk", cs)
	}
	if !strings.Contains(res.Text, "Comment: document F") || !strings.Contains(res.Text, "func F() {}") {
		t.Errorf("text lacks the comment and its line:\n%s", res.Text)
	}
}
