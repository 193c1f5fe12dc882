package review_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/atomicfile"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
	"github.com/diffdesk/diffdesk/review/workspace"
)

func TestApproveWritesProposalKeepingModeAndEndings(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path := filepath.Join(d.Root, "a.txt")
	reviewtest.WriteFile(t, path, "one\r\ntwo\r\nthree\r\n")
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	p := d.MustPropose(t, engine.FormatSearchReplace, "a.txt", reviewtest.SR("two\n", "TWO\n"))
	if p.State != review.StatePending {
		t.Fatalf("state = %s (%s); want pending", p.State, agenttext.Failure(p.Failure))
	}
	if got := reviewtest.ReadFile(t, path); got != "one\r\ntwo\r\nthree\r\n" {
		t.Fatalf("file written before approval: %q", got)
	}
	o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Approved})
	want := "one\r\nTWO\r\nthree\r\n"
	if got := reviewtest.ReadFile(t, path); got != want {
		t.Errorf("file = %q; want %q", got, want)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v; want 0600 kept", st.Mode().Perm())
	}
	if o.Status != decision.Approved || len(o.Files) != 1 {
		t.Fatalf("outcome = %+v; want approved with one file", o)
	}
	f := o.Files[0]
	if f.UserEdits != "" || f.AutoFormatEdits != "" {
		t.Errorf("phantom edits: userEdits %q autoFormatEdits %q", f.UserEdits, f.AutoFormatEdits)
	}
	if f.FinalContent != want || f.FinalSHA256 != atomicfile.Hash([]byte(want)) || !f.Written {
		t.Errorf("file outcome = %+v", f)
	}
	if o.Checkpoint == 0 {
		t.Error("no checkpoint recorded")
	}
	if got, _ := d.Outcome(p.ID); got.Status != decision.Approved {
		t.Errorf("Outcome(%s) = %v; want the delivered outcome", p.ID, got.Status)
	}
}

func TestApproveEditedReportsUserEdits(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path := filepath.Join(d.Root, "a.go")
	reviewtest.WriteFile(t, path, "a\nb\nc\n")
	p := d.MustPropose(t, engine.FormatWrite, "a.go", "a\nB\nc\n")
	o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.ApprovedEdited, Edited: map[string]string{path: "a\nBee\nc\n"}, Feedback: "renamed"})
	if o.Status != decision.ApprovedEdited {
		t.Errorf("status = %s; want approved-edited", o.Status)
	}
	if got := reviewtest.ReadFile(t, path); got != "a\nBee\nc\n" {
		t.Errorf("file = %q; want the person's text", got)
	}
	if ue := o.Files[0].UserEdits; !strings.Contains(ue, "-B\n") || !strings.Contains(ue, "+Bee\n") {
		t.Errorf("userEdits = %q; want the patch B → Bee", ue)
	}
	if !strings.Contains(agenttext.Outcome(o), "renamed") || !strings.Contains(agenttext.Outcome(o), "a\nBee\nc\n") {
		t.Errorf("agent text lacks the note or the final content:\n%s", agenttext.Outcome(o))
	}
}

func TestApproveEditedWithoutChangesIsPlainApproval(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path := filepath.Join(d.Root, "a.go")
	p := d.MustPropose(t, engine.FormatWrite, "a.go", "x\n")
	o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.ApprovedEdited, Edited: map[string]string{path: "x\n"}})
	if o.Status != decision.Approved || o.Files[0].UserEdits != "" {
		t.Errorf("outcome = %+v; want approved with no user edits", o)
	}
}

