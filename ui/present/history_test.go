package present

import (
	"testing"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/journal"
)

// TestDiffNote: the note over the History tab's diff names what it shows;
// an edit that did not apply says so, never "what was proposed" of a file
// drawn unchanged.
func TestDiffNote(t *testing.T) {
	notApplied := review.HistoryFile{FileDiff: journal.FileDiff{Path: "/w/a.go", NotApplied: true}}
	changed := review.HistoryFile{FileDiff: journal.FileDiff{Path: "/w/b.go", Added: 1}}
	for _, c := range []struct {
		e     journal.Entry
		diffs []review.HistoryFile
		want  string
	}{
		{journal.Entry{Ref: "4", Decision: decision.Approved}, []review.HistoryFile{changed}, "What checkpoint 4 changed."},
		{journal.Entry{Ref: "4", Decision: decision.Approved}, nil, "What checkpoint 4 changed: no differences."},
		{journal.Entry{Ref: "d7", Decision: decision.Rejected}, []review.HistoryFile{changed}, "What was proposed (rejected: nothing was written)."},
		{journal.Entry{Ref: "d8", Decision: decision.Failed}, []review.HistoryFile{changed}, "What was proposed (failed: nothing was written)."},
		{journal.Entry{Ref: "d9", Decision: decision.Failed}, []review.HistoryFile{notApplied, notApplied},
			"The edit did not apply (failed): it proposed no text and nothing was written; its files are shown as they were."},
	} {
		if got := DiffNote(EntryDiff(c.e), c.diffs); got != c.want {
			t.Errorf("DiffNote(%s %s, %d files) = %q; want %q", c.e.Ref, c.e.Decision, len(c.diffs), got, c.want)
		}
	}
}
