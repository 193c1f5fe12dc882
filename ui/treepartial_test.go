package ui

import (
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
)

// TestTreeSaysWhatBecameOfEachFileOfAPartial: after a partial approval
// of three files the changeset tree says per file what the status line
// says: written whole, k of n hunks, or not written (QA finding 6: it said
// "partial" beside all three).
func TestTreeSaysWhatBecameOfEachFileOfAPartial(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\n")
	h.write("b.txt", "b\n")
	h.write("c.txt", "c\n")
	patch := "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n@@\n-nine\n+NINE\n*** Update File: b.txt\n@@\n-b\n+B\n*** Update File: c.txt\n@@\n-c\n+C\n*** End Patch\n"
	p := h.propose("codex", "s", engine.FormatPatch, "", patch)
	h.win.Select(p.ID)
	h.settle()
	h.Keys("j ") // a.txt's second hunk: unticked
	h.Keys("jj") // on to b.txt, then c.txt
	h.Keys("H")  // none of c.txt
	h.Keys("a")
	if h.Dialog().Open() {
		h.Dialog().Click("Approve anyway")
	}
	h.outcome(p.ID)
	h.settle()
	tree := h.Tree()
	for _, want := range []string{"a.txt partial 1 of 2", "b.txt approved", "c.txt not written"} {
		if !strings.Contains(tree, want) {
			t.Errorf("tree:\n%s\nwant a line with %q", tree, want)
		}
	}
}
