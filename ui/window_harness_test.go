package ui

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/config"
	"github.com/diffdesk/diffdesk/review/journal"
)

// harness is a real desk over a temp workspace with the real main window
// on Fyne's test driver. Desk events and finished decisions reach the UI
// through sched, which the test goroutine drains (under the test driver
// fyne.Do would run them inline on the desk's goroutines).
type harness struct {
	t     *testing.T
	root  string
	desk  *review.Desk
	j     *journal.Journal
	win   *Window
	sched chan func()

	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer // AfterFunc's, in the order set
}

// fakeTimer is a func the window set to run at a time of the harness's
// clock; advance runs it.
type fakeTimer struct {
	at   time.Time
	f    func()
	done bool // ran or stopped
}

// baseTime is the fixed clock tests start from (ages and ids are stable).
var baseTime = time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)

func newHarness(t *testing.T) *harness {
	t.Helper()
	return newHarnessWithConfig(t, "")
}

// newHarnessWithConfig is newHarness with a user config file holding
// configTOML.
func newHarnessWithConfig(t *testing.T, configTOML string) *harness {
	t.Helper()
	return newLocalHarness(t, configTOML, WindowOptions{})
}

// newLocalHarness is a desk over a temp workspace, its journal and a user
// config file holding configTOML, and the window over it with o (its
// Remote, History; windowOver sets the rest).
func newLocalHarness(t *testing.T, configTOML string, o WindowOptions) *harness {
	t.Helper()
	h := newBareHarness(t)
	h.root = t.TempDir()
	j, err := journal.Open(context.Background(), filepath.Join(t.TempDir(), "journal.db"))
	if err != nil {
		t.Fatal(err)
	}
	cfgFile := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(cfgFile, []byte(configTOML), 0o644)
	cfg, err := config.Load(cfgFile, []string{h.root})
	if err != nil {
		t.Fatal(err)
	}
	h.j = j
	h.desk, err = review.NewDesk(review.Options{FailureText: agenttext.Failure, Roots: []string{h.root}, Config: cfg, Journal: j, Now: h.clock})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { // after the window's (cleanups run last first)
		h.desk.Close()
		j.Close()
	})
	h.openWindow(h.desk, o)
	return h
}

// clock is the harness's fake time; advance moves it.
func (h *harness) clock() time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.now
}

// advance moves the clock on by d and runs the timers due by then, in
// the order they were set, on the calling goroutine.
func (h *harness) advance(d time.Duration) {
	h.mu.Lock()
	h.now = h.now.Add(d)
	var due []func()
	live := h.timers[:0]
	for _, t := range h.timers {
		switch {
		case t.done:
		case !t.at.After(h.now):
			t.done = true
			due = append(due, t.f)
		default:
			live = append(live, t)
		}
	}
	h.timers = live
	h.mu.Unlock()
	for _, f := range due {
		f()
	}
}

// afterFunc is the window's AfterFunc on the harness's clock.
func (h *harness) afterFunc(d time.Duration, f func()) func() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	t := &fakeTimer{at: h.now.Add(d), f: f}
	h.timers = append(h.timers, t)
	return func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		stopped := !t.done
		t.done = true
		return stopped
	}
}

// until runs the UI work scheduled for the test goroutine until cond holds,
// failing after 20 s.
func (h *harness) until(what string, cond func() bool) {
	h.t.Helper()
	deadline := time.NewTimer(20 * time.Second)
	defer deadline.Stop()
	for !cond() {
		select {
		case f := <-h.sched:
			f()
		case <-time.After(5 * time.Millisecond): // something outside sched (a socket reply) may make cond true
		case <-deadline.C:
			h.t.Fatalf("timed out waiting until %s", what)
		}
	}
}

// write puts a file into the workspace as an editor saves it: a new file
// renamed over the old, so a watcher never sees it half written.
func (h *harness) write(rel, content string) string {
	h.t.Helper()
	p := filepath.Join(h.root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		h.t.Fatal(err)
	}
	if err := os.WriteFile(p+".tmp", []byte(content), 0o644); err != nil {
		h.t.Fatal(err)
	}
	if err := os.Rename(p+".tmp", p); err != nil {
		h.t.Fatal(err)
	}
	return p
}

func (h *harness) read(rel string) string {
	b, _ := os.ReadFile(filepath.Join(h.root, filepath.FromSlash(rel)))
	return string(b)
}

// propose sends a proposal straight to the desk and waits until the window
// shows it.
func (h *harness) propose(agent, session string, format engine.Format, rel, payload string) review.Proposal {
	h.t.Helper()
	p, err := h.desk.Propose(context.Background(), review.Request{Agent: agent, Session: session, Format: format, Path: rel, Payload: payload})
	if err != nil {
		h.t.Fatalf("Propose(%s): %v", rel, err)
	}
	h.advance(time.Minute)
	h.until("the window shows "+p.ID, func() bool { return h.InQueue(p.ID) })
	return p
}

// outcome waits for proposal id's outcome to reach the window.
func (h *harness) outcome(id string) review.Outcome {
	h.t.Helper()
	h.until("the window shows the outcome of "+id, func() bool {
		return h.Shown() == id && h.Decided() || h.Shown() != id && func() bool { _, ok := h.desk.Outcome(id); return ok }()
	})
	o, _ := h.desk.Outcome(id)
	return o
}

// srBlock is one SEARCH/REPLACE block.
func srBlock(search, replace string) string {
	return "------- SEARCH\n" + search + "=======\n" + replace + "+++++++ REPLACE\n"
}

// staleProposal proposes a SEARCH/REPLACE edit of rel (holding base), then
// saves disk over it as the person's editor would, and waits until the
// window shows the proposal stale.
func (h *harness) staleProposal(rel, base, edit, disk string) review.Proposal {
	h.t.Helper()
	h.write(rel, base)
	p := h.propose("agent", "s", engine.FormatSearchReplace, rel, edit)
	h.write(rel, disk)
	h.until("the proposal turns stale", func() bool { return h.Shown() == p.ID && h.ShownState() == review.StateStale })
	return p
}

// historyDetail is the journal's account of proposal id's decision.
func (h *harness) historyDetail(id string) journal.Detail {
	h.t.Helper()
	page, err := h.j.History(context.Background(), journal.Filter{})
	if err != nil {
		h.t.Fatal(err)
	}
	for _, e := range page.Entries {
		if e.ProposalID == id {
			det, err := h.j.Detail(context.Background(), e.Ref)
			if err != nil {
				h.t.Fatal(err)
			}
			return det
		}
	}
	h.t.Fatalf("no history entry for %s", id)
	return journal.Detail{}
}
