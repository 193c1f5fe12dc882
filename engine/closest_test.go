package engine

import "testing"

func TestClosestLines(t *testing.T) {
	text := "alpha\nbeta\ngamma\ndelta\nepsilon\n"
	tests := []struct {
		name       string
		search     string
		start, end int
	}{
		{"one line differs", "beta\ngamma\ndelta!\n", 2, 4},
		{"typo in a single line", "epsilom", 5, 5},
		{"indentation differs", "  gamma\n  delta", 3, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := closestLines(text, tt.search, 3)
			if len(cs) == 0 || cs[0].StartLine != tt.start || cs[0].EndLine != tt.end {
				t.Fatalf("closestLines(%q) = %+v; want lines %d-%d first", tt.search, cs, tt.start, tt.end)
			}
		})
	}
	if cs := closestLines(text, "zzzzzzzz\nqqqqqqqq", 3); len(cs) != 0 {
		t.Errorf("closestLines of unrelated text = %+v; want none", cs)
	}
}

func TestLevenshtein(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "", 3}, {"kitten", "sitting", 3}, {"héllo", "hello", 1}, {"flaw", "lawn", 2},
	}
	for _, tt := range tests {
		if got := levenshtein([]rune(tt.a), []rune(tt.b)); got != tt.want {
			t.Errorf("levenshtein(%q, %q) = %d; want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
