package ui

import (
	"context"

	"github.com/diffdesk/diffdesk/review/journal"
)

// showSeen adds to the selected entry's text what of its proposal was on
// screen before the decision ("N of M changed lines never on screen"),
// read from the journal in the background; nothing for an entry without a
// decision or one nobody tracked (a rule's).
func (h *historyView) showSeen(e journal.Entry) {
	if e.DecisionID == 0 {
		return
	}
	h.run(func(ctx context.Context) func() {
		hs, err := h.j.SeenOf(ctx, e.DecisionID)
		if err != nil || hs == nil {
			return nil
		}
		return func() {
			if cur, ok := h.selected(); ok && cur.Ref == e.Ref {
				h.info.SetText(entryInfo(cur) + "\nSeen: " + journal.SeenSummary(hs) + " before the decision.")
			}
		}
	})
}
