package engine

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestMerge3(t *testing.T) {
	base := "a\nb\nc\nd\ne\n"
	tests := []struct {
		name, ours, theirs string
		want               string
		conflicts          []Conflict
	}{
		{"no changes", base, base, base, nil},
		{"ours only", "a\nB\nc\nd\ne\n", base, "a\nB\nc\nd\ne\n", nil},
		{"theirs only", base, "a\nb\nc\nD\ne\n", "a\nb\nc\nD\ne\n", nil},
		{"both, apart", "A\nb\nc\nd\ne\n", "a\nb\nc\nd\nE\n", "A\nb\nc\nd\nE\n", nil},
		{"same change on both sides", "a\nX\nc\nd\ne\n", "a\nX\nc\nd\ne\n", "a\nX\nc\nd\ne\n", nil},
		{"both insert at the end", base + "f\n", base + "g\n",
			base + "<<<<<<< disk\nf\n||||||| base\n=======\ng\n>>>>>>> proposal\n",
			[]Conflict{{Line0: 5, Line1: 11, Base0: 5, Base1: 5, Ours0: 5, Ours1: 6, Theirs0: 5, Theirs1: 6}}},
		{"overlapping edits", "a\nB\nc\nd\ne\n", "a\nb2\nc2\nd\ne\n",
			"a\n<<<<<<< disk\nB\nc\n||||||| base\nb\nc\n=======\nb2\nc2\n>>>>>>> proposal\nd\ne\n",
			[]Conflict{{Line0: 1, Line1: 11, Base0: 1, Base1: 3, Ours0: 1, Ours1: 3, Theirs0: 1, Theirs1: 3}}},
		{"touching edits conflict", "a\nB\nc\nd\ne\n", "a\nb\nC\nd\ne\n",
			"a\n<<<<<<< disk\nB\nc\n||||||| base\nb\nc\n=======\nb\nC\n>>>>>>> proposal\nd\ne\n",
			[]Conflict{{Line0: 1, Line1: 11, Base0: 1, Base1: 3, Ours0: 1, Ours1: 3, Theirs0: 1, Theirs1: 3}}},
		{"delete against edit", "a\nc\nd\ne\n", "a\nBB\nc\nd\ne\n",
			"a\n<<<<<<< disk\n||||||| base\nb\n=======\nBB\n>>>>>>> proposal\nc\nd\ne\n",
			[]Conflict{{Line0: 1, Line1: 7, Base0: 1, Base1: 2, Ours0: 1, Ours1: 1, Theirs0: 1, Theirs1: 2}}},
		{"missing final newline inside markers", "a\nb\nc\nd\nx", "a\nb\nc\nd\ny",
			"a\nb\nc\nd\n<<<<<<< disk\nx\n||||||| base\ne\n=======\ny\n>>>>>>> proposal\n",
			[]Conflict{{Line0: 4, Line1: 11, Base0: 4, Base1: 5, Ours0: 4, Ours1: 5, Theirs0: 4, Theirs1: 5}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Merge3(base, tt.ours, tt.theirs, MergeLabels{})
			if got.Text != tt.want || !slices.Equal(got.Conflicts, tt.conflicts) {
				t.Errorf("Merge3(%q, %q, %q) = %q, %+v; want %q, %+v", base, tt.ours, tt.theirs, got.Text, got.Conflicts, tt.want, tt.conflicts)
			}
		})
	}
}

func TestMerge3Labels(t *testing.T) {
	got := Merge3("x\n", "y\n", "z\n", MergeLabels{Ours: "HEAD", Base: "merged common ancestors", Theirs: "feature"}).Text
	want := "<<<<<<< HEAD\ny\n||||||| merged common ancestors\nx\n=======\nz\n>>>>>>> feature\n"
	if got != want {
		t.Errorf("Merge3 with labels = %q; want %q", got, want)
	}
}

func TestMerge3Golden(t *testing.T) {
	runGoldens(t, "merge_*.txt", "merged", func(s map[string]string) string {
		r := Merge3(s["base"], s["ours"], s["theirs"], MergeLabels{})
		var b strings.Builder
		b.WriteString(r.Text)
		for _, c := range r.Conflicts {
			fmt.Fprintf(&b, "# conflict: text %d:%d base %d:%d ours %d:%d theirs %d:%d\n",
				c.Line0, c.Line1, c.Base0, c.Base1, c.Ours0, c.Ours1, c.Theirs0, c.Theirs1)
		}
		return b.String()
	})
}

// conflictLines checks that every conflict's Line0:Line1 spans its markers.
func conflictLines(r MergeResult) error {
	lines := splitLines(r.Text)
	for _, c := range r.Conflicts {
		if c.Line0 < 0 || c.Line1 > len(lines) || c.Line0 >= c.Line1 {
			return fmt.Errorf("conflict %+v outside %d lines", c, len(lines))
		}
		if !strings.HasPrefix(lines[c.Line0], "<<<<<<< ") || !strings.HasPrefix(lines[c.Line1-1], ">>>>>>> ") {
			return fmt.Errorf("conflict %+v does not span its markers: %q … %q", c, lines[c.Line0], lines[c.Line1-1])
		}
	}
	return nil
}

func FuzzMerge3(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\n", "a\nb\nC")
	f.Add("", "x\n", "y\n")
	f.Fuzz(func(t *testing.T, base, ours, theirs string) {
		for _, tt := range []struct{ o, th, want string }{
			{ours, ours, ours}, // identical sides
			{base, theirs, theirs},
			{ours, base, ours},
		} {
			if r := Merge3(base, tt.o, tt.th, MergeLabels{}); r.Text != tt.want || len(r.Conflicts) > 0 {
				t.Fatalf("Merge3(%q, %q, %q) = %q, %v; want %q, no conflicts", base, tt.o, tt.th, r.Text, r.Conflicts, tt.want)
			}
		}
		if err := conflictLines(Merge3(base, ours, theirs, MergeLabels{})); err != nil {
			t.Fatalf("Merge3(%q, %q, %q): %v", base, ours, theirs, err)
		}
	})
}
