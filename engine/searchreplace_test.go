package engine

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// sr builds a Cline-style payload from search/replace pairs.
func sr(pairs ...string) string {
	var b strings.Builder
	for i := 0; i+1 < len(pairs); i += 2 {
		b.WriteString("------- SEARCH\n")
		b.WriteString(pairs[i])
		b.WriteString("=======\n")
		b.WriteString(pairs[i+1])
		b.WriteString("+++++++ REPLACE\n")
	}
	return b.String()
}

func TestSearchReplaceApply(t *testing.T) {
	tests := []struct {
		name, file, diff, want string
		strategies             []Strategy
	}{
		{"exact", "a\nb\nc\n", sr("b\n", "B\n"), "a\nB\nc\n", []Strategy{StrategyExact}},
		{"legacy markers", "a\nb\nc\n", "<<<<<<< SEARCH\nb\n=======\nB\n>>>>>>> REPLACE\n", "a\nB\nc\n", []Strategy{StrategyExact}},
		{"aider markers with trailing space", "a\nb\nc\n", "<<<<<<< SEARCH  \nb\n=======  \nB\n>>>>>>> REPLACE \n", "a\nB\nc\n", []Strategy{StrategyExact}},
		{"short and long markers", "a\nb\nc\n", "--- SEARCH>\nb\n==========\nB\n+++++++++++ REPLACE>", "a\nB\nc\n", []Strategy{StrategyExact}},
		{"prose and fences around", "a\nb\nc\n", "Change b:\n\nfile.txt\n```text\n" + sr("b\n", "B\n") + "```\nDone.\n", "a\nB\nc\n", []Strategy{StrategyExact}},
		{"missing final end marker", "a\nb\nc\n", "------- SEARCH\nb\n=======\nB", "a\nB\nc\n", []Strategy{StrategyExact}},
		{"missing end marker inside a fence", "a\nb\nc\n", "```\n------- SEARCH\nb\n=======\nB\n```\n", "a\nB\nc\n", []Strategy{StrategyExact}},
		{"CRLF payload", "a\nb\nc\n", "------- SEARCH\r\nb\r\n=======\r\nB\r\n+++++++ REPLACE\r\n", "a\nB\nc\n", []Strategy{StrategyExact}},
		{"CRLF file", "a\r\nb\r\nc\r\n", sr("b\n", "B\nB2\n"), "a\r\nB\r\nB2\r\nc\r\n", []Strategy{StrategyExact}},
		{"BOM kept", "\uFEFFa\nb\n", sr("b\n", "B\n"), "\uFEFFa\nB\n", []Strategy{StrategyExact}},
		{"two blocks in order", "x\ny\nz\ny\n", sr("x\n", "X\n", "y\n", "Y\n"), "X\nY\nz\ny\n", []Strategy{StrategyExact, StrategyFirstOfSeveral}},
		{"second block takes first match after the first", "x\ny\nx\ny\n", sr("y\nx\n", "1\n2\n", "y\n", "Y\n"), "x\n1\n2\nY\n", []Strategy{StrategyExact, StrategyExact}},
		{"out of order", "a\nb\nc\n", sr("c\n", "C\n", "a\n", "A\n"), "A\nb\nC\n", []Strategy{StrategyExact, StrategyExact}},
		{"delete", "a\nb\nc\n", sr("b\n", ""), "a\nc\n", []Strategy{StrategyExact}},
		{"last line without newline", "a\nc", sr("c\n", "C\n"), "a\nC", []Strategy{StrategyExact}},
		{"last line deleted", "a\nc", sr("c\n", ""), "a\n", []Strategy{StrategyExact}},
		{"empty file", "", sr("", "new\n"), "new\n", []Strategy{StrategyWholeFile}},
		{"indented mid-line match", "f {\n\treturn a\n}\n", sr("return a\n", "return b\n"), "f {\n\treturn b\n}\n", []Strategy{StrategyExact}},
		{"indented mid-line delete", "f {\n\treturn a\n}\n", sr("return a\n", ""), "f {\n}\n", []Strategy{StrategyLeadingWhitespace}}, // Cline leaves "\t}"
		{"line-trimmed re-indents", "f {\n\tx := 1\n\ty := 2\n}\n", sr("x := 1\ny := 2\n", "x := 1\nif x {\n\ty := 3\n}\n"), "f {\n\tx := 1\n\tif x {\n\t\ty := 3\n\t}\n}\n", []Strategy{StrategyLineTrimmed}},
		{"line-trimmed outdents", "x := 1\ny := 2\n", sr("    x := 1\n    y := 2\n", "    x := 3\n      y := 4\n"), "x := 3\n  y := 4\n", []Strategy{StrategyLineTrimmed}},
		{"line-trimmed mixed indentation is verbatim", "\ta\n  b\n", sr("a\nb\n", "A\nB\n"), "A\nB\n", []Strategy{StrategyLineTrimmed}},
		{"normalized whitespace and quotes", "say(\u201chi\u201d,   x)\n", sr("say(\"hi\", x)\n", "say(\"bye\", x)\n"), "say(\"bye\", x)\n", []Strategy{StrategyNormalized}},
		{"block anchor", "func f() {\n\tconst results = g()\n\treturn results\n}\n", sr("func f() {\n\tconst result = g()\n\treturn results\n}\n", "func f() {}\n"), "func f() {}\n", []Strategy{StrategyBlockAnchor}},
		{"block anchor takes the window nearest the hint", "func f() {\n\ta := 1\n\tc := 3\n}\nfunc f() {\n\ta := 1\n\tc := 3\n}\n", "<<<<<<< SEARCH\n:start_line:5\n-------\nfunc f() {\n\ta := 1\n\tc := 5\n}\n=======\nF\n>>>>>>> REPLACE\n", "func f() {\n\ta := 1\n\tc := 3\n}\nF\n", []Strategy{StrategyBlockAnchor}},
		{"roo start_line and dashes", "a\nb\nc\n", "<<<<<<< SEARCH\n:start_line:2\n:end_line:2\n-------\nb\n=======\nB\n>>>>>>> REPLACE", "a\nB\nc\n", []Strategy{StrategyExact}},
		{"roo start_line picks nearest", "x\na\nx\na\nx\n", "<<<<<<< SEARCH\n:start_line:4\n-------\na\n=======\nA\n>>>>>>> REPLACE", "x\na\nx\nA\nx\n", []Strategy{StrategyExact}},
		{"roo line numbers", "a\nb\nc\n", "<<<<<<< SEARCH\n2 | b\n3 | c\n=======\n2 | B\n3 | C\n>>>>>>> REPLACE", "a\nB\nC\n", []Strategy{StrategyLineNumbers}},
		{"roo line numbers in SEARCH only", "a\nb\nc\n", "<<<<<<< SEARCH\n2 | b\n=======\nB\n>>>>>>> REPLACE", "a\nB\nc\n", []Strategy{StrategyLineNumbers}},
		{"escaped markers are text", "a\n=======\nb\n", "<<<<<<< SEARCH\n\\=======\n=======\n\\>>>>>>> REPLACE\n\\:start_line:3\n>>>>>>> REPLACE\n", "a\n>>>>>>> REPLACE\n:start_line:3\nb\n", []Strategy{StrategyExact}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Apply(tt.file, SearchReplace{Text: tt.diff})
			if err != nil {
				t.Fatalf("Apply(%q, %q) error: %v", tt.file, tt.diff, err)
			}
			if res.Content != tt.want {
				t.Errorf("Apply(%q, %q) = %q; want %q", tt.file, tt.diff, res.Content, tt.want)
			}
			var got []Strategy
			for _, m := range res.Matches {
				got = append(got, m.Strategy)
			}
			if strings.Join(strategyNames(got), ",") != strings.Join(strategyNames(tt.strategies), ",") {
				t.Errorf("Apply(%q, %q) strategies = %v; want %v", tt.file, tt.diff, got, tt.strategies)
			}
		})
	}
}

