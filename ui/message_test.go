package ui

import (
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
)

// TestLongHintWrapsInsteadOfBeingCut: a hint under the buttons too long for
// its line wraps onto a second, so it can be read to the end (real window:
// "…approve it with a first, then A appro…").
func TestLongHintWrapsInsteadOfBeingCut(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "a\n")
	h.propose("agent", "s", engine.FormatWrite, "a.txt", "A\n")
	h.settle()
	d := h.win.detail
	d.line.say("")
	h.win.Win.Content().Refresh()
	one := d.line.message.MinSize().Height
	d.line.say(strings.Repeat("a hint that goes on ", 20))
	h.win.Win.Content().Refresh()
	if got := d.line.message.Size().Height; got < 1.5*one {
		t.Errorf("a 400-character hint is %v high (one line %v); want it wrapped onto more lines", got, one)
	}
}
