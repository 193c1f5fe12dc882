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

// TestMultiEditEarlierEditChangedIt: an edit whose old_string matches the
// original file but no longer matches after the earlier edits of the same
// call fails naming those edits, as Claude Code says "previous edits may
// have changed it".
func TestMultiEditEarlierEditChangedIt(t *testing.T) {
	tests := []struct {
		name      string
		original  string
		edits     []Replace
		kind      Failure
		block     int
		changedBy []int
		hint      string // a part of the hint
	}{
		{"removed by edit 1", "one\ntwo\nthree\n", []Replace{{Old: "two", New: "2"}, {Old: "two\nthree", New: "x"}},
			FailNoMatch, 2, []int{1}, "edit 2's old_string matches the original file at lines 2-3, but edit 1 changed that text first: previous edits may have changed it"},
		{"changed by the second of three", "a\nb\nc\nd\n", []Replace{{Old: "a", New: "A"}, {Old: "c", New: "C"}, {Old: "c\nd", New: "x"}},
			FailNoMatch, 3, []int{2}, "but edit 2 changed that text first"},
		{"changed by two edits", "a\nb\nc\n", []Replace{{Old: "a", New: "A"}, {Old: "c", New: "C"}, {Old: "a\nb\nc", New: "x"}},
			FailNoMatch, 3, []int{1, 2}, "but edits 1 and 2 changed that text first"},
		{"a copy inserted by edit 1", "a\nb\n", []Replace{{Old: "b", New: "a"}, {Old: "a", New: "c"}},
			FailCount, 2, []int{1}, "edit 2's old_string occurs once in the original file, but 2 times after edit 1: previous edits may have changed it"},
		{"not in the original either", "a\nb\n", []Replace{{Old: "a", New: "A"}, {Old: "zzz", New: "x"}},
			FailNoMatch, 2, nil, "old_string is not in the file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Apply(tt.original, MultiEdit{Edits: tt.edits})
			e := matchErr(t, err)
			if e.Kind != tt.kind || e.Block != tt.block || fmt.Sprint(e.ChangedBy) != fmt.Sprint(tt.changedBy) || !strings.Contains(e.Hint, tt.hint) {
				t.Errorf("Apply(%q, %+v) = %s block %d changedBy %v hint %q; want %s block %d changedBy %v hint containing %q",
					tt.original, tt.edits, e.Kind, e.Block, e.ChangedBy, e.Hint, tt.kind, tt.block, tt.changedBy, tt.hint)
			}
		})
	}
}

func TestMultiEditCreate(t *testing.T) {
	edits := []Replace{{Old: "", New: "a\nb\n"}, {Old: "b", New: "B"}}
	res, err := Create(MultiEdit{Edits: edits})
	if err != nil || res.Content != "a\nB\n" {
		t.Fatalf("Create(%+v) = %q, %v; want %q", edits, res.Content, err, "a\nB\n")
	}
	edits = append(edits, Replace{Old: "a\nb", New: "x"})
	_, err = Create(MultiEdit{Edits: edits})
	if e := matchErr(t, err); e.Block != 3 || fmt.Sprint(e.ChangedBy) != "[2]" || len(e.Applied) != 2 || !strings.Contains(e.Hint, "matches the file as edit 1 created it at lines 1-2, but edit 2 changed") {
		t.Errorf("Create(%+v) error = %+v; want block 3 changed by edit 2", edits, e)
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