func strategyNames(s []Strategy) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = string(x)
	}
	return out
}

func TestSearchReplaceMatchLines(t *testing.T) {
	file := "l1\nl2\nl3\nl4\nl5\n"
	res, err := Apply(file, SearchReplace{Text: sr("l4\nl5\n", "x\n", "l2\n", "y\n")})
	if err != nil {
		t.Fatal(err)
	}
	want := []Match{{Block: 1, Strategy: StrategyExact, StartLine: 4, EndLine: 5}, {Block: 2, Strategy: StrategyExact, StartLine: 2, EndLine: 2}}
	if fmt.Sprint(locations(res.Matches)) != fmt.Sprint(want) {
		t.Errorf("Apply matches = %+v; want %+v", res.Matches, want)
	}
	res, err = Apply("", SearchReplace{Text: sr("", "new\n")})
	if err != nil || len(res.Matches) != 1 || res.Matches[0].StartLine != 1 || res.Matches[0].EndLine != 0 {
		t.Errorf("Apply on empty file = %+v, %v; want one insertion at line 1 (EndLine 0)", res.Matches, err)
	}
}

func TestSearchReplaceFailures(t *testing.T) {
	file := "func a() {\n\treturn 1\n}\n\nfunc b() {\n\treturn 1\n}\n"
	tests := []struct {
		name, file, diff string
		kind             Failure
		block            int
		applied          int
		places           int
	}{
		{"no match", file, sr("func a() {\n", "x\n", "func c() {\n\treturn 2\n}\n", "y\n"), FailNoMatch, 2, 1, 0},
		{"start_line between two places", "x\na\nx\na\nx\n", "<<<<<<< SEARCH\n:start_line:3\n-------\na\n=======\nA\n>>>>>>> REPLACE", FailAmbiguous, 1, 0, 2},
		{"overlap", file, sr("func a() {\n\treturn 1\n", "x\n", "\treturn 1\n}\n\n", "y\n"), FailOverlap, 2, 1, 2},
		{"empty search on a file", file, sr("", "x\n"), FailEmptySearch, 1, 0, 0},
		{"blank line on an empty file", "", sr("\n", "x\n"), FailNoMatch, 1, 0, 0},
		{"block anchor needs three lines", "start\nend\n", sr("start\nXXX\n", "new\n"), FailNoMatch, 1, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Apply(tt.file, SearchReplace{Text: tt.diff})
			var me *MatchError
			if !errors.As(err, &me) {
				t.Fatalf("Apply(%q, %q) error = %v; want a *MatchError", tt.file, tt.diff, err)
			}
			if me.Kind != tt.kind || me.Block != tt.block || len(me.Applied) != tt.applied || len(me.Places) != tt.places {
				t.Errorf("Apply(%q, %q) = %s block %d applied %d places %d; want %s block %d applied %d places %d",
					tt.file, tt.diff, me.Kind, me.Block, len(me.Applied), len(me.Places), tt.kind, tt.block, tt.applied, tt.places)
			}
			if me.Format != FormatSearchReplace || me.Hint == "" {
				t.Errorf("Apply(%q, %q) error %+v lacks format or hint", tt.file, tt.diff, me)
			}
		})
	}
}

