package diffview

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/engine/words"
)

// rowsString renders a model's rows as "kind a b" lines (1-based, "-" for
// filler), with "*" on paired rows and "^" on a hunk's first row.
func rowsString(m *rowModel) string {
	var b strings.Builder
	kinds := map[rowKind]string{rowEqual: "=", rowDeleted: "-", rowInserted: "+", rowChanged: "~"}
	num := func(n int) string {
		if n < 0 {
			return "-"
		}
		return fmt.Sprint(n + 1)
	}
	for i := range m.Len() {
		r := m.Row(i)
		fmt.Fprintf(&b, "%s %s %s", kinds[r.kind], num(r.a), num(r.b))
		if r.paired {
			b.WriteString(" *")
		}
		if r.head {
			b.WriteString(" ^")
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func modelOf(a, b string) *rowModel {
	la, lb := engine.SplitLines(a), engine.SplitLines(b)
	return newRowModel(lineSet{head: la}, lineSet{head: lb}, engine.DiffLines(la, lb), [2]int{}, nil)
}

func TestRowModelAligns(t *testing.T) {
	tests := []struct {
		name, a, b, want string
	}{
		{"equal", "x\ny\n", "x\ny\n", "= 1 1\n= 2 2\n"},
		{"deleted", "x\ny\nz\n", "x\nz\n", "= 1 1\n- 2 - ^\n= 3 2\n"},
		{"inserted", "x\nz\n", "x\ny\nz\n", "= 1 1\n+ - 2 ^\n= 2 3\n"},
		{"changed pair", "a\nfoo(1)\nb\n", "a\nfoo(2)\nb\n", "= 1 1\n~ 2 2 * ^\n= 3 3\n"},
		// Two removed, one added: PairLines pairs the similar line; the
		// other removed line gets a filler on the right.
		{"changed with filler", "a\nalpha := 1\nzzzz\nb\n", "a\nalpha := 2\nb\n",
			"= 1 1\n~ 2 2 * ^\n- 3 -\n= 4 3\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := rowsString(modelOf(tc.a, tc.b)); got != tc.want {
				t.Errorf("rows(%q, %q) =\n%s; want\n%s", tc.a, tc.b, got, tc.want)
			}
		})
	}
}

func TestRowModelWordSpansAreLazyAndCached(t *testing.T) {
	m := modelOf("a\nfoo(1)\n", "a\nfoo(2)\n")
	if len(m.words) != 0 {
		t.Fatalf("words computed before asked: %v", m.words)
	}
	w := m.Words(m.Row(1))
	if len(w.del) != 1 || len(w.ins) != 1 || w.ins[0] != (words.Span{Start: 4, End: 5}) {
		t.Errorf("Words = %+v; want one span 4:5 each side", w)
	}
	if len(m.words) != 1 {
		t.Errorf("cache holds %d pairs; want 1", len(m.words))
	}
}

func TestRowOfB(t *testing.T) {
	m := modelOf("a\nb\nc\nd\n", "a\nX\nY\nZ\nd\n")
	for j := range 5 {
		r := m.Row(m.RowOfB(j))
		if r.b != j {
			t.Errorf("Row(RowOfB(%d)).b = %d", j, r.b)
		}
	}
}

func TestColumnsCountDisplayCells(t *testing.T) {
	tests := []struct {
		s    string
		want []int32
	}{
		{"\tx\té", []int32{0, 4, 5, 8, 8, 9}}, // tabs to the next stop; é one cell (2 bytes)
		{"a价b", []int32{0, 1, 1, 1, 3, 4}},    // a wide ideograph: 2 cells (3 bytes)
		{"e\u0301x", []int32{0, 1, 1, 1, 2}},  // a combining accent: no cell
		{"한글", []int32{0, 0, 0, 2, 2, 2, 4}},  // Hangul syllables: 2 cells each
		{"ｘ!", []int32{0, 0, 0, 2, 3}},        // a fullwidth letter
	}
	for _, tc := range tests {
		if got := columns(tc.s, nil); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("columns(%q) = %v; want %v", tc.s, got, tc.want)
		}
	}
}

// checkOps verifies ops is a diff from a to b: contiguous, covering both,
// equal ops pairing equal lines.
func checkOps(t *testing.T, a, b []string, ops []engine.Op) {
	t.Helper()
	ia, ib := 0, 0
	for _, op := range ops {
		if op.A0 != ia || op.B0 != ib {
			t.Fatalf("op %+v does not continue at %d,%d: %+v", op, ia, ib, ops)
		}
		if op.Kind == engine.OpEqual {
			for k := range op.A1 - op.A0 {
				if a[op.A0+k] != b[op.B0+k] {
					t.Fatalf("equal op %+v pairs %q with %q", op, a[op.A0+k], b[op.B0+k])
				}
			}
		}
		ia, ib = op.A1, op.B1
	}
	if ia != len(a) || ib != len(b) {
		t.Fatalf("ops end at %d,%d; want %d,%d", ia, ib, len(a), len(b))
	}
}

