package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/engine"
)

// TestDecisionBarFitsAt1280: in a 1280 px window the decision bar fits the
// detail pane as the queue leaves it (it does not push the split), with
// every control inside the pane.
func TestDecisionBarFitsAt1280(t *testing.T) {
	h := newHarness(t)
	h.win.Win.Resize(fyne.NewSize(1280, 800))
	h.write("a.txt", lines(40, func(int) string { return "" }))
	h.propose("agent", "s", engine.FormatWrite, "a.txt", lines(40, func(k int) string {
		if k == 20 {
			return "changed\n"
		}
		return ""
	}))
	h.settle()
	pane := h.Pane().Size().Width
	if min := h.Pane().MinSize().Width; min > pane {
		t.Errorf("detail pane needs %v px; the split gives it %v", min, pane)
	}
	if want := float32(1280) * float32(1-h.SplitOffset()); pane < want-10 {
		t.Errorf("detail pane %v px wide; want about %v (the bar pushed the split)", pane, want)
	}
	for _, label := range []string{"Approve (a)", "Approve selected hunks", "Edit (e)", "External editor", "Reject", "View"} {
		o := h.Bar().Widget(label)
		if o == nil {
			t.Errorf("%q not shown in the bar %q", label, h.Bar().Buttons())
			continue
		}
		at := fyne.CurrentApp().Driver().AbsolutePositionForObject(o)
		if end := at.X + o.Size().Width; end > 1280 || o.Size().Width < o.MinSize().Width {
			t.Errorf("%q at x %v, %v px wide (needs %v): want it whole inside 1280 px", label, at.X, o.Size().Width, o.MinSize().Width)
		}
	}
}

// TestViewOptionsByMouseAndKey: the View button opens Fold, Ignore
// whitespace, Inline and Wrap above itself, inside the window; a click on
// one turns it on and leaves the others open for the next click; Esc closes
// them, and the keys toggle the same boxes with the pop-up closed.
func TestViewOptionsByMouseAndKey(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", lines(40, func(int) string { return "" }))
	h.propose("agent", "s", engine.FormatWrite, "a.txt", lines(40, func(k int) string {
		if k == 20 {
			return "changed\n"
		}
		return ""
	}))
	h.settle()
	b, v := h.Bar(), h.win.View()
	b.OpenViewOptions()
	if !b.ViewOptionsOpen() {
		t.Fatal("View did not open the view options")
	}
	opts := b.ViewOptions()
	at := fyne.CurrentApp().Driver().AbsolutePositionForObject(opts)
	win := h.win.Win.Canvas().Size()
	if at.X < 0 || at.Y < 0 || at.X+opts.Size().Width > win.Width || at.Y+opts.Size().Height > win.Height {
		t.Errorf("view options at %v, %v; want inside the %v window", at, opts.Size(), win)
	}
	shown := strings.Join(b.Options(), "|")
	for _, o := range []string{"Fold unchanged lines", "Ignore whitespace", "Inline layout", "Wrap long lines"} {
		if !strings.Contains(shown, o) {
			t.Errorf("%q not among the view options %q", o, b.Options())
		}
	}
	b.TapOption("Inline layout")
	if !v.Inline() || !b.ViewOptionsOpen() || h.Focused() != nil {
		t.Errorf("click on Inline: view inline %v, options open %v, focus %v; want inline, open, none", v.Inline(), b.ViewOptionsOpen(), h.Focused())
	}
	h.pressKey(fyne.KeyEscape)
	if b.ViewOptionsOpen() {
		t.Error("Esc left the view options open")
	}
	h.press('w')
	if !b.Option("Wrap long lines") || !fyne.CurrentApp().Preferences().Bool(prefWrap) {
		t.Errorf("w with the options closed: box %v, preference %v; want wrapping", b.Option("Wrap long lines"), fyne.CurrentApp().Preferences().Bool(prefWrap))
	}
}

// TestNarrowShortWindowAtScale15: a window 900×700 px at FYNE_SCALE=1.5
// (600×467 in Fyne's units, which the scale multiplies) holds the pane: the
// window may be that narrow (it would not shrink below 1,289 px: the
// decision bar's buttons, the counter and the keyboard line in one row),
// the decision bar's buttons wrap onto a second row inside it, and the diff
// keeps a good part of the height (it got about 4 rows): 40 % of it while
// waiting or editing, a quarter for a stale file, whose note scrolls in a
// line and whose views are chosen above the diff.
func TestNarrowShortWindowAtScale15(t *testing.T) {
	h := newHarness(t)
	const w, ht = 600, 467
	h.win.Win.Resize(fyne.NewSize(w, ht))
	for _, f := range []string{"a", "b", "c", "d", "e", "f"} {
		h.write(f+".txt", lines(40, func(int) string { return "" }))
		h.propose("claude", "s1", engine.FormatWrite, f+".txt", lines(40, func(k int) string {
			if k == 20 || k == 30 {
				return "changed\n"
			}
			return ""
		}))
	}
	h.settle()
	check := func(when string, share float32) {
		t.Helper()
		h.win.Win.Content().Refresh()
		if min := h.win.Win.Content().MinSize().Width; min > w {
			t.Errorf("%s: the window needs %v wide; want it to fit %v (900 px at scale 1.5)", when, min, w)
		}
		for _, o := range shownObjects(h.Bar().Object()) {
			btn, ok := o.(*widget.Button)
			if !ok || btn.Text == "" {
				continue
			}
			at := fyne.CurrentApp().Driver().AbsolutePositionForObject(btn)
			if at.X < 0 || at.X+btn.Size().Width > w || btn.Size().Width < btn.MinSize().Width || at.Y+btn.Size().Height > ht {
				t.Errorf("%s: %q at %v, %v (needs %v): want it whole inside the %v×%v window", when, btn.Text, at, btn.Size(), btn.MinSize(), w, ht)
			}
		}
		if got, want := h.Diff().Height(), float32(ht)*share; got < want {
			t.Errorf("%s: the diff is %v high of %v; want at least %v", when, got, ht, want)
		}
	}
	check("waiting", 0.4)
	h.Keys("e")
	if !h.Diff().Editing() {
		t.Fatal("e opened no editor")
	}
	check("editing", 0.4)
	h.Esc()
	h.Keys("n")
	h.write("b.txt", "on disk\n"+lines(40, func(int) string { return "" }))
	h.until("b.txt shows stale", func() bool { return strings.Contains(h.Header(), "stale") })
	check("stale", 0.25) // its note (one line, scrolling) and the choice of views too
}

// TestHistoryTabFitsANarrowWindow: the History tab, there with a journal,
// does not hold the window wider than 900 px at FYNE_SCALE=1.5 either (its
// buttons in one row held it at 1,170 px in the real window).
func TestHistoryTabFitsANarrowWindow(t *testing.T) {
	hh := newHistoryHarness(t)
	hh.win.Win.Resize(fyne.NewSize(600, 467))
	hh.settle()
	if min := hh.win.Win.Content().MinSize().Width; min > 600 {
		t.Errorf("the window with its History tab needs %v wide; want it to fit 600 (900 px at scale 1.5)", min)
	}
}
