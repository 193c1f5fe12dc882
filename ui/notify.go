package ui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/diffdesk/diffdesk/ui/present"
)

// The freedesktop.org notification service
// (https://specifications.freedesktop.org/notification-spec/).
const (
	notifyName  = "org.freedesktop.Notifications"
	notifyPath  = dbus.ObjectPath("/org/freedesktop/Notifications")
	notifyIface = "org.freedesktop.Notifications"
)

// desktopNotifier sends present.Notices to the desktop's notification service on
// the D-Bus session bus and calls onAction with a notice's proposal when
// the person clicks it. Fyne's SendNotification cannot: it carries no
// action. Without a service it logs one line and sends nothing, trying
// again quietly with the next notice (a service may start later).
type desktopNotifier struct {
	onAction func(proposalID string) // on the D-Bus goroutine
	log      io.Writer

	mu      sync.Mutex
	conn    *dbus.Conn
	service dbus.BusObject    // the notification service on conn; nil until connected
	markup  bool              // the service reads markup in the body: escape it
	open    map[uint32]string // notification id → proposal id, until closed
	failed  bool              // said once that notifications are off
	sending sync.WaitGroup

	// wmu guards waiting and posting alone, and is never held across a
	// D-Bus call: settled takes it on the UI goroutine.
	wmu     sync.Mutex
	waiting map[uint32]map[string]bool // notification id → the proposals it names that still wait
	// posting are the proposals named by notices on their way to the
	// service (no id yet), by send's number: one settled meanwhile is
	// dropped here, and a notice left naming none is withdrawn once
	// posted.
	posting map[int]map[string]bool
	sends   int
}

func newDesktopNotifier(log io.Writer, onAction func(string)) *desktopNotifier {
	return &desktopNotifier{log: log, onAction: onAction, open: map[uint32]string{},
		waiting: map[uint32]map[string]bool{}, posting: map[int]map[string]bool{}}
}

// settled withdraws the notifications whose proposals no longer wait for
// the person (decided here or elsewhere, withdrawn): one that still stood
// on the desktop would ask for work that is done. Like send, it never
// blocks the caller.
func (d *desktopNotifier) settled(proposalID string) {
	d.wmu.Lock()
	done := d.take(proposalID)
	d.wmu.Unlock()
	if len(done) == 0 {
		return
	}
	d.sending.Add(1)
	go func() {
		defer d.sending.Done()
		d.mu.Lock()
		defer d.mu.Unlock()
		if d.service == nil {
			return
		}
		for _, id := range done {
			d.withdraw(id)
		}
	}()
}

// withdraw closes notification id on the desktop. d.mu is held.
func (d *desktopNotifier) withdraw(id uint32) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	d.service.CallWithContext(ctx, notifyIface+".CloseNotification", 0, id)
}

// take drops proposalID from the notifications naming it and returns those
// that name no waiting proposal any more; it drops it from the notices on
// their way too (post withdraws one left naming none). d.wmu is held.
func (d *desktopNotifier) take(proposalID string) []uint32 {
	for _, names := range d.posting {
		delete(names, proposalID)
	}
	var done []uint32
	for id, names := range d.waiting {
		if !names[proposalID] {
			continue
		}
		delete(names, proposalID)
		if len(names) == 0 {
			delete(d.waiting, id)
			done = append(done, id)
		}
	}
	return done
}

// send posts n without blocking the caller (the UI goroutine): the D-Bus
// call runs on its own goroutine.
func (d *desktopNotifier) send(n present.Notice) {
	d.wmu.Lock()
	d.sends++
	seq := d.sends
	names := map[string]bool{}
	for _, p := range n.Names {
		names[p] = true
	}
	d.posting[seq] = names
	d.wmu.Unlock()
	d.sending.Add(1)
	go func() {
		defer d.sending.Done()
		if err := d.post(n, seq); err != nil {
			d.wmu.Lock()
			delete(d.posting, seq)
			d.wmu.Unlock()
			d.mu.Lock()
			said := d.failed
			d.failed = true
			d.mu.Unlock()
			if !said {
				fmt.Fprintf(d.log, "diffdesk: desktop notifications are off (%v); the window's title and tray still count what waits\n", err)
			}
		}
	}()
}

