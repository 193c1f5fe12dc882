package engine

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// checkOps reports whether ops is a well-formed diff from a to b: it covers
// both in order, Equal ops pair equal lines, changes alternate with Equal
// runs and each change's kind matches its ranges.
func checkOps(a, b []string, ops []Op) error {
	i, j := 0, 0
	for n, op := range ops {
		if op.A0 != i || op.B0 != j || op.A1 < op.A0 || op.B1 < op.B0 {
			return fmt.Errorf("op %d %+v does not continue at a[%d], b[%d]", n, op, i, j)
		}
		na, nb := op.A1-op.A0, op.B1-op.B0
		switch op.Kind {
		case OpEqual:
			if na != nb || na == 0 {
				return fmt.Errorf("op %d %+v: equal ranges differ in length or are empty", n, op)
			}
			if !slices.Equal(a[op.A0:op.A1], b[op.B0:op.B1]) {
				return fmt.Errorf("op %d %+v: lines differ", n, op)
			}
			if n > 0 && ops[n-1].Kind == OpEqual {
				return fmt.Errorf("op %d %+v: two Equal ops in a row", n, op)
			}
		case OpDelete, OpInsert, OpReplace:
			want := OpReplace
			if na == 0 {
				want = OpInsert
			} else if nb == 0 {
				want = OpDelete
			}
			if na == 0 && nb == 0 || op.Kind != want {
				return fmt.Errorf("op %d %+v: kind should be %v", n, op, want)
			}
			if n > 0 && ops[n-1].Kind != OpEqual {
				return fmt.Errorf("op %d %+v: two changes in a row", n, op)
			}
		default:
			return fmt.Errorf("op %d %+v: unknown kind", n, op)
		}
		i, j = op.A1, op.B1
	}
	if i != len(a) || j != len(b) {
		return fmt.Errorf("ops end at a[%d], b[%d]; want a[%d], b[%d]", i, j, len(a), len(b))
	}
	return nil
}

// applyOps rebuilds b from a: Equal ops copy lines of a, changes take the
// lines of b they name.
func applyOps(a, b []string, ops []Op) string {
	var sb strings.Builder
	for _, op := range ops {
		if op.Kind == OpEqual {
			sb.WriteString(strings.Join(a[op.A0:op.A1], ""))
		} else {
			sb.WriteString(strings.Join(b[op.B0:op.B1], ""))
		}
	}
	return sb.String()
}

// changedLines counts the deleted plus inserted lines of ops.
func changedLines(ops []Op) int {
	n := 0
	for _, op := range ops {
		if op.Kind != OpEqual {
			n += op.A1 - op.A0 + op.B1 - op.B0
		}
	}
	return n
}

