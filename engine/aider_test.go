package engine

import (
	"errors"
	"maps"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestParseEditBlocks(t *testing.T) {
	tests := []struct {
		name, response string
		valid          []string
		want           []FileBlock
	}{
		{
			name:     "filename before fence",
			response: "Change:\n\nsrc/a.go\n```go\n<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n```\n",
			want:     []FileBlock{{Path: "src/a.go", Search: "old\n", Replace: "new\n", Line: 5}},
		},
		{
			name:     "second block reuses the filename",
			response: "a.go\n<<<<<<< SEARCH\n1\n=======\n2\n>>>>>>> REPLACE\n\n<<<<<<< SEARCH\n3\n=======\n4\n>>>>>>> REPLACE\n",
			want: []FileBlock{
				{Path: "a.go", Search: "1\n", Replace: "2\n", Line: 2},
				{Path: "a.go", Search: "3\n", Replace: "4\n", Line: 8},
			},
		},
		{
			name:     "block right after a REPLACE marker reuses the filename", // aider names it ">>>>>>> REPLACE"
			response: "a.go\n<<<<<<< SEARCH\n1\n=======\n2\n>>>>>>> REPLACE\n<<<<<<< SEARCH\n3\n=======\n4\n>>>>>>> REPLACE\n",
			want: []FileBlock{
				{Path: "a.go", Search: "1\n", Replace: "2\n", Line: 2},
				{Path: "a.go", Search: "3\n", Replace: "4\n", Line: 7},
			},
		},
		{
			name:     "basename resolved against valid names",
			response: "file3.py\n```\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n```\n",
			valid:    []string{"dir/file3.py"},
			want:     []FileBlock{{Path: "dir/file3.py", Search: "x\n", Replace: "y\n", Line: 3}},
		},
		{
			name:     "close match resolved against valid names",
			response: "**main_go.go**\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n",
			valid:    []string{"mains.go", "main.go"}, // ratios 0.78 and 0.82
			want:     []FileBlock{{Path: "main.go", Search: "x\n", Replace: "y\n", Line: 2}},
		},
		{
			name:     "empty SEARCH takes the name as written",
			response: "file3.py\n<<<<<<< SEARCH\n=======\nnew\n>>>>>>> REPLACE\n",
			valid:    []string{"dir/file3.py"},
			want:     []FileBlock{{Path: "file3.py", Replace: "new\n", Line: 2}},
		},
		{
			name:     "shell block",
			response: "Run:\n```bash\ngo test ./...\n```\n",
			want:     []FileBlock{{Shell: true, Commands: "go test ./...\n", Line: 2}},
		},
		{
			name:     "csharp fence before a block is no shell block",
			response: "```csharp\nProgram.cs\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```\n",
			want:     []FileBlock{{Path: "Program.cs", Search: "a\n", Replace: "b\n", Line: 3}},
		},
		{
			name:     "CRLF response keeps its line endings",
			response: "a.txt\r\n<<<<<<< SEARCH\r\none\r\n=======\r\ntwo\r\n>>>>>>> REPLACE\r\n",
			want:     []FileBlock{{Path: "a.txt", Search: "one\r\n", Replace: "two\r\n", Line: 2}},
		},
		{
			name:     "marker lengths 5 and 9",
			response: "a.txt\n<<<<< SEARCH>\none\n=========\ntwo\n>>>>>>>>> REPLACE\n",
			want:     []FileBlock{{Path: "a.txt", Search: "one\n", Replace: "two\n", Line: 2}},
		},
		{
			name:     "no blocks",
			response: "Nothing to change.\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseEditBlocks(tt.response, tt.valid)
			if err != nil {
				t.Fatalf("ParseEditBlocks(%q) error: %v", tt.response, err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseEditBlocks(%q) = %+v; want %+v", tt.response, got, tt.want)
			}
		})
	}
}

func TestParseEditBlocksErrors(t *testing.T) {
	tests := []struct {
		name, response string
		want           FormatError
	}{
		{
			name:     "missing filename",
			response: "Here:\n\n```\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```\n",
			want:     FormatError{Format: FormatSearchReplace, Block: 1, Line: 4, Msg: "Bad/missing filename. The filename must be alone on the line before the opening fence ```"},
		},
		{
			name:     "missing divider",
			response: "a.go\n<<<<<<< SEARCH\na\n",
			want:     FormatError{Format: FormatSearchReplace, Block: 1, Line: 3, Msg: "Expected `=======`"},
		},
		{
			name:     "unclosed second block",
			response: "a.go\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n<<<<<<< SEARCH\nc\n=======\nd\n",
			want:     FormatError{Format: FormatSearchReplace, Block: 2, Line: 10, Msg: "Expected `>>>>>>> REPLACE` or `=======`"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseEditBlocks(tt.response, nil)
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("ParseEditBlocks(%q) error = %v; want *FormatError", tt.response, err)
			}
			if *fe != tt.want {
				t.Errorf("ParseEditBlocks(%q) error = %+v; want %+v", tt.response, *fe, tt.want)
			}
		})
	}
}

