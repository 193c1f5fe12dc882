package engine

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine/internal/diffbench/corpus"
)

// movedLines joins lines with "\n" endings.
func movedLines(ls ...string) []string {
	out := make([]string, len(ls))
	for k, l := range ls {
		out[k] = l + "\n"
	}
	return out
}

func TestMoves(t *testing.T) {
	block := []string{"func helper() {", "\tx := load()", "\treturn x", "}"}
	indented := []string{"\tfunc helper() {", "\t\tx := load()", "\t\treturn x", "\t}"}
	cat := func(parts ...[]string) []string {
		var out []string
		for _, p := range parts {
			out = append(out, p...)
		}
		return movedLines(out...)
	}
	top, mid, end := []string{"package p", "", "// top"}, []string{"var a = 1", "var b = 2", "var c = 3", "var d = 4", "var e = 5", "var f = 6"}, []string{"// end"}
	other := []string{"type U int", "func (U) M() {}", "const K = 1"}
	tests := []struct {
		name string
		a, b []string
		want []Move
	}{
		{"moved down", cat(top, block, mid, end), cat(top, mid, block, end),
			[]Move{{A0: 3, A1: 7, B0: 9, B1: 13}}},
		{"moved and re-indented", cat(top, block, mid, end), cat(top, mid, []string{"type T struct {"}, indented, []string{"}"}, end),
			[]Move{{A0: 3, A1: 7, B0: 10, B1: 14, Reindented: true}}},
		{"two lines are too few", cat(top, block[1:3], mid, end), cat(top, mid, block[1:3], end), nil},
		{"blank lines do not count", cat(top, []string{"x()", "", "", "y()"}, mid, end), cat(top, mid, []string{"x()", "", "", "y()"}, end), nil},
		{"re-indented in place is no move", cat(top, block, end), cat(top, []string{"if ok {"}, indented, []string{"}"}, end), nil},
		{"deleted only", cat(top, block, end), cat(top, end), nil},
		{"two blocks moved", cat(top, block, mid, other, end), cat(top, other, mid, block, end),
			[]Move{{A0: 3, A1: 7, B0: 12, B1: 16}, {A0: 13, A1: 16, B0: 3, B1: 6}}},
		{"copied, not moved: one end", cat(top, block, mid, end), cat(top, mid, block, block, end), []Move{{A0: 3, A1: 7, B0: 9, B1: 13}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Moves(tc.a, tc.b, DiffLines(tc.a, tc.b))
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Moves = %+v; want %+v\nops %v", got, tc.want, DiffLines(tc.a, tc.b))
			}
		})
	}
}

// TestMovesCoverChangedLinesOnly checks every move's lines are changed on
// both sides and equal whitespace aside, on random edits of code.
func TestMovesCoverChangedLinesOnly(t *testing.T) {
	base := corpus.Repetitive(3000, 1)
	for seed := range 20 {
		b := append([]string{}, base...)
		// Move three blocks and re-indent one of them.
		for k := range 3 {
			from, n := (seed*131+k*977)%2500, 20+k*7
			blk := append([]string{}, b[from:from+n]...)
			if k == 1 {
				for l := range blk {
					blk[l] = "\t" + blk[l]
				}
			}
			b = append(b[:from], b[from+n:]...)
			to := (from + 400*(k+1)) % len(b)
			b = append(b[:to], append(blk, b[to:]...)...)
		}
		ops := DiffLines(base, b)
		changedA, changedB := changeIndex(ops, len(base), true), changeIndex(ops, len(b), false)
		moves := Moves(base, b, ops)
		if len(moves) == 0 {
			t.Fatalf("seed %d: no moves found", seed)
		}
		for _, m := range moves {
			if m.A1-m.A0 != m.B1-m.B0 {
				t.Fatalf("seed %d: move %+v: ends differ in length", seed, m)
			}
			for k := range m.A1 - m.A0 {
				i, j := m.A0+k, m.B0+k
				if changedA[i] < 0 || changedB[j] < 0 || strings.TrimSpace(base[i]) != strings.TrimSpace(b[j]) {
					t.Fatalf("seed %d: move %+v: line %d/%d: %q vs %q", seed, m, i, j, base[i], b[j])
				}
			}
		}
	}
}

// TestMovesRepetitive finds issue 15's worst case, a 5,000-line block of
// repetitive code moved within 100,000 lines, as one move.
func TestMovesRepetitive(t *testing.T) {
	a, b := corpus.RepetitiveMove()
	moves := Moves(a, b, DiffLines(a, b))
	moved := 0
	for _, m := range moves {
		moved += m.A1 - m.A0
	}
	if moved < 4900 {
		t.Errorf("Moves: %d lines in %d moves; want the 5,000-line block", moved, len(moves))
	}
}

func BenchmarkMoves(b *testing.B) {
	x, y := corpus.RepetitiveMove()
	ops := DiffLines(x, y)
	b.Run("100k/moved-rep", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			Moves(x, y, ops)
		}
	})
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("%dk/few-changes", n/1000), func(b *testing.B) {
			base := corpus.Repetitive(n, 1)
			v := append([]string{}, base...)
			for k := 100; k < n; k += 500 {
				v[k] = "\t// changed\n"
			}
			ops := DiffLines(base, v)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				Moves(base, v, ops)
			}
		})
	}
}
