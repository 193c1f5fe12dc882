package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
)

// trivialLong is a long Go file with a comment-only change at its top and
// two real changes further down, the second out of sight.
func trivialLong() (base, proposed string) {
	var b strings.Builder
	b.WriteString("package app\n\n// Run runs.\nfunc Run() {}\n")
	for i := range 200 {
		b.WriteString("var v" + string(rune('a'+i%26)) + strings.Repeat("x", i%7) + " = 1\n")
	}
	base = b.String() + "func Stop() { y := 2; _ = y }\n" + strings.Repeat("// pad\n", 200) + "func Wait() { z := 3; _ = z }\n"
	proposed = strings.Replace(base, "// Run runs.", "// Run starts the app.", 1)
	proposed = strings.Replace(proposed, "y := 2", "y := 20", 1)
	proposed = strings.Replace(proposed, "z := 3", "z := 30", 1)
	return base, proposed
}

// TestDiskSaveKeepsThePlaceAndTheLabels: a save on disk to a file under
// review (far from the change read) turns the proposal stale without
// throwing the view to hunk 1: the same change stays current where it was
// on screen, and the trivial label stays (every save did that).
func TestDiskSaveKeepsThePlaceAndTheLabels(t *testing.T) {
	h := newHarness(t)
	base, prop := trivialLong()
	h.write("app.go", base)
	p := h.propose("claude", "s", engine.FormatWrite, "app.go", prop)
	h.win.Select(p.ID)
	h.settle()
	if got := h.Diff().Counter(); !strings.HasPrefix(got, "hunk 1 of 3") {
		t.Fatalf("counter %q; want hunk 1 of 3", got)
	}
	h.Keys("j")
	v := h.win.View()
	line := v.PlaceLine()
	y, _ := v.LineY(line)
	for i, disk := range []string{base + "// saved once\n", base + "// saved twice\n"} {
		h.write("app.go", disk)
		h.until("the proposal turns stale", func() bool {
			q, _ := h.desk.Get(p.ID)
			return q.State == review.StateStale && string(q.Files[0].Disk.Content) == disk && h.ShownProposal().Files[0].Disk.SHA256 == q.Files[0].Disk.SHA256
		})
		h.settle()
		if got := h.Diff().Counter(); !strings.HasPrefix(got, "hunk 2 of ") {
			t.Errorf("save %d: counter %q; want hunk 2 still the current one", i+1, got)
		}
		if l := v.PlaceLine(); l != line {
			t.Errorf("save %d: reading at line %d; want %d", i+1, l+1, line+1)
		} else if y2, _ := v.LineY(l); y2 != y {
			t.Errorf("save %d: line %d at y %v; want %v", i+1, l+1, y2, y)
		}
		if n := h.Diff().Labels(); !strings.Contains(n, "comment only") {
			t.Errorf("save %d: labels %q; want the comment-only label kept", i+1, n)
		}
	}
}

// TestKeysForUnseenAndNonTrivial: J passes the trivial changes to the
// next real one; u goes to the first hunk never on screen, and again until
// every one has been, when a asks nothing.
func TestKeysForUnseenAndNonTrivial(t *testing.T) {
	h := newHarness(t)
	var b strings.Builder
	b.WriteString("package app\n\n// Run runs.\nfunc Run() {}\n")
	for i := range 600 {
		fmt.Fprintf(&b, "var v%d = %d\n", i, i)
	}
	base := b.String()
	prop := strings.Replace(base, "// Run runs.", "// Run starts the app.", 1)
	for i := 20; i < 600; i += 30 {
		prop = strings.Replace(prop, fmt.Sprintf("var v%d = %d\n", i, i), fmt.Sprintf("var v%d = %d\n", i, -i), 1)
	}
	h.write("app.go", base)
	p := h.propose("claude", "s", engine.FormatWrite, "app.go", prop)
	h.win.Select(p.ID)
	h.settle()
	v := h.win.View()
	if got := h.Diff().Labels(); got != "comment only" {
		t.Fatalf("labels %q; want hunk 1 comment only", got)
	}
	h.Keys("J") // from the comment-only hunk 1 to the real hunk 2
	if got := h.Diff().Counter(); !strings.HasPrefix(got, "hunk 2 of ") {
		t.Errorf("J from hunk 1 (comment only): counter %q; want hunk 2", got)
	}
	n := len(v.Hunks())
	for range n {
		unseen := v.Seen().Unseen()
		if len(unseen) == 0 {
			break
		}
		k := slices.IndexFunc(v.Hunks(), func(hk engine.Hunk) bool { return hk.ID == unseen[0] })
		h.Keys("u")
		if got := h.Diff().Counter(); !strings.HasPrefix(got, fmt.Sprintf("hunk %d of %d", k+1, n)) {
			t.Fatalf("u: counter %q; want hunk %d of %d, the first never on screen", got, k+1, n)
		}
	}
	h.Keys("u")
	if got := h.Message(); got != "Every hunk of this proposal has been on screen." {
		t.Errorf("u with everything seen: message %q", got)
	}
	h.Keys("a")
	if h.Dialog().Open() {
		t.Errorf("a after u showed every hunk still asks:\n%s", h.Dialog().Text())
	}
}
