package ui

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

// newCompareHarness opens the comparison window of old and new on Fyne's
// test driver.
func newCompareHarness(t *testing.T, old, new CompareSide) *Compare {
	t.Helper()
	a := test.NewTempApp(t)
	a.Settings().SetTheme(NewVariantTheme(theme.VariantLight))
	c := newCompare(a, old, new, "", true)
	c.Win.Resize(fyne.NewSize(1100, 700))
	t.Cleanup(c.Win.Close)
	return c
}

// typeInto types s into the comparison window as the person types it.
func typeInto(c *Compare, s string) {
	for _, r := range s {
		test.TypeOnCanvas(c.Win.Canvas(), string(r))
	}
}

// TestCompareIsReadOnly: every key of the review window that approves,
// rejects, ticks or edits does nothing in a comparison but say it is
// read-only; the view stays as it was, not editable, every hunk as shown.
func TestCompareIsReadOnly(t *testing.T) {
	old := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn\n"
	new := "a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\nL\nm\nn\n"
	c := newCompareHarness(t, CompareSide{Name: "old.txt", Text: old}, CompareSide{Name: "new.txt", Text: new})
	v := c.View()
	hunks := v.AcceptedHunks()
	if len(hunks) != 2 || !v.ReadOnly {
		t.Fatalf("hunks %v, read-only %v; want two, read-only", hunks, v.ReadOnly)
	}
	for _, r := range "asStrReHxc1 A" {
		c.say("")
		typeInto(c, string(r))
		if c.Message() != compareReadOnly {
			t.Errorf("key %q: message %q; want the read-only note", r, c.Message())
		}
	}
	for _, r := range "uJvnp[]" {
		typeInto(c, string(r))
		if !strings.Contains(c.Message(), "one pair of files") {
			t.Errorf("key %q: message %q; want it to say a comparison has one pair of files", r, c.Message())
		}
	}
	if v.Editor() != nil {
		t.Error("a key made the comparison editable")
	}
	if got := v.AcceptedHunks(); !slices.Equal(got, hunks) {
		t.Errorf("hunks as shown %v after the keys; want %v (nothing ticked or unticked)", got, hunks)
	}
	v.ToggleHunk(0) // as a click on a hunk's tick would
	if got := v.AcceptedHunks(); !slices.Equal(got, hunks) {
		t.Errorf("a hunk was unticked in a read-only view: %v", got)
	}
}

// TestCompareKeys: the keys that read a diff work as in the review
// window: j/k move between changes, z folds, / searches, Esc closes it.
func TestCompareKeys(t *testing.T) {
	var old, new strings.Builder
	for i := range 60 {
		old.WriteString("line\n")
		if i == 5 || i == 50 {
			new.WriteString("CHANGED\n")
		} else {
			new.WriteString("line\n")
		}
	}
	c := newCompareHarness(t, CompareSide{Name: "a.go", Text: old.String()}, CompareSide{Name: "b.go", Text: new.String()})
	if got := compareCounter(c); got != "change 1 of 2" {
		t.Errorf("counter %q at the start; want change 1 of 2", got)
	}
	typeInto(c, "j")
	if got := compareCounter(c); got != "change 2 of 2" {
		t.Errorf("counter %q after j; want change 2 of 2", got)
	}
	typeInto(c, "j")
	if !strings.Contains(c.Message(), "No change below") {
		t.Errorf("j at the last change said %q", c.Message())
	}
	typeInto(c, "k")
	if got := compareCounter(c); got != "change 1 of 2" {
		t.Errorf("counter %q after k; want change 1 of 2", got)
	}
	folds := c.View().Folds().Count()
	typeInto(c, "z")
	if (folds == 0) == (c.View().Folds().Count() == 0) {
		t.Errorf("z left the folds at %d (from %d)", c.View().Folds().Count(), folds)
	}
	typeInto(c, "g")
	entry, ok := c.Win.Canvas().Focused().(*dialogEntry)
	if !ok {
		t.Fatal("g opened no line box")
	}
	test.Type(entry, "51")
	entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if got := compareCounter(c); !strings.Contains(got, "2 of 2") {
		t.Errorf("counter %q after g 51; want it at change 2 of 2", got)
	}
	typeInto(c, "/")
	if !c.View().Search().Open() {
		t.Fatal("/ opened no search")
	}
	c.View().Search().Set("changed")
	if _, n := c.View().Search().Count(); n != 2 {
		t.Errorf("search found %d; want 2", n)
	}
	esc := &fyne.KeyEvent{Name: fyne.KeyEscape} // as the driver delivers it: to the widget with the keyboard
	if f := c.Win.Canvas().Focused(); f != nil {
		f.TypedKey(esc)
	} else {
		c.Win.Canvas().OnTypedKey()(esc)
	}
	if c.View().Search().Open() {
		t.Error("Esc left the search open")
	}
}

// TestCompareNotes: an added, deleted or identical file is said above the
// diff.
func TestCompareNotes(t *testing.T) {
	for _, tc := range []struct {
		old, new CompareSide
		want     string
	}{
		{CompareSide{Name: "/dev/null", Missing: true}, CompareSide{Name: "b", Text: "x\n"}, "A new file"},
		{CompareSide{Name: "a", Text: "x\n"}, CompareSide{Name: "/dev/null", Missing: true}, "deleted"},
		{CompareSide{Name: "a", Text: "x\n"}, CompareSide{Name: "b", Text: "x\n"}, "identical"},
	} {
		c := newCompareHarness(t, tc.old, tc.new)
		if !strings.Contains(c.Note(), tc.want) {
			t.Errorf("%s → %s: note %q; want %q", tc.old.Name, tc.new.Name, c.Note(), tc.want)
		}
	}
}

// TestCompareKeepsItsOwnViewSettings: w and i in a comparison changed the
// review window's remembered wrap and inline settings. A comparison keeps
// its own: the review's are left as they were, and the next comparison
// opens as the last one was left.
func TestCompareKeepsItsOwnViewSettings(t *testing.T) {
	a := test.NewTempApp(t)
	a.Settings().SetTheme(NewVariantTheme(theme.VariantLight))
	p := a.Preferences()
	p.SetBool(prefWrap, true) // the review window's: wrap on, side by side
	p.SetBool(prefInline, false)
	c := newCompare(a, CompareSide{Name: "a.go", Text: "a\n"}, CompareSide{Name: "b.go", Text: "b\n"}, "", true)
	if c.View().Inline() {
		t.Fatal("a first comparison opened inline")
	}
	typeInto(c, "w")
	typeInto(c, "i")
	if !c.View().Inline() {
		t.Fatal("i did not make the comparison inline")
	}
	c.Win.Close()
	if !p.Bool(prefWrap) || p.Bool(prefInline) {
		t.Errorf("after w and i in a comparison the review window's wrap is %v, inline %v; want true, false as it left them", p.Bool(prefWrap), p.Bool(prefInline))
	}
	next := newCompare(a, CompareSide{Name: "a.go", Text: "a\n"}, CompareSide{Name: "b.go", Text: "c\n"}, "", true)
	defer next.Win.Close()
	if !next.View().Inline() {
		t.Error("the next comparison did not open inline, as the last one was left")
	}
}
