package journal

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review/decision"
)

// TestOlderJournalsFailedEdits: a journal written before failures had
// kinds (the outcome kept only the text its agent read, "error") holds an
// edit that did not apply as the desk journaled it then — the file's base
// and the empty text as "proposed", a failed decision with no approved
// text. Its history showed the whole file deleted (+0 −3), which the agent
// never proposed. An approval turned failed (its agent did not write it)
// and an approval whose write was refused keep the text that was proposed.
func TestOlderJournalsFailedEdits(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "journal.db")
	old, err := openAt(ctx, path, len(journalMigrations))
	if err != nil {
		t.Fatal(err)
	}
	base, proposed := []byte("one\ntwo\nthree\n"), []byte("one\n2\nthree\n")
	older := func(id, errText string, prop []byte, approved bool) {
		t.Helper()
		file := "/w/" + id + ".txt"
		if err := old.RecordProposal(ctx, ProposalRecord{ID: id, Agent: "claude", Session: "s1", Format: "search-replace",
			Payload: []byte("<<<<<<< SEARCH\n…"), Status: "failed", Reason: errText,
			Files: []ProposalFileRecord{{Path: file, Root: "/w", BaseExists: true, Base: base, Proposed: prop}}}); err != nil {
			t.Fatal(err)
		}
		rec := DecisionRecord{ProposalID: id, Decision: decision.Failed, Feedback: errText}
		if approved { // as journal.NotWritten leaves an approval: its verdict turned failed
			rec.Files = []DecisionFile{{Path: file, Approved: prop}}
		}
		if _, err := old.RecordDecision(ctx, rec); err != nil {
			t.Fatal(err)
		}
		files := "[]"
		if approved {
			files = fmt.Sprintf(`[{"path":%q,"written":false,"finalSha256":""}]`, file)
		}
		js := fmt.Sprintf(`{"id":%q,"status":"failed","files":%s,"error":%q}`, id, files, errText)
		if err := old.RecordOutcome(ctx, id, []byte(js), time.Unix(5, 0)); err != nil {
			t.Fatal(err)
		}
	}
	older("nomatch", "The edit to nomatch.txt was not applied: SEARCH block 1 does not match the file.\n", nil, false)
	older("refused", "The desk refused to write your edit: nomatch.txt is now a link out of the workspace.", proposed, false)
	older("notwritten", "Approved (approved), but not written: after the agent's tool, /w/notwritten.txt did not hold the approved text.", proposed, true)
	old.Close()

	j, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	for i, tt := range []struct {
		id      string
		applied bool
	}{{"nomatch", false}, {"refused", true}, {"notwritten", true}} {
		ref := Ref(fmt.Sprintf("d%d", i+1))
		d, err := j.Detail(ctx, ref)
		if err != nil || d.ProposalID != tt.id || d.Decision != decision.Failed {
			t.Fatalf("Detail(%s) = %+v, %v; want %s's failed decision", ref, d.Entry, err, tt.id)
		}
		diffs, err := j.DiffEntry(ctx, ref, nil)
		if err != nil || len(diffs) != 1 {
			t.Fatalf("DiffEntry(%s) = %+v, %v; want its one file", tt.id, diffs, err)
		}
		f := diffs[0]
		if !tt.applied {
			if !f.NotApplied || f.Added != 0 || f.Removed != 0 || !f.NewExists || strings.Contains(f.Unified, "-one") || !strings.Contains(f.NewLabel, "not applied") {
				t.Errorf("an older journal's edit that did not apply shows %s as %q (+%d −%d, new side exists %v):\n%s\nwant no change, labelled not applied: nothing was proposed",
					f.Path, f.NewLabel, f.Added, f.Removed, f.NewExists, f.Unified)
			}
			continue
		}
		if f.NotApplied || f.Added != 1 || f.Removed != 1 || !strings.Contains(f.Unified, "+2") || strings.Contains(f.NewLabel, "not applied") {
			t.Errorf("an older journal's %s shows %s as %q (+%d −%d):\n%s\nwant the text proposed: two → 2", tt.id, f.Path, f.NewLabel, f.Added, f.Removed, f.Unified)
		}
	}
}
