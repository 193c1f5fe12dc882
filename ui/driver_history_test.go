package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/ui/diffview"
)

// The window driver's History tab (driver_test.go): its timeline, the
// entry shown, the compare and restore buttons and the restore's dry run,
// as the person sees and uses them. Every reach into historyView is here.

// historyDriver is the History tab.
type historyDriver struct{ h *harness }

// History is the window's History tab (WindowOptions.History).
func (h *harness) History() historyDriver {
	h.t.Helper()
	if h.win.history == nil {
		h.t.Fatal("the window has no History tab")
	}
	return historyDriver{h}
}

// historyRow is a row of the timeline as drawn.
type historyRow struct {
	When, Badge, Who, Files string
}

// Open switches to the History tab and waits until the timeline lists n
// entries, the newest selected and its diff loaded.
func (y historyDriver) Open(n int) {
	y.h.t.Helper()
	y.h.win.ShowHistory()
	hv := y.h.win.history
	y.h.until("the timeline lists the entries", func() bool { return len(hv.entries) == n && hv.sel == 0 && hv.diffs != nil })
}

// Entries are the timeline's rows as drawn, newest first.
func (y historyDriver) Entries() []historyRow {
	hv := y.h.win.history
	var out []historyRow
	for _, e := range hv.entries {
		o := newHistoryRow()
		hv.fillRow(o, e)
		c := o.(*fyne.Container)
		left := c.Objects[1].(*fyne.Container)
		out = append(out, historyRow{
			When:  left.Objects[0].(*widget.Label).Text,
			Badge: left.Objects[1].(*widget.Label).Text,
			Who:   left.Objects[2].(*widget.Label).Text,
			Files: c.Objects[0].(*widget.Label).Text,
		})
	}
	return out
}

// WaitEntries waits until the timeline lists n entries.
func (y historyDriver) WaitEntries(what string, n int) {
	y.h.t.Helper()
	y.h.until(what, func() bool { return len(y.h.win.history.entries) == n })
}

// Selected is the index of the entry selected (-1 for none).
func (y historyDriver) Selected() int { return y.h.win.history.sel }

// Select clicks entry i of the timeline and waits for what it shows.
func (y historyDriver) Select(i int) {
	y.h.t.Helper()
	hv := y.h.win.history
	gen := hv.diffGen
	hv.list.Select(i)
	y.h.until("the entry's diff is shown", func() bool { return hv.diffGen > gen && !y.Loading() })
}

// Loading reports whether the diff pane is still loading what it shows.
func (y historyDriver) Loading() bool {
	return strings.HasSuffix(y.h.win.history.diffNote.Text, "loading…")
}

// Title is the heading of the entry shown.
func (y historyDriver) Title() string { return y.h.win.history.title.Text }

// Info is the line under the heading: the proposal, the feedback, what was
// on screen.
func (y historyDriver) Info() string { return y.h.win.history.info.Text }

// Note is the line above the diff saying what it shows.
func (y historyDriver) Note() string { return y.h.win.history.diffNote.Text }

// Status is the line under the timeline.
func (y historyDriver) Status() string { return y.h.win.history.status.Text }

// Diffs are the files the diff pane has to show, with their texts before
// and after.
func (y historyDriver) Diffs() []review.HistoryFile { return y.h.win.history.diffs }

// Files are the file choice's options above the diff.
func (y historyDriver) Files() []string { return y.h.win.history.fileSel.Options }

// ShowFile chooses the file i above the diff.
func (y historyDriver) ShowFile(i int) { y.h.win.history.fileSel.SetSelectedIndex(i); y.h.settle() }

// View is the diff view of the entry's file shown.
func (y historyDriver) View() *diffview.DiffView { return y.h.win.history.view }

// Buttons are the buttons under the diff shown, "(off)" after a disabled
// one.
func (y historyDriver) Buttons() []string {
	hv := y.h.win.history
	var out []string
	for _, b := range []*widget.Button{hv.compare, hv.unmark, hv.vsDisk, hv.restore, hv.restore1} {
		if !b.Visible() {
			continue
		}
		s := b.Text
		if b.Disabled() {
			s += " (off)"
		}
		out = append(out, s)
	}
	return out
}

// Click clicks the enabled button under the diff whose label starts with
// label ("Compare with…", "vs disk", "Restore…", "Restore this file…",
// "Stop comparing").
func (y historyDriver) Click(label string) {
	y.h.t.Helper()
	hv := y.h.win.history
	for _, b := range []*widget.Button{hv.compare, hv.unmark, hv.vsDisk, hv.restore, hv.restore1} {
		if b.Visible() && strings.HasPrefix(b.Text, label) {
			if b.Disabled() {
				y.h.t.Fatalf("button %q is disabled", b.Text)
			}
			test.Tap(b)
			y.h.settle()
			return
		}
	}
	y.h.t.Fatalf("no button %q under the history's diff: %q", label, y.Buttons())
}

// Restore clicks label ("Restore…", "Restore this file…") and waits for
// the restore's dry run, which h.Dialog() then reads and clicks.
func (y historyDriver) Restore(label string) {
	y.h.t.Helper()
	y.Click(label)
	y.WaitRestoreDialog()
}

// WaitRestoreDialog waits until the restore's dry run shows (again, after
// Force… or Leave refused out).
func (y historyDriver) WaitRestoreDialog() {
	y.h.t.Helper()
	y.h.until("the dry-run dialog", func() bool { return y.h.win.history.restoreDlg != nil })
}

// RestoreView is the dry run's diff of the file chosen in it: the disk now
// against the file restored.
func (y historyDriver) RestoreView() *diffview.DiffView { return y.h.win.history.restoreView }

// filterSelects are the timeline's filters by name.
func (y historyDriver) filterSelect(name string) *widget.Select {
	hv := y.h.win.history
	switch name {
	case "agent":
		return hv.agentSel
	case "session":
		return hv.sessionSel
	case "decision":
		return hv.decisionSel
	case "since":
		return hv.sinceSel
	case "desk":
		return hv.deskSel
	}
	y.h.t.Fatalf("no history filter %q", name)
	return nil
}

// Filter chooses value in the filter name ("agent", "session", "decision",
// "since", "desk"), or types it into the file box and presses Return
// ("file").
func (y historyDriver) Filter(name, value string) {
	y.h.t.Helper()
	if name == "file" {
		e := y.h.win.history.fileEntry
		e.SetText(value)
		e.OnSubmitted(value)
	} else {
		s := y.filterSelect(name)
		if s == nil {
			y.h.t.Fatalf("the History tab has no %s choice", name)
		}
		s.SetSelected(value)
	}
	y.h.settle()
}

// FilterOptions are the choices of the filter name and the one chosen
// (none, nil, for a choice the tab does not show).
func (y historyDriver) FilterOptions(name string) (options []string, chosen string) {
	s := y.filterSelect(name)
	if s == nil {
		return nil, ""
	}
	return s.Options, s.Selected
}

// MoreShown reports whether Load more shows under the timeline.
func (y historyDriver) MoreShown() bool { return y.h.win.history.more.Visible() }

// LoadMore clicks Load more.
func (y historyDriver) LoadMore() { test.Tap(y.h.win.history.more); y.h.settle() }

// SetPageSize makes the timeline load n entries a page (call it before
// Open).
func (y historyDriver) SetPageSize(n int) { y.h.win.history.page = n }
