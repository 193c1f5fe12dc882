package ui

import (
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
	"github.com/diffdesk/diffdesk/ui/present"
)

// historyDesks is a desk over several whose History tab shows one desk's
// history at a time (remote.Fleet): its entries, and a restore, are that
// desk's alone.
type historyDesks interface {
	HistoryDesks() (labels []string, shown int)
	SetHistoryDesk(i int) error
}

// historyDeskSelect is the History tab's choice of desk, over several
// (nil over one). Choosing another desk forgets the entry marked for a
// comparison and the agent and session filters, which were the other
// desk's, and loads the chosen desk's history.
func historyDeskSelect(w *Window, h *historyView) fyne.CanvasObject {
	hd, ok := w.desk.(historyDesks)
	if !ok {
		return nil
	}
	labels, shown := hd.HistoryDesks()
	if len(labels) < 2 {
		return nil
	}
	sel := widget.NewSelect(labels, nil)
	sel.Selected = labels[shown]
	sel.OnChanged = thenKeysBack(w, func(label string) {
		i := slices.Index(labels, label)
		if i < 0 || hd.SetHistoryDesk(i) != nil {
			return
		}
		h.mark, h.shown, h.want, h.sel = nil, "", "", -1
		h.agentSel.Selected, h.sessionSel.Selected = present.AllAgents, present.AllSessions
		h.setActions()
		h.reload()
	})
	h.deskSel = sel
	return container.NewBorder(nil, nil, widget.NewLabel("Desk"), nil, sel)
}
