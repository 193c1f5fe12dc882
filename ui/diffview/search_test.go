package diffview

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

func TestSearchCountsBothSidesAndOpensFolds(t *testing.T) {
	v, w := newTestView(t, 800, 300)
	v.Folds().Collapse(true)
	old := numbered(400, func(k int) string {
		if k == 100 {
			return "needle old\n"
		}
		return ""
	})
	new := numbered(400, func(k int) string {
		switch k {
		case 100:
			return "Needle new\n"
		case 300:
			return "changed\n"
		}
		return ""
	})
	v.SetTexts("a.txt", strings.Replace(old, "line 200\n", "needle 200\n", 1), strings.Replace(new, "line 200\n", "needle 200\n", 1))
	closed := false
	v.Search().OnClosed = func() { closed = true }
	v.Search().Show()
	if w.Canvas().Focused() != v.search.entry {
		t.Fatal("ShowSearch: the search box has not the keyboard")
	}
	test.Type(v.search.entry, "needle")
	// Line 100 on the left (removed), line 100 on the right, line 200 once
	// (unchanged: counted on the right only).
	if cur, n := v.Search().Count(); cur != 1 || n != 3 {
		t.Fatalf("SearchCount = %d, %d; want 1, 3", cur, n)
	}
	if got := v.search.count.Text; got != "1 of 3" {
		t.Errorf("count label %q; want \"1 of 3\"", got)
	}
	v.search.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	v.search.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	// The third match, line 200, was inside a fold: it is open now.
	if cur, _ := v.Search().Count(); cur != 3 {
		t.Fatalf("after two Enters match %d; want 3", cur)
	}
	if r := v.model.RowOfB(200); v.model.Row(r).kind != rowEqual || v.model.Row(r).b != 200 {
		t.Errorf("line 200 still folded: row %+v", v.model.Row(r))
	}
	ms, cur := v.search.matchesOn(1, 200)
	if len(ms) != 1 || cur != 0 {
		t.Errorf("matchesOn(1, 200) = %v, %d; want the match on show", ms, cur)
	}
	v.search.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if cur, _ := v.Search().Count(); cur != 1 {
		t.Errorf("Enter after the last match: match %d; want 1 (wraps)", cur)
	}
	v.search.entry.KeyDown(&fyne.KeyEvent{Name: "LeftShift"})
	v.search.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	v.search.entry.KeyUp(&fyne.KeyEvent{Name: "LeftShift"})
	if cur, _ := v.Search().Count(); cur != 3 {
		t.Errorf("Shift+Enter from the first match: match %d; want 3", cur)
	}
	v.search.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if v.Search().Open() || !closed || w.Canvas().Focused() != nil {
		t.Errorf("Esc: searching %v, OnClosed called %v, focus %v; want closed, called, none", v.Search().Open(), closed, w.Canvas().Focused())
	}
	if ms, _ := v.search.matchesOn(1, 200); ms != nil {
		t.Errorf("highlights after closing: %v", ms)
	}
}

func TestSearchIgnoresCaseUnlessAskedNot(t *testing.T) {
	v, _ := newTestView(t, 800, 300)
	v.SetTexts("a.txt", "Foo foo FOO\n", "Foo foo FOO!\n")
	v.Search().Show()
	v.Search().Set("foo")
	if _, n := v.Search().Count(); n != 6 {
		t.Errorf("foo: %d matches; want 6", n)
	}
	v.Search().Set("Foo")
	if _, n := v.Search().Count(); n != 2 {
		t.Errorf("Foo: %d matches; want 2", n)
	}
	v.Search().Set("zzz")
	if v.search.count.Text != "no matches" || v.Search().Next() {
		t.Errorf("zzz: label %q", v.search.count.Text)
	}
}

// TestSearchReopensWithTheLastQuerySelected: / again shows the last query
// selected, so typing replaces it, as in an editor's find box (real
// window: "中文" then / and a searched for "中文a").
func TestSearchReopensWithTheLastQuerySelected(t *testing.T) {
	v, _ := newTestView(t, 800, 300)
	v.SetTexts("a.txt", "one\ntwo\nthree\n", "one\n2\nthree\n")
	v.Search().Show()
	test.Type(v.search.entry, "one")
	v.Search().Close()
	v.Search().Show()
	if got := v.search.entry.SelectedText(); got != "one" {
		t.Errorf("selected %q on reopening; want the last query, \"one\"", got)
	}
	test.Type(v.search.entry, "three")
	if q := v.Search().Query(); q != "three" {
		t.Errorf("query %q after typing on reopening; want \"three\" (the last query replaced)", q)
	}
	if cur, n := v.Search().Count(); cur != 1 || n != 1 {
		t.Errorf("SearchCount = %d, %d; want 1, 1", cur, n)
	}
}

// TestSearchMatchInAChangeMakesItCurrent: a match inside a change makes
// that change the current one and says so (OnJumped), as j does (real
// window, 1,000,000 lines: at match 95, in hunk 95, the counter said
// "hunk 100 of 100").
func TestSearchMatchInAChangeMakesItCurrent(t *testing.T) {
	v, _ := newTestView(t, 800, 300)
	v.Folds().Collapse(true)
	old := numbered(400, nil)
	new := numbered(400, func(k int) string {
		switch k {
		case 100:
			return "first change\n"
		case 300:
			return "second needle\n"
		}
		return ""
	})
	v.SetTexts("a.txt", old, new)
	v.Nav().NextHunk()
	jumped := 0
	v.OnJumped = func() { jumped++ }
	v.Search().Show()
	test.Type(v.search.entry, "needle")
	if v.Nav().CurrentHunk() != 1 || jumped == 0 {
		t.Errorf("after finding the needle in the second change: current hunk %d, OnJumped called %d times; want hunk 1, called", v.Nav().CurrentHunk(), jumped)
	}
}
