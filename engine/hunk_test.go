package engine

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestHunks(t *testing.T) {
	a := "one\ntwo\nthree\nfour\nfive\nsix\nseven\n"
	b := "one\nTWO\nthree\nfour\nfive\nsix\nseven\neight\n"
	la, lb := splitLines(a), splitLines(b)
	hunks := Hunks(la, lb, DiffLines(la, lb), 2)
	if len(hunks) != 2 {
		t.Fatalf("Hunks(%q, %q) = %d hunks; want 2", a, b, len(hunks))
	}
	want := []struct{ a0, a1, b0, b1 int }{{0, 4, 0, 4}, {5, 7, 5, 8}}
	for i, h := range hunks {
		if w := want[i]; h.A0 != w.a0 || h.A1 != w.a1 || h.B0 != w.b0 || h.B1 != w.b1 {
			t.Errorf("hunk %d = lines %d:%d → %d:%d; want %d:%d → %d:%d", i, h.A0, h.A1, h.B0, h.B1, w.a0, w.a1, w.b0, w.b1)
		}
		if len(h.ID) != 12 || h.Change.A0-h.A0 != h.Change.B0-h.B0 || h.A1-h.Change.A1 != h.B1-h.Change.B1 {
			t.Errorf("hunk %d = %+v; want a 12-digit ID and as much context on both sides", i, h)
		}
	}
}

// hunkIDs diffs a and b and returns the hunk IDs.
func hunkIDs(a, b string) []string {
	la, lb := splitLines(a), splitLines(b)
	var ids []string
	for _, h := range Hunks(la, lb, DiffLines(la, lb), 3) {
		ids = append(ids, h.ID)
	}
	return ids
}

func TestHunksNoContext(t *testing.T) {
	a, b := splitLines("a\nb\nc\n"), splitLines("a\nB\nc\n")
	for _, context := range []int{0, -1} {
		hunks := Hunks(a, b, DiffLines(a, b), context)
		if len(hunks) != 1 || hunks[0].A0 != 1 || hunks[0].A1 != 2 || hunks[0].B0 != 1 || hunks[0].B1 != 2 {
			t.Errorf("Hunks(context %d) = %+v; want one hunk of line 1 only", context, hunks)
		}
	}
}

func TestHunkIDsStable(t *testing.T) {
	var base strings.Builder
	for i := range 100 {
		fmt.Fprintf(&base, "line %d\n", i)
	}
	a := base.String()
	b := strings.Replace(a, "line 10\n", "line ten\n", 1)
	b = strings.Replace(b, "line 50\n", "line fifty\n", 1)
	ids := hunkIDs(a, b)
	if again := hunkIDs(a, b); !slices.Equal(ids, again) {
		t.Errorf("hunk IDs changed on re-diff: %v then %v", ids, again)
	}
	// Another change elsewhere, as when a proposal streams on, leaves the
	// existing hunks' IDs alone.
	c := strings.Replace(b, "line 80\n", "line eighty\n", 1)
	more := hunkIDs(a, c)
	if len(more) != 3 || more[0] != ids[0] || more[1] != ids[1] {
		t.Errorf("hunk IDs after a third change = %v; want %v plus one", more, ids)
	}
	// Identical changes get distinct IDs.
	d := strings.Replace(strings.Replace(a, "line 3\n", "x\n", 1), "line 60\n", "x\n", 1)
	if dup := hunkIDs(a, d); len(dup) != 2 || dup[0] == dup[1] {
		t.Errorf("hunk IDs of two changes = %v; want 2 distinct", dup)
	}
}

func TestApplyHunks(t *testing.T) {
	a := "a\nb\nc\nd\ne\nf\ng\nh"
	b := "a\nB\nc\nd\ne\nf\ng\nh\ni\n"
	ids := hunkIDs(a, b)
	if len(ids) != 2 {
		t.Fatalf("hunkIDs(%q, %q) = %v; want 2 hunks", a, b, ids)
	}
	tests := []struct {
		name   string
		accept []string
		want   string
	}{
		{"none", nil, a},
		{"all", ids, b},
		{"first", ids[:1], "a\nB\nc\nd\ne\nf\ng\nh"},
		{"last", ids[1:], "a\nb\nc\nd\ne\nf\ng\nh\ni\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ApplyHunks(a, b, func(id string) bool { return slices.Contains(tt.accept, id) })
			if got != tt.want {
				t.Errorf("ApplyHunks(%q, %q, %v) = %q; want %q", a, b, tt.accept, got, tt.want)
			}
		})
	}
}

func FuzzApplyHunks(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\nd")
	f.Add("", "x\n")
	f.Fuzz(func(t *testing.T, a, b string) {
		if got := ApplyHunks(a, b, func(string) bool { return true }); got != b {
			t.Fatalf("ApplyHunks(%q, %q, all) = %q", a, b, got)
		}
		if got := ApplyHunks(a, b, func(string) bool { return false }); got != a {
			t.Fatalf("ApplyHunks(%q, %q, none) = %q", a, b, got)
		}
		// Every other hunk: the diff made already, with context, gives
		// what ApplyHunks makes of the texts.
		la, lb := SplitLines(a), SplitLines(b)
		hs := Hunks(la, lb, DiffLines(la, lb), 3)
		odd := map[string]bool{}
		for k, h := range hs {
			odd[h.ID] = k%2 == 1
		}
		accept := func(id string) bool { return odd[id] }
		if got, want := ApplyChanges(la, lb, hs, accept), ApplyHunks(a, b, accept); got != want {
			t.Fatalf("ApplyChanges(%q, %q, every other hunk) = %q; ApplyHunks gives %q", a, b, got, want)
		}
	})
}
