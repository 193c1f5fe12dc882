package present

import (
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/trivial"
)

func TestLineSpanAndCardText(t *testing.T) {
	for _, c := range []struct {
		start, end int
		want       string
	}{{5, 4, "an insertion before line 5"}, {3, 3, "line 3"}, {3, 7, "lines 3–7"}} {
		if got := LineSpan(c.start, c.end); got != c.want {
			t.Errorf("LineSpan(%d, %d) = %q; want %q", c.start, c.end, got, c.want)
		}
	}
	if got := CardText("\tx  \n"); got != "    x··" {
		t.Errorf("CardText of a tab and trailing spaces = %q", got)
	}
	long := strings.Repeat("l\n", cardLines+3)
	if got := CardText(long); !strings.HasSuffix(got, "… 3 more lines") || strings.Count(got, "\n") != cardLines {
		t.Errorf("CardText of %d lines = %q; want %d lines and how many more", cardLines+3, got, cardLines)
	}
	if got := CandidateText(engine.Candidate{StartLine: 2, EndLine: 4, Similarity: 0.8}); got != "lines 2–4 · 80% similar" {
		t.Errorf("CandidateText = %q", got)
	}
}

func TestLineHint(t *testing.T) {
	for _, c := range []struct {
		typed string
		want  string
	}{{"", ""}, {"12", ""}, {"1a", "Only digits: a line number from 1 to 20."}, {"0", "No line 0: the file has lines 1 to 20."}, {"21", "No line 21: the file has lines 1 to 20."}} {
		if got := LineHint(c.typed, 20); got != c.want {
			t.Errorf("LineHint(%q) = %q; want %q", c.typed, got, c.want)
		}
	}
}

func TestUnseenQuestion(t *testing.T) {
	if got := UnseenQuestion(nil, review.Unseen{}); got != "" {
		t.Errorf("nothing unseen asks %q", got)
	}
	got := UnseenQuestion([]string{"a.go", "b.go"}, review.Unseen{Unseen: 2, Total: 3, Files: []string{"a.go"}})
	want := "2 of 3 hunks were never on screen (a.go, never opened).\nYou have not opened b.go.\nApprove anyway?"
	if got != want {
		t.Errorf("UnseenQuestion = %q; want %q", got, want)
	}
}

func TestLineCountsAndKinds(t *testing.T) {
	for _, c := range []struct {
		streaming, proposals int
		want                 string
	}{{0, 2, "+3 −1"}, {2, 2, "streaming"}, {1, 2, "+3 −1, 1 streaming"}} {
		if got := LineCounts(3, 1, c.streaming, c.proposals); got != c.want {
			t.Errorf("LineCounts(%d of %d streaming) = %q; want %q", c.streaming, c.proposals, got, c.want)
		}
	}
	if got := TrivialKinds(map[trivial.Kind]int{trivial.Comment: 1, trivial.Whitespace: 2}); got != "2 whitespace only, 1 comment only" {
		t.Errorf("TrivialKinds = %q", got)
	}
}

func TestTouched(t *testing.T) {
	in := review.Interdiff{Status: decision.Rejected}
	if got := Touched(in); got != "rejected" {
		t.Errorf("Touched without comments = %q", got)
	}
	in.Comments = []review.TouchedComment{{Touched: true}, {}}
	if got := Touched(in); got != "1 of 2 comments touched" {
		t.Errorf("Touched = %q", got)
	}
}