// lcsLen is the textbook quadratic longest common subsequence length.
func lcsLen(a, b []string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			switch {
			case a[i] == b[j]:
				cur[j+1] = prev[j] + 1
			case prev[j+1] >= cur[j]:
				cur[j+1] = prev[j+1]
			default:
				cur[j+1] = cur[j]
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func TestDiff(t *testing.T) {
	tests := []struct {
		a, b string
		want []Op
	}{
		{"", "", []Op{}},
		{"x\n", "x\n", []Op{{OpEqual, 0, 1, 0, 1}}},
		{"", "x\n", []Op{{OpInsert, 0, 0, 0, 1}}},
		{"x\n", "", []Op{{OpDelete, 0, 1, 0, 0}}},
		{"a\nb\nc\n", "a\nB\nc\n", []Op{{OpEqual, 0, 1, 0, 1}, {OpReplace, 1, 2, 1, 2}, {OpEqual, 2, 3, 2, 3}}},
		{"a\nb\n", "a\nb", []Op{{OpEqual, 0, 1, 0, 1}, {OpReplace, 1, 2, 1, 2}}},
		{"a\nc\n", "a\nb\nc\n", []Op{{OpEqual, 0, 1, 0, 1}, {OpInsert, 1, 1, 1, 2}, {OpEqual, 1, 2, 2, 3}}},
		{"a\nb\nc\n", "c\nb\na\n", nil}, // checked for validity and minimality only
		// An inserted function slides down to follow the blank line.
		{"f() {\n}\n\ng() {\n}\n", "f() {\n}\n\nh() {\n}\n\ng() {\n}\n",
			[]Op{{OpEqual, 0, 3, 0, 3}, {OpInsert, 3, 3, 3, 6}, {OpEqual, 3, 5, 6, 8}}},
		// A function inserted above one that starts and ends with the same
		// lines shows whole, by git's indent heuristic; slid down as far as
		// it goes it would start inside the old one.
		{"func f() {\n\ty()\n}\n\n", "func f() {\n\tx()\n}\n\nfunc f() {\n\ty()\n}\n\n",
			[]Op{{OpInsert, 0, 0, 0, 4}, {OpEqual, 0, 4, 4, 8}}},
		// A deletion and an insertion that can meet read as one replacement.
		{"x\ny\ny\nz\n", "x\ny\nq\nz\n", []Op{{OpEqual, 0, 2, 0, 2}, {OpReplace, 2, 3, 2, 3}, {OpEqual, 3, 4, 3, 4}}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%q→%q", tt.a, tt.b), func(t *testing.T) {
			a, b := splitLines(tt.a), splitLines(tt.b)
			got := Diff(tt.a, tt.b)
			if err := checkOps(a, b, got); err != nil {
				t.Fatalf("Diff(%q, %q) = %v: %v", tt.a, tt.b, got, err)
			}
			if tt.want != nil && !slices.Equal(got, tt.want) {
				t.Errorf("Diff(%q, %q) = %v; want %v", tt.a, tt.b, got, tt.want)
			}
			if c, min := changedLines(got), len(a)+len(b)-2*lcsLen(a, b); c != min {
				t.Errorf("Diff(%q, %q) changes %d lines; minimum is %d", tt.a, tt.b, c, min)
			}
		})
	}
}

// randomLines returns n lines drawn from an alphabet of k distinct lines.
func randomLines(r *rand.Rand, n, k int) []string {
	l := make([]string, n)
	for i := range l {
		l[i] = fmt.Sprintf("%d\n", r.Intn(k))
	}
	return l
}

// myersChanges marks the changes myers.run finds between a and b.
func myersChanges(a, b []string) []Op {
	ia, ib, n := internLines(a, b)
	ca, cb := make([]bool, len(a)), make([]bool, len(b))
	m := myers{counts: make([]int32, 2*n)}
	m.run(ia, ib, ca, cb)
	return appendOps(nil, ca, cb, 0, 0)
}

// TestMyersMinimal checks, on small random inputs where the cost cap never
// applies, that the Myers fallback is minimal.
func TestMyersMinimal(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for n := range 2000 {
		a := randomLines(r, r.Intn(40), 2+n%9)
		b := randomLines(r, r.Intn(40), 2+n%7)
		ops := myersChanges(a, b)
		if err := checkOps(a, b, ops); err != nil {
			t.Fatalf("myers(%q, %q) = %v: %v", a, b, ops, err)
		}
		if c, min := changedLines(ops), len(a)+len(b)-2*lcsLen(a, b); c != min {
			t.Fatalf("myers(%q, %q) changes %d lines; minimum is %d", a, b, c, min)
		}
	}
}

// TestMyersCostCap checks that inputs big enough to hit the cost cap still
// give valid diffs close to the minimum.
func TestMyersCostCap(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for _, k := range []int{3, 20, 500} {
		a := randomLines(r, 3000, k)
		b := randomLines(r, 3000, k)
		ops := myersChanges(a, b)
		if err := checkOps(a, b, ops); err != nil {
			t.Fatalf("alphabet %d: %v", k, err)
		}
		c, min := changedLines(ops), len(a)+len(b)-2*lcsLen(a, b)
		if float64(c) > 1.1*float64(min) {
			t.Errorf("alphabet %d: myers changes %d lines; minimum is %d", k, c, min)
		}
		t.Logf("alphabet %d: %d changed lines, minimum %d", k, c, min)
	}
}

func FuzzDiff(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nc\nd")
	f.Add("", "x")
	f.Add("}\n}\n\n}\n", "\n}\n}\n")
	f.Fuzz(func(t *testing.T, a, b string) {
		la, lb := splitLines(a), splitLines(b)
		ops := Diff(a, b)
		if err := checkOps(la, lb, ops); err != nil {
			t.Fatalf("Diff(%q, %q) = %v: %v", a, b, ops, err)
		}
		if got := applyOps(la, lb, ops); got != b {
			t.Fatalf("applyOps(Diff(%q, %q)) = %q", a, b, got)
		}
	})
}

func TestCountLines(t *testing.T) {
	added, removed := CountLines(Diff("a\nb\nc\nd\n", "a\nB\nc\nd\ne\nf\n"))
	if added != 3 || removed != 1 {
		t.Errorf("CountLines = +%d -%d; want +3 -1 (b→B, then e and f)", added, removed)
	}
	if a, r := CountLines(Diff("same\n", "same\n")); a != 0 || r != 0 {
		t.Errorf("CountLines(equal) = +%d -%d; want +0 -0", a, r)
	}
}