func TestSearchReplaceNoMatchDetails(t *testing.T) {
	file := "package p\n\nfunc f() {\n\tx := 1\n\ty := 2\n\treturn x + y\n}\n"
	diff := sr("func f()  {\n\ta := 10\n\tb := 20\n\treturn a - b\n}\n", "func f() {}\n")
	_, err := Apply(file, SearchReplace{Text: diff})
	var me *MatchError
	if !errors.As(err, &me) || me.Kind != FailNoMatch {
		t.Fatalf("Apply(%q, %q) error = %v; want FailNoMatch", file, diff, err)
	}
	if strings.Join(strategyNames(me.Tried), ",") != "exact,line-trimmed,normalized,block-anchor" {
		t.Errorf("Tried = %v; want the whole cascade", me.Tried)
	}
	if me.Search != "func f()  {\n\ta := 10\n\tb := 20\n\treturn a - b\n}\n" {
		t.Errorf("Search = %q; want the block's SEARCH text", me.Search)
	}
	if len(me.Closest) == 0 {
		t.Fatalf("Closest is empty; want lines 3-7")
	}
	c := me.Closest[0]
	if c.StartLine != 3 || c.EndLine != 7 || c.Similarity <= 0.4 || c.Similarity >= 1 || c.Lines[0] != "func f() {" {
		t.Errorf("Closest[0] = %+v; want lines 3-7 (func f) with similarity in (0.4, 1)", c)
	}
}

