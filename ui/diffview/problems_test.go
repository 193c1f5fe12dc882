package diffview

import (
	"image/color"
	"testing"
)

// problemColour returns the colour of the problem marker drawn on the row
// of right-side line b, or nil if it has none.
func problemColour(v *DiffView, b int) color.Color {
	r := newDiffRow(&v.parts)
	r.id = v.model.RowOfB(b)
	r.build()
	for _, o := range r.rects[:r.nRect] {
		if o.FillColor == problemError || o.FillColor == problemWarning {
			return o.FillColor
		}
	}
	return nil
}

func TestProblemMarkers(t *testing.T) {
	v, _ := newTestView(t, 900, 300)
	v.SetTexts("a.go", "package a\n\nfunc A() {}\n", "package a\n\nfunc A() {\n\tif {\n\t}\n}\n\nvar x = 1\n")
	v.Marks().SetProblems(map[int]LineProblem{
		3: {Message: "gofmt: missing condition in if statement"},
		7: {Message: "vet: x declared and not used", Warning: true},
	})
	for _, c := range []struct {
		b    int
		want color.Color
	}{{3, problemError}, {7, problemWarning}, {0, nil}, {4, nil}} {
		if got := problemColour(v, c.b); got != c.want {
			t.Errorf("marker on line %d = %v; want %v", c.b+1, got, c.want)
		}
	}
	if p, ok := v.Marks().Problem(3); !ok || p.Message != "gofmt: missing condition in if statement" {
		t.Errorf("Problem(3) = %+v, %v", p, ok)
	}
	v.SetTexts("a.go", "a\n", "b\n")
	if got := problemColour(v, 0); got != nil {
		t.Errorf("after SetTexts a marker is left: %v", got)
	}
}