func TestPartialWritesOnlyAcceptedHunks(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path := filepath.Join(d.Root, "a.txt")
	var orig, prop strings.Builder
	for i := 0; i < 30; i++ {
		line := "line " + string(rune('a'+i%26)) + "\n"
		orig.WriteString(line)
		switch i {
		case 2:
			prop.WriteString("FIRST\n")
		case 25:
			prop.WriteString("SECOND\n")
		default:
			prop.WriteString(line)
		}
	}
	reviewtest.WriteFile(t, path, orig.String())
	p := d.MustPropose(t, engine.FormatWrite, "a.txt", prop.String())
	a, b := engine.SplitLines(orig.String()), engine.SplitLines(prop.String())
	hunks := engine.Hunks(a, b, engine.DiffLines(a, b), 3)
	if len(hunks) != 2 {
		t.Fatalf("%d hunks; want 2", len(hunks))
	}
	o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Partial, Hunks: map[string][]string{path: {hunks[1].ID}}})
	got := reviewtest.ReadFile(t, path)
	if strings.Contains(got, "FIRST") || !strings.Contains(got, "SECOND") {
		t.Errorf("file = %q; want only the second hunk applied", got)
	}
	if o.Status != decision.Partial || len(o.Files[0].Hunks) != 2 || o.Files[0].Hunks[0].Accepted || !o.Files[0].Hunks[1].Accepted {
		t.Errorf("outcome = %+v; want partial with verdicts [false true]", o)
	}
	if _, err := d.Decide(context.Background(), p.ID, review.Decision{Verdict: decision.Approved}); err == nil {
		t.Error("deciding twice succeeded")
	}
}

func TestPartialRejectsUnknownHunk(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path := filepath.Join(d.Root, "a.txt")
	reviewtest.WriteFile(t, path, "a\n")
	p := d.MustPropose(t, engine.FormatWrite, "a.txt", "b\n")
	_, err := d.Decide(context.Background(), p.ID, review.Decision{Verdict: decision.Partial, Hunks: map[string][]string{path: {"nope"}}})
	if err == nil || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("Decide with unknown hunk: %v; want an error naming it", err)
	}
	if got := reviewtest.ReadFile(t, path); got != "a\n" {
		t.Errorf("file = %q; want untouched", got)
	}
	if p, _ := d.Get(p.ID); p.State != review.StatePending {
		t.Errorf("state = %s; want pending again", p.State)
	}
}

func TestRejectedNewFileLeavesNothing(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	p := d.MustPropose(t, engine.FormatWrite, "new/dir/f.txt", "hello\n")
	o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Rejected, Feedback: "not now"})
	if o.Status != decision.Rejected || o.Feedback != "not now" {
		t.Errorf("outcome = %+v", o)
	}
	if _, err := os.Stat(filepath.Join(d.Root, "new")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("rejected new file left %v behind", filepath.Join(d.Root, "new"))
	}
	if !strings.Contains(agenttext.Outcome(o), "not now") {
		t.Errorf("agent text lacks the reason:\n%s", agenttext.Outcome(o))
	}
}

func TestApprovedNewFileCreatesDirectories(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	p := d.MustPropose(t, engine.FormatWrite, "new/dir/f.txt", "hello\n")
	d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Approved})
	if got := reviewtest.ReadFile(t, filepath.Join(d.Root, "new/dir/f.txt")); got != "hello\n" {
		t.Errorf("file = %q", got)
	}
}

func TestFailedEditIsReportedAtOnce(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	reviewtest.WriteFile(t, filepath.Join(d.Root, "a.txt"), "alpha\nbeta\n")
	p := d.MustPropose(t, engine.FormatSearchReplace, "a.txt", reviewtest.SR("gamma\n", "delta\n"))
	if p.State != review.StateFailed {
		t.Fatalf("state = %s; want failed", p.State)
	}
	o, ok := d.Outcome(p.ID)
	if !ok || o.Status != decision.Failed || !strings.Contains(agenttext.Outcome(o), "does not match") || !strings.Contains(agenttext.Outcome(o), "gamma") {
		t.Errorf("outcome = %+v; want failed naming the search text", o)
	}
}

