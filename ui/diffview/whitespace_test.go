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
	if !v.Nav().NextHunk() || v.model.Row(v.nav.cur).a != 150 {
		t.Fatalf("NextHunk with whitespace ignored went to %+v; want line 150", v.model.Row(max(v.nav.cur, 0)))
	}
	if cur, n, faded := v.Nav().HunkCount(); cur != 1 || n != 1 || faded != 1 {
		t.Errorf("HunkCount = %d, %d, %d; want 1, 1, 1", cur, n, faded)
	}
	if got := v.AcceptedHunks(); len(got) != 2 {
		t.Errorf("AcceptedHunks = %v; want both: a faded hunk is still approved", got)
	}
	if v.Nav().PrevHunk() {
		t.Error("PrevHunk went to the faded change")
	}
	v.SetIgnoreWhitespace(false)
	if _, n, faded := v.Nav().HunkCount(); n != 2 || faded != 0 {
		t.Errorf("whitespace shown again: %d hunks, %d faded; want 2, 0", n, faded)
	}
}

// TestIgnoreWhitespaceEmphasisesWordsNotIndentation: in a change that
// re-indents lines and changes a word, whitespace ignored leaves the
// word emphasised and the indentation not (real window: a re-indented
// block with one word changed was a red and green block at every line's
// indentation, with W on as off).
func TestIgnoreWhitespaceEmphasisesWordsNotIndentation(t *testing.T) {
	v, _ := newTestView(t, 800, 300)
	old := "func f() {\n\tx := compute(1)\n\ty := compute(2)\n}\n"
	new := "func f() {\n\t\tx := compute(1)\n\t\ty := calculate(2)\n}\n"
	v.SetTexts("a.go", old, new)
	spans := func(b int) (n int) {
		r := newDiffRow(&v.parts)
		r.id = v.model.RowOfB(b)
		r.build()
		c := coloursFor(v.rows.dark)
		for _, o := range r.rects[:r.nRect] {
			if o.FillColor == c.insWord || o.FillColor == c.delWord {
				n++
			}
		}
		return n
	}
	if spans(1) == 0 || spans(2) == 0 {
		t.Fatalf("whitespace shown: %d and %d emphases on the re-indented lines; want some on both", spans(1), spans(2))
	}
	v.SetIgnoreWhitespace(true)
	if n := spans(1); n != 0 {
		t.Errorf("whitespace ignored: %d emphases on a line only re-indented; want none", n)
	}
	if n := spans(2); n != 2 {
		t.Errorf("whitespace ignored: %d emphases on the line whose word changed; want 2 (compute, calculate)", n)
	}
	if v.model.Words(v.model.Row(v.model.RowOfB(1))).ins == nil {
		t.Error("the model's cached spans were emptied; want them kept for whitespace shown again")
	}
}
