package engine

import (
	"errors"
	"strings"
	"testing"
)

func TestApplyAt(t *testing.T) {
	file := "func a() {\n\tx := 1\n\ty := 2\n}\n\nfunc b() {\n\tx := 1\n\ty := 2\n}\n"
	tests := []struct {
		name  string
		file  string
		edit  Edit
		at    map[int]Region
		want  string
		match Match // Block, StartLine, EndLine checked
	}{
		{
			name:  "search-replace no match, re-indented to the chosen lines",
			file:  file,
			edit:  SearchReplace{Text: "------- SEARCH\n\t\ty := 3\n=======\n\t\ty := 4\n\t\tz := 5\n+++++++ REPLACE\n"},
			at:    map[int]Region{1: {3, 3}},
			want:  "func a() {\n\tx := 1\n\ty := 4\n\tz := 5\n}\n\nfunc b() {\n\tx := 1\n\ty := 2\n}\n",
			match: Match{Block: 1, StartLine: 3, EndLine: 3},
		},
		{
			name:  "search-replace second block placed, first matched",
			file:  file,
			edit:  SearchReplace{Text: "------- SEARCH\nfunc a() {\n=======\nfunc A() {\n+++++++ REPLACE\n------- SEARCH\n\tx := 9\n=======\n\tx := 10\n+++++++ REPLACE\n"},
			at:    map[int]Region{2: {7, 7}},
			want:  "func A() {\n\tx := 1\n\ty := 2\n}\n\nfunc b() {\n\tx := 10\n\ty := 2\n}\n",
			match: Match{Block: 2, StartLine: 7, EndLine: 7},
		},
		{
			name:  "edit ambiguous, the second place chosen",
			file:  file,
			edit:  Replace{Old: "\tx := 1\n\ty := 2\n", New: "\tx := 3\n"},
			at:    map[int]Region{1: {7, 8}},
			want:  "func a() {\n\tx := 1\n\ty := 2\n}\n\nfunc b() {\n\tx := 3\n}\n",
			match: Match{Block: 1, StartLine: 7, EndLine: 8},
		},
		{
			name:  "smart-edit, insertion before a line",
			file:  file,
			edit:  SmartEdit{Old: "nothing like it", New: "// b does b\n"},
			at:    map[int]Region{1: {6, 5}},
			want:  "func a() {\n\tx := 1\n\ty := 2\n}\n\n// b does b\nfunc b() {\n\tx := 1\n\ty := 2\n}\n",
			match: Match{Block: 1, StartLine: 6, EndLine: 5},
		},
		{
			name:  "last line of a file without a final newline",
			file:  "a\nb",
			edit:  Replace{Old: "c", New: "B\nC"},
			at:    map[int]Region{1: {2, 2}},
			want:  "a\nB\nC",
			match: Match{Block: 1, StartLine: 2, EndLine: 2},
		},
		{
			name: "multi-edit: lines of the original, after an edit that added lines",
			file: file,
			edit: MultiEdit{Edits: []Replace{
				{Old: "func a() {\n", New: "// a\n// does a\nfunc a() {\n"},
				{Old: "\ty := 9", New: "\ty := 10"},
			}},
			at:    map[int]Region{2: {8, 8}},
			want:  "// a\n// does a\nfunc a() {\n\tx := 1\n\ty := 2\n}\n\nfunc b() {\n\tx := 1\n\ty := 10\n}\n",
			match: Match{Block: 2, StartLine: 8, EndLine: 8},
		},
		{
			name:  "CRLF file keeps its line endings",
			file:  "a\r\nb\r\nc\r\n",
			edit:  Replace{Old: "bb", New: "x\ny"},
			at:    map[int]Region{1: {2, 2}},
			want:  "a\r\nx\r\ny\r\nc\r\n",
			match: Match{Block: 1, StartLine: 2, EndLine: 2},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := ApplyAt(tt.file, tt.edit, tt.at)
			if err != nil {
				t.Fatalf("ApplyAt: %v", err)
			}
			if res.Content != tt.want {
				t.Errorf("ApplyAt content = %q; want %q", res.Content, tt.want)
			}
			var got *Match
			for i := range res.Matches {
				if res.Matches[i].Block == tt.match.Block {
					got = &res.Matches[i]
				}
			}
			if got == nil {
				t.Fatalf("no match for block %d in %+v", tt.match.Block, res.Matches)
			}
			if got.Strategy != StrategyPersonChosen || got.StartLine != tt.match.StartLine || got.EndLine != tt.match.EndLine || !got.Loose() || got.Candidates != 1 {
				t.Errorf("match = %+v; want person-chosen, loose, lines %d-%d", *got, tt.match.StartLine, tt.match.EndLine)
			}
			if got.Searched == "" {
				t.Errorf("match.Searched is empty; a person-chosen match discloses the agent's text")
			}
		})
	}
}