func TestParseEditBlocksWithFence(t *testing.T) {
	response := "<source>a/b.py\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n</source>\n"
	got, err := ParseEditBlocksWithFence(response, nil, EditBlockFence{"<source>", "</source>"})
	want := []FileBlock{{Path: "a/b.py", Search: "x\n", Replace: "y\n", Line: 2}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("ParseEditBlocksWithFence(%q) = %+v, %v; want %+v", response, got, err, want)
	}
}

func TestReplaceMostSimilarChunk(t *testing.T) {
	tests := []struct {
		name, whole, part, replace string
		want                       string
		match                      Match
	}{
		{
			name: "exact, first occurrence", whole: "a\nb\na\n", part: "a\n", replace: "X\n",
			want: "X\nb\na\n", match: Match{Block: 1, Strategy: StrategyFirstOfSeveral, StartLine: 1, EndLine: 1},
		},
		{
			name: "leading whitespace re-indents", whole: "f\n    if x:\n        y()\n", part: "if x:\n    y()\n", replace: "if z:\n    w()\n",
			want: "f\n    if z:\n        w()\n", match: Match{Block: 1, Strategy: StrategyLeadingWhitespace, StartLine: 2, EndLine: 3},
		},
		{
			name: "spurious leading blank line dropped", whole: "a\nb\nc\n", part: "\nb\nc\n", replace: "B\nC\n",
			want: "a\nB\nC\n", match: Match{Block: 1, Strategy: StrategyExact, StartLine: 2, EndLine: 3},
		},
		{
			name: "elision", whole: "def f():\n    x = 1\n    y = 2\n    return x\nz\n", part: "def f():\n...\n    return x\n", replace: "def g():\n...\n    return y\n",
			want: "def g():\n    x = 1\n    y = 2\n    return y\nz\n", match: Match{Block: 1, Strategy: StrategyElision, StartLine: 1, EndLine: 4},
		},
		{
			name: "elision with leading piece appended", whole: "a\nb\n", part: "...\nb\n", replace: "c\n...\nB\n",
			want: "a\nB\nc\n", match: Match{Block: 1, Strategy: StrategyElision, StartLine: 2, EndLine: 2},
		},
		{
			name: "elision after a longer piece", whole: "a\nb\nc\nd\n", part: "a\n...\nd\n", replace: "A1\nA2\n...\nD\n",
			want: "A1\nA2\nb\nc\nD\n", match: Match{Block: 1, Strategy: StrategyElision, StartLine: 1, EndLine: 4},
		},
		{
			name: "elision pieces out of order", whole: "a\nb\nc\nd\n", part: "c\n...\na\n", replace: "C\n...\nA\n",
			want: "A\nb\nC\nd\n", match: Match{Block: 1, Strategy: StrategyElision, StartLine: 1, EndLine: 3},
		},
		{
			name: "no final newline kept", whole: "a\nb", part: "b\n", replace: "B\n",
			want: "a\nB", match: Match{Block: 1, Strategy: StrategyExact, StartLine: 2, EndLine: 2},
		},
		{
			name: "unicode indentation", whole: "\u3000\u3000x\n", part: "x\n", replace: "y\n",
			want: "\u3000\u3000y\n", match: Match{Block: 1, Strategy: StrategyLeadingWhitespace, StartLine: 1, EndLine: 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, m, err := replaceMostSimilarChunk(tt.whole, tt.part, tt.replace)
			if err != nil {
				t.Fatalf("replaceMostSimilarChunk(%q, %q, %q) error: %v", tt.whole, tt.part, tt.replace, err)
			}
			if got != tt.want || locations([]Match{m})[0] != tt.match {
				t.Errorf("replaceMostSimilarChunk(%q, %q, %q) = %q, %+v; want %q, %+v", tt.whole, tt.part, tt.replace, got, m, tt.want, tt.match)
			}
		})
	}
}

