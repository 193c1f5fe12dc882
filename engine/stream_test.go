package engine

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// feedAll feeds payload in chunks of n bytes, all of them even after an
// error, and returns the last preview and the first error.
func feedAll(t *testing.T, s *Stream, payload string, n int) (Preview, error) {
	t.Helper()
	var pv Preview
	var first error
	for i := 0; i < len(payload); i += n {
		p, err := s.Feed(payload[i:min(i+n, len(payload))])
		if err != nil && first == nil {
			first = err
		}
		if err == nil {
			pv = p
		}
	}
	return pv, first
}

func TestStreamWrite(t *testing.T) {
	s, err := NewStream("o1\no2\no3\no4\n", FormatWrite)
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		chunk     string
		done      []string
		partial   string
		tailStart int
		growing   LineRange
	}{
		{"n1", nil, "n1", 1, LineRange{1, 1}},
		{"\nn2\nn", []string{"n1\n", "n2\n"}, "n", 3, LineRange{1, 3}},
		{"3\n", []string{"n1\n", "n2\n", "n3\n"}, "", 3, LineRange{1, 3}},
	}
	for _, st := range steps {
		pv, err := s.Feed(st.chunk)
		if err != nil {
			t.Fatalf("Feed(%q) error: %v", st.chunk, err)
		}
		if fmt.Sprint(pv.Done) != fmt.Sprint(st.done) || pv.Partial != st.partial || pv.TailStart != st.tailStart || pv.Growing != st.growing {
			t.Errorf("Feed(%q) = %+v; want Done %q Partial %q TailStart %d Growing %v", st.chunk, pv, st.done, st.partial, st.tailStart, st.growing)
		}
		if len(pv.Tail) != 4-st.tailStart {
			t.Errorf("Feed(%q) Tail = %q; want the original from line %d", st.chunk, pv.Tail, st.tailStart+1)
		}
	}
	res, err := s.Close()
	if err != nil || res.Content != "n1\nn2\nn3\n" {
		t.Errorf("Close() = %q, %v; want %q", res.Content, err, "n1\nn2\nn3\n")
	}
}

func TestStreamSearchReplacePreview(t *testing.T) {
	file := "a\nb\nc\nd\ne\n"
	s, err := NewStream(file, FormatSearchReplace)
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		chunk   string
		text    string // Preview.Text()
		growing LineRange
	}{
		{"Some prose\n------- SEARCH\nb\n", file, LineRange{}},
		{"=======\n", "a\nc\nd\ne\n", LineRange{2, 1}},
		{"B1\nB", "a\nB1\nB\nc\nd\ne\n", LineRange{2, 3}},
		{"2\n+++", "a\nB1\nB2\nc\nd\ne\n", LineRange{2, 3}},
		{"++++ REPLACE\n", "a\nB1\nB2\nc\nd\ne\n", LineRange{}},
		{sr("d\n", "D\n"), "a\nB1\nB2\nc\nD\ne\n", LineRange{}},
	}
	for _, st := range steps {
		pv, err := s.Feed(st.chunk)
		if err != nil {
			t.Fatalf("Feed(%q) error: %v", st.chunk, err)
		}
		if pv.Text() != st.text || pv.Growing != st.growing {
			t.Errorf("Feed(%q) = %q growing %v; want %q growing %v", st.chunk, pv.Text(), pv.Growing, st.text, st.growing)
		}
	}
}

// TestStreamOutOfOrder covers a divergence: an out-of-order block grows in
// place of its lines (Done rebuilt once) where Cline v1 shows it only at the end.
func TestStreamOutOfOrder(t *testing.T) {
	s, _ := NewStream("first\nsecond\nthird\nfourth\n", FormatSearchReplace)
	before, err := s.Feed(sr("fourth\n", "new fourth\n") + "------- SEARCH\nsecond\n=======\nnew s")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := before.Text(), "first\nnew s\nthird\nfourth\n"; got != want || before.Growing != (LineRange{2, 2}) {
		t.Errorf("growing out-of-order block: Text() = %q growing %v; want %q growing {2 2}", got, before.Growing, want)
	}
	doneBefore := fmt.Sprint(before.Done)
	pv, err := s.Feed("econd\n+++++++ REPLACE\n")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := pv.Text(), "first\nnew second\nthird\nnew fourth\n"; got != want || pv.Growing != (LineRange{}) {
		t.Errorf("after the block: Text() = %q growing %v; want %q and no growing range", got, pv.Growing, want)
	}
	if fmt.Sprint(before.Done) != doneBefore {
		t.Errorf("an earlier Preview's Done changed from %s to %v", doneBefore, before.Done)
	}
}