func TestApplyAtSimilarity(t *testing.T) {
	res, err := ApplyAt("one\ntwo\nthree\n", Replace{Old: "two!\nthree", New: "2\n3"}, map[int]Region{1: {2, 3}})
	if err != nil {
		t.Fatal(err)
	}
	if s := res.Matches[0].Similarity; s <= 0.5 || s >= 1 {
		t.Errorf("similarity = %v; want between 0.5 and 1 for near-equal lines", s)
	}
	if got, want := res.Matches[0].How(), "person-chosen"; !strings.HasPrefix(got, want) || !strings.Contains(got, "lines 2–3") {
		t.Errorf("How() = %q; want %q … lines 2–3", got, want)
	}
}

func TestApplyAtErrors(t *testing.T) {
	file := "a\nb\nc\n"
	tests := []struct {
		name string
		file string
		edit Edit
		at   map[int]Region
		want string
	}{
		{"past the end", file, Replace{Old: "x", New: "y"}, map[int]Region{1: {3, 5}}, "lines 3–5 are past the end of the file, which has 3 lines"},
		{"backwards", file, Replace{Old: "x", New: "y"}, map[int]Region{1: {3, 1}}, "is not a range of lines"},
		{"zero", file, Replace{Old: "x", New: "y"}, map[int]Region{1: {0, 1}}, "is not a range of lines"},
		{"no such block", file, SearchReplace{Text: "------- SEARCH\nb\n=======\nB\n+++++++ REPLACE\n"}, map[int]Region{2: {1, 1}}, "block 2: the edit has 1 block(s)"},
		{"write", file, Write{Content: "x"}, map[int]Region{1: {1, 1}}, "this format has no blocks to place"},
		{"nothing placed", file, Replace{Old: "x", New: "y"}, nil, "no block was placed"},
		{"insert after a last line without newline", "a\nb", Replace{Old: "x", New: "y"}, map[int]Region{1: {3, 2}}, "no final newline"},
		{"overlapping blocks", file, SearchReplace{Text: "------- SEARCH\nb\n=======\nB\n+++++++ REPLACE\n------- SEARCH\nzz\n=======\nZ\n+++++++ REPLACE\n"}, map[int]Region{2: {1, 2}}, "change the same lines"},
		{"multi-edit past the end", file, MultiEdit{Edits: []Replace{{Old: "x", New: "y"}}}, map[int]Region{1: {4, 9}}, "past the end"},
		{"multi-edit lines an earlier edit changed", file, MultiEdit{Edits: []Replace{{Old: "b", New: "B"}, {Old: "x", New: "y"}}}, map[int]Region{2: {2, 2}}, "changed by an earlier edit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ApplyAt(tt.file, tt.edit, tt.at)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("ApplyAt error = %v; want one containing %q", err, tt.want)
			}
			var pe *PlaceError
			var me *MatchError
			if !errors.As(err, &pe) && !errors.As(err, &me) {
				t.Errorf("error %T; want *PlaceError or *MatchError", err)
			}
		})
	}
}