// post posts n, the notice send numbered seq. A proposal it names that
// was settled while the call was on its way (decided at the instant it
// was posted) is not waited for: a notice left naming none is withdrawn
// at once, not left standing.
func (d *desktopNotifier) post(n present.Notice, seq int) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.service == nil {
		if err := d.connect(); err != nil {
			return err
		}
	}
	body := n.Body
	if d.markup {
		body = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var id uint32
	err := d.service.CallWithContext(ctx, notifyIface+".Notify", 0,
		"DiffDesk", uint32(0), "", n.Summary, body, []string{"default", "Review"},
		map[string]dbus.Variant{"desktop-entry": dbus.MakeVariant("io.github.diffdesk.desk")},
		int32(-1)).Store(&id)
	if err != nil {
		return fmt.Errorf("Notify on the session bus: %w", err)
	}
	if d.failed {
		fmt.Fprintln(d.log, "diffdesk: desktop notifications are on again")
		d.failed = false
	}
	d.open[id] = n.Open
	d.wmu.Lock()
	names := d.posting[seq]
	delete(d.posting, seq)
	if len(names) > 0 {
		d.waiting[id] = names
	}
	d.wmu.Unlock()
	if len(n.Names) > 0 && len(names) == 0 {
		d.withdraw(id)
	}
	return nil
}

// sessionBusAddress is the session bus the desktop runs:
// $DBUS_SESSION_BUS_ADDRESS, else $XDG_RUNTIME_DIR/bus. It never starts
// one, as godbus would (dbus-launch): a bus started for the window alone
// has no notification service, and its daemon outlives the window.
func sessionBusAddress(getenv func(string) string) (string, error) {
	if a := getenv("DBUS_SESSION_BUS_ADDRESS"); a != "" && a != "autolaunch:" {
		return a, nil
	}
	if dir := getenv("XDG_RUNTIME_DIR"); dir != "" {
		bus := filepath.Join(dir, "bus")
		if fi, err := os.Stat(bus); err == nil && fi.Mode().Type() == fs.ModeSocket {
			return "unix:path=" + bus, nil
		}
	}
	return "", errors.New("no D-Bus session bus: DBUS_SESSION_BUS_ADDRESS is not set and there is no $XDG_RUNTIME_DIR/bus")
}

// connect opens a private session-bus connection (so nothing Fyne does with
// the shared one interferes), reads the service's capabilities and listens
// for its ActionInvoked and NotificationClosed signals. d.mu is held.
func (d *desktopNotifier) connect() error {
	addr, err := sessionBusAddress(os.Getenv)
	if err != nil {
		return err
	}
	conn, err := dbus.Connect(addr)
	if err != nil {
		return fmt.Errorf("no D-Bus session bus: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var caps []string
	if err := conn.Object(notifyName, notifyPath).CallWithContext(ctx, notifyIface+".GetCapabilities", 0).Store(&caps); err != nil {
		conn.Close()
		return fmt.Errorf("no notification service on the session bus: %w", err)
	}
	for _, c := range caps {
		if c == "body-markup" {
			d.markup = true
		}
	}
	if err := conn.AddMatchSignal(dbus.WithMatchObjectPath(notifyPath), dbus.WithMatchInterface(notifyIface)); err != nil {
		conn.Close()
		return fmt.Errorf("listening for the notification service's signals: %w", err)
	}
	signals := make(chan *dbus.Signal, 16)
	conn.Signal(signals)
	go d.listen(signals)
	d.conn = conn
	d.service = conn.Object(notifyName, notifyPath)
	return nil
}

// listen turns the service's signals into onAction calls; it ends when the
// connection is closed.
func (d *desktopNotifier) listen(signals <-chan *dbus.Signal) {
	for s := range signals {
		if len(s.Body) < 2 {
			continue
		}
		switch s.Name {
		case notifyIface + ".ActionInvoked":
			id, _ := s.Body[0].(uint32)
			action, _ := s.Body[1].(string)
			d.mu.Lock()
			pid, ok := d.open[id]
			d.mu.Unlock()
			if ok && action == "default" && d.onAction != nil {
				d.onAction(pid)
			}
		case notifyIface + ".NotificationClosed":
			id, _ := s.Body[0].(uint32)
			d.mu.Lock()
			delete(d.open, id)
			d.mu.Unlock()
			d.wmu.Lock()
			delete(d.waiting, id)
			d.wmu.Unlock()
		}
	}
}

// close ends the connection (and so listen) once pending sends are done.
func (d *desktopNotifier) close() {
	d.sending.Wait()
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.conn != nil {
		d.conn.Close()
		d.conn, d.service = nil, nil
	}
}
