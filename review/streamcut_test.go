package review_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/journal"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// streamedDetail is the history's account of the desk's only proposal,
// with its first file's proposed text.
func streamedDetail(t *testing.T, d *reviewtest.Desk) (journal.Detail, string) {
	t.Helper()
	page, err := d.Journal.History(context.Background(), journal.Filter{})
	if err != nil || len(page.Entries) != 1 {
		t.Fatalf("History: %d entries, %v; want the one decision", len(page.Entries), err)
	}
	det, err := d.Journal.Detail(context.Background(), page.Entries[0].Ref)
	if err != nil || len(det.Files) != 1 {
		t.Fatalf("Detail: %+v, %v", det, err)
	}
	proposed, err := d.Journal.Blob(context.Background(), det.Files[0].Proposed)
	if err != nil {
		t.Fatal(err)
	}
	return det, string(proposed)
}

// startStream opens a streaming write of a.txt ("1\n2\n3\n4\n") and sends
// its first two lines.
func startStream(t *testing.T) (*reviewtest.Desk, review.Proposal) {
	t.Helper()
	d := reviewtest.NewDesk(t, "", "")
	reviewtest.WriteFile(t, d.Root+"/a.txt", "1\n2\n3\n4\n")
	p, err := d.Propose(context.Background(), review.Request{Agent: "a", Format: engine.FormatWrite, Path: "a.txt", Stream: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Feed(p.ID, "one\ntwo\n"); err != nil {
		t.Fatal(err)
	}
	return d, p
}

// TestStreamRejectedMidwayKeepsWhatArrived: a stream rejected before it
// finished is, in the window and the history, what the person saw (the
// lines that had arrived, then the original's), not an empty proposal
// that deletes every line; and the agent is told it was stopped.
func TestStreamRejectedMidwayKeepsWhatArrived(t *testing.T) {
	d, p := startStream(t)
	pv, _ := d.Preview(p.ID)
	shownFile := review.File{Path: p.Files[0].Path, Base: p.Files[0].Base, Proposed: pv.Text()}
	hs := shownFile.Hunks()
	o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Rejected, Feedback: "not this way",
		Seen:     map[string][]string{"a.txt": {hs[0].ID}},
		Comments: []decision.Comment{{Path: "a.txt", Side: decision.SideNew, Line: 2, Text: "why two?"}}})
	if !o.Unfinished || !strings.Contains(agenttext.Outcome(o), "rejected it while you were still sending it") {
		t.Errorf("outcome unfinished %v, text %q; want it to say the edit was rejected while still being sent", o.Unfinished, agenttext.Outcome(o))
	}
	const shown = "one\ntwo\n3\n4\n"
	if got, _ := d.Get(p.ID); !got.Unfinished || got.Files[0].Proposed != shown {
		t.Errorf("proposal unfinished %v, proposed %q; want %q", got.Unfinished, got.Files[0].Proposed, shown)
	}
	det, proposed := streamedDetail(t, d)
	if proposed != shown || string(det.Payload) != "one\ntwo\n" {
		t.Errorf("history: proposed %q, payload %q; want %q and what had arrived", proposed, det.Payload, shown)
	}
	// The hunks seen and the comments are of the text as it was shown.
	if seen, total := decision.SeenCount(det.Seen); seen != 1 || total != 1 {
		t.Errorf("history: %d of %d hunks seen; want the one hunk shown, seen", seen, total)
	}
	if len(o.Comments) != 1 || o.Comments[0].Quote != "two\n" {
		t.Errorf("comments %+v; want the one on line 2 of what was shown, quoting it", o.Comments)
	}
}

// TestStreamWithdrawnMidwayKeepsWhatArrived: the same for a stream whose
// agent went away before finishing.
func TestStreamWithdrawnMidwayKeepsWhatArrived(t *testing.T) {
	d, p := startStream(t)
	if err := d.Withdraw(context.Background(), p.ID, "the agent disconnected"); err != nil {
		t.Fatal(err)
	}
	o, err := d.Wait(context.Background(), p.ID)
	if err != nil || o.Status != decision.Withdrawn || !o.Unfinished {
		t.Errorf("outcome %s unfinished %v, %v; want withdrawn, unfinished", o.Status, o.Unfinished, err)
	}
	if _, proposed := streamedDetail(t, d); proposed != "one\ntwo\n3\n4\n" {
		t.Errorf("history: proposed %q; want what had arrived, then the original's rest", proposed)
	}
}

// TestFinishedStreamIsJournaledWithItsText: the history of a streamed
// proposal holds its payload and proposed text, which arrive after the
// proposal was first journaled.
func TestFinishedStreamIsJournaledWithItsText(t *testing.T) {
	d, p := startStream(t)
	if err := d.Feed(p.ID, "three\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Finish(context.Background(), p.ID); err != nil {
		t.Fatal(err)
	}
	o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Rejected})
	if o.Unfinished || strings.Contains(agenttext.Outcome(o), "still sending") {
		t.Errorf("a finished stream's rejection: unfinished %v, text %q", o.Unfinished, agenttext.Outcome(o))
	}
	if det, proposed := streamedDetail(t, d); proposed != "one\ntwo\nthree\n" || string(det.Payload) != "one\ntwo\nthree\n" {
		t.Errorf("history: proposed %q, payload %q; want the streamed text", proposed, det.Payload)
	}
}

// TestJournaledOutcomeLeavesTheFinalContentToTheCheckpoint: the journal
// keeps what the agent was told without each file's final content, which
// the checkpoint holds (compressed, named by finalSha256): whole, it grew
// the journal by the file's size at every decision.
func TestJournaledOutcomeLeavesTheFinalContentToTheCheckpoint(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	big := strings.Repeat("a line of a big file\n", 50_000)
	reviewtest.WriteFile(t, d.Root+"/big.txt", big)
	p := d.MustPropose(t, engine.FormatWrite, "big.txt", "one new line\n"+big)
	o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Approved})
	if len(o.Files[0].FinalContent) != len(big)+13 {
		t.Fatalf("the agent's outcome has %d bytes of final content; want the whole file", len(o.Files[0].FinalContent))
	}
	page, err := d.Journal.History(context.Background(), journal.Filter{})
	if err != nil || len(page.Entries) != 1 {
		t.Fatal(err)
	}
	det, err := d.Journal.Detail(context.Background(), page.Entries[0].Ref)
	if err != nil {
		t.Fatal(err)
	}
	var kept map[string]any
	if err := json.Unmarshal(det.Outcome, &kept); err != nil {
		t.Fatal(err)
	}
	f := kept["files"].([]any)[0].(map[string]any)
	if len(det.Outcome) > 4096 || f["finalContent"] != nil || f["finalSha256"] != o.Files[0].FinalSHA256 || kept["status"] != "approved" {
		t.Errorf("journaled outcome of %d bytes: %s…; want the outcome without the final content, its sha256 kept", len(det.Outcome), det.Outcome[:min(len(det.Outcome), 300)])
	}
	if final, err := d.Journal.Blob(context.Background(), det.Files[0].Final); err != nil || string(final) != o.Files[0].FinalContent {
		t.Errorf("the checkpoint's final: %d bytes, %v; want the final content", len(final), err)
	}
}