func TestSearchReplaceFormatErrors(t *testing.T) {
	tests := []struct {
		name, diff  string
		block, line int
		mentions    string
	}{
		{"no blocks", "just prose\n", 0, 0, "no SEARCH/REPLACE block"},
		{"bad start marker", "<<-- SEARCH\nb\n=======\nB\n+++++++ REPLACE", 1, 3, `"<<-- SEARCH" is not a SEARCH marker`},
		{"missing separator", "------- SEARCH\nb\n+++++++ REPLACE\n", 1, 3, "before the separator"},
		{"separator with trailing space", "------- SEARCH\nb\n======= \nB\n+++++++ REPLACE\n", 1, 5, `line 3 "======= "`},
		{"two separators", "------- SEARCH\nb\n=======\nB\n=======\n+++++++ REPLACE\n", 1, 5, `\=======`},
		{"unterminated block then another", sr("a\n", "A\n")[:len("------- SEARCH\na\n=======\nA\n")] + sr("b\n", "B\n"), 1, 5, "no end marker"},
		{"search never ends", "------- SEARCH\nb\n", 1, 1, "ends inside its SEARCH"},
		{"start_line in REPLACE", "<<<<<<< SEARCH\nb\n=======\n:start_line:5\n>>>>>>> REPLACE", 1, 4, "belongs right after the SEARCH marker"},
		{"start_line without number", "<<<<<<< SEARCH\n:start_line:x\nb\n=======\nB\n>>>>>>> REPLACE", 1, 2, "needs a line number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Apply("a\nb\n", SearchReplace{Text: tt.diff})
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("Apply(%q) error = %v; want a *FormatError", tt.diff, err)
			}
			if fe.Block != tt.block || fe.Line != tt.line || !strings.Contains(fe.Error(), tt.mentions) {
				t.Errorf("Apply(%q) = %q (block %d line %d); want block %d line %d mentioning %q", tt.diff, fe.Error(), fe.Block, fe.Line, tt.block, tt.line, tt.mentions)
			}
		})
	}
}

// TestSearchReplaceDivergences asserts our behaviour where it deliberately
// differs from Cline's or Roo's (see doc.go).
func TestSearchReplaceDivergences(t *testing.T) {
	tests := []struct {
		name, file, diff, want string
		kind                   Failure // expected failure, "" for success
		format                 bool    // expect a *FormatError
	}{
		{"line-trimmed re-indents by the uniform difference", "line1\n line2 \nline3", sr("line2\n", "replaced\n"), "line1\n replaced\nline3", "", false},
		{"non-canonical final end marker accepted", "a\nb\nc\n", "<<<<<<< SEARCH\nb\n=======\nB\n>>>>>>> REPLACE", "a\nB\nc\n", "", false},
		{"CRLF payload parsed", "a\nb\nc\n", "------- SEARCH\r\nb\r\n=======\r\nB\r\n+++++++ REPLACE", "a\nB\nc\n", "", false},
		{"LF payload on CRLF file keeps CRLF", "a\r\nb\r\nc\r\n", sr("b\n", "B\n"), "a\r\nB\r\nc\r\n", "", false},
		{"empty SEARCH on a non-empty file refused", "a\nb\nc\n", sr("", "X\n"), "", FailEmptySearch, false},
		{"no final newline kept", "a\nc", sr("c\n", "C\n"), "a\nC", "", false},
		{"out-of-order block applied", "a\nb\nc\n", sr("c\n", "C\n", "a\n", "A\n"), "A\nb\nC\n", "", false},
		{"unterminated block before another refused", "a\nb\nc\n", "------- SEARCH\na\n=======\nA\n" + sr("c\n", "C\n"), "", "", true},
		{"two separators refused", "Title\n===\nx\n", "------- SEARCH\nTitle\n===\n=======\nT\n+++++++ REPLACE", "", "", true},
		{"final line starting with a dash kept", "a\nb\nc\n", "------- SEARCH\nb\n=======\n- item", "a\n- item\nc\n", "", false},
		{"prose before the first block ignored", "a\nb\nc\n", "Here is the change:\n" + sr("b\n", "B\n"), "a\nB\nc\n", "", false},
		{"block anchor takes a different middle (Roo refuses)", "function hello() {\n    console.log(\"hello\")\n}\n",
			"test.ts\n<<<<<<< SEARCH\nfunction hello() {\n    console.log(\"wrong\")\n}\n=======\nfunction hello() {\n    console.log(\"hello world\")\n}\n>>>>>>> REPLACE",
			"function hello() {\n    console.log(\"hello world\")\n}\n", "", false},
		{"last block without end marker accepted", "some content\n", "<<<<<<< SEARCH\nsome content\n=======\nnew content", "new content\n", "", false},
		{"whitespace-only first REPLACE line kept", "x\n", "<<<<<<< SEARCH\nx\n=======\n  \ny\n>>>>>>> REPLACE", "  \ny\n", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Apply(tt.file, SearchReplace{Text: tt.diff})
			var me *MatchError
			var fe *FormatError
			switch {
			case tt.format:
				if !errors.As(err, &fe) {
					t.Errorf("Apply(%q, %q) = %q, %v; want a *FormatError", tt.file, tt.diff, res.Content, err)
				}
			case tt.kind != "":
				if !errors.As(err, &me) || me.Kind != tt.kind {
					t.Errorf("Apply(%q, %q) = %q, %v; want %s", tt.file, tt.diff, res.Content, err, tt.kind)
				}
			case err != nil:
				t.Errorf("Apply(%q, %q) error: %v", tt.file, tt.diff, err)
			case res.Content != tt.want:
				t.Errorf("Apply(%q, %q) = %q; want %q", tt.file, tt.diff, res.Content, tt.want)
			}
		})
	}
}