func TestPatchOpsStaysValid(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	a := make([]string, 60)
	for i := range a {
		a[i] = fmt.Sprint("line ", i%17)
	}
	b := append([]string(nil), a...)
	ops := engine.DiffLines(a, b)
	for step := range 500 {
		b0 := rng.Intn(len(b) + 1)
		b1 := min(b0+rng.Intn(3), len(b))
		if b0 == len(b) {
			b1 = b0
		}
		n := rng.Intn(3)
		if b1 == b0 && n == 0 {
			n = 1
		}
		ins := make([]string, n)
		for k := range ins {
			ins[k] = fmt.Sprint("line ", rng.Intn(20))
		}
		b = append(b[:b0:b0], append(ins, b[b1:]...)...)
		ops = patchOps(ops, b0, b1, n-(b1-b0))
		checkOps(t, a, b, ops)
		if step%50 == 0 {
			ops = engine.DiffLines(a, b)
		}
	}
}

func TestSpliceLine(t *testing.T) {
	a := []string{"a\n", "b\n", "c\n"}
	done := []string{"a\n", "X\n"}
	ld := engine.NewLiveDiff(a)
	ld.Update(done, 2) // proposal: a X [partial] c
	ops := spliceLine(ld.Ops(), len(done))
	b := []string{"a\n", "X\n", "partial", "c\n"}
	checkOps(t, a, b, ops)
}

// TestVeryLongLineIsCutForShow: a line over maxShownLine bytes is shown
// (and drawn, coloured, searched) by its first MiB and a note saying how
// long it is, so a row does not cost gigabytes (real window: a 200 MB
// one-line file streaming in took it past 8 GB); its hunk still covers
// the whole line.
func TestVeryLongLineIsCutForShow(t *testing.T) {
	v, _ := newTestView(t, 800, 300)
	long := strings.Repeat("é", 3<<20) // 6 MiB, two bytes a rune
	v.SetTexts("a.txt", "start\n", long+"\n")
	got := v.model.b.Line(0)
	if len(got) > maxShownLine+100 || !strings.Contains(got, "line of 6291456 bytes: the rest is not shown") {
		t.Fatalf("line shown: %d bytes ending %q; want at most ~1 MiB and the note", len(got), got[max(len(got)-80, 0):])
	}
	if !utf8.ValidString(got) {
		t.Error("the cut splits a rune")
	}
	r := newDiffRow(&v.parts)
	r.id = v.model.RowOfB(0)
	r.build()
	if cap(r.colBuf) > 2*maxShownLine {
		t.Errorf("the row drew with a %d-cell buffer; want one for the line shown (≤ %d)", cap(r.colBuf), 2*maxShownLine)
	}
	hs := v.Hunks()
	if len(hs) != 1 {
		t.Fatalf("%d hunks; want 1", len(hs))
	}
	if n := len(v.model.b.raw()[0]); n != len(long)+1 {
		t.Errorf("the right side's raw line has %d bytes; want the whole %d", n, len(long)+1)
	}
}

// A few characters changed inside a long token are emphasised, not the
// token (issue 25: a 7-character change inside a 2,000-character string
// lit the whole line), and j scrolls sideways to them.
func TestLongTokenEmphasisesTheChangedCharacters(t *testing.T) {
	long := strings.Repeat("abcdefghij", 100)
	oldL := `s := "` + long + "OLDPART" + long + `"`
	newL := `s := "` + long + "newpart" + long + `"`
	m := modelOf("a\n"+oldL+"\n", "a\n"+newL+"\n")
	w := m.Words(m.Row(1))
	at := strings.Index(oldL, "OLDPART")
	want := words.Span{Start: at, End: at + 7}
	if len(w.del) != 1 || len(w.ins) != 1 || w.del[0] != want || w.ins[0] != want {
		t.Errorf("Words = %+v; want %+v on each side", w, want)
	}

	v, _ := newTestView(t, 700, 200)
	v.SetTexts("s.go", "a\n"+oldL+"\n", "a\n"+newL+"\n")
	v.Nav().NextHunk()
	col := at // ASCII: one cell a byte
	if v.hbar.off > col || v.hbar.off+v.metric.cols < col+7 {
		t.Errorf("after j the columns shown are %d–%d; want the change at %d–%d among them", v.hbar.off, v.hbar.off+v.metric.cols, col, col+7)
	}
}
