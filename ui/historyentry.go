package ui

import (
	"context"
	"fmt"

	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/journal"
	"github.com/diffdesk/diffdesk/ui/diffview"
	"github.com/diffdesk/diffdesk/ui/present"
)

// historyEntryPane is the right of the History tab: the selected entry,
// its files' diffs, and the compare and restore buttons.
type historyEntryPane struct {
	title    *widget.Label
	info     *widget.Label
	fileSel  *widget.Select
	view     *diffview.DiffView
	diffs    []review.HistoryFile
	diffGen  int
	whoGen   int            // bumped per entry selected: who decided an older one arriving late is dropped
	mark     *journal.Entry // the entry marked by "Compare with…"
	compare  *widget.Button
	vsDisk   *widget.Button
	restore  *widget.Button
	restore1 *widget.Button // restores only the file shown
	unmark   *widget.Button
	diffNote *widget.Label
	shown    string // what the diff pane shows: the entry's ref and the mark's
}

// selectIndex shows entry i: its diff, or the comparison with the marked
// entry while one is marked.
func (h *historyView) selectIndex(i int) {
	if i < 0 || i >= len(h.entries) {
		return
	}
	h.sel = i
	e := h.entries[i]
	h.title.SetText(present.EntryTitle(e, journal.Detail{}))
	if e.Kind != journal.EntryRestore {
		h.loadDecider(e)
	}
	h.info.SetText(present.EntryInfo(e, nil))
	h.setActions()
	shown := string(e.Ref)
	if h.mark != nil {
		shown += "|" + string(h.mark.Ref)
	}
	if shown == h.shown {
		return // a reload selected it again: keep the diff where it is
	}
	h.shown = shown
	if h.mark != nil && h.mark.Ref != e.Ref && e.Ref.Checkpoint() > 0 {
		h.showComparison(*h.mark, e)
		return
	}
	ref := e.Ref
	h.loadDiffs(present.EntryDiff(e), func(ctx context.Context) ([]review.HistoryFile, error) {
		return h.deps.desk.HistoryDiff(ctx, review.HistoryCompare{Entry: ref})
	})
}

// loadDecider reads who decided entry e (Desk.HistoryDetail) and says it
// in the heading while e is still the one shown.
func (h *historyView) loadDecider(e journal.Entry) {
	h.whoGen++
	gen := h.whoGen
	h.run(func(ctx context.Context) func() {
		det, err := h.deps.desk.HistoryDetail(ctx, e.Ref)
		return func() {
			if err == nil && gen == h.whoGen {
				h.title.SetText(present.EntryTitle(e, det))
				h.info.SetText(present.EntryInfo(e, det.Seen)) // what was on screen before the decision
			}
		}
	})
}

// setActions enables the buttons the selected entry allows.
func (h *historyView) setActions() {
	e, ok := h.selected()
	cp := ok && e.Ref.Checkpoint() > 0
	for _, b := range []*widget.Button{h.compare, h.vsDisk, h.restore, h.restore1} {
		if cp {
			b.Enable()
		} else {
			b.Disable()
		}
	}
	if h.mark != nil {
		// The note above the diff says which checkpoint is marked and what
		// to do next; a button saying so made the bar wider than a small
		// screen's window, pushing the diff past its right edge.
		h.compare.Hide()
		h.unmark.Show()
	} else {
		h.compare.Show()
		h.unmark.Hide()
	}
}

// MarkCompare marks the selected entry: selecting another entry then shows
// the files as they were after the marked one against after that one.
func (h *historyView) MarkCompare() {
	e, ok := h.selected()
	if !ok || e.Ref.Checkpoint() == 0 {
		return
	}
	h.mark = &e
	h.shown = string(e.Ref) + "|" + string(e.Ref)
	h.setActions()
	h.diffNote.SetText(fmt.Sprintf("Marked checkpoint %d: select another entry to compare with it.", e.Ref.Checkpoint()))
}

// Unmark stops comparing and shows the selected entry's own diff again.
func (h *historyView) Unmark() {
	h.mark = nil
	h.shown = ""
	h.setActions()
	if h.sel >= 0 {
		h.selectIndex(h.sel)
	}
}

func (h *historyView) showComparison(from, to journal.Entry) {
	a, b := from.Ref.Checkpoint(), to.Ref.Checkpoint()
	if a > b {
		a, b = b, a
	}
	h.loadDiffs(fmt.Sprintf("After checkpoint %d vs after checkpoint %d", a, b), func(ctx context.Context) ([]review.HistoryFile, error) {
		return h.deps.desk.HistoryDiff(ctx, review.HistoryCompare{From: a, To: b})
	})
}

// CompareDisk shows the selected entry's files as it left them against the
// disk now.
func (h *historyView) CompareDisk() {
	e, ok := h.selected()
	if !ok || e.Ref.Checkpoint() == 0 {
		return
	}
	id := e.Ref.Checkpoint()
	h.shown = "disk"
	h.loadDiffs(fmt.Sprintf("After checkpoint %d vs the disk now", id), func(ctx context.Context) ([]review.HistoryFile, error) {
		return h.deps.desk.HistoryDiff(ctx, review.HistoryCompare{Disk: id})
	})
}

// loadDiffs runs get off the UI goroutine and shows its files.
func (h *historyView) loadDiffs(what string, get func(ctx context.Context) ([]review.HistoryFile, error)) {
	h.diffGen++
	gen := h.diffGen
	h.diffNote.SetText(what + ": loading…")
	h.run(func(ctx context.Context) func() {
		diffs, err := get(ctx)
		return func() {
			if gen != h.diffGen {
				return
			}
			if err != nil {
				h.diffNote.SetText(what + ": " + err.Error())
				h.setDiffs(nil)
				return
			}
			h.diffNote.SetText(present.DiffNote(what, diffs))
			h.setDiffs(diffs)
		}
	})
}

func (h *historyView) setDiffs(diffs []review.HistoryFile) {
	h.diffs = diffs
	var opts []string
	for _, d := range diffs {
		opts = append(opts, fmt.Sprintf("%s  +%d −%d", h.rel(d.Path), d.Added, d.Removed))
	}
	h.fileSel.Options = opts
	if len(opts) > 0 {
		h.fileSel.SetSelectedIndex(0) // calls showFile
	} else {
		h.fileSel.ClearSelected()
		h.view.SetTexts("", "", "")
	}
	h.fileSel.Refresh()
}

// showFile shows the file the file select names.
func (h *historyView) showFile() {
	i := h.fileSel.SelectedIndex()
	if i < 0 || i >= len(h.diffs) {
		return
	}
	d := h.diffs[i]
	if d.Omitted {
		note := "(too large to send over the connection: not shown; deskctl history on the desk's machine shows it)\n"
		h.view.SetTexts(d.Path, note, note)
		return
	}
	if d.Binary {
		h.view.SetTexts(d.Path, "(binary: not shown)\n", "(binary: not shown)\n")
		return
	}
	h.view.SetTexts(d.Path, string(d.Old), string(d.New))
	h.view.Nav().NextHunk() // open at the first change
}
