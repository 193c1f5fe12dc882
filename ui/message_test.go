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
	h.Say("")
	one := h.MessageWidget().MinSize().Height
	h.Say(strings.Repeat("a hint that goes on ", 20))
	if got := h.MessageWidget().Size().Height; got < 1.5*one {
		t.Errorf("a 400-character hint is %v high (one line %v); want it wrapped onto more lines", got, one)
	}
}
