package ui

import (
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/ui/present"
)

func TestEditorArgs(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		line int
		want string
	}{
		{[]string{"vim"}, 12, "vim +12 /t/f.go"},
		{[]string{"/usr/bin/nvim"}, 3, "/usr/bin/nvim +3 /t/f.go"},
		{[]string{"emacsclient", "-c"}, 7, "emacsclient -c +7 /t/f.go"},
		{[]string{"code", "--wait"}, 12, "code --wait --goto /t/f.go:12"},
		{[]string{"subl", "-w"}, 5, "subl -w /t/f.go:5"},
		{[]string{"kate", "-b"}, 9, "kate -b --line 9 /t/f.go"},
		{[]string{"my-editor"}, 12, "my-editor /t/f.go"},
		{[]string{"vim"}, 0, "vim /t/f.go"},
	} {
		if got := strings.Join(editorArgs(tc.argv, "/t/f.go", tc.line), " "); got != tc.want {
			t.Errorf("editorArgs(%v, line %d) = %q; want %q", tc.argv, tc.line, got, tc.want)
		}
	}
}

func TestWorkspaceTitle(t *testing.T) {
	home := "/home/me"
	if got := present.HomeShort("/home/me/proj", home); got != "~/proj" {
		t.Errorf("homeShort = %q", got)
	}
	if got := present.HomeShort("/home/meme", home); got != "/home/meme" {
		t.Errorf("homeShort of a sibling = %q", got)
	}
	if got := present.WorkspaceTitle([]string{"/srv/a", "/srv/b", "/srv/c"}, home); got != " · /srv/a and 2 more" {
		t.Errorf("workspaceTitle of three = %q", got)
	}
	if got := present.WorkspaceTitle(nil, home); got != "" {
		t.Errorf("workspaceTitle of none = %q", got)
	}
}
