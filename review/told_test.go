package review_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/journal"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// What the agent is told is what happened: each test here is a sentence
// that once said otherwise.

func TestPartialWithNothingTickedIsARejection(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path := filepath.Join(d.Root, "a.txt")
	reviewtest.WriteFile(t, path, "one\ntwo\n")
	p := d.MustPropose(t, engine.FormatSearchReplace, "a.txt", reviewtest.SR("two\n", "TWO\n"))
	o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Partial, Hunks: map[string][]string{path: {}}})
	text := agenttext.Outcome(o)
	if o.Status != decision.Rejected || strings.Contains(text, "applied") || !strings.Contains(text, "nothing was written") {
		t.Errorf("status %s, text:\n%s\nwant a rejection, nothing said applied", o.Status, text)
	}
	if got := reviewtest.ReadFile(t, path); got != "one\ntwo\n" {
		t.Errorf("file = %q", got)
	}
}

func TestPartialWithEveryHunkTickedIsTheWholeEdit(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path := filepath.Join(d.Root, "a.txt")
	reviewtest.WriteFile(t, path, "one\ntwo\n")
	p := d.MustPropose(t, engine.FormatSearchReplace, "a.txt", reviewtest.SR("two\n", "TWO\n"))
	o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Partial, Hunks: map[string][]string{path: {p.Files[0].Hunks()[0].ID}}})
	if text := agenttext.Outcome(o); o.Status != decision.Approved || strings.Contains(text, "part") || !strings.Contains(text, "exactly the content you proposed") {
		t.Errorf("status %s, text:\n%s\nwant the whole edit approved, as proposed", o.Status, text)
	}
}

// TestPartialUntickedFileOfSeveral: in a patch of two files, the one with
// no hunk ticked is said to be rejected, not saved.
func TestPartialUntickedFileOfSeveral(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	a, b := filepath.Join(d.Root, "a.txt"), filepath.Join(d.Root, "b.txt")
	reviewtest.WriteFile(t, a, "a\n")
	reviewtest.WriteFile(t, b, "b\n")
	p, err := d.Propose(context.Background(), review.Request{Agent: "test", Format: engine.FormatPatch,
		Payload: "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: b.txt\n@@\n-b\n+B\n*** End Patch\n"})
	if err != nil {
		t.Fatal(err)
	}
	o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Partial, Hunks: map[string][]string{a: {p.Files[0].Hunks()[0].ID}, b: {}}})
	text := agenttext.Outcome(o)
	if reviewtest.ReadFile(t, a) != "A\n" || reviewtest.ReadFile(t, b) != "b\n" {
		t.Fatalf("files %q %q", reviewtest.ReadFile(t, a), reviewtest.ReadFile(t, b))
	}
	if !strings.Contains(text, "Your edit to "+b+" was not applied") || strings.Contains(text, "Only part of your edit to "+b) {
		t.Errorf("text:\n%s\nwant b.txt said not applied", text)
	}
}

func TestOutcomeSaysTheByteOrderMark(t *testing.T) {
	for _, tt := range []struct{ name, file, content, want, say string }{
		{"kept", "\uFEFFold\n", "new\n", "\uFEFFnew\n", "which your content did not have"},
		{"dropped", "old\n", "\uFEFFnew\n", "new\n", "does not have"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := reviewtest.NewDesk(t, "", "")
			path := filepath.Join(d.Root, "a.txt")
			reviewtest.WriteFile(t, path, tt.file)
			p := d.MustPropose(t, engine.FormatWrite, "a.txt", tt.content)
			o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Approved})
			if got := reviewtest.ReadFile(t, path); got != tt.want {
				t.Fatalf("file %q; want %q", got, tt.want)
			}
			text := agenttext.Outcome(o)
			if o.Files[0].BOM != tt.name || !strings.Contains(text, "byte order mark") || !strings.Contains(text, tt.say) || strings.Contains(text, "exactly the content you proposed") {
				t.Errorf("bom %q, text:\n%s\nwant the byte order mark %s said", o.Files[0].BOM, text, tt.name)
			}
		})
	}
}

// TestAgentWritesIsNotSaidWrittenNorJournaledAsAWrite: an agent that writes
// its files itself is not told the file has its content, and the history
// shows the approval as a decision, not a write the desk never made.
func TestAgentWritesIsNotSaidWrittenNorJournaledAsAWrite(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path := filepath.Join(d.Root, "a.txt")
	reviewtest.WriteFile(t, path, "one\n")
	p, err := d.Propose(context.Background(), review.Request{Agent: "ide", Format: engine.FormatWrite, Path: "a.txt", Payload: "ONE\n", AgentWrites: true})
	if err != nil {
		t.Fatal(err)
	}
	o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Approved})
	text := agenttext.Outcome(o)
	if got := reviewtest.ReadFile(t, path); got != "one\n" {
		t.Errorf("the desk wrote %q", got)
	}
	if strings.Contains(text, "now has") || strings.Contains(text, "has been applied") || o.Checkpoint != 0 || o.Files[0].Written {
		t.Errorf("checkpoint %d, text:\n%s\nwant no write said or journaled", o.Checkpoint, text)
	}
	page, err := d.Journal.History(context.Background(), journal.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Entries) != 1 || page.Entries[0].Kind != journal.EntryDecision || page.Entries[0].Decision != decision.Approved {
		t.Errorf("history %+v; want one approval that wrote nothing", page.Entries)
	}
}

func TestPersonsCRLFEditOfAnLFFileIsSaid(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path := filepath.Join(d.Root, "a.txt")
	reviewtest.WriteFile(t, path, "one\ntwo\n")
	p := d.MustPropose(t, engine.FormatSearchReplace, "a.txt", reviewtest.SR("two\n", "TWO\n"))
	o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.ApprovedEdited, Edited: map[string]string{path: "one\r\nTWO\r\n"}})
	if got := reviewtest.ReadFile(t, path); got != "one\r\nTWO\r\n" {
		t.Fatalf("file %q", got)
	}
	c := o.Files[0].LineEndings
	if c == nil || c.From != "LF" || c.To != "CRLF" || c.By != "person" || !strings.Contains(agenttext.Outcome(o), "changed the line endings of "+path+" from LF to CRLF") {
		t.Errorf("lineEndingsChanged %+v, text:\n%s", c, agenttext.Outcome(o))
	}
}

// TestPatchLineEndingsAreSaid: a patch's LF lines written into a CRLF file
// in CRLF are said, as for every other format (the model-based test found
// "exactly the content you proposed").
func TestPatchLineEndingsAreSaid(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path := filepath.Join(d.Root, "a.txt")
	reviewtest.WriteFile(t, path, "one\r\ntwo\r\n")
	p, err := d.Propose(context.Background(), review.Request{Agent: "test", Format: engine.FormatPatch,
		Payload: "*** Begin Patch\n*** Update File: a.txt\n@@\n-two\n+TWO\n*** End Patch\n"})
	if err != nil {
		t.Fatal(err)
	}
	o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Approved})
	if got := reviewtest.ReadFile(t, path); got != "one\r\nTWO\r\n" {
		t.Fatalf("file %q", got)
	}
	if text := agenttext.Outcome(o); strings.Contains(text, "exactly the content you proposed") || !strings.Contains(text, "your edit's LF line endings were written as CRLF") {
		t.Errorf("text:\n%s", text)
	}
}