// The divergences from aider listed in doc.go, each asserting our behaviour.
func TestAiderDivergences(t *testing.T) {
	t.Run("file without final newline keeps it", func(t *testing.T) {
		res, err := Apply("a\nb\nc", aiderBlock{search: "c", replace: "C"})
		if err != nil || res.Content != "a\nb\nC" {
			t.Errorf("Apply(%q) = %q, %v; want %q", "a\nb\nc", res.Content, err, "a\nb\nC")
		}
	})
	t.Run("CRLF search matches LF file", func(t *testing.T) {
		res, err := Apply("a\nb\n", aiderBlock{search: "a\r\nb\r\n", replace: "X\n"})
		if err != nil || res.Content != "X\n" {
			t.Errorf("Apply(%q) = %q, %v; want %q", "a\nb\n", res.Content, err, "X\n")
		}
	})
	t.Run("whole content can be deleted", func(t *testing.T) {
		res, err := Apply("a\nb\n", aiderBlock{search: "a\nb\n", replace: ""})
		if err != nil || res.Content != "" {
			t.Errorf("Apply(%q) = %q, %v; want \"\"", "a\nb\n", res.Content, err)
		}
	})
}

// TestAiderFirstOfSeveral: a SEARCH that fits several places edits the
// first, as aider does, and the Match says how many fit.
func TestAiderFirstOfSeveral(t *testing.T) {
	res, err := Apply("    line1\n    line2\n    line1\n", aiderBlock{search: "line1\n", replace: "new\n"})
	if err != nil || res.Content != "    new\n    line2\n    line1\n" || len(res.Matches) != 1 {
		t.Fatalf("Apply = %q, %+v, %v; want the first line1 replaced", res.Content, res.Matches, err)
	}
	checkDisclosure(t, res.Matches[0], Match{Block: 1, Strategy: StrategyLeadingWhitespace, StartLine: 1, EndLine: 1, Similarity: 1, Candidates: 2,
		Searched: "line1\n", Found: "    line1\n"})
}

func TestReplaceMostSimilarChunkNoMatch(t *testing.T) {
	tests := []struct {
		name, whole, part string
	}{
		{"absent", "a\nb\n", "c\n"},
		// aider would slice "x = 1" and insert "x " before the replacement
		{"SEARCH indented deeper than the file", "x = 1\n", "    x = 1\n"},
		{"elision piece twice", "a\nb\na\n", "a\n...\nb\n"},
		{"unpaired elision", "a\nb\n", "a\n...\nb\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := replaceMostSimilarChunk(tt.whole, tt.part, "y = 2\n")
			if err == nil || err.Kind != FailNoMatch {
				t.Errorf("replaceMostSimilarChunk(%q, %q) = %q, %v; want FailNoMatch", tt.whole, tt.part, got, err)
			}
		})
	}
}

func TestStripQuotedWrapping(t *testing.T) {
	tests := []struct {
		text, path, want string
	}{
		{"a.go\n```\nx\n```\n", "dir/a.go", "x\n"},
		{"See a.go\n", "a.go", "See a.go\n"}, // a filename line without a fence is content
		{"```\n", "", "```\n"},               // a lone fence line is content
		{"x", "", "x\n"},
		{"", "a.go", ""},
	}
	for _, tt := range tests {
		if got := stripQuotedWrapping(tt.text, tt.path, DefaultEditBlockFence()); got != tt.want {
			t.Errorf("stripQuotedWrapping(%q, %q) = %q; want %q", tt.text, tt.path, got, tt.want)
		}
	}
}

