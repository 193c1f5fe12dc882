package ui

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/ui/present"
)

func TestNoticeNamesAgentFilesAndCounts(t *testing.T) {
	at := baseTime
	one := review.Proposal{ID: "p1", Agent: "claude", Created: at, Files: []review.File{{Rel: "main.go", Added: 3, Removed: 1}}}
	n := present.NoticeFor([]review.Proposal{one})
	if n.Summary != "DiffDesk: claude proposes a change" || n.Body != "main.go  +3 −1" || n.Open != "p1" {
		t.Errorf("one proposal: %+v", n)
	}

	// A ten-file patch is one proposal: one notification naming the first
	// files and the total.
	var files []review.File
	for i := range 10 {
		files = append(files, review.File{Rel: string(rune('a'+i)) + ".go", Added: 2, Removed: 1})
	}
	patch := review.Proposal{ID: "p2", Agent: "codex", Created: at, Files: files}
	n = present.NoticeFor([]review.Proposal{patch})
	want := "a.go  +2 −1\nb.go  +2 −1\nc.go  +2 −1\nd.go  +2 −1\n… and 6 more (+20 −10 in all)"
	if n.Summary != "DiffDesk: codex proposes changes to 10 files" || n.Body != want {
		t.Errorf("ten-file patch: %q / %q; want body %q", n.Summary, n.Body, want)
	}

	// A burst: oldest first, and the action opens the oldest.
	later := review.Proposal{ID: "p3", Agent: "gemini", Created: at.Add(time.Second), Files: []review.File{{Rel: "x.txt", Added: 1}}}
	n = present.NoticeFor([]review.Proposal{later, one})
	if n.Summary != "DiffDesk: 2 proposals need you" || n.Body != "claude: main.go  +3 −1\ngemini: x.txt  +1 −0" || n.Open != "p1" {
		t.Errorf("burst: %+v", n)
	}
}

// A desktop notification's action is the person asking for that proposal:
// the window shows the Review tab with it selected.
func TestNotificationActionOpensItsProposal(t *testing.T) {
	h := newHarness(t)
	notices := h.Notices(time.Millisecond)
	first := h.propose("a", "s1", engine.FormatWrite, "1.txt", "1\n")
	h.until("a notification is sent", func() bool { return len(*notices) == 1 })
	second := h.propose("b", "s2", engine.FormatWrite, "2.txt", "2\n")
	h.until("a second notification is sent", func() bool { return len(*notices) == 2 })
	if sent := *notices; sent[1].Open != second.ID || !strings.Contains(sent[1].Body, "2.txt  +1 −0") {
		t.Fatalf("second notification %+v; want one opening %s", sent[1], second.ID)
	}
	if h.win.Selected() != first.ID {
		t.Fatalf("the window shows %q; want the oldest, %q", h.win.Selected(), first.ID)
	}
	h.win.ShowHistory()
	h.ClickNotification(second.ID)
	h.until("the window shows the notification's proposal", func() bool { return h.win.Selected() == second.ID })
	if !h.win.reviewShown() {
		t.Error("the History tab stays in front; want the Review tab")
	}
	// The choice is the person's: a proposal arriving does not take it away.
	h.propose("c", "s3", engine.FormatWrite, "3.txt", "3\n")
	if h.win.Selected() != second.ID {
		t.Errorf("after another proposal the window shows %q; want %q still", h.win.Selected(), second.ID)
	}
}

// A person mid-review — a proposal chosen, the search box being typed in —
// keeps both while proposals arrive; only the title and the queue count.
func TestProposalsArrivingKeepSelectionAndFocus(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "one\ntwo\n")
	p1 := h.propose("a", "s", engine.FormatWrite, "a.txt", "one\nTWO\n")
	p2 := h.propose("a", "s", engine.FormatWrite, "b.txt", "b\n")
	h.win.Select(p2.ID)
	h.press('/')
	c := h.win.Win.Canvas()
	focused := c.Focused()
	if focused == nil {
		t.Fatal("/ focused nothing; want the search box")
	}
	for _, r := range "tw" {
		h.press(r)
	}
	if got := h.win.Win.Title(); !strings.HasPrefix(got, "DiffDesk — 2 waiting · ") {
		t.Errorf("title %q; want DiffDesk — 2 waiting", got)
	}
	for _, f := range []string{"c.txt", "d.txt", "e.txt"} {
		h.propose("b", "t", engine.FormatWrite, f, "x\n")
	}
	if h.win.Selected() != p2.ID {
		t.Errorf("after 3 proposals arrived the window shows %q; want the person's choice %q", h.win.Selected(), p2.ID)
	}
	if c.Focused() != focused {
		t.Errorf("after 3 proposals arrived the focus is on %T; want the search box still", c.Focused())
	}
	if got := h.win.Win.Title(); !strings.HasPrefix(got, "DiffDesk — 5 waiting · ") {
		t.Errorf("title %q; want DiffDesk — 5 waiting", got)
	}
	if _, ok := h.desk.Outcome(p1.ID); ok {
		t.Error("typing in the search box decided a proposal")
	}
}