func TestStaleFileStopsTheWrite(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path := filepath.Join(d.Root, "a.txt")
	reviewtest.WriteFile(t, path, "one\ntwo\n")
	p := d.MustPropose(t, engine.FormatSearchReplace, "a.txt", reviewtest.SR("one\n", "ONE\n"))
	reviewtest.WriteFile(t, path, "one\ntwo\nthree (added by the person's editor)\n")
	_, err := d.Decide(context.Background(), p.ID, review.Decision{Verdict: decision.Approved})
	var se *review.StaleError
	if !errors.As(err, &se) || len(se.Paths) != 1 {
		t.Fatalf("Decide on a changed file: %v; want *StaleError", err)
	}
	if got := reviewtest.ReadFile(t, path); !strings.Contains(got, "three") || strings.Contains(got, "ONE") {
		t.Fatalf("stale write went through: %q", got)
	}
	got, _ := d.Get(p.ID)
	if got.State != review.StateStale || !got.Files[0].Stale() {
		t.Fatalf("state = %s; want stale", got.State)
	}
	m, err := d.Merge(p.ID, path)
	if err != nil || m.Text != "ONE\ntwo\nthree (added by the person's editor)\n" || len(m.Conflicts) != 0 {
		t.Fatalf("Merge = %+v, %v; want a clean merge of both changes", m, err)
	}
	if fm := got.Files[0].Merge(); fm.Text != m.Text {
		t.Errorf("File.Merge = %q; want the desk's merge %q (against the disk the person was shown)", fm.Text, m.Text)
	}
	o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.ApprovedEdited, Edited: map[string]string{path: m.Text},
		Overwrite: map[string]string{path: got.Files[0].Disk.SHA256}})
	if reviewtest.ReadFile(t, path) != m.Text || !o.Status.Wrote() {
		t.Errorf("after approving the merge: file %q, outcome %s", reviewtest.ReadFile(t, path), o.Status)
	}
}

// TestStaleMergeReportsTheDiskChangeApart approves a clean merge of a stale
// proposal: the other writer's change is reported as theirs, not as the
// person's edits.
func TestStaleMergeReportsTheDiskChangeApart(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path, stale := staleProposal(t, d, "one\ntwo\n", reviewtest.SR("one\n", "ONE\n"), "one\ntwo\nthree\n")
	o := d.MustDecide(t, stale.ID, review.Decision{Verdict: decision.ApprovedEdited, Edited: map[string]string{path: stale.Files[0].Merge().Text},
		Overwrite: map[string]string{path: stale.Files[0].Disk.SHA256}})
	if o.Status != decision.Approved {
		t.Errorf("status %s; want approved: the person edited nothing, the merge is the proposal onto the disk", o.Status)
	}
	f := o.Files[0]
	if f.UserEdits != "" || changedLines(f.DiskEdits) != "+three\n" || f.FinalContent != "ONE\ntwo\nthree\n" {
		t.Errorf("userEdits %q, diskEdits %q, final %q; want no user edits and the disk's +three", f.UserEdits, f.DiskEdits, f.FinalContent)
	}
	text := agenttext.Outcome(o)
	if strings.Contains(text, "person reviewing it") || !strings.Contains(text, "Someone else changed") || !strings.Contains(text, "+three") {
		t.Errorf("agent text does not tell the disk change apart from the person's:\n%s", text)
	}
}

func TestProposalStaleFromTheStartWhenAgentReadOtherContent(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path := filepath.Join(d.Root, "a.txt")
	reviewtest.WriteFile(t, path, "now\n")
	p, err := d.Propose(context.Background(), review.Request{Format: engine.FormatWrite, Path: "a.txt", Payload: "x\n",
		ReadSHA256: atomicfile.Hash([]byte("what the agent read\n"))})
	if err != nil {
		t.Fatal(err)
	}
	if p.State != review.StateStale {
		t.Errorf("state = %s; want stale", p.State)
	}
}

func TestFormatterChangeIsReportedSeparately(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "[[formatter]]\nglob = \"*.txt\"\ncommand = [\"tr\", \"a-z\", \"A-Z\"]\n")
	path := filepath.Join(d.Root, "a.txt")
	p := d.MustPropose(t, engine.FormatWrite, "a.txt", "hello\n")
	o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Approved})
	f := o.Files[0]
	if reviewtest.ReadFile(t, path) != "HELLO\n" || f.FinalContent != "HELLO\n" {
		t.Errorf("file %q, final %q; want the formatted text", reviewtest.ReadFile(t, path), f.FinalContent)
	}
	if f.UserEdits != "" || !strings.Contains(f.AutoFormatEdits, "+HELLO") {
		t.Errorf("userEdits %q, autoFormatEdits %q; want only the formatter's patch", f.UserEdits, f.AutoFormatEdits)
	}
}

