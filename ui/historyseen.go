package ui

import (
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/journal"
)

// showSeen adds to entry e's text what of its proposal was on screen
// before the decision ("N of M changed lines never on screen"), from its
// detail det; nothing when nobody tracked it (a rule's decision).
func (h *historyView) showSeen(e journal.Entry, det journal.Detail) {
	if det.Seen == nil {
		return
	}
	h.info.SetText(entryInfo(e) + "\nSeen: " + decision.SeenSummary(det.Seen) + " before the decision.")
}
