package ide

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/config"
	"github.com/diffdesk/diffdesk/review/reviewtest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// startTestDoors opens both IDE doors for d with their files in temporary
// directories; they close when the test ends.
func startTestDoors(t *testing.T, d *review.Desk) *Doors {
	t.Helper()
	doors, err := Start(context.Background(), d, Options{
		Doors:         config.Doors{Claude: true, Gemini: true},
		ClaudeLockDir: filepath.Join(t.TempDir(), "claude", "ide"),
		GeminiDir:     filepath.Join(t.TempDir(), "gemini", "ide"),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { doors.Close() })
	return doors
}

// doorStatus returns the status of the door named name.
func doorStatus(t *testing.T, doors *Doors, name string) review.DoorStatus {
	t.Helper()
	for _, s := range doors.Status() {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no %s door in %+v", name, doors.Status())
	return review.DoorStatus{}
}

// pendingProposals delivers the id of every proposal that starts waiting
// for a decision.
func pendingProposals(t *testing.T, d *review.Desk) <-chan string {
	ch := make(chan string, 64)
	cancel := d.Subscribe(func(e review.Event) {
		if e.Kind == review.EventPending {
			ch <- e.ID
		}
	})
	t.Cleanup(cancel)
	return ch
}

// next receives from ch or fails the test after a generous timeout.
func next[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(20 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
		var zero T
		return zero
	}
}

// resultTexts returns a tool result's text items.
func resultTexts(res *mcp.CallToolResult) []string {
	var out []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			out = append(out, tc.Text)
		}
	}
	return out
}

func TestDoorFilesArePrivateAndRemovedOnClose(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	doors := startTestDoors(t, d.Desk)
	for _, s := range doors.Status() {
		t.Run(s.Name, func(t *testing.T) {
			fi, err := os.Stat(s.File)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Perm() != 0o600 {
				t.Errorf("%s has mode %v; want 0600", s.File, fi.Mode().Perm())
			}
			di, err := os.Stat(filepath.Dir(s.File))
			if err != nil {
				t.Fatal(err)
			}
			if di.Mode().Perm() != 0o700 {
				t.Errorf("%s has mode %v; want 0700", filepath.Dir(s.File), di.Mode().Perm())
			}
			host, _, err := net.SplitHostPort(s.Addr)
			if err != nil {
				t.Fatal(err)
			}
			if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
				t.Errorf("%s listens on %s; want loopback only", s.Name, s.Addr)
			}
		})
	}
	if err := doors.Close(); err != nil {
		t.Fatal(err)
	}
	for _, s := range doors.Status() {
		if _, err := os.Stat(s.File); !os.IsNotExist(err) {
			t.Errorf("%s still exists after Close (err %v)", s.File, err)
		}
		if c, err := net.Dial("tcp", s.Addr); err == nil {
			c.Close()
			t.Errorf("%s still accepts connections on %s after Close", s.Name, s.Addr)
		}
	}
}

func TestStartDoorsOpensOnlyThoseAsked(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	doors, err := Start(context.Background(), d.Desk, Options{Doors: config.Doors{Native: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer doors.Close()
	if s := doors.Status(); len(s) != 0 {
		t.Errorf("Status() = %+v; want no doors", s)
	}
}

// checkVerdictOnly checks that an IDE door's proposal says the agent hears
// only the verdict and the final text, so that the window does not tell
// the person a reason or comments were sent (real claude and gemini: the
// window said "Reason sent to the agent" over a bare rejection).
func checkVerdictOnly(t *testing.T, d *review.Desk, id string) {
	t.Helper()
	p, ok := d.Get(id)
	if !ok {
		t.Fatalf("proposal %s is not at the desk", id)
	}
	if !p.VerdictOnly {
		t.Errorf("proposal %s from an IDE door is not VerdictOnly: the window would say the reason reached the agent", id)
	}
}
