package diffview

import (
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/ui/diffview/textbuf"
)

func TestPageDownUpHomeEnd(t *testing.T) {
	v, _ := newTestView(t, 800, 300)
	v.SetTexts("a.txt", numbered(1000, nil), numbered(1000, func(k int) string {
		if k == 500 {
			return "changed\n"
		}
		return ""
	}))
	vis := v.visibleRows()
	if !v.Nav().PageDown() {
		t.Fatal("PageDown at the top did not move")
	}
	top := v.topRow()
	if top < vis-3 || top > vis {
		t.Errorf("after Page Down the top row is %d; want the row that was last on screen (%d rows show)", top, vis)
	}
	v.Nav().PageDown()
	v.Nav().PageUp()
	if got := v.topRow(); got != top {
		t.Errorf("Page Down then Page Up: top row %d; want %d", got, top)
	}
	if !v.Nav().End() {
		t.Fatal("End did not move")
	}
	if last := v.topRow() + vis; last < v.model.Len() {
		t.Errorf("after End the rows on screen end at %d of %d", last, v.model.Len())
	}
	if v.Nav().PageDown() || v.Nav().End() {
		t.Error("Page Down or End at the end moved the view")
	}
	if !v.Nav().Home() || v.topRow() != 0 {
		t.Errorf("Home: top row %d; want 0", v.topRow())
	}
	if v.Nav().PageUp() {
		t.Error("Page Up at the top moved the view")
	}
}

func TestNextHunkScrollsDown(t *testing.T) {
	v, _ := newTestView(t, 800, 300)
	old := numbered(400, nil)
	v.SetTexts("a.txt", old, numbered(400, func(k int) string {
		if k == 100 || k == 300 {
			return "changed\n"
		}
		return ""
	}))
	v.Nav().NextHunk()
	first := v.list.GetScrollOffset()
	if want := v.wr.rowY(100 - hunkLead); first != want {
		t.Fatalf("after NextHunk offset = %v; want %v", first, want)
	}
	v.Nav().NextHunk()
	if got, want := v.list.GetScrollOffset(), v.wr.rowY(300-hunkLead); got != want {
		t.Errorf("after second NextHunk offset = %v; want %v", got, want)
	}
}

func TestPrevHunkScrollsUp(t *testing.T) {
	v, _ := newTestView(t, 800, 300)
	v.SetTexts("a.txt", numbered(400, nil), numbered(400, func(k int) string {
		if k == 100 || k == 300 {
			return "changed\n"
		}
		return ""
	}))
	v.Nav().NextHunk()
	v.Nav().NextHunk()
	v.Nav().PrevHunk()
	if got, want := v.list.GetScrollOffset(), v.wr.rowY(100-hunkLead); got != want {
		t.Errorf("after PrevHunk offset = %v; want %v", got, want)
	}
}

func TestNextHunkFromTopGoesToFirstChange(t *testing.T) {
	v, _ := newTestView(t, 800, 300)
	v.SetTexts("a.txt", numbered(400, nil), numbered(400, func(k int) string {
		if k == 1 || k == 300 {
			return "changed\n"
		}
		return ""
	}))
	v.Nav().NextHunk()
	if v.nav.cur != 1 {
		t.Fatalf("NextHunk from the top went to row %d; want 1, the first change", v.nav.cur)
	}
	v.Nav().NextHunk()
	if v.nav.cur != 300 {
		t.Errorf("second NextHunk went to row %d; want 300", v.nav.cur)
	}
}

func TestNextHunkScrollsChangeIntoViewHorizontally(t *testing.T) {
	v, _ := newTestView(t, 1000, 300)
	v.SetTexts("a.txt", farChange(200, 120, "10.30"), farChange(200, 120, "110.30"))
	if !v.Nav().NextHunk() {
		t.Fatal("NextHunk found no change")
	}
	r := v.model.Row(v.nav.cur)
	ins := v.model.Words(r).ins
	if len(ins) == 0 {
		t.Fatal("no word spans on the changed row")
	}
	line := v.model.b.Line(r.b)
	c0, c1 := textbuf.Width(line[:ins[0].Start]), textbuf.Width(line[:ins[len(ins)-1].End])
	if c0 < v.hbar.off || c1 > v.hbar.off+v.metric.cols {
		t.Errorf("after NextHunk the view shows cells %d..%d; the change is at %d..%d", v.hbar.off, v.hbar.off+v.metric.cols, c0, c1)
	}
	v.Nav().PrevHunk() // nothing before: stays
	v.SetTexts("a.txt", numbered(200, nil), numbered(200, func(k int) string {
		if k == 50 {
			return "near\n"
		}
		return ""
	}))
	v.setHOffset(5)
	v.Nav().NextHunk()
	if v.hbar.off != 0 {
		t.Errorf("a change at the line start left the view scrolled to cell %d; want 0", v.hbar.off)
	}
	// A change that starts near the line's start but runs past the pane's
	// edge (a long line replaced) shows from the start too, even when the
	// last change left the view scrolled far right.
	long := strings.Repeat("word ", 60)
	v.SetTexts("a.txt", numbered(200, func(k int) string {
		if k == 40 {
			return "row 40 value 581 " + long + "\n"
		}
		return ""
	}), numbered(200, func(k int) string {
		if k == 40 {
			return "row 40 value 582\n"
		}
		return ""
	}))
	v.setHOffset(50)
	v.Nav().NextHunk()
	if v.hbar.off != 0 {
		t.Errorf("a change starting at cell 13 of a long line left the view at cell %d; want 0", v.hbar.off)
	}
}