func TestFailingFormatterKeepsApprovedText(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "[[formatter]]\nglob = \"*.txt\"\ncommand = [\"sh\", \"-c\", \"echo broken >&2; exit 3\"]\n")
	path := filepath.Join(d.Root, "a.txt")
	p := d.MustPropose(t, engine.FormatWrite, "a.txt", "hello\n")
	o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Approved})
	if reviewtest.ReadFile(t, path) != "hello\n" || o.Files[0].FormatterError == "" || !strings.Contains(agenttext.Outcome(o), "formatter failed") {
		t.Errorf("file %q, outcome %+v; want the approved text and the formatter's failure", reviewtest.ReadFile(t, path), o.Files[0])
	}
}

func TestWithdrawnProposalWritesNothing(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	p := d.MustPropose(t, engine.FormatWrite, "a.txt", "x\n")
	if err := d.Withdraw(context.Background(), p.ID, "answered in the terminal"); err != nil {
		t.Fatal(err)
	}
	o, _ := d.Outcome(p.ID)
	if o.Status != decision.Withdrawn {
		t.Errorf("status = %s; want withdrawn", o.Status)
	}
	if _, err := d.Decide(context.Background(), p.ID, review.Decision{Verdict: decision.Approved}); err == nil {
		t.Error("approving a withdrawn proposal succeeded")
	}
	if _, err := os.Stat(filepath.Join(d.Root, "a.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Error("withdrawn proposal wrote its file")
	}
}

func TestRefusals(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	reviewtest.WriteFile(t, filepath.Join(d.Root, ".clineignore"), "build/\n")
	reviewtest.WriteFile(t, filepath.Join(d.Root, "logo.png"), "\x89PNG\x00\x00")
	reviewtest.WriteFile(t, filepath.Join(d.Root, "anim.gif"), "GIF89a;valid UTF-8, no NUL byte\n")
	outside := filepath.Join(t.TempDir(), "x.txt")
	tests := []struct {
		path, rule string
	}{
		{outside, workspace.RuleOutside},
		{"../escape.txt", workspace.RuleOutside},
		{"build/out.js", workspace.RuleIgnored},
		{"logo.png", workspace.RuleBinary},
		{"anim.gif", workspace.RuleBinary},
	}
	for _, tt := range tests {
		t.Run(tt.rule+" "+filepath.Base(tt.path), func(t *testing.T) {
			_, err := d.Propose(context.Background(), review.Request{Format: engine.FormatWrite, Path: tt.path, Payload: "x\n"})
			var re *workspace.RefusalError
			if !errors.As(err, &re) || re.Rule != tt.rule {
				t.Fatalf("Propose(%s) = %v; want refusal by %s", tt.path, err, tt.rule)
			}
			if !strings.Contains(err.Error(), filepath.Base(tt.path)) {
				t.Errorf("refusal %q does not name the path", err)
			}
		})
	}
	if n := len(d.List()); n != 0 {
		t.Errorf("%d proposals queued after refusals; want 0", n)
	}
}

// TestBinaryProposalIsRefused: proposed content that is binary by its magic
// bytes is refused, though it is valid UTF-8 without a NUL byte.
func TestBinaryProposalIsRefused(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	_, err := d.Propose(context.Background(), review.Request{Format: engine.FormatWrite, Path: "report.txt", Payload: "%PDF-1.7\n%âãÏÓ\n1 0 obj\n"})
	var re *workspace.RefusalError
	if !errors.As(err, &re) || re.Rule != workspace.RuleBinary || !strings.Contains(err.Error(), "proposed content") || !strings.Contains(err.Error(), "PDF") {
		t.Fatalf("Propose(PDF bytes) = %v; want a binary refusal of the proposed content naming PDF", err)
	}
	if n := len(d.List()); n != 0 {
		t.Errorf("%d proposals queued; want 0", n)
	}
}

func TestHeadlessApproveNeedsPersonForProtectedPaths(t *testing.T) {
	d := reviewtest.NewDesk(t, decision.Approved, "")
	p := d.MustPropose(t, engine.FormatWrite, ".env", "SECRET=1\n")
	o := reviewtest.WaitOutcome(t, d.Desk, p.ID)
	if o.Status != decision.Rejected || !strings.Contains(agenttext.Reason(o), "person") || !strings.Contains(agenttext.Reason(o), ".env") {
		t.Errorf("outcome = %+v; want rejected saying a person must review .env", o)
	}
	q := d.MustPropose(t, engine.FormatWrite, "ok.txt", "fine\n")
	if o := reviewtest.WaitOutcome(t, d.Desk, q.ID); o.Status != decision.Approved {
		t.Errorf("ordinary file: status %s; want approved", o.Status)
	}
}

// TestUnattendedDecisionsSayARuleDecided: a desk without a person does not
// tell the agent a person decided.
func TestUnattendedDecisionsSayARuleDecided(t *testing.T) {
	for _, v := range []decision.Verdict{decision.Approved, decision.Rejected} {
		t.Run(string(v), func(t *testing.T) {
			d := reviewtest.NewDesk(t, v, "")
			p := d.MustPropose(t, engine.FormatWrite, "a.txt", "x\n")
			o := reviewtest.WaitOutcome(t, d.Desk, p.ID)
			text := agenttext.Outcome(o)
			if o.Status != v || o.DecidedBy != review.DecidedByRule || !strings.Contains(o.Rule, "unattended policy") {
				t.Errorf("outcome status %s, decided by %q, rule %q; want %s by the unattended policy", o.Status, o.DecidedBy, o.Rule, v)
			}
			if strings.Contains(text, "The person") || !strings.Contains(text, "No person reviewed this edit: the desk's unattended policy") {
				t.Errorf("agent text pretends a person decided:\n%s", text)
			}
		})
	}
}

// TestPersonDecisionSaysSo: a decision through Decide is the person's.
func TestPersonDecisionSaysSo(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	p := d.MustPropose(t, engine.FormatWrite, "a.txt", "x\n")
	if o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Rejected}); o.DecidedBy != review.DecidedByPerson || o.Rule != "" {
		t.Errorf("decided by %q, rule %q; want the person", o.DecidedBy, o.Rule)
	}
}

