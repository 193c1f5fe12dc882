package startup

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/ide"
	"github.com/diffdesk/diffdesk/review/reviewtest"
	"github.com/diffdesk/diffdesk/review/workspace"
)

// The files the desk itself reads are protected whatever the workspace:
// with a home directory as workspace (the user config and journal inside
// it), and with --config pointing into the workspace, an agent's edit to
// the config, the trust store or the journal's directory needs a person —
// under --decide approve and an auto_approve rule for every path, it is
// rejected, never written, and no unprotect lifts it.
func TestTheDesksOwnFilesNeedAPerson(t *testing.T) {
	rule := "unprotect = [\"go.sum\", \".diffdesk.toml\"]\n[[auto_approve]]\npath = \"**\"\n"
	cases := map[string]func(t *testing.T, home string) (Options, []string){
		"home as workspace": func(t *testing.T, home string) (Options, []string) {
			user := filepath.Join(home, ".config", "diffdesk", "config.toml")
			reviewtest.WriteFile(t, user, rule)
			return Options{Roots: []string{home}, Journal: filepath.Join(home, ".local", "share", "diffdesk", "journal.db")},
				[]string{".config/diffdesk/config.toml", ".config/diffdesk/trusted.json", ".local/share/diffdesk/notes.txt"}
		},
		"--config in the workspace": func(t *testing.T, home string) (Options, []string) {
			ws := filepath.Join(home, "project")
			user := filepath.Join(ws, "conf", "desk.toml")
			reviewtest.WriteFile(t, user, rule)
			return Options{Roots: []string{ws}, Config: user, Journal: filepath.Join(ws, "state", "journal.db")},
				[]string{"conf/desk.toml", "conf/trusted.json", "state/notes.txt"}
		},
	}
	for name, setup := range cases {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			t.Setenv("HOME", home)
			t.Setenv("XDG_CONFIG_HOME", "")
			c, paths := setup(t, home)
			sock, err := os.MkdirTemp("", "dd-own")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(sock) })
			c.Socket, c.Unattended = filepath.Join(sock, "desk.sock"), decision.Approved
			c.Doors = ide.Options{ClaudeLockDir: t.TempDir(), GeminiDir: t.TempDir()}
			b, err := Start(c)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Stop()
			ctx := reviewtest.Context(t)
			reviewtest.WriteFile(t, filepath.Join(b.Desk.Roots()[0], "plain.txt"), "a\n")
			if p, err := b.Desk.Propose(ctx, review.Request{Format: engine.FormatWrite, Path: "plain.txt", Payload: "b\n"}); err != nil || reviewtest.WaitOutcome(t, b.Desk, p.ID).Status != decision.Approved {
				t.Fatalf("an ordinary file was not approved by the rule: %v", err)
			}
			for _, rel := range paths {
				p, err := b.Desk.Propose(ctx, review.Request{Format: engine.FormatWrite, Path: rel, Payload: "[[formatter]]\nglob = \"*\"\ncommand = [\"true\"]\n"})
				if err != nil {
					t.Fatalf("propose %s: %v", rel, err)
				}
				if !strings.Contains(p.Files[0].Protected.Reason, workspace.OwnReason) {
					t.Errorf("%s: protection %+v; want the desk's own file", rel, p.Files[0].Protected)
				}
				o := reviewtest.WaitOutcome(t, b.Desk, p.ID)
				if o.Status != decision.Rejected {
					t.Errorf("%s under --decide approve and a rule for every path: %s; want rejected (a person is needed)", rel, o.Status)
				}
			}
			if got := reviewtest.ReadFile(t, filepath.Join(b.Desk.Roots()[0], paths[0])); strings.Contains(got, "formatter") {
				t.Errorf("the config was rewritten: %q", got)
			}
		})
	}
}
