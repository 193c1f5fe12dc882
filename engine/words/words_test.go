package words

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestWordSpans(t *testing.T) {
	tests := []struct {
		a, b     string
		del, ins []Span
	}{
		{"same", "same", nil, nil},
		{"", "new", nil, []Span{{0, 3}}},
		{"foo(a, b)", "foo(a, c)", []Span{{7, 8}}, []Span{{7, 8}}},
		{"x := count + 1", "x := count + 2", []Span{{13, 14}}, []Span{{13, 14}}},
		{"return a + b", "return c - d", []Span{{7, 12}}, []Span{{7, 12}}},
		// An operator is one token: "!=" became "==".
		{"if err != nil {", "if err == nil {", []Span{{7, 9}}, []Span{{7, 9}}},
		// Semantic cleanup: the one space between two changes joins them.
		{"x := f(a) + g(b)", "x := h(a) - g(c)", []Span{{5, 6}, {10, 11}, {14, 15}}, []Span{{5, 6}, {10, 11}, {14, 15}}},
		{"return nil", "return nil, err", nil, []Span{{10, 15}}},
		{"foo()", "foo(x)", nil, []Span{{4, 5}}},
		{"say(héllo)", "say(hallo)", []Span{{4, 10}}, []Span{{4, 9}}},
		{"a  b", "a b", []Span{{1, 3}}, []Span{{1, 2}}},
		{"f(x)", "f(x, y)", nil, []Span{{3, 6}}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%q→%q", tt.a, tt.b), func(t *testing.T) {
			del, ins := Spans(tt.a, tt.b)
			if !slices.Equal(del, tt.del) || !slices.Equal(ins, tt.ins) {
				t.Errorf("Spans(%q, %q) = %v, %v; want %v, %v", tt.a, tt.b, del, ins, tt.del, tt.ins)
			}
		})
	}
}

// TestWordSpansManyTokens checks lines beyond the ASCII runes (more than
// 128 distinct tokens, diffed without the semantic cleanup) and beyond
// maxSpanTokens (one span from the first to the last differing token).
func TestWordSpansManyTokens(t *testing.T) {
	words := func(n int, change map[int]string) string {
		w := make([]string, n)
		for i := range w {
			w[i] = fmt.Sprintf("w%d", i)
			if c, ok := change[i]; ok {
				w[i] = c
			}
		}
		return strings.Join(w, " ")
	}
	tests := []struct {
		name     string
		a, b     string
		del, ins []Span
	}{
		// "w0 w1 … w99 w100 …": word 100 starts at byte 10·3+90·4 = 390.
		{"150 distinct words", words(150, nil), words(150, map[int]string{100: "changed"}), []Span{{390, 394}}, []Span{{390, 397}}},
		// Past the token table's 192 slots: a map takes over.
		{"300 distinct words", words(300, nil), words(300, map[int]string{100: "changed"}), []Span{{390, 394}}, []Span{{390, 397}}},
		// 1,001 words and 1,000 spaces a line: past maxSpanTokens together.
		{"2,001 tokens a line", words(1001, map[int]string{0: "x", 1000: "y"}), words(1001, map[int]string{0: "z", 1000: "q"}),
			[]Span{{0, len(words(1001, map[int]string{0: "x", 1000: "y"}))}}, []Span{{0, len(words(1001, map[int]string{0: "z", 1000: "q"}))}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			del, ins := Spans(tt.a, tt.b)
			if !slices.Equal(del, tt.del) || !slices.Equal(ins, tt.ins) {
				t.Errorf("Spans = %v, %v; want %v, %v", del, ins, tt.del, tt.ins)
			}
		})
	}
}

// unchangedText returns s without the spans.
func unchangedText(s string, spans []Span) string {
	out, at := "", 0
	for _, sp := range spans {
		out += s[at:sp.Start]
		at = sp.End
	}
	return out + s[at:]
}

func FuzzWordSpans(f *testing.F) {
	f.Add("foo(a, b)", "foo(a, c)")
	f.Add("héllo wörld", "hello world")
	f.Add("", "x")
	f.Fuzz(func(t *testing.T, a, b string) {
		del, ins := Spans(a, b)
		for _, spans := range [][]Span{del, ins} {
			for i, sp := range spans {
				if sp.Start >= sp.End || i > 0 && sp.Start <= spans[i-1].End {
					t.Fatalf("Spans(%q, %q) = %v, %v: spans not increasing and non-empty", a, b, del, ins)
				}
			}
		}
		if len(del) > 0 && del[len(del)-1].End > len(a) || len(ins) > 0 && ins[len(ins)-1].End > len(b) {
			t.Fatalf("Spans(%q, %q) = %v, %v: span past the end", a, b, del, ins)
		}
		// What is left unmarked is common to both lines, apart from the
		// whitespace that joins neighbouring spans.
		ua, ub := unchangedText(a, del), unchangedText(b, ins)
		if strings.Join(strings.Fields(ua), "") != strings.Join(strings.Fields(ub), "") {
			t.Fatalf("Spans(%q, %q) = %v, %v leaves %q and %q unmarked", a, b, del, ins, ua, ub)
		}
		if a == b && (del != nil || ins != nil) {
			t.Fatalf("Spans(%q, %q) = %v, %v; want no spans", a, b, del, ins)
		}
		if (del == nil && ins == nil) && a != b {
			t.Fatalf("Spans(%q, %q) found no change", a, b)
		}
	})
}

func TestUnchangedText(t *testing.T) {
	// The parts Spans leaves unmarked are the same in both lines, up
	// to the whitespace that joins neighbouring spans.
	tests := [][2]string{
		{"foo(a, b)", "foo(a, c)"},
		{"for i := 0; i < n; i++ {", "for i := range n {"},
		{"\tlog.Printf(\"x=%d\", x)", "\tslog.Info(\"x\", \"x\", x)"},
	}
	for _, tt := range tests {
		del, ins := Spans(tt[0], tt[1])
		ua, ub := unchangedText(tt[0], del), unchangedText(tt[1], ins)
		if !slices.Equal(strings.Fields(ua), strings.Fields(ub)) {
			t.Errorf("Spans(%q, %q) leaves %q and %q unmarked; want the same words", tt[0], tt[1], ua, ub)
		}
	}
}

func TestPairLines(t *testing.T) {
	tests := []struct {
		name     string
		del, ins []string
		want     [][2]int
	}{
		{"equal counts pair in order", []string{"a\n", "b\n"}, []string{"x\n", "y\n"}, [][2]int{{0, 0}, {1, 1}}},
		{"added line between", []string{"foo(1)\n", "bar(2)\n"}, []string{"foo(1, x)\n", "fresh line here\n", "bar(2, y)\n"}, [][2]int{{0, 0}, {1, 2}}},
		{"unrelated lines stay unpaired", []string{"alpha beta\n"}, []string{"1234567\n", "zzzz\n"}, nil},
		{"best match wins", []string{"\treturn nil, err\n"}, []string{"\tif err != nil {\n", "\t\treturn nil, fmt.Errorf(\"x: %w\", err)\n", "\t}\n"}, [][2]int{{0, 1}}},
		{"nothing removed", nil, []string{"x\n"}, [][2]int{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := PairLines(tt.del, tt.ins)
			if len(got) != len(tt.want) || len(got) > 0 && !slices.Equal(got, tt.want) {
				t.Errorf("PairLines(%q, %q) = %v; want %v", tt.del, tt.ins, got, tt.want)
			}
		})
	}
}
