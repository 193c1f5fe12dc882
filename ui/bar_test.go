package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
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
	d := h.win.detail
	pane := d.content.Size().Width
	if min := d.content.MinSize().Width; min > pane {
		t.Errorf("detail pane needs %v px; the split gives it %v", min, pane)
	}
	if want := float32(1280) * float32(1-h.win.split.Offset); pane < want-10 {
		t.Errorf("detail pane %v px wide; want about %v (the bar pushed the split)", pane, want)
	}
	for _, o := range []fyne.CanvasObject{d.bar.approve, d.bar.partial, d.bar.edit, d.bar.external, d.bar.reject, d.bar.viewButton} {
		at := fyne.CurrentApp().Driver().AbsolutePositionForObject(o)
		if end := at.X + o.Size().Width; !o.Visible() || end > 1280 || o.Size().Width < o.MinSize().Width {
			t.Errorf("%T at x %v, %v px wide (needs %v), shown %v: want shown whole inside 1280 px", o, at.X, o.Size().Width, o.MinSize().Width, o.Visible())
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
	d, v := h.win.detail, h.win.View()
	test.Tap(d.bar.viewButton)
	if !d.bar.viewOptions.Visible() {
		t.Fatal("View did not open the view options")
	}
	at := fyne.CurrentApp().Driver().AbsolutePositionForObject(d.bar.viewOptions.Content)
	win := h.win.Win.Canvas().Size()
	if at.X < 0 || at.Y < 0 || at.X+d.bar.viewOptions.Content.Size().Width > win.Width || at.Y+d.bar.viewOptions.Content.Size().Height > win.Height {
		t.Errorf("view options at %v, %v; want inside the %v window", at, d.bar.viewOptions.Content.Size(), win)
	}
	for _, c := range []*widget.Check{d.bar.collapse, d.bar.ignoreWS, d.bar.inline, d.bar.wrap} {
		if !c.Visible() {
			t.Errorf("%q not among the view options", c.Text)
		}
	}
	test.Tap(d.bar.inline)
	if !v.Inline() || !d.bar.viewOptions.Visible() || h.win.Win.Canvas().Focused() != nil {
		t.Errorf("click on Inline: view inline %v, options open %v, focus %v; want inline, open, none", v.Inline(), d.bar.viewOptions.Visible(), h.win.Win.Canvas().Focused())
	}
	h.pressKey(fyne.KeyEscape)
	if d.bar.viewOptions.Visible() {
		t.Error("Esc left the view options open")
	}
	h.press('w')
	if !d.bar.wrap.Checked || !h.win.app.Preferences().Bool(prefWrap) {
		t.Errorf("w with the options closed: box %v, preference %v; want wrapping", d.bar.wrap.Checked, h.win.app.Preferences().Bool(prefWrap))
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
		for _, o := range shownObjects(h.win.detail.bar.box) {
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
