package engine

import (
	"strings"
	"testing"
)

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

// FuzzClosestLines checks that closestLines never panics and that every
// candidate holds the text's real lines at its line numbers.
func FuzzClosestLines(f *testing.F) {
	f.Add("alpha\nbeta\ngamma\n", "beta\ngamme")
	f.Add("}\n}\n}\n", "}\n}\nx\n")
	f.Add("a", "b\nc\nd")
	f.Fuzz(func(t *testing.T, text, search string) {
		lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		for _, c := range closestLines(text, search, 3) {
			if c.StartLine < 1 || c.EndLine > len(lines) || c.EndLine-c.StartLine+1 != len(c.Lines) {
				t.Fatalf("closestLines(%q, %q) gave %+v for %d lines", text, search, c, len(lines))
			}
			for i, l := range c.Lines {
				if lines[c.StartLine-1+i] != l {
					t.Fatalf("closestLines(%q, %q): line %d is %q, not %q", text, search, c.StartLine+i, l, lines[c.StartLine-1+i])
				}
			}
			if c.Similarity < minSimilarity || c.Similarity > 1 {
				t.Fatalf("closestLines(%q, %q) similarity %v", text, search, c.Similarity)
			}
		}
	})
}