func TestApplyEditBlocks(t *testing.T) {
	tests := []struct {
		name     string
		files    map[string]string
		response string
		want     map[string]string
	}{
		{
			name:     "two files and a new one",
			files:    map[string]string{"a.go": "package a\n\nvar x = 1\n", "b.go": "package b\n"},
			response: "a.go\n```go\n<<<<<<< SEARCH\nvar x = 1\n=======\nvar x = 2\n>>>>>>> REPLACE\n```\n\nb.go\n```go\n<<<<<<< SEARCH\npackage b\n=======\npackage bb\n>>>>>>> REPLACE\n```\n\nc.go\n```go\n<<<<<<< SEARCH\n=======\npackage c\n>>>>>>> REPLACE\n```\n",
			want:     map[string]string{"a.go": "package a\n\nvar x = 2\n", "b.go": "package bb\n", "c.go": "package c\n"},
		},
		{
			name:     "blocks see earlier blocks",
			files:    map[string]string{"a.txt": "one\n"},
			response: "a.txt\n<<<<<<< SEARCH\none\n=======\ntwo\n>>>>>>> REPLACE\n<<<<<<< SEARCH\ntwo\n=======\nthree\n>>>>>>> REPLACE\n",
			want:     map[string]string{"a.txt": "three\n"},
		},
		{
			name:     "CRLF and BOM kept",
			files:    map[string]string{"w.txt": "\uFEFFa\r\nb\r\n"},
			response: "w.txt\n<<<<<<< SEARCH\nb\n=======\nB\nC\n>>>>>>> REPLACE\n",
			want:     map[string]string{"w.txt": "\uFEFFa\r\nB\r\nC\r\n"},
		},
		{
			name:     "empty SEARCH fills an empty file",
			files:    map[string]string{"e.txt": ""},
			response: "e.txt\n<<<<<<< SEARCH\n=======\nhello\n>>>>>>> REPLACE\n",
			want:     map[string]string{"e.txt": "hello\n"},
		},
		{
			name:     "SEARCH found in the one other file",
			files:    map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n"},
			response: "a.txt\n<<<<<<< SEARCH\nbeta\n=======\nBETA\n>>>>>>> REPLACE\n",
			want:     map[string]string{"a.txt": "alpha\n", "b.txt": "BETA\n"},
		},
		{
			name:     "shell blocks skipped",
			files:    map[string]string{"a.txt": "x\n"},
			response: "```sh\nrm -rf /\n```\na.txt\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n",
			want:     map[string]string{"a.txt": "y\n"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			blocks, err := ParseEditBlocks(tt.response, slicesOfKeys(tt.files))
			if err != nil {
				t.Fatalf("ParseEditBlocks(%q) error: %v", tt.response, err)
			}
			before := maps.Clone(tt.files)
			got, err := ApplyEditBlocks(tt.files, blocks)
			if err != nil {
				t.Fatalf("ApplyEditBlocks(%q) error: %v", tt.response, err)
			}
			if !maps.Equal(got, tt.want) {
				t.Errorf("ApplyEditBlocks(%q) = %q; want %q", tt.response, got, tt.want)
			}
			if !maps.Equal(tt.files, before) {
				t.Errorf("ApplyEditBlocks changed its input map to %q", tt.files)
			}
		})
	}
}

func slicesOfKeys(m map[string]string) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}

