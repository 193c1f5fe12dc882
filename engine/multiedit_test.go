package engine

import (
	"fmt"
	"strings"
	"testing"
)

func TestMultiEdit(t *testing.T) {
	tests := []struct {
		name     string
		original string
		edits    []Replace
		want     string
		matches  []Match
	}{
		{"independent edits", "a\nb\nc\n",
			[]Replace{{Old: "a", New: "A"}, {Old: "c", New: "C"}}, "A\nb\nC\n",
			[]Match{{Block: 1, Strategy: StrategyExact, StartLine: 1, EndLine: 1}, {Block: 2, Strategy: StrategyExact, StartLine: 3, EndLine: 3}}},
		{"later lines keep original numbers", "a\nb\nc\nd\n",
			[]Replace{{Old: "a\n", New: "a\nx\ny\n"}, {Old: "d", New: "D"}}, "a\nx\ny\nb\nc\nD\n",
			[]Match{{Block: 1, Strategy: StrategyExact, StartLine: 1, EndLine: 1}, {Block: 2, Strategy: StrategyExact, StartLine: 4, EndLine: 4}}},
		{"lines removed before", "a\nb\nc\nd\n",
			[]Replace{{Old: "a\nb\n", New: ""}, {Old: "c", New: "C"}}, "C\nd\n",
			[]Match{{Block: 1, Strategy: StrategyExact, StartLine: 1, EndLine: 2}, {Block: 2, Strategy: StrategyExact, StartLine: 3, EndLine: 3}}},
		{"edit of inserted text", "a\nb\nc\n",
			[]Replace{{Old: "b", New: "b1\nb2\nb3"}, {Old: "b2", New: "B2"}}, "a\nb1\nB2\nb3\nc\n",
			// b2 was inserted after original line 2: a pure insertion there.
			[]Match{{Block: 1, Strategy: StrategyExact, StartLine: 2, EndLine: 2}, {Block: 2, Strategy: StrategyExact, StartLine: 3, EndLine: 2}}},
		{"replace all", "x\ny\nx\n",
			[]Replace{{Old: "x", New: "z", ReplaceAll: true}, {Old: "y", New: "Y"}}, "z\nY\nz\n",
			[]Match{{Block: 1, Strategy: StrategyExact, StartLine: 1, EndLine: 1}, {Block: 1, Strategy: StrategyExact, StartLine: 3, EndLine: 3}, {Block: 2, Strategy: StrategyExact, StartLine: 2, EndLine: 2}}},
		{"CRLF file", "a\r\nb\r\n",
			[]Replace{{Old: "a", New: "a\nnew"}, {Old: "b", New: "B"}}, "a\r\nnew\r\nB\r\n",
			[]Match{{Block: 1, Strategy: StrategyExact, StartLine: 1, EndLine: 1}, {Block: 2, Strategy: StrategyExact, StartLine: 2, EndLine: 2}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Apply(tt.original, MultiEdit{Edits: tt.edits})
			if err != nil {
				t.Fatalf("Apply(%q, %+v) failed: %v", tt.original, tt.edits, err)
			}
			if res.Content != tt.want {
				t.Errorf("Apply(%q, %+v) = %q; want %q", tt.original, tt.edits, res.Content, tt.want)
			}
			if fmt.Sprint(locations(res.Matches)) != fmt.Sprint(tt.matches) {
				t.Errorf("Apply(%q, %+v) matches = %v; want %v", tt.original, tt.edits, res.Matches, tt.matches)
			}
		})
	}
}

func TestMultiEditFailureIsAtomic(t *testing.T) {
	original := "one\ntwo\nthree\nfour\n"
	edits := []Replace{
		{Old: "one\n", New: "zero\none\n"},
		{Old: "thre", New: "3"},
		{Old: "foor", New: "4"},
	}
	res, err := Apply(original, MultiEdit{Edits: edits})
	if res.Content != "" {
		t.Errorf("Apply gave content %q on failure; want none", res.Content)
	}
	e := matchErr(t, err)
	if e.Block != 3 || e.Kind != FailNoMatch || e.Format != FormatMultiEdit {
		t.Fatalf("error %v; want block 3, no-match, multi-edit", err)
	}
	wantApplied := []Match{{Block: 1, Strategy: StrategyExact, StartLine: 1, EndLine: 1}, {Block: 2, Strategy: StrategyExact, StartLine: 3, EndLine: 3}}
	if fmt.Sprint(locations(e.Applied)) != fmt.Sprint(wantApplied) {
		t.Errorf("Applied = %v; want %v", e.Applied, wantApplied)
	}
	// "four" is working line 5 but original line 4.
	if len(e.Closest) == 0 || e.Closest[0].StartLine != 4 || e.Closest[0].Lines[0] != "four" {
		t.Errorf("Closest = %+v; want original line 4 (four)", e.Closest)
	}
}

func TestMultiEditCreate(t *testing.T) {
	edits := []Replace{{Old: "", New: "a\nb\n"}, {Old: "b", New: "B"}}
	res, err := Create(MultiEdit{Edits: edits})
	if err != nil || res.Content != "a\nB\n" {
		t.Fatalf("Create(%+v) = %q, %v; want %q", edits, res.Content, err, "a\nB\n")
	}
	_, err = Apply("x", MultiEdit{Edits: []Replace{{Old: "x", New: "y"}, {Old: "", New: "z"}}})
	if e := matchErr(t, err); e.Kind != FailFileExists || e.Block != 2 {
		t.Errorf("an empty old_string after the first edit: %v; want file-exists at block 2", err)
	}
}

// FuzzMultiEdit checks that MultiEdit never panics and reports matches
// within the original's lines.
func FuzzMultiEdit(f *testing.F) {
	f.Add("a\nb\nc\n", "a\n", "x\ny\n", "c", "z")
	f.Add("abc", "b", "", "ac", "q")
	f.Fuzz(func(t *testing.T, original, old1, new1, old2, new2 string) {
		res, err := Apply(original, MultiEdit{Edits: []Replace{{Old: old1, New: new1, ReplaceAll: true}, {Old: old2, New: new2, ReplaceAll: true}}})
		if err != nil {
			return
		}
		lines := strings.Count(toLF(original), "\n") + 1
		for _, m := range res.Matches {
			if m.StartLine < 1 || m.StartLine > lines+1 || m.EndLine < m.StartLine-1 || m.EndLine > lines {
				t.Fatalf("Apply(%q) match %+v outside the original's %d lines", original, m, lines)
			}
		}
	})
}