func TestAutoApproveRule(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "[[auto_approve]]\npath = \"docs/**\"\nkind = [\"write\"]\n")
	p := d.MustPropose(t, engine.FormatWrite, "docs/a.md", "# A\n")
	o := reviewtest.WaitOutcome(t, d.Desk, p.ID)
	if o.Status != decision.Approved {
		t.Errorf("docs/a.md: %s; want auto-approved", o.Status)
	}
	if o.DecidedBy != review.DecidedByRule || !strings.Contains(o.Rule, ".diffdesk.toml line 1") || !strings.Contains(agenttext.Outcome(o), "No person reviewed this edit: auto_approve rule at ") {
		t.Errorf("decided by %q, rule %q, text:\n%s\nwant the auto-approve rule named", o.DecidedBy, o.Rule, agenttext.Outcome(o))
	}
	q := d.MustPropose(t, engine.FormatWrite, "src/a.go", "package a\n")
	if got, _ := d.Get(q.ID); got.State != review.StatePending {
		t.Errorf("src/a.go: %s; want pending for a person", got.State)
	}
}

func TestStreamingProposal(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path := filepath.Join(d.Root, "a.txt")
	reviewtest.WriteFile(t, path, "1\n2\n3\n4\n")
	p, err := d.Propose(context.Background(), review.Request{Format: engine.FormatWrite, Path: "a.txt", Stream: true})
	if err != nil || p.State != review.StateStreaming {
		t.Fatalf("Propose(stream) = %v, %v", p.State, err)
	}
	if _, err := d.Decide(context.Background(), p.ID, review.Decision{Verdict: decision.Approved}); err == nil {
		t.Error("approving a streaming proposal succeeded")
	}
	for _, c := range []string{"one\n", "two\nth", "ree\n"} {
		if err := d.Feed(p.ID, c); err != nil {
			t.Fatal(err)
		}
	}
	pv, ok := d.Preview(p.ID)
	if !ok || pv.Text() != "one\ntwo\nthree\n4\n" {
		t.Errorf("preview = %q; want streamed lines then the original's rest", pv.Text())
	}
	p, err = d.Finish(context.Background(), p.ID)
	if err != nil || p.State != review.StatePending || p.Files[0].Proposed != "one\ntwo\nthree\n" {
		t.Fatalf("Finish = %+v, %v", p, err)
	}
	d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Approved})
	if reviewtest.ReadFile(t, path) != "one\ntwo\nthree\n" {
		t.Errorf("file = %q", reviewtest.ReadFile(t, path))
	}
}

