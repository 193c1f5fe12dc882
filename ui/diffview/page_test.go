package diffview

import "testing"

func TestPageDownUpHomeEnd(t *testing.T) {
	v, _ := newTestView(t, 800, 300)
	v.SetTexts("a.txt", numbered(1000, nil), numbered(1000, func(k int) string {
		if k == 500 {
			return "changed\n"
		}
		return ""
	}))
	vis := v.visibleRows()
	if !v.PageDown() {
		t.Fatal("PageDown at the top did not move")
	}
	top := v.topRow()
	if top < vis-3 || top > vis {
		t.Errorf("after Page Down the top row is %d; want the row that was last on screen (%d rows show)", top, vis)
	}
	v.PageDown()
	v.PageUp()
	if got := v.topRow(); got != top {
		t.Errorf("Page Down then Page Up: top row %d; want %d", got, top)
	}
	if !v.End() {
		t.Fatal("End did not move")
	}
	if last := v.topRow() + vis; last < v.model.Len() {
		t.Errorf("after End the rows on screen end at %d of %d", last, v.model.Len())
	}
	if v.PageDown() || v.End() {
		t.Error("Page Down or End at the end moved the view")
	}
	if !v.Home() || v.topRow() != 0 {
		t.Errorf("Home: top row %d; want 0", v.topRow())
	}
	if v.PageUp() {
		t.Error("Page Up at the top moved the view")
	}
}