func TestApplyEditBlocksFailures(t *testing.T) {
	tests := []struct {
		name     string
		files    map[string]string
		response string
		want     MatchError // the fields checked: Path, Block, Kind, len(Applied)
		closest  int        // 1-based first line of the closest candidate; 0 for none
	}{
		{
			name:     "all or nothing",
			files:    map[string]string{"a.txt": "one\ntwo\nthree\n"},
			response: "a.txt\n<<<<<<< SEARCH\none\n=======\n1\n>>>>>>> REPLACE\n<<<<<<< SEARCH\ntwo\nthre\n=======\n2\n>>>>>>> REPLACE\n",
			want:     MatchError{Path: "a.txt", Block: 2, Kind: FailNoMatch, Applied: []Match{{Block: 1, Strategy: StrategyExact, StartLine: 1, EndLine: 1}}},
			closest:  2,
		},
		{
			name:     "empty SEARCH on an existing file",
			files:    map[string]string{"a.txt": "keep me\n"},
			response: "a.txt\n<<<<<<< SEARCH\n=======\nnew\n>>>>>>> REPLACE\n",
			want:     MatchError{Path: "a.txt", Block: 1, Kind: FailEmptySearch},
		},
		{
			name:     "SEARCH on a missing file",
			files:    map[string]string{},
			response: "n.txt\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n",
			want:     MatchError{Path: "n.txt", Block: 1, Kind: FailFileMissing},
		},
		{
			name:     "SEARCH in two other files",
			files:    map[string]string{"a.txt": "a\n", "b.txt": "x\n", "c.txt": "x\n"},
			response: "a.txt\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n",
			want:     MatchError{Path: "a.txt", Block: 1, Kind: FailAmbiguous},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			blocks, err := ParseEditBlocks(tt.response, nil)
			if err != nil {
				t.Fatalf("ParseEditBlocks(%q) error: %v", tt.response, err)
			}
			got, err := ApplyEditBlocks(tt.files, blocks)
			var me *MatchError
			if !errors.As(err, &me) {
				t.Fatalf("ApplyEditBlocks(%q) = %q, %v; want a *MatchError", tt.response, got, err)
			}
			if got != nil {
				t.Errorf("ApplyEditBlocks(%q) returned files %q with its error", tt.response, got)
			}
			if me.Path != tt.want.Path || me.Block != tt.want.Block || me.Kind != tt.want.Kind || !reflect.DeepEqual(locations(me.Applied), locations(tt.want.Applied)) {
				t.Errorf("ApplyEditBlocks(%q) error = %+v; want path %q block %d kind %s applied %+v", tt.response, me, tt.want.Path, tt.want.Block, tt.want.Kind, tt.want.Applied)
			}
			if me.Format != FormatSearchReplace || me.Hint == "" || !strings.Contains(me.Error(), tt.want.Path) {
				t.Errorf("error %q: want format, hint and path", me.Error())
			}
			switch {
			case tt.closest == 0 && len(me.Closest) > 0:
				t.Errorf("Closest = %+v; want none", me.Closest)
			case tt.closest > 0 && (len(me.Closest) == 0 || me.Closest[0].StartLine != tt.closest):
				t.Errorf("Closest = %+v; want a candidate at line %d", me.Closest, tt.closest)
			}
		})
	}
}

func TestSeqRatio(t *testing.T) {
	// Expected values computed with Python's difflib.SequenceMatcher(None, a, b).ratio().
	tests := []struct {
		a, b string
		want float64
	}{
		{"abcd", "bcde", 0.75},
		{"qabxcd", "abycdf", 0.6666666666666666},
		{"file1.py", "file1_py", 0.875},
		{"", "", 1},
		{strings.Repeat("ab", 130), strings.Repeat("ba", 120), 0}, // autojunk: every element is popular
		{"x" + strings.Repeat("ab", 150) + "y", strings.Repeat("ab", 110) + "xy", 0.007633587786259542},
		{strings.Repeat("hello world", 3), strings.Repeat("ab", 100) + "hello", 0.04201680672268908},
	}
	for _, tt := range tests {
		if got := seqRatio([]rune(tt.a), []rune(tt.b)); got != tt.want {
			t.Errorf("seqRatio(%.20q, %.20q) = %v; want %v", tt.a, tt.b, got, tt.want)
		}
	}
	lines := seqRatio([]string{"x", "y", "z", "y"}, []string{"y", "z", "x"})
	if lines != 0.5714285714285714 {
		t.Errorf("seqRatio(lines) = %v; want 0.5714285714285714", lines)
	}
}

// FuzzParseEditBlocks checks that parsing never panics and that what it
// returns is consistent.
func FuzzParseEditBlocks(f *testing.F) {
	for _, s := range []string{
		"a.go\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n",
		"```bash\nls\n```\n",
		"```sh\nf.sh\n<<<<<<< SEARCH\n=======\n",
		"<<<<<<< SEARCH\n",
		"a\r<<<<<<<<< SEARCH>\u2028=====\f>>>>> REPLACE\x85",
		"# `f.py`:\n```py\n<<<<<<< SEARCH\n\n...\n=======\n=======\n",
	} {
		f.Add(s, "f.py")
	}
	f.Fuzz(func(t *testing.T, response, valid string) {
		blocks, err := ParseEditBlocks(response, []string{valid})
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) || fe.Line < 1 || fe.Block < 1 {
				t.Fatalf("ParseEditBlocks(%q) error %#v; want a *FormatError with line and block", response, err)
			}
			return
		}
		n := len(pySplitLines(response))
		for _, b := range blocks {
			if b.Line < 1 || b.Line > n || !b.Shell && b.Path == "" {
				t.Fatalf("ParseEditBlocks(%q) gave block %+v", response, b)
			}
		}
	})
}

