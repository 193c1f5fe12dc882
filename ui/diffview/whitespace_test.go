package diffview

import "testing"

func TestIgnoreWhitespaceFadesAndSkips(t *testing.T) {
	v, _ := newTestView(t, 800, 300)
	old := numbered(200, func(k int) string {
		if k == 50 {
			return "if x {\n"
		}
		return ""
	})
	new := numbered(200, func(k int) string {
		switch k {
		case 50:
			return "if x  {   \n" // whitespace only
		case 150:
			return "real change\n"
		}
		return ""
	})
	v.SetTexts("a.txt", old, new)
	v.SetIgnoreWhitespace(true)
	if !v.NextHunk() || v.model.Row(v.curRow).a != 150 {
		t.Fatalf("NextHunk with whitespace ignored went to %+v; want line 150", v.model.Row(max(v.curRow, 0)))
	}
	if cur, n, faded := v.HunkCount(); cur != 1 || n != 1 || faded != 1 {
		t.Errorf("HunkCount = %d, %d, %d; want 1, 1, 1", cur, n, faded)
	}
	if got := v.AcceptedHunks(); len(got) != 2 {
		t.Errorf("AcceptedHunks = %v; want both: a faded hunk is still approved", got)
	}
	if v.PrevHunk() {
		t.Error("PrevHunk went to the faded change")
	}
	v.SetIgnoreWhitespace(false)
	if _, n, faded := v.HunkCount(); n != 2 || faded != 0 {
		t.Errorf("whitespace shown again: %d hunks, %d faded; want 2, 0", n, faded)
	}
}
