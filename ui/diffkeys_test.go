package ui

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"github.com/diffdesk/diffdesk/engine"
)

// lines returns n numbered lines, edit(k) replacing line k when not "".
func lines(n int, edit func(k int) string) string {
	var b strings.Builder
	for k := range n {
		if s := edit(k); s != "" {
			b.WriteString(s)
			continue
		}
		fmt.Fprintf(&b, "line %d\n", k)
	}
	return b.String()
}

// TestSearchKeysAndEscGiveTheKeyboardBack: Ctrl+F opens the view's search
// with the keyboard in it, Enter steps through the matches, Esc closes it
// and the review keys work again.
func TestSearchKeysAndEscGiveTheKeyboardBack(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", lines(300, func(int) string { return "" }))
	h.propose("agent", "s", engine.FormatWrite, "a.txt", lines(300, func(k int) string {
		if k == 20 || k == 250 {
			return fmt.Sprintf("needle %d\n", k)
		}
		return ""
	}))
	h.settle()
	v := h.win.View()
	c := h.win.Win.Canvas()
	// Ctrl+F as the driver delivers it with no widget focused: to the
	// window's shortcuts.
	inner := reflect.ValueOf(c).Elem().FieldByName("WindowlessCanvas").Interface()
	inner.(fyne.Shortcutable).TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyF, Modifier: fyne.KeyModifierShortcutDefault})
	if !v.Search().Open() || c.Focused() == nil {
		t.Fatal("search: bar hidden or no keyboard in it")
	}
	for _, r := range "needle" {
		h.press(r) // the search box has the keyboard: these type
	}
	if cur, n := v.Search().Count(); cur != 1 || n != 2 {
		t.Fatalf("SearchCount = %d, %d; want 1 of 2", cur, n)
	}
	h.pressKey(fyne.KeyReturn)
	if cur, _ := v.Search().Count(); cur != 2 {
		t.Errorf("Enter: match %d; want 2", cur)
	}
	h.pressKey(fyne.KeyEscape)
	if v.Search().Open() || c.Focused() != nil {
		t.Fatalf("Esc: searching %v, focus %v", v.Search().Open(), c.Focused())
	}
	if !strings.HasPrefix(h.Keyboard(), "Keys: review") {
		t.Errorf("keyboard line %q; want the review keys", h.Keyboard())
	}
	h.press('/')
	if !v.Search().Open() {
		t.Error("/ did not open the search")
	}
}

// TestLayoutKeysAndTheirBoxes: i, W and z turn the boxes beside Wrap (View) on and
// off, Inline is remembered, and the counter says what ignoring whitespace
// faded.
func TestLayoutKeysAndTheirBoxes(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", lines(300, func(int) string { return "" }))
	h.propose("agent", "s", engine.FormatWrite, "a.txt", lines(300, func(k int) string {
		switch k {
		case 20:
			return "line  20\n" // whitespace only
		case 250:
			return "real change\n"
		}
		return ""
	}))
	h.settle()
	b, v := h.Bar(), h.win.View()
	if !b.Option("Fold unchanged lines") || v.Folds().Count() == 0 {
		t.Fatalf("Fold box %v, %d folds; want unchanged lines folded by default", b.Option("Fold unchanged lines"), v.Folds().Count())
	}
	h.press('z')
	if b.Option("Fold unchanged lines") || v.Folds().Count() != 0 {
		t.Errorf("z: Fold box %v, %d folds; want every line", b.Option("Fold unchanged lines"), v.Folds().Count())
	}
	h.press('i')
	if !b.Option("Inline layout") || !v.Inline() || !fyne.CurrentApp().Preferences().Bool(prefInline) {
		t.Errorf("i: box %v, view %v, preference %v; want inline, remembered", b.Option("Inline layout"), v.Inline(), fyne.CurrentApp().Preferences().Bool(prefInline))
	}
	h.press('W')
	if !v.IgnoreWhitespace() || !strings.Contains(h.Diff().Counter(), "1 hunk (+1 whitespace-only, faded: approved too unless unticked)") {
		t.Errorf("W: ignoring %v, counter %q", v.IgnoreWhitespace(), h.Diff().Counter())
	}
	h.press('j')
	if h.Diff().Counter() != "hunk 1 of 1 (+1 whitespace-only, faded: approved too unless unticked) · 1 trivial (t approves)" {
		t.Errorf("j with whitespace ignored: counter %q", h.Diff().Counter())
	}
}
