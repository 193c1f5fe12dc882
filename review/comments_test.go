package review_test

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/journal"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestDecideWithCommentsQuotesTheLines: every verdict carries comments;
// each comes back in the outcome with the lines it is on — the base's for
// "old", the proposal as sent for "new", even when the person edited the
// text or kept only some hunks — and in the journal with the decision.
func TestDecideWithCommentsQuotesTheLines(t *testing.T) {
	base := "package app\n\nfunc A() {}\n\nfunc B() {}\n\n\n\n\n\nfunc C() {}\n"
	// Two hunks: A → A2 and C → C2.
	proposed := strings.Replace(strings.Replace(base, "A()", "A2()", 1), "C()", "C2()", 1)
	tests := []struct {
		name string
		dec  func(d *reviewtest.Desk, p review.Proposal) review.Decision
		want decision.Verdict
	}{
		{"approved", func(*reviewtest.Desk, review.Proposal) review.Decision {
			return review.Decision{Verdict: decision.Approved}
		}, decision.Approved},
		{"rejected", func(*reviewtest.Desk, review.Proposal) review.Decision {
			return review.Decision{Verdict: decision.Rejected}
		}, decision.Rejected},
		{"edited", func(_ *reviewtest.Desk, p review.Proposal) review.Decision {
			return review.Decision{Verdict: decision.ApprovedEdited, Edited: map[string]string{p.Files[0].Path: "// edited away\n" + proposed}}
		}, decision.ApprovedEdited},
		{"partial", func(_ *reviewtest.Desk, p review.Proposal) review.Decision {
			return review.Decision{Verdict: decision.Partial, Hunks: map[string][]string{p.Files[0].Path: {p.Files[0].Hunks()[1].ID}}}
		}, decision.Partial},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := reviewtest.NewDesk(t, "", "")
			path := filepath.Join(d.Root, "app.go")
			reviewtest.WriteFile(t, path, base)
			p := d.MustPropose(t, engine.FormatWrite, "app.go", proposed)
			dec := tt.dec(d, p)
			dec.Comments = []decision.Comment{
				{Path: path, Side: decision.SideNew, Line: 11, Text: "  C2 needs a doc comment\n"},
				{Path: "app.go", Side: decision.SideOld, Line: 3, EndLine: 5, Text: "why rename A?"},
			}
			o := d.MustDecide(t, p.ID, dec)
			want := []decision.Comment{
				{Path: path, Side: decision.SideOld, Line: 3, EndLine: 5, Quote: "func A() {}\n\nfunc B() {}\n", Text: "why rename A?"},
				{Path: path, Side: decision.SideNew, Line: 11, EndLine: 11, Quote: "func C2() {}\n", Text: "C2 needs a doc comment"},
			}
			if o.Status != tt.want || !reflect.DeepEqual(o.Comments, want) {
				t.Fatalf("outcome %s, comments %+v; want %s, %+v", o.Status, o.Comments, tt.want, want)
			}
			for _, s := range []string{"why rename A?", "```\nfunc C2() {}\n```\nComment: C2 needs a doc comment", "Lines 3–5 of the file before your edit"} {
				if !strings.Contains(agenttext.Outcome(o), s) {
					t.Errorf("agent text lacks %q:\n%s", s, agenttext.Outcome(o))
				}
			}
			page, err := d.Journal.History(context.Background(), journal.Filter{})
			if err != nil || len(page.Entries) == 0 {
				t.Fatalf("History = %+v, %v", page, err)
			}
			det, err := d.Journal.Detail(context.Background(), page.Entries[0].Ref)
			if err != nil || !reflect.DeepEqual(det.Comments, want) {
				t.Errorf("journal comments = %+v, %v; want %+v", det.Comments, err, want)
			}
		})
	}
}

// TestDecideRefusesBadComments: a comment that names no file of the
// proposal, no side, lines outside the text, or no text is refused with an
// error naming the comment and what is wrong, and the proposal still waits.
func TestDecideRefusesBadComments(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	reviewtest.WriteFile(t, filepath.Join(d.Root, "a.txt"), "one\ntwo\n")
	p := d.MustPropose(t, engine.FormatWrite, "a.txt", "one\ntwo\nthree\n")
	created := d.MustPropose(t, engine.FormatWrite, "new.txt", "x\n")
	ok := decision.Comment{Path: "a.txt", Side: decision.SideNew, Line: 1, Text: "fine"}
	tests := []struct {
		name string
		id   string
		c    decision.Comment
		want string
	}{
		{"not a file of the proposal", p.ID, decision.Comment{Path: "b.txt", Side: "new", Line: 1, Text: "t"}, "comment 2 (on b.txt): not a file of proposal"},
		{"no side", p.ID, decision.Comment{Path: "a.txt", Side: "left", Line: 1, Text: "t"}, `side "left" is neither "old"`},
		{"line 0", p.ID, decision.Comment{Path: "a.txt", Side: "new", Line: 0, Text: "t"}, "line 0: lines count from 1"},
		{"past the end", p.ID, decision.Comment{Path: "a.txt", Side: "old", Line: 2, EndLine: 3, Text: "t"}, "line 3 is past the end of the old side, which has 2 lines"},
		{"end before line", p.ID, decision.Comment{Path: "a.txt", Side: "new", Line: 3, EndLine: 2, Text: "t"}, "endLine 2 is before line 3"},
		{"empty text", p.ID, decision.Comment{Path: "a.txt", Side: "new", Line: 1, Text: " \n"}, "the text is empty"},
		{"long text", p.ID, decision.Comment{Path: "a.txt", Side: "new", Line: 1, Text: strings.Repeat("x", review.MaxCommentBytes+1)}, "a comment holds at most"},
		{"old side of a new file", created.ID, decision.Comment{Path: "new.txt", Side: "old", Line: 1, Text: "t"}, "the old side is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			first := ok
			if tt.id == created.ID {
				first = decision.Comment{Path: "new.txt", Side: decision.SideNew, Line: 1, Text: "fine"}
			}
			_, err := d.Decide(context.Background(), tt.id, review.Decision{Verdict: decision.Rejected, Comments: []decision.Comment{first, tt.c}})
			var ce *review.CommentError
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Decide = %v; want a *CommentError saying %q", err, tt.want)
			}
			if q, _ := d.Get(tt.id); q.State != review.StatePending {
				t.Errorf("after a refused comment the proposal is %s; want pending", q.State)
			}
		})
	}
	many := make([]decision.Comment, review.MaxComments+1)
	for i := range many {
		many[i] = ok
	}
	if _, err := d.Decide(context.Background(), p.ID, review.Decision{Verdict: decision.Rejected, Comments: many}); err == nil || !strings.Contains(err.Error(), "at most 100") {
		t.Errorf("Decide(%d comments) = %v; want an error naming the limit", len(many), err)
	}
}
