package ui

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/journal"
)

// TestHistoryOfAnOlderJournalsFailedEdit: a journal written before
// failures had kinds holds an edit that did not apply as the desk
// journaled it then (the empty text as "proposed", the outcome's words
// only). The History tab drew it as the whole file deleted (a.txt +0 −3);
// it shows the file unchanged and says the edit did not apply.
func TestHistoryOfAnOlderJournalsFailedEdit(t *testing.T) {
	h := newHistoryHarness(t)
	ctx := context.Background()
	path := filepath.Join(h.root, "a.txt")
	base := "one\ntwo\nthree\n"
	h.write("a.txt", base)
	why := "The edit to a.txt was not applied: SEARCH block 1 does not match the file.\n"
	if err := h.j.RecordProposal(ctx, journal.ProposalRecord{ID: "p-old", Agent: "claude", Session: "s1", Created: baseTime,
		Format: "search-replace", Payload: []byte("<<<<<<< SEARCH\nfour\n"), Status: "failed", Reason: why,
		Files: []journal.ProposalFileRecord{{Path: path, Root: h.root, BaseExists: true, Base: []byte(base)}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.j.RecordDecision(ctx, journal.DecisionRecord{ProposalID: "p-old", Decision: decision.Failed, Feedback: why}); err != nil {
		t.Fatal(err)
	}
	if err := h.j.RecordOutcome(ctx, "p-old", []byte(`{"id":"p-old","status":"failed","files":[],"error":"The edit to a.txt was not applied."}`), baseTime); err != nil {
		t.Fatal(err)
	}
	hist := h.History()
	hist.Open(1)
	if e := hist.Entries(); len(e) != 1 || e[0].Badge != "failed" {
		t.Fatalf("timeline %+v; want the failed entry", e)
	}
	if files := hist.Files(); len(files) != 1 || files[0] != "a.txt  +0 −0" {
		t.Errorf("files %q; want a.txt unchanged (+0 −0), not deleted", files)
	}
	if d := hist.Diffs(); !diffsAre(d, base, base) {
		t.Errorf("the failed entry's diff %+v; want the file as it was on both sides", d)
	}
	if note := hist.Note(); !strings.Contains(note, "did not apply (failed)") || strings.Contains(note, "What was proposed") {
		t.Errorf("note %q; want it to say the edit did not apply", note)
	}
}