func FuzzParseSearchReplace(f *testing.F) {
	f.Add("a\nb\nc\n", sr("b\n", "B\n"))
	f.Add("a\nb\n", "<<<<<<< SEARCH\n:start_line:2\n-------\n2 | b\n=======\nB\n>>>>>>> REPLACE")
	f.Add("x\r\ny", "--- SEARCH>\r\ny\r\n===\r\n\\=======\r\n")
	f.Add("", "------- SEARCH\n=======\nnew")
	f.Add("", "------- SEARCH\n\n=======\nX\n+++++++ REPLACE")
	f.Add("a", "------- SEARCH\n\n\n=======\nX\n+++++++ REPLACE")
	f.Fuzz(func(t *testing.T, file, diff string) {
		blocks, perr := parseSearchReplace(diff)
		res, err := Apply(file, SearchReplace{Text: diff})
		if perr != nil && err == nil {
			t.Fatalf("Apply(%q, %q) succeeded; the payload does not parse: %v", file, diff, perr)
		}
		if err == nil && len(res.Matches) != len(blocks) {
			t.Fatalf("Apply(%q, %q) gave %d matches for %d blocks", file, diff, len(res.Matches), len(blocks))
		}
	})
}

// TestSearchReplaceCutMarker: a payload cut off inside a marker line (its
// last line, without "\n", a strict prefix of a marker of any family) loses
// that line, as Cline drops a partial marker; a last line that can never
// become a marker is text.
func TestSearchReplaceCutMarker(t *testing.T) {
	const file = "a\nb\nc\n"
	tests := []struct {
		name, diff, want string
	}{
		{"cline end marker", "------- SEARCH\nb\n=======\nB\n+++++++ REPLAC", "a\nB\nc\n"},
		{"cline end marker, one plus", "------- SEARCH\nb\n=======\nB\n+", "a\nB\nc\n"},
		{"cline end marker, run and space", "------- SEARCH\nb\n=======\nB\n+++++++ ", "a\nB\nc\n"},
		{"legacy end marker", "<<<<<<< SEARCH\nb\n=======\nB\n>>>>>>> REPL", "a\nB\nc\n"},
		{"legacy end marker, run only", "<<<<<<< SEARCH\nb\n=======\nB\n>>>>", "a\nB\nc\n"},
		{"aider end marker", "file.txt\n```\n<<<<<<< SEARCH\nb\n=======\nB\n>>>>>>> R", "a\nB\nc\n"},
		{"roo end marker", "<<<<<<< SEARCH\n:start_line:2\n-------\nb\n=======\nB\n>>>>>>> REPLAC", "a\nB\nc\n"},
		{"start marker after a block", sr("b\n", "B\n") + "------- SEA", "a\nB\nc\n"},
		{"legacy start marker after a block", sr("b\n", "B\n") + "<<<<<<< ", "a\nB\nc\n"},
		{"start marker inside an open REPLACE", "------- SEARCH\nb\n=======\nB\n------- SEARC", "a\nB\nc\n"},
		{"separator inside an open REPLACE", "------- SEARCH\nb\n=======\nB\n==", "a\nB\nc\n"},
		{"a list item is text", "------- SEARCH\nb\n=======\n- item", "a\n- item\nc\n"},
		{"a short run before SEARCH is text", "------- SEARCH\nb\n=======\n-- SEARCH", "a\n-- SEARCH\nc\n"},
		{"plus then text is text", "------- SEARCH\nb\n=======\n+ x", "a\n+ x\nc\n"},
		{"complete marker without newline", "------- SEARCH\nb\n=======\nB\n+++++++ REPLACE>", "a\nB\nc\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Apply(file, SearchReplace{Text: tt.diff})
			if err != nil || res.Content != tt.want {
				t.Errorf("Apply(%q, %q) = %q, %v; want %q", file, tt.diff, res.Content, err, tt.want)
			}
			s, _ := NewStream(file, FormatSearchReplace)
			s.Feed(tt.diff)
			res, err = s.Close()
			if err != nil || res.Content != tt.want {
				t.Errorf("Stream(%q, %q).Close() = %q, %v; want %q", file, tt.diff, res.Content, err, tt.want)
			}
		})
	}
}