// TestStreamReindents covers a divergence: line-trimmed matches re-indent the
// replacement as it streams.
func TestStreamReindents(t *testing.T) {
	s, _ := NewStream("f {\n\tx := 1\n}\n", FormatSearchReplace)
	pv, err := s.Feed("------- SEARCH\nx := 1\n=======\nx := 2\ny")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := pv.Text(), "f {\n\tx := 2\n\ty\n}\n"; got != want {
		t.Errorf("Text() = %q; want %q", got, want)
	}
	for _, c := range []string{"z", "z", "y"} {
		pv, err = s.Feed(c)
		if err != nil {
			t.Fatal(err)
		}
	}
	if pv.Partial != "\tyzzy" {
		t.Errorf("Partial = %q; want %q", pv.Partial, "\tyzzy")
	}
}

func TestStreamFailsWhenSearchCompletes(t *testing.T) {
	s, _ := NewStream("a\nb\n", FormatSearchReplace)
	if _, err := s.Feed("------- SEARCH\nzzz\n====="); err != nil {
		t.Fatalf("Feed before the separator line ends: %v; want no error", err)
	}
	_, err := s.Feed("==\n")
	var me *MatchError
	if !errors.As(err, &me) || me.Kind != FailNoMatch || me.Block != 1 {
		t.Fatalf("Feed(separator) error = %v; want FailNoMatch for block 1", err)
	}
	if _, again := s.Feed("more\n"); again != err {
		t.Errorf("Feed after a failure = %v; want the same error", again)
	}
}

func TestStreamRefusesOtherFormats(t *testing.T) {
	var fe *FormatError
	if _, err := NewStream("x", FormatEdit); !errors.As(err, &fe) {
		t.Errorf("NewStream(edit) error = %v; want a *FormatError", err)
	}
	var ce *ContentError
	if _, err := NewStream("a\x00b", FormatWrite); !errors.As(err, &ce) {
		t.Errorf("NewStream(binary) error = %v; want a *ContentError", err)
	}
}

// streamCases are (file, payload) pairs whose Close must equal Apply.
var streamCases = []struct{ file, payload string }{
	{"a\nb\nc\n", sr("b\n", "B\n")},
	{"a\r\nb\r\nc\r\n", "------- SEARCH\r\nb\r\n=======\r\nB\r\nB2\r\n+++++++ REPLACE\r\n"},
	{"\uFEFFa\nb\nc", sr("c\n", "C\n", "a\n", "A\n")},
	{"f {\n\treturn a\n}\n", sr("return a\n", "")},
	{"a\nb\nc\n", "<<<<<<< SEARCH\n2 | b\n=======\n2 | B\n>>>>>>> REPLACE"},
	{"a\nb\nc\n", "<<<<<<< SEARCH\n2 | b\n=======\n2 | B\nX\n>>>>>>> REPLACE"},
	{"", sr("", "new\nfile\n")},
	{"a\nb\n", "```\n------- SEARCH\nb\n=======\nB\n```\n"},
	{"a\nb\n", sr("zzz\n", "B\n")},
	{"a\nb\n", "------- SEARCH\nb\n+++++++ REPLACE\n"},
	{"write me\n", "plain text, no blocks\n"},
	{"a\nb\nc\n", "------- SEARCH\nb\n=======\nB\n+++++++ REPLAC"},
	{"a\nb\nc\n", "------- SEARCH\r\nb\r\n=======\r\nB\r"},
	{"a\nb\nb\n", sr("b\n", "B\n", "b\n", "B\n") + "------- SEA"},
	{"a\nb\nc\n", "------- SEARCH\nb\n=======\nB\n\\"},
	{"\tb\nb\n", "<<<<<<< SEARCH\n:start_line:2\n-------\nb\n=======\nB"},
}

func TestStreamCloseEqualsApply(t *testing.T) {
	for _, f := range []Format{FormatSearchReplace, FormatWrite} {
		for _, c := range streamCases {
			for _, n := range []int{1, 2, 3, 7, 1 << 20} {
				t.Run(fmt.Sprintf("%s/%q/%d", f, c.payload, n), func(t *testing.T) {
					checkStreamClose(t, f, c.file, c.payload, n)
				})
			}
		}
	}
}

