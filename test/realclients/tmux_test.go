package realclients

import (
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// terminal is an interactive agent running in a pseudo-terminal: a tmux
// session on a tmux server of its own.
type terminal struct {
	t      *testing.T
	server string // tmux -L name
}

// startTerminal runs argv in dir with e's environment in a 200×50 tmux
// session; it is killed when the test ends.
func startTerminal(t *testing.T, e *env, dir string, argv ...string) *terminal {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed; the interactive agents run in a tmux pseudo-terminal")
	}
	tm := &terminal{t: t, server: fmt.Sprintf("dd-%d-%x", os.Getpid(), sha256.Sum256([]byte(t.Name())))[:24]}
	args := []string{"-L", tm.server, "-f", "/dev/null", "new-session", "-d", "-s", "agent", "-x", "200", "-y", "50", "-c", dir, "env", "-i"}
	args = append(append(args, e.vars...), argv...)
	if out, err := exec.Command("tmux", args...).CombinedOutput(); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	pid, _ := exec.Command("tmux", "-L", tm.server, "display-message", "-p", "-t", "agent", "#{pane_pid}").Output()
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the agent's screen:\n%s", tm.screen())
		}
		exec.Command("tmux", "-L", tm.server, "kill-server").Run()
		// Let the agent exit before its home directory is removed; one that
		// ignores the hangup is killed.
		if p := strings.TrimSpace(string(pid)); p != "" {
			if n, err := strconv.Atoi(p); err == nil {
				syscall.Kill(n, syscall.SIGKILL)
			}
			eventually(t, 30*time.Second, "the agent exiting", func() bool {
				_, err := os.Stat("/proc/" + p)
				return err != nil
			})
		}
	})
	return tm
}

// screen is what the terminal shows now.
func (tm *terminal) screen() string {
	out, _ := exec.Command("tmux", "-L", tm.server, "capture-pane", "-p", "-t", "agent").Output()
	return string(out)
}

// send types keys (tmux key names, e.g. "Enter", or literal text).
func (tm *terminal) send(keys ...string) {
	tm.t.Helper()
	args := append([]string{"-L", tm.server, "send-keys", "-t", "agent"}, keys...)
	if out, err := exec.Command("tmux", args...).CombinedOutput(); err != nil {
		tm.t.Fatalf("tmux send-keys: %v\n%s", err, out)
	}
}

// eventually polls cond until it holds or timeout passes. The agents are
// other processes with no events to wait on, so polling is the one way.
func eventually(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.After(timeout)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatalf("%s did not happen within %s", what, timeout)
		}
	}
}

// submit types text at the agent's prompt and presses Enter once the text
// shows (an Enter that comes with the text counts as part of a paste).
func (tm *terminal) submit(text string) {
	tm.t.Helper()
	tm.send("-l", text)
	tm.waitScreen(30*time.Second, text)
	tm.send("Enter")
}

// waitScreen waits until the screen shows text.
func (tm *terminal) waitScreen(timeout time.Duration, text string) {
	tm.t.Helper()
	eventually(tm.t, timeout, fmt.Sprintf("the screen showing %q", text), func() bool { return strings.Contains(tm.screen(), text) })
}