// Without a notification service the window says so once, not per
// proposal.
func TestNoNotificationServiceIsSaidOnce(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path="+t.TempDir()+"/no-bus")
	var log lockedBuffer
	d := newDesktopNotifier(&log, nil)
	for range 3 {
		d.send(present.Notice{Summary: "s", Body: "b", Open: "p"})
		d.waitSends()
	}
	d.close()
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	if len(lines) != 1 || !strings.Contains(lines[0], "desktop notifications are off") {
		t.Errorf("logged %q; want one line saying notifications are off", log.String())
	}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// The notifier uses the desktop's session bus and never starts one: with
// neither DBUS_SESSION_BUS_ADDRESS nor $XDG_RUNTIME_DIR/bus it is off.
func TestSessionBusAddressNeverStartsABus(t *testing.T) {
	dir := t.TempDir()
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if a, err := sessionBusAddress(env(map[string]string{"DBUS_SESSION_BUS_ADDRESS": "unix:path=/x"})); err != nil || a != "unix:path=/x" {
		t.Errorf("with the address set: %q, %v", a, err)
	}
	if a, err := sessionBusAddress(env(map[string]string{"DBUS_SESSION_BUS_ADDRESS": "autolaunch:", "XDG_RUNTIME_DIR": dir})); err == nil {
		t.Errorf("autolaunch: and no bus socket: %q; want no bus (nothing started)", a)
	}
	os.WriteFile(filepath.Join(dir, "bus"), nil, 0o600) // a file, not a socket
	if a, err := sessionBusAddress(env(map[string]string{"XDG_RUNTIME_DIR": dir})); err == nil {
		t.Errorf("$XDG_RUNTIME_DIR/bus not a socket: %q; want no bus", a)
	}
	os.Remove(filepath.Join(dir, "bus"))
	l, err := net.Listen("unix", filepath.Join(dir, "bus"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if a, err := sessionBusAddress(env(map[string]string{"XDG_RUNTIME_DIR": dir})); err != nil || a != "unix:path="+filepath.Join(dir, "bus") {
		t.Errorf("with $XDG_RUNTIME_DIR/bus: %q, %v", a, err)
	}
}

// A notification asks for work: once the proposals it names no longer wait
// (decided in the window, by deskctl, or withdrawn by their agent) it is
// withdrawn from the desktop, not left standing over work that is done (a
// real session under dunst: "claude proposes a change" stayed after the
// approval). The window tells the notifier; the notifier closes a
// notification when none of its proposals waits.
func TestNotificationsWithdrawnOnceDecided(t *testing.T) {
	h := newHarness(t)
	sent := h.Notices(time.Millisecond)
	settled := h.Settled()
	a := h.propose("a", "s1", engine.FormatWrite, "1.txt", "1\n")
	b := h.propose("a", "s1", engine.FormatWrite, "2.txt", "2\n")
	names := map[string]bool{}
	h.until("notifications name both proposals", func() bool {
		for _, n := range *sent {
			for _, id := range n.Names {
				names[id] = true
			}
		}
		return names[a.ID] && names[b.ID]
	})
	has := func(id string) bool {
		for _, s := range *settled {
			if s == id {
				return true
			}
		}
		return false
	}
	if has(a.ID) || has(b.ID) {
		t.Fatalf("proposals still waiting were told settled: %v", *settled)
	}
	if _, err := h.desk.Decide(t.Context(), a.ID, review.Decision{Verdict: decision.Rejected, Feedback: "no"}); err != nil {
		t.Fatal(err)
	}
	h.until("the decided proposal is told settled", func() bool { return has(a.ID) })
	if has(b.ID) {
		t.Errorf("the proposal still waiting was told settled: %v", *settled)
	}

	// The notifier closes a notification only once none it names waits.
	svc := &fakeNotifyService{}
	d := notifierOver(svc)
	d.send(present.Notice{Summary: "s", Body: "b", Open: "p1", Names: []string{"p1", "p2"}}) // id 1
	d.waitSends()
	d.send(present.Notice{Summary: "s", Body: "b", Open: "p2", Names: []string{"p2"}}) // id 2
	d.waitSends()
	d.settled("p2")
	d.waitSends()
	if got := svc.closedIDs(); fmt.Sprint(got) != "[2]" {
		t.Errorf("p2 settled closes %v; want [2] (1 still names p1)", got)
	}
	d.settled("p1")
	d.waitSends()
	if got := svc.closedIDs(); fmt.Sprint(got) != "[2 1]" {
		t.Errorf("p1 settled closes %v; want [2 1]", got)
	}
	d.settled("p1")
	d.waitSends()
	if got := svc.closedIDs(); fmt.Sprint(got) != "[2 1]" {
		t.Errorf("settled twice closes %v", got)
	}
}

// TestNotificationNamesAHeldFailure: a failure held for the person (its
// agent waits for them to pick the lines or dismiss it) is in the desktop
// notification, as the window means it to be (it gathers it with the
// pending ones). In the real window the demo's held README failure was
// left out: "5 proposals need you" with 6 in the queue, because the send
// kept only open proposals, and held is not open.
func TestNotificationNamesAHeldFailure(t *testing.T) {
	h := newHarness(t)
	h.write("a.go", pickBase)
	sent := h.Notices(time.Millisecond)
	p := h.propose("agent", "s", engine.FormatSearchReplace, "a.go", srBlock("\tx := 1\n\ty := 3\n", "\tx := 10\n\ty := 20\n"))
	if held, _ := h.desk.Get(p.ID); held.State != review.StateHeld {
		t.Fatalf("state %s; want the failure held for the person", held.State)
	}
	h.until("a notification is sent", func() bool { return len(*sent) > 0 })
	h.settle()
	if n := (*sent)[0]; !strings.Contains(n.Summary+"\n"+n.Body, "a.go") {
		t.Errorf("notification %+v; want it to name the held a.go, whose agent waits for the person", n)
	}
}

// A notification posted at the instant its proposal is decided is
// withdrawn too: the decision's settled ran while the Notify call was on
// the bus, before the notification had an id to close (it stood on the
// desktop over work that was done).
func TestNotificationDecidedWhilePostedIsWithdrawn(t *testing.T) {
	svc := &fakeNotifyService{entered: make(chan struct{}), release: make(chan struct{})}
	d := notifierOver(svc)
	d.send(present.Notice{Summary: "s", Body: "b", Open: "p1", Names: []string{"p1"}})
	<-svc.entered // the Notify call is on the bus
	d.settled("p1")
	close(svc.release)
	d.waitSends()
	if got := svc.closedIDs(); fmt.Sprint(got) != "[1]" {
		t.Errorf("closed %v after p1 was decided while its notification was posted; want [1]", got)
	}

	// One naming a proposal that still waits stays.
	svc = &fakeNotifyService{entered: make(chan struct{}), release: make(chan struct{})}
	d = notifierOver(svc)
	d.send(present.Notice{Summary: "s", Body: "b", Open: "p2", Names: []string{"p2", "p3"}})
	<-svc.entered
	d.settled("p2")
	close(svc.release)
	d.waitSends()
	if got := svc.closedIDs(); len(got) != 0 {
		t.Errorf("closed %v while p3 still waits", got)
	}
	d.settled("p3")
	d.waitSends()
	if got := svc.closedIDs(); fmt.Sprint(got) != "[1]" {
		t.Errorf("closed %v once p3 was decided too; want [1]", got)
	}
}

// fakeNotifyService is a notification service answering Notify with ids
// 1, 2, …; with entered and release set, Notify says it was called and
// waits for release. It records the ids closed.
type fakeNotifyService struct {
	dbus.BusObject
	entered, release chan struct{}

	mu     sync.Mutex
	last   uint32
	closed []uint32
}

func (s *fakeNotifyService) CallWithContext(_ context.Context, method string, _ dbus.Flags, args ...any) *dbus.Call {
	switch method {
	case notifyIface + ".Notify":
		if s.entered != nil {
			close(s.entered)
			<-s.release
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		s.last++
		return &dbus.Call{Body: []any{s.last}}
	case notifyIface + ".CloseNotification":
		s.mu.Lock()
		s.closed = append(s.closed, args[0].(uint32))
		s.mu.Unlock()
	}
	return &dbus.Call{}
}

func (s *fakeNotifyService) closedIDs() []uint32 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]uint32(nil), s.closed...)
}
