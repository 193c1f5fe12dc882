package ide

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/review/config"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// The Gemini door's discovery directory ($TMPDIR/gemini/ide) is shared by
// every user of the machine. One another user owns, one others can write,
// or one in a directory others can write and swap it in, keeps that door
// closed — no token file is written there — and the Claude Code door opens
// all the same; Status says why the Gemini door is not open.
func TestASharedDiscoveryDirectoryKeepsOnlyItsDoorClosed(t *testing.T) {
	cases := map[string]func(t *testing.T, dir string) string{
		"another user's": func(t *testing.T, dir string) string {
			if os.Getuid() != 0 {
				t.Skip("making a directory another user's needs root")
			}
			if err := os.Chown(dir, 4242, 4242); err != nil {
				t.Fatal(err)
			}
			return "belongs to uid 4242"
		},
		"writable by others": func(t *testing.T, dir string) string {
			if err := os.Chmod(dir, 0o777); err != nil {
				t.Fatal(err)
			}
			return "writable by other users"
		},
		"in a directory others can write": func(t *testing.T, dir string) string {
			if err := os.Chmod(filepath.Dir(dir), 0o777); err != nil {
				t.Fatal(err)
			}
			return "not sticky"
		},
	}
	for name, setup := range cases {
		t.Run(name, func(t *testing.T) {
			d := reviewtest.NewDesk(t, "", "")
			gemini := filepath.Join(t.TempDir(), "gemini", "ide")
			if err := os.MkdirAll(gemini, 0o700); err != nil {
				t.Fatal(err)
			}
			want := setup(t, gemini)
			doors, err := Start(context.Background(), d.Desk, Options{
				Doors:         config.Doors{Claude: true, Gemini: true},
				ClaudeLockDir: filepath.Join(t.TempDir(), "claude", "ide"),
				GeminiDir:     gemini,
			})
			if doors != nil {
				defer doors.Close()
			}
			if err == nil || !strings.Contains(err.Error(), "Gemini CLI door did not open") || !strings.Contains(err.Error(), want) {
				t.Errorf("Start with the discovery directory %s: %v; want the Gemini door refused, saying %q", name, err, want)
			}
			if entries, _ := os.ReadDir(gemini); len(entries) != 0 {
				t.Errorf("the desk wrote %s into a directory %s", entries[0].Name(), name)
			}
			if doors == nil {
				t.Fatal("no doors at all; want the Claude Code door open")
			}
			if c := doorStatus(t, doors, "claude-code"); c.Addr == "" || c.Error != "" {
				t.Errorf("the Claude Code door: %+v; want it open", c)
			}
			if g := doorStatus(t, doors, "gemini-cli"); g.Error == "" || g.Addr != "" {
				t.Errorf("the Gemini door's status: %+v; want it listed as not open, with the reason", g)
			}
		})
	}
}
