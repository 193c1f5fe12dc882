package ui

import (
	"io"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/godbus/dbus/v5"
)

// The window driver's other windows (driver_test.go): a window of the app
// other than the review window (the workspace chooser), the dialog on top
// of any window (the trust question), a queue row drawn alone, and a second
// window over the same desk (the next start). Every reach into them is here.

// screenDriver is one window of the app as the person sees it: its labels
// and buttons, and the dialog on top of it.
type screenDriver struct {
	t   *testing.T
	win fyne.Window
}

// screen is win as the person sees it.
func screen(t *testing.T, win fyne.Window) screenDriver { return screenDriver{t, win} }

// windowTitled is the app's newest open window titled title, as the
// person sees it (the test fails when there is none).
func windowTitled(t *testing.T, a fyne.App, title string) screenDriver {
	t.Helper()
	ws := a.Driver().AllWindows()
	for i := len(ws) - 1; i >= 0; i-- {
		if ws[i].Title() == title {
			return screenDriver{t, ws[i]}
		}
	}
	t.Fatalf("no window titled %q", title)
	return screenDriver{}
}

// Text is every label and button text of the window (not its dialogs),
// one per line, a button's in [brackets].
func (s screenDriver) Text() string { return objectsText(s.win.Content()) }

// Dialog is the text of the dialog on top of the window, as Text ("" when
// none is open).
func (s screenDriver) Dialog() string {
	top := s.win.Canvas().Overlays().Top()
	if top == nil {
		return ""
	}
	return objectsText(top)
}

// DialogOpen reports whether a dialog covers the window.
func (s screenDriver) DialogOpen() bool { return s.win.Canvas().Overlays().Top() != nil }

// CloseDialog hides the dialog on top, as its window manager's close does.
func (s screenDriver) CloseDialog() {
	if top := s.win.Canvas().Overlays().Top(); top != nil {
		top.Hide()
	}
}

// Button is the label of the window's visible button starting with prefix
// ("" when none shows).
func (s screenDriver) Button(prefix string) string {
	if b := buttonIn(s.win.Content(), prefix); b != nil {
		return b.Text
	}
	return ""
}

// Click clicks the visible button starting with label of the dialog on
// top, else of the window.
func (s screenDriver) Click(label string) {
	s.t.Helper()
	in := s.win.Content()
	if top := s.win.Canvas().Overlays().Top(); top != nil {
		in = top
	}
	b := buttonIn(in, label)
	if b == nil {
		s.t.Fatalf("no button %q in:\n%s", label, objectsText(in))
	}
	test.Tap(b)
}

// Key presses key in the window, as the keyboard does with no widget
// focused.
func (s screenDriver) Key(key fyne.KeyName) {
	s.win.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: key})
}

func buttonIn(o fyne.CanvasObject, prefix string) *widget.Button {
	for _, x := range shownObjects(o) {
		if b, ok := x.(*widget.Button); ok && b.Text != "" && strings.HasPrefix(b.Text, prefix) {
			return b
		}
	}
	return nil
}

// objectsText is the labels and [buttons] shown in o, one per line.
func objectsText(o fyne.CanvasObject) string {
	var out []string
	for _, x := range shownObjects(o) {
		switch x := x.(type) {
		case *widget.Label:
			if x.Text != "" {
				out = append(out, x.Text)
			}
		case *widget.Button:
			if x.Text != "" {
				out = append(out, "["+x.Text+"]")
			}
		}
	}
	return strings.Join(out, "\n")
}

// cellDriver is one queue row drawn alone in a test window (a test of the
// row's drawing: what fits at a width).
type cellDriver struct{ c *queueCell }

// drawnCell is a queue row drawn alone, width wide.
func drawnCell(t *testing.T, width float32) cellDriver {
	c := newQueueCell(nil)
	w := test.NewWindow(c)
	t.Cleanup(w.Close)
	w.Resize(fyne.NewSize(width, 60))
	c.Resize(fyne.NewSize(width, 30))
	return cellDriver{c}
}

// Draw draws r in the row.
func (c cellDriver) Draw(r queueRow) {
	c.c.set(r, baseTime)
	c.c.item.Refresh()
	c.c.headerBox.Refresh()
}

// Name is a proposal row's name as drawn (cut to fit).
func (c cellDriver) Name() string { return c.c.name.Text }

// Heading is a changeset heading as drawn (cut to fit).
func (c cellDriver) Heading() string { return c.c.header.Text }

// NameEnd is where a proposal row's drawn name ends, and CountsAt where
// its counts start, from the row's left edge.
func (c cellDriver) NameEnd() float32 {
	return c.c.left.Position().X + c.c.name.Position().X + textWidth(c.c.name, c.c.name.Text)
}

// CountsAt is where a proposal row's counts start, from its left edge.
func (c cellDriver) CountsAt() float32 { return c.c.right.Position().X }

// HeadingWidth is how wide the drawn heading is, and the room it has.
func (c cellDriver) HeadingWidth() (text, room float32) {
	return textWidth(c.c.header, c.c.header.Text), c.c.headerBox.Size().Width
}

// Reopen opens another window over h's desk with h's options, as the next
// start of the app does (reading the app's preferences), its log to log
// (nil: h's). h's window stays as it is: close it first for a restart.
func (h *harness) Reopen(log io.Writer) *harness {
	n := &harness{t: h.t, root: h.root, desk: h.desk, j: h.j, sched: h.sched, now: h.clock()}
	o := h.win.opts
	if log != nil {
		o.Log = log
	}
	n.openWindow(h.win.desk, o)
	return n
}

// CloseWindow closes h's window, as the person (or the app's quit) does.
func (h *harness) CloseWindow() { h.win.Close() }

// SetSplitOffset drags the divider between the queue and the pane to x
// (0–1 of the window's width).
func (h *harness) SetSplitOffset(x float64) { h.win.split.SetOffset(x) }

// notifierOver is a desktop notifier posting to service, a stand-in for
// the desktop's notification service (a test of the notifier alone).
func notifierOver(service dbus.BusObject) *desktopNotifier {
	d := newDesktopNotifier(io.Discard, nil)
	d.service = service
	return d
}

// waitSends waits until the notifier's calls under way have ended.
func (d *desktopNotifier) waitSends() { d.sending.Wait() }

// compareCounter is the comparison window's line saying which change it
// is at.
func compareCounter(c *Compare) string { return c.counter.Text }

// rowHeadings are the changeset headings among rows, in full.
func rowHeadings(rows []queueRow) []string {
	var out []string
	for _, r := range rows {
		if r.header != "" {
			out = append(out, r.header)
		}
	}
	return out
}

// rowsByID are rows as "[heading]" and proposal ids.
func rowsByID(rows []queueRow) []string {
	var out []string
	for _, r := range rows {
		if r.header != "" {
			out = append(out, "["+r.header+"]")
		} else {
			out = append(out, r.p.ID)
		}
	}
	return out
}

// boundKey is one key of the window's table: as the keys overlay names
// it, and what it does.
type boundKey struct{ key, what string }

// boundKeys are the window's keys.
func boundKeys() []boundKey {
	var out []boundKey
	for _, k := range keyBindings() {
		key := k.key
		if key == "" {
			key = string(k.r)
		}
		out = append(out, boundKey{key, k.what})
	}
	return out
}