// TestSearchReplaceIncomplete: a payload cut short still applies as far as
// it arrived (Cline closes a last block without its end marker), and the
// Result says so: which block, from which payload line, and why.
func TestSearchReplaceIncomplete(t *testing.T) {
	const file = "a\nb\nc\n"
	tests := []struct {
		name, diff, want string
		incomplete       *Incomplete
	}{
		{"complete", sr("b\n", "B\n"), "a\nB\nc\n", nil},
		{"complete without final newline", "------- SEARCH\nb\n=======\nB\n+++++++ REPLACE", "a\nB\nc\n", nil},
		{"no end marker", "------- SEARCH\nb\n=======\nB", "a\nB\nc\n",
			&Incomplete{Block: 1, Line: 1, Reason: "block 1 has no end marker: the edit was cut off in its REPLACE section; the REPLACE lines that arrived were applied"}},
		{"end marker cut off", "------- SEARCH\nb\n=======\nB\n+++++++ REPLAC", "a\nB\nc\n",
			&Incomplete{Block: 1, Line: 1, Cut: "+++++++ REPLAC", Reason: "block 1 has no end marker: the edit was cut off in its end marker, \"+++++++ REPLAC\" (dropped); the REPLACE lines that arrived were applied"}},
		{"no REPLACE lines yet", "x\n" + sr("a\n", "A\n") + "<<<<<<< SEARCH\nb\n=======\n", "A\nc\n",
			&Incomplete{Block: 2, Line: 7, Reason: "block 2 has no end marker: the edit was cut off after its separator; with no REPLACE lines, its SEARCH lines were deleted"}},
		{"fence closes it", "```\n------- SEARCH\nb\n=======\nB\n```\n", "a\nB\nc\n",
			&Incomplete{Block: 1, Line: 2, Reason: "block 1 has no end marker: a code fence closed it; the REPLACE lines that arrived were applied"}},
		{"next block cut off in its start marker", sr("b\n", "B\n") + "------- SEA", "a\nB\nc\n",
			&Incomplete{Block: 2, Line: 6, Cut: "------- SEA", Reason: "block 2 was cut off in its start marker \"------- SEA\" (dropped); the blocks before it were applied"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Apply(file, SearchReplace{Text: tt.diff})
			if err != nil || res.Content != tt.want {
				t.Fatalf("Apply(%q, %q) = %q, %v; want %q", file, tt.diff, res.Content, err, tt.want)
			}
			if fmt.Sprint(res.Incomplete) != fmt.Sprint(tt.incomplete) {
				t.Errorf("Apply(%q, %q).Incomplete = %+v; want %+v", file, tt.diff, res.Incomplete, tt.incomplete)
			}
			s, _ := NewStream(file, FormatSearchReplace)
			s.Feed(tt.diff)
			if res, _ := s.Close(); fmt.Sprint(res.Incomplete) != fmt.Sprint(tt.incomplete) {
				t.Errorf("Stream(%q).Close().Incomplete = %+v; want %+v", tt.diff, res.Incomplete, tt.incomplete)
			}
		})
	}
}