func TestPatchProposalWritesEveryFile(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	reviewtest.WriteFile(t, filepath.Join(d.Root, "a.txt"), "a\nb\n")
	reviewtest.WriteFile(t, filepath.Join(d.Root, "gone.txt"), "bye\n")
	patch := "*** Begin Patch\n*** Update File: a.txt\n@@\n a\n-b\n+B\n*** Add File: n/new.txt\n+new\n*** Delete File: gone.txt\n*** End Patch\n"
	p := d.MustPropose(t, engine.FormatPatch, "", patch)
	if p.State != review.StatePending || len(p.Files) != 3 {
		t.Fatalf("proposal = %s with %d files (%s)", p.State, len(p.Files), agenttext.Failure(p.Failure))
	}
	o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Approved})
	if reviewtest.ReadFile(t, filepath.Join(d.Root, "a.txt")) != "a\nB\n" || reviewtest.ReadFile(t, filepath.Join(d.Root, "n/new.txt")) != "new\n" {
		t.Error("patch not written")
	}
	if _, err := os.Stat(filepath.Join(d.Root, "gone.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Error("deleted file still there")
	}
	if len(o.Files) != 3 {
		t.Errorf("%d file outcomes; want 3", len(o.Files))
	}
}

// TestAFencedWriteIsSaidSo: a write whose whole content a Markdown code
// fence wraps is written without the fence lines, as Cline writes it —
// and the file then does not hold what the agent sent. The agent was told
// "saved as proposed … exactly the content you proposed"; an auto_approve
// rule approved it silently. The match is loose (fence-removed): the agent
// reads that the fence was removed and gets the final text, a rule that
// does not say it approves loose matches leaves it to the person.
func TestAFencedWriteIsSaidSo(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "[[auto_approve]]\npath = \"docs/**\"\nkind = [\"write\"]\n")
	fenced := "```go\npackage y\n```\n"
	p := d.MustPropose(t, engine.FormatWrite, "src/y.go", fenced)
	o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Approved})
	text := agenttext.Outcome(o)
	if strings.Contains(text, "exactly the content you proposed") || strings.Contains(text, "as proposed") ||
		!strings.Contains(text, "Markdown code fence") || !strings.Contains(text, "package y\n") {
		t.Errorf("the agent reads:\n%s\nwant the fence's removal said and the final text, never \"as proposed\"", text)
	}
	if len(o.Files) != 1 || !o.FinalChanged(o.Files[0]) {
		t.Errorf("the outcome does not count the final text as changed: %+v", o.Files)
	}
	if b, _ := os.ReadFile(filepath.Join(d.Root, "src/y.go")); string(b) != "package y\n" {
		t.Errorf("the file holds %q; want the content without the fence", b)
	}

	q := d.MustPropose(t, engine.FormatWrite, "docs/a.md", "```\n# A\n```\n")
	if got, _ := d.Get(q.ID); got.State != review.StatePending {
		t.Errorf("a fenced write to docs/a.md: %s (rule %q); want pending for a person: the rule does not approve loose matches", got.State, got.AutoRule)
	}
}
