package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// Free text printed to a terminal — a reviewer's feedback (perhaps from a
// window on another machine), an agent's SEARCH text quoted in a failure —
// reaches decide's and history's output with its terminal escapes
// escaped, line breaks kept.
func TestFreeTextIsEscapedOnTheTerminal(t *testing.T) {
	d, sock := serveTestDesk(t)
	reviewtest.WriteFile(t, filepath.Join(d.Root, "a.txt"), "one\n")
	p := d.MustPropose(t, engine.FormatWrite, "a.txt", "two\n")
	feedback := "no\x1b[2J\x1b[31m forged\x07 line\rX\u202e"
	out, errOut, code := deskctl(t, "", "decide", p.ID, "reject", "--socket", sock, "--feedback", feedback)
	if code != 0 {
		t.Fatalf("decide: exit %d, %s", code, errOut)
	}
	failed := d.MustPropose(t, engine.FormatSearchReplace, "a.txt", reviewtest.SR("\x1b]0;pwned\x07one\x1b[8m\n", "x\n"))
	reviewtest.WaitOutcome(t, d.Desk, failed.ID)
	list, _, _ := deskctl(t, "", "history", "list", "--journal", d.Journal.Path())
	show, _, _ := deskctl(t, "", "history", "show", "d1", "--journal", d.Journal.Path())
	showFailed, _, _ := deskctl(t, "", "history", "show", "d2", "--journal", d.Journal.Path())
	for name, text := range map[string]string{"decide": out, "history list": list, "history show": show, "history show (failure)": showFailed} {
		if strings.ContainsAny(text, "\x1b\x07\r\u202e") {
			t.Errorf("%s printed a terminal control character raw:\n%q", name, text)
		}
	}
	if !strings.Contains(out, `no\x1b[2J\x1b[31m forged\x07 line\x0dX\u202e`) {
		t.Errorf("decide printed\n%q\nwant the feedback with its escapes shown", out)
	}
	if !strings.Contains(showFailed, `\x1b]0;pwned\x07`) {
		t.Errorf("history show of the failure:\n%q\nwant the SEARCH text with its escapes shown", showFailed)
	}
}