// FuzzReplaceMostSimilarChunk checks that the strategies never panic, that a
// match stays within the file and that the lines before it are kept.
func FuzzReplaceMostSimilarChunk(f *testing.F) {
	f.Add("    a\n    b\n", "a\nb\n", "c\n")
	f.Add("a\n\u3000b\n", " \u3000b\n", "\u3000c\n")
	f.Add("def f():\n    x\n", "def f():\n...\n", "def g():\n...\n")
	f.Add("x\n", "  \n...\n\n...\n", "y\n...\n\n...\n")
	f.Fuzz(func(t *testing.T, whole, part, replace string) {
		out, m, err := replaceMostSimilarChunk(whole, part, replace)
		if err != nil {
			return
		}
		n := len(splitLines(whole))
		if m.StartLine < 1 || m.EndLine < m.StartLine-1 || m.EndLine > n || m.StartLine > n+1 {
			t.Fatalf("replaceMostSimilarChunk(%q, %q, %q) match %+v outside %d lines", whole, part, replace, m, n)
		}
		if m.Strategy != StrategyElision {
			if kept := strings.Join(splitLines(whole)[:m.StartLine-1], ""); !strings.HasPrefix(out+"\n", kept) { // +"\n": a file without final newline keeps that state
				t.Fatalf("replaceMostSimilarChunk(%q, %q, %q) = %q; lost the lines before line %d", whole, part, replace, out, m.StartLine)
			}
		}
	})
}

func BenchmarkParseEditBlocks(b *testing.B) {
	var resp strings.Builder
	for i := range 200 {
		resp.WriteString("Some prose about the change.\n\npkg/file" + string(rune('a'+i%26)) + ".go\n```go\n<<<<<<< SEARCH\n")
		resp.WriteString(strings.Repeat("\told line\n", 20))
		resp.WriteString("=======\n")
		resp.WriteString(strings.Repeat("\tnew line\n", 20))
		resp.WriteString(">>>>>>> REPLACE\n```\n\n")
	}
	s := resp.String()
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		if _, err := ParseEditBlocks(s, []string{"pkg/filea.go"}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkApplyEditBlocks(b *testing.B) {
	var file strings.Builder
	for i := range 10000 {
		file.WriteString("\tline " + strconv.Itoa(i) + "\n")
	}
	files := map[string]string{"big.go": file.String()}
	// Found by the leading-whitespace strategy, after a full exact scan.
	blocks := []FileBlock{{Path: "big.go", Search: "line 9998\nline 9999\n", Replace: "changed\n"}}
	b.SetBytes(int64(file.Len()))
	for b.Loop() {
		if _, err := ApplyEditBlocks(files, blocks); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkApplyEditBlocksNoMatch(b *testing.B) {
	var file strings.Builder
	for i := range 10000 {
		file.WriteString("line " + string(rune('a'+i%26)) + "\n")
	}
	files := map[string]string{"big.txt": file.String()}
	blocks := []FileBlock{{Path: "big.txt", Search: "line a\nline b\nline zz\n", Replace: "x\n"}}
	b.SetBytes(int64(file.Len()))
	for b.Loop() {
		if _, err := ApplyEditBlocks(files, blocks); err == nil {
			b.Fatal("want no match")
		}
	}
}

// FuzzApplyEditBlocks checks that parsing and applying a response never
// panics and never changes the caller's map.
func FuzzApplyEditBlocks(f *testing.F) {
	f.Add("a\n    b\n", "f.txt\n```\n<<<<<<< SEARCH\nb\n=======\nc\n>>>>>>> REPLACE\n```\n")
	f.Add("x", "f.txt\n<<<<<<< SEARCH\n...\n=======\n...\ny\n>>>>>>> REPLACE\n")
	f.Add("", "g.txt\n<<<<<<< SEARCH\n=======\nnew\n>>>>>>> REPLACE\n")
	f.Fuzz(func(t *testing.T, file, response string) {
		blocks, err := ParseEditBlocks(response, []string{"f.txt"})
		if err != nil {
			return
		}
		files := map[string]string{"f.txt": file}
		got, err := ApplyEditBlocks(files, blocks)
		if files["f.txt"] != file || len(files) != 1 {
			t.Fatalf("ApplyEditBlocks changed its input to %q", files)
		}
		if err == nil && got == nil {
			t.Fatalf("ApplyEditBlocks(%q) = nil, nil", response)
		}
	})
}
