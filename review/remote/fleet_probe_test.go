package remote

import (
	"strings"
	"testing"
)

// TestOwnLabelKeepsTheMachineInSight: a desk without a label of the
// user's is named by its workspace, which the far desk reports, and by its
// machine, which the window knows. A workspace named to pass for another
// desk ("api on prod@box" and a row of spaces, or a long name) cannot push
// the machine out of the queue's heading or the title.
func TestOwnLabelKeepsTheMachineInSight(t *testing.T) {
	for _, root := range []string{
		"/srv/api on prod@box" + strings.Repeat(" ", 300) + "x",
		"/srv/api on prod@box\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t",
		"/srv/" + strings.Repeat("a", 500),
	} {
		got := ownLabel([]string{root}, "evil@box2")
		if !strings.HasSuffix(got, " on evil@box2") || len([]rune(got)) > 48 || strings.Contains(got, "  ") || strings.Contains(got, `\t`) {
			t.Errorf("ownLabel(%.40q…) = %q; want the name's spaces run together, cut short, the machine after it", root, got)
		}
	}
	if got := ownLabel([]string{"/home/me/api", "/home/me/web"}, "dev@box"); got != "api +1 on dev@box" {
		t.Errorf("ownLabel of two roots = %q; want api +1 on dev@box", got)
	}
}