func checkStreamClose(t *testing.T, f Format, file, payload string, n int) {
	t.Helper()
	var e Edit = Write{Content: payload}
	if f == FormatSearchReplace {
		e = SearchReplace{Text: payload}
	}
	want, wantErr := Apply(file, e)
	s, err := NewStream(file, f)
	if err != nil {
		if wantErr == nil {
			t.Fatalf("NewStream(%q) error: %v", file, err)
		}
		return
	}
	if n <= 0 {
		n = 1
	}
	_, feedErr := feedAll(t, s, payload, n)
	for range 2 { // a second Close gives the same result
		got, err := s.Close()
		if fmt.Sprint(err) != fmt.Sprint(wantErr) || got.Content != want.Content || fmt.Sprint(got.Matches) != fmt.Sprint(want.Matches) || fmt.Sprint(got.Incomplete) != fmt.Sprint(want.Incomplete) {
			t.Fatalf("Close() = %q %v %v, %v; Apply(%q, %q) = %q %v %v, %v", got.Content, got.Matches, got.Incomplete, err, file, payload, want.Content, want.Matches, want.Incomplete, wantErr)
		}
	}
	if feedErr != nil && wantErr == nil {
		t.Fatalf("Feed error %v but Apply(%q, %q) succeeds", feedErr, file, payload)
	}
}

func FuzzStream(f *testing.F) {
	for _, c := range streamCases {
		f.Add(c.file, c.payload, uint8(3))
	}
	f.Fuzz(func(t *testing.T, file, payload string, n uint8) {
		checkStreamClose(t, FormatSearchReplace, file, payload, int(n))
	})
}

func TestStreamCRLFSplitAcrossChunks(t *testing.T) {
	s, _ := NewStream("", FormatWrite)
	for _, c := range []string{"a\r", "\nb\r", "\r\n"} {
		if _, err := s.Feed(c); err != nil {
			t.Fatal(err)
		}
	}
	pv, _ := s.Feed("")
	if got := strings.Join(pv.Done, ""); got != "a\nb\n\n" {
		t.Errorf("Done = %q; want %q", got, "a\nb\n\n")
	}
}

// TestStreamRooLineNumbers: REPLACE lines lose Roo's "N | " prefixes while
// every one has them; when one does not, the block's lines are rebuilt on a
// new array at its end marker.
func TestStreamRooLineNumbers(t *testing.T) {
	s, _ := NewStream("a\nb\nc\n", FormatSearchReplace)
	first, err := s.Feed("<<<<<<< SEARCH\n2 | b\n=======\n2 | B\n")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := first.Text(), "a\nB\nc\n"; got != want {
		t.Errorf("numbered REPLACE line: Text() = %q; want %q", got, want)
	}
	pv, err := s.Feed("3 x\n>>>>>>> REPLACE\n")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := pv.Text(), "a\n2 | B\n3 x\nc\n"; got != want {
		t.Errorf("after an unnumbered line: Text() = %q; want %q", got, want)
	}
	if got := strings.Join(first.Done, ""); got != "a\nB\n" {
		t.Errorf("an earlier Preview's Done changed to %q", got)
	}
	res, err := s.Close()
	if err != nil || res.Content != "a\n2 | B\n3 x\nc\n" {
		t.Errorf("Close() = %q, %v; want %q", res.Content, err, "a\n2 | B\n3 x\nc\n")
	}
}

// TestStreamPartialLineShownUnlessMarker: the unfinished last line of a
// growing REPLACE section is hidden only while it could still become a
// marker, the rule Apply uses to drop a cut-off last line.
func TestStreamPartialLineShownUnlessMarker(t *testing.T) {
	tests := []struct {
		partial, want string
	}{
		{"- ite", "- ite"},
		{"+ x", "+ x"},
		{"== x", "== x"},
		{"-- SEARCH", "-- SEARCH"},
		{"x", "x"},
		{"-", ""},
		{"+++++++ REPL", ""},
		{">>>>>>> ", ""},
		{"------- SEA", ""},
		{"==", ""},
		{"=======", ""},
		{"+++++++ REPLACE", ""},
		{`\=====`, ""},
		{":start_li", ""},
	}
	for _, tt := range tests {
		s, _ := NewStream("a\nb\nc\n", FormatSearchReplace)
		pv, err := s.Feed("------- SEARCH\nb\n=======\n" + tt.partial)
		if err != nil || pv.Partial != tt.want {
			t.Errorf("Feed(…%q).Partial = %q, %v; want %q", tt.partial, pv.Partial, err, tt.want)
		}
	}
}

// TestStreamPreviewBeforeFirstFeed: a stream shown before any chunk is the
// original whole, its lines all in Tail from TailStart, as LiveDiff and
// the window take every preview to be.
func TestStreamPreviewBeforeFirstFeed(t *testing.T) {
	orig := "one\ntwo\nthree\n"
	for _, f := range []Format{FormatWrite, FormatSearchReplace} {
		s, err := NewStream(orig, f)
		if err != nil {
			t.Fatal(err)
		}
		p := s.Preview()
		if p.Text() != orig || len(p.Tail) != 3-p.TailStart || len(p.Done) != p.TailStart {
			t.Errorf("%s: before the first chunk: text %q, Done %d, Tail %d from %d; want the original, its lines in Tail from TailStart", f, p.Text(), len(p.Done), len(p.Tail), p.TailStart)
		}
	}
}