// TestSearchReplaceFirstOfSeveral: where Cline defines the answer, it is
// given and disclosed: a block whose text fits several places edits the
// first (after the previous block's match), identical blocks in order edit
// successive places, and block-anchor takes any middle between equal first
// and last lines. Each is a Loose match saying how many places fit.
func TestSearchReplaceFirstOfSeveral(t *testing.T) {
	twoFuncs := "func f() {\n\ta := 1\n\tc := 3\n}\nfunc f() {\n\ta := 1\n\tc := 44\n}\n"
	tests := []struct {
		name, file, diff, want string
		matches                []Match // Similarity compared to within 1e-9
	}{
		{"first of two", "b\nb\n", sr("b\n", "B\n"), "B\nb\n",
			[]Match{{Block: 1, Strategy: StrategyFirstOfSeveral, StartLine: 1, EndLine: 1, Similarity: 1, Candidates: 2, Searched: "b\n", Found: "b\n"}}},
		{"first of three", "f()\nx\nf()\nf()\n", sr("f()\n", "g()\n"), "g()\nx\nf()\nf()\n",
			[]Match{{Block: 1, Strategy: StrategyFirstOfSeveral, StartLine: 1, EndLine: 1, Similarity: 1, Candidates: 3, Searched: "f()\n", Found: "f()\n"}}},
		{"identical blocks edit successive places", "b\nb\n", sr("b\n", "B\n", "b\n", "B\n"), "B\nB\n",
			[]Match{{Block: 1, Strategy: StrategyFirstOfSeveral, StartLine: 1, EndLine: 1, Similarity: 1, Candidates: 2, Searched: "b\n", Found: "b\n"},
				{Block: 2, Strategy: StrategyExact, StartLine: 2, EndLine: 2, Similarity: 1, Candidates: 1}}},
		{"a later block counts the places after the previous match", "h\nb\nb\nb\n", sr("h\n", "H\n", "b\n", "B\n"), "H\nB\nb\nb\n",
			[]Match{{Block: 1, Strategy: StrategyExact, StartLine: 1, EndLine: 1, Similarity: 1, Candidates: 1},
				{Block: 2, Strategy: StrategyFirstOfSeveral, StartLine: 2, EndLine: 2, Similarity: 1, Candidates: 3, Searched: "b\n", Found: "b\n"}}},
		{"line-trimmed first of two", "  x\n  y\n\tx\n\ty\n", sr("x\ny\n", "z\n"), "  z\n\tx\n\ty\n",
			[]Match{{Block: 1, Strategy: StrategyLineTrimmed, StartLine: 1, EndLine: 2, Similarity: 1, Candidates: 2, Searched: "x\ny\n", Found: "  x\n  y\n"}}},
		{"block anchor takes any middle", "start\nmiddle\nend\n", sr("start\nXXX\nend\n", "new\n"), "new\n",
			[]Match{{Block: 1, Strategy: StrategyBlockAnchor, StartLine: 1, EndLine: 3, Similarity: 2.0 / 3, Candidates: 1, Searched: "start\nXXX\nend\n", Found: "start\nmiddle\nend\n"}}},
		{"block anchor takes the first window", twoFuncs, sr("func f() {\n\ta := 1\n\tc := 5\n}\n", "F\n"), "F\nfunc f() {\n\ta := 1\n\tc := 44\n}\n",
			// "c := 3" and "c := 5" share 5 of 6 bytes.
			[]Match{{Block: 1, Strategy: StrategyBlockAnchor, StartLine: 1, EndLine: 4, Similarity: (3 + 5.0/6) / 4, Candidates: 2,
				Searched: "func f() {\n\ta := 1\n\tc := 5\n}\n", Found: "func f() {\n\ta := 1\n\tc := 3\n}\n"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Apply(tt.file, SearchReplace{Text: tt.diff})
			if err != nil || res.Content != tt.want {
				t.Fatalf("Apply(%q, %q) = %q, %v; want %q", tt.file, tt.diff, res.Content, err, tt.want)
			}
			if len(res.Matches) != len(tt.matches) {
				t.Fatalf("Apply(%q, %q) matches = %+v; want %+v", tt.file, tt.diff, res.Matches, tt.matches)
			}
			for i := range tt.matches {
				checkDisclosure(t, res.Matches[i], tt.matches[i])
			}
		})
	}
}
