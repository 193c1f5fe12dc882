package engine

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestLineSimilarity(t *testing.T) {
	tests := []struct {
		a, b string
		want float64
	}{
		{"x := 1", "x := 1", 1},
		{"", "", 1},
		{"abcd", "wxyz", 0},
		{"const result = f()", "const results = f()", 18.0 / 19},
		{`console.log("hello")`, `console.log("wrong")`, 15.0 / 20},
		{"aaa", "aaaa", 3.0 / 4},
	}
	for _, tt := range tests {
		t.Run(tt.a+"|"+tt.b, func(t *testing.T) {
			if got := lineSimilarity(tt.a, tt.b); got != tt.want {
				t.Errorf("lineSimilarity(%q, %q) = %v; want %v", tt.a, tt.b, got, tt.want)
			}
		})
	}
}

func TestIndentShiftApply(t *testing.T) {
	tests := []struct {
		sh         indentShift
		line, want string
	}{
		{indentShift{add: "\t"}, "x", "\tx"},
		{indentShift{add: "\t"}, "  ", "  "},
		{indentShift{del: "    "}, "      x", "  x"},
		{indentShift{del: "    "}, "  x", "x"},
		{indentShift{del: "\t"}, "  x", "  x"},
		{indentShift{}, " x", " x"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%+v/%q", tt.sh, tt.line), func(t *testing.T) {
			if got := tt.sh.apply(tt.line); got != tt.want {
				t.Errorf("%+v.apply(%q) = %q; want %q", tt.sh, tt.line, got, tt.want)
			}
		})
	}
}

func TestIndentShiftDetection(t *testing.T) {
	tests := []struct {
		file, search string
		want         indentShift
	}{
		{"\tif x {\n\t\ty()\n\t}\n", "if x {\n\ty()\n}\n", indentShift{add: "\t"}},
		{"if x {\n  y()\n}\n", "    if x {\n      y()\n    }\n", indentShift{del: "    "}},
		{"\ta\n  b\n", "a\nb\n", indentShift{}},
		{"a\n\n\tb\n", "a\n\nb\n", indentShift{}},
	}
	for _, tt := range tests {
		t.Run(tt.search, func(t *testing.T) {
			m := newLineMatcher(tt.file)
			m.prepare()
			q := newSearchLines(strings.Split(strings.TrimSuffix(tt.search, "\n"), "\n"))
			if got := m.indentShift(0, q); got != tt.want {
				t.Errorf("indentShift(%q, %q) = %+v; want %+v", tt.file, tt.search, got, tt.want)
			}
		})
	}
}

func TestCutRooLineNumber(t *testing.T) {
	tests := []struct {
		line, rest string
		n          int
		ok         bool
	}{
		{"12 | x := 1", "x := 1", 12, true},
		{"  3 |     indented", "    indented", 3, true},
		{"4 |", "", 4, true},
		{"5 || x", "5 || x", 0, false},
		{"6| x", "6| x", 0, false},
		{"x | y", "x | y", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			rest, n, ok := cutRooLineNumber(tt.line)
			if rest != tt.rest || n != tt.n || ok != tt.ok {
				t.Errorf("cutRooLineNumber(%q) = %q, %d, %v; want %q, %d, %v", tt.line, rest, n, ok, tt.rest, tt.n, tt.ok)
			}
		})
	}
}

func TestSeqOccurrences(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		seq := make([]uint64, r.IntN(40))
		for i := range seq {
			seq[i] = uint64(r.IntN(3))
		}
		pat := make([]uint64, 1+r.IntN(4))
		for i := range pat {
			pat[i] = uint64(r.IntN(3))
		}
		var got, want []int
		seqOccurrences(seq, pat, func(i int) bool { got = append(got, i); return true })
		for i := 0; i+len(pat) <= len(seq); i++ {
			if fmt.Sprint(seq[i:i+len(pat)]) == fmt.Sprint(pat) {
				want = append(want, i)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("seqOccurrences(%v, %v) = %v; want %v", seq, pat, got, want)
		}
	}
}

// TestClosestOnLargeFile exercises the voting path (too many windows to
// score them all).
func TestClosestOnLargeFile(t *testing.T) {
	file := benchGoFile(3000)
	lines := strings.Split(file, "\n")
	search := append([]string(nil), lines[1200:1220]...)
	search[19] = "\treturn changed, nil"
	search[5] = "\tfor j := 0; j < 99; j++ {"
	m := newLineMatcher(file)
	got := m.closest(newSearchLines(search))
	if len(got) == 0 || got[0].StartLine != 1201 || got[0].EndLine != 1220 || got[0].Similarity < 0.9 {
		t.Errorf("closest = %+v; want lines 1201-1220 first with similarity ≥ 0.9", got)
	}
	for i := 1; i < len(got); i++ {
		if got[i].Similarity > got[i-1].Similarity {
			t.Errorf("closest not sorted: %v before %v", got[i-1].Similarity, got[i].Similarity)
		}
	}
}

// TestLocateAdversarialTakesFirst: a file of one repeated line fits a
// block-anchor search at every window; the first is taken, and the
// non-overlapping windows are counted, in one pass.
func TestLocateAdversarialTakesFirst(t *testing.T) {
	file := strings.Repeat("\t}\n", 2000)
	search := strings.Split(strings.Repeat("}\n", 10), "\n")[:10]
	search[4] = "other"
	m := newLineMatcher(file)
	loc, err := m.locate(newSearchLines(search), matchOptions{})
	if err != nil || loc.strategy != StrategyBlockAnchor || loc.first != 0 || loc.last != 9 || loc.candidates != 200 || loc.similarity != 0.9 {
		t.Errorf("locate(10 braces with one other line) = %+v, %v; want block-anchor at lines 0-9, 200 candidates, similarity 0.9", loc, err)
	}
}
