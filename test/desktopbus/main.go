// Command desktopbus stands in for the desktop's session services on a
// private D-Bus session bus, so that scripts/smoke can run the real window
// with nothing missing and fail on any D-Bus error it logs. It owns
// org.freedesktop.Notifications (the notification server a desktop runs)
// and org.kde.StatusNotifierWatcher (the tray), prints "ready" once both
// names are its own, then one line per notification ("notify: SUMMARY:
// BODY") and per tray item registered ("tray: SENDER PATH"). With
// -tray-only it leaves org.freedesktop.Notifications to a real notification
// server (scripts/notify-test runs dunst): Debian has no headless
// StatusNotifierWatcher, so the tray's stays this stand-in.
//
// Usage: DBUS_SESSION_BUS_ADDRESS=… desktopbus [-tray-only]
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/godbus/dbus/v5"
	"github.com/godbus/dbus/v5/prop"
)

func main() {
	trayOnly := flag.Bool("tray-only", false, "own only the tray watcher, not the notification server")
	flag.Parse()
	if err := run(*trayOnly); err != nil {
		fmt.Fprintln(os.Stderr, "desktopbus:", err)
		os.Exit(1)
	}
	select {}
}

// out serializes the event lines the services print.
var out sync.Mutex

func say(format string, args ...any) {
	out.Lock()
	defer out.Unlock()
	fmt.Printf(format+"\n", args...)
}

func run(trayOnly bool) error {
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		return fmt.Errorf("connecting to the session bus (is DBUS_SESSION_BUS_ADDRESS set?): %w", err)
	}
	if err := conn.Export(&notifications{}, "/org/freedesktop/Notifications", "org.freedesktop.Notifications"); err != nil {
		return fmt.Errorf("exporting the notification server: %w", err)
	}
	w := &watcher{conn: conn}
	if err := conn.Export(w, "/StatusNotifierWatcher", "org.kde.StatusNotifierWatcher"); err != nil {
		return fmt.Errorf("exporting the tray watcher: %w", err)
	}
	w.props, err = prop.Export(conn, "/StatusNotifierWatcher", prop.Map{"org.kde.StatusNotifierWatcher": {
		"IsStatusNotifierHostRegistered": {Value: true},
		"ProtocolVersion":                {Value: int32(0)},
		"RegisteredStatusNotifierItems":  {Value: []string{}},
	}})
	if err != nil {
		return fmt.Errorf("exporting the tray watcher's properties: %w", err)
	}
	names := []string{"org.freedesktop.Notifications", "org.kde.StatusNotifierWatcher"}
	if trayOnly {
		names = names[1:]
	}
	for _, name := range names {
		reply, err := conn.RequestName(name, dbus.NameFlagDoNotQueue)
		if err != nil {
			return fmt.Errorf("requesting the name %s: %w", name, err)
		}
		if reply != dbus.RequestNameReplyPrimaryOwner {
			return fmt.Errorf("the name %s is taken: another desktop service runs on this bus", name)
		}
	}
	say("ready")
	return nil
}

// notifications is a notification server that prints what it is sent
// (https://specifications.freedesktop.org/notification-spec/).
type notifications struct {
	mu   sync.Mutex
	last uint32
}

func (n *notifications) Notify(app string, replaces uint32, icon, summary, body string,
	actions []string, hints map[string]dbus.Variant, timeout int32) (uint32, *dbus.Error) {
	n.mu.Lock()
	n.last++
	id := n.last
	n.mu.Unlock()
	say("notify: %s: %s", summary, strings.ReplaceAll(body, "\n", " "))
	return id, nil
}

func (n *notifications) GetCapabilities() ([]string, *dbus.Error) { return []string{"body"}, nil }

func (n *notifications) GetServerInformation() (string, string, string, string, *dbus.Error) {
	return "desktopbus", "diffdesk", "1", "1.2", nil
}

func (n *notifications) CloseNotification(id uint32) *dbus.Error { return nil }

// watcher is a StatusNotifierWatcher that accepts every tray item and prints it.
type watcher struct {
	conn  *dbus.Conn
	props *prop.Properties
	mu    sync.Mutex
	items []string
}

func (w *watcher) RegisterStatusNotifierItem(sender dbus.Sender, path string) *dbus.Error {
	w.mu.Lock()
	w.items = append(w.items, string(sender)+path)
	w.props.SetMust("org.kde.StatusNotifierWatcher", "RegisteredStatusNotifierItems", append([]string(nil), w.items...))
	w.mu.Unlock()
	say("tray: %s %s", sender, path)
	return nil
}

func (w *watcher) RegisterStatusNotifierHost(sender dbus.Sender, service string) *dbus.Error {
	return nil
}
