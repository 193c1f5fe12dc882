package review_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
	"github.com/diffdesk/diffdesk/review/workspace"
	"pgregory.net/rapid"
)

// TestWriteFailureKeepsTheFacts: a write attempt's failure is what stopped
// it, where and why, not the error's text: a stale file's paths, the
// workspace's refusal, the system's reason for a file that could not be
// written (its path apart), the journal's; anything else the desk's reason.
func TestWriteFailureKeepsTheFacts(t *testing.T) {
	io := &fs.PathError{Op: "rename", Path: "/w/.a.go.tmp123", Err: errors.New("no space left on device")}
	tests := []struct {
		err  error
		want review.Failure
	}{
		{&review.StaleError{ID: "p1", Paths: []string{"/w/a.go"}}, review.Failure{Stop: review.WriteStale, Paths: []string{"/w/a.go"}}},
		{fmt.Errorf("checking: %w", &workspace.RefusalError{Path: "/w/a.go", Rule: workspace.RuleReadOnly, Detail: "read-only"}),
			review.Failure{Stop: review.WriteRefused, Path: "/w/a.go", Rule: workspace.RuleReadOnly, Err: "read-only"}},
		{review.WriteErr("/w/a.go", io), review.Failure{Stop: review.WriteIO, Path: "/w/a.go", Err: "no space left on device"}},
		{review.JournalErr(errors.New("database is locked"), false), review.Failure{Stop: review.WriteJournal, Err: "database is locked"}},
		{review.JournalErr(errors.New("disk I/O error"), true), review.Failure{Stop: review.WriteUnfinished, Err: "disk I/O error"}},
		{errors.New("review: a.go has no hunk \"h9\""), review.Failure{Stop: review.WriteOther, Err: "review: a.go has no hunk \"h9\""}},
	}
	for _, tt := range tests {
		got := review.WriteFailure(tt.err)
		tt.want.Kind = review.FailWrite
		if got.Kind != tt.want.Kind || got.Stop != tt.want.Stop || got.Path != tt.want.Path || !slices.Equal(got.Paths, tt.want.Paths) ||
			got.Rule != tt.want.Rule || got.Err != tt.want.Err {
			t.Errorf("WriteFailure(%v) = %+v; want %+v", tt.err, *got, tt.want)
		}
	}
}

// TestAWriteTheJournalCannotRecordWritesNothing: a decision the journal
// cannot record writes nothing, the proposal waits again, and its failure
// says so: the journal stopped it, not an error's text.
func TestAWriteTheJournalCannotRecordWritesNothing(t *testing.T) {
	ctx := context.Background()
	d := reviewtest.NewDesk(t, "", "")
	path := filepath.Join(d.Root, "a.txt")
	reviewtest.WriteFile(t, path, "one\n")
	p := d.MustPropose(t, engine.FormatWrite, "a.txt", "two\n")
	d.Journal.Close()
	if _, err := d.Decide(ctx, p.ID, review.Decision{Verdict: decision.Approved}); err == nil {
		t.Fatal("an approval the journal cannot record was carried out")
	}
	if got := reviewtest.ReadFile(t, path); got != "one\n" {
		t.Errorf("the file holds %q; want it untouched", got)
	}
	q, _ := d.Get(p.ID)
	if q.State != review.StatePending || q.Failure == nil || q.Failure.Stop != review.WriteJournal {
		t.Fatalf("after the write stopped: state %s, failure %+v; want pending, stopped by the journal", q.State, q.Failure)
	}
	if text := agenttext.Failure(q.Failure); !strings.HasPrefix(text, "The journal could not record the decision") || !strings.Contains(text, "Nothing was written") {
		t.Errorf("the failure reads %q; want the journal named and nothing written", text)
	}
}

// TestRefusalSaysWhatTheSenderWasTold: a stream refused at the file-size
// limit fails, and what its agent reads of the failure is, word for word,
// what the refused chunk was answered — for any limit and chunk size —
// naming the bytes streamed, over twice the limit.
func TestRefusalSaysWhatTheSenderWasTold(t *testing.T) {
	ctx := context.Background()
	rapid.Check(t, func(rt *rapid.T) {
		limit := rapid.IntRange(1, 4096).Draw(rt, "max_file_bytes")
		chunk := rapid.IntRange(1, 3*limit).Draw(rt, "chunk")
		d := reviewtest.NewDesk(t, "", fmt.Sprintf("[limits]\nmax_file_bytes = %d\n", limit))
		p, err := d.Propose(ctx, review.Request{Format: engine.FormatWrite, Path: "big.txt", Stream: true})
		if err != nil {
			rt.Fatal(err)
		}
		sent, refused := 0, error(nil)
		for refused == nil {
			if refused = d.Feed(p.ID, strings.Repeat("y", chunk)); refused == nil {
				sent += chunk
			}
		}
		o := reviewtest.WaitOutcome(t, d.Desk, p.ID)
		if o.Status != decision.Failed || o.Failure == nil || o.Failure.Kind != review.FailRefused {
			rt.Fatalf("outcome %s %+v; want failed, refused", o.Status, o.Failure)
		}
		if got := agenttext.Failure(o.Failure); got != refused.Error() {
			rt.Fatalf("the outcome says\n%q\nthe refused chunk was answered\n%q", got, refused.Error())
		}
		if streamed := sent + chunk; sent > 2*limit || streamed <= 2*limit || o.Failure.Streamed != int64(streamed) || o.Failure.Limit != int64(limit) {
			rt.Fatalf("refused at %d bytes (limit %d, %d accepted); the failure says %d of %d", streamed, limit, sent, o.Failure.Streamed, o.Failure.Limit)
		}
	})
}
