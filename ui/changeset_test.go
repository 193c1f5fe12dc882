package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/atomicfile"
	"github.com/diffdesk/diffdesk/review/decision"
)

// changesetOfThree proposes a.txt, b.txt and dir/c.txt one call each in
// session s1 (as the IDE doors do), and x.txt in another session; a.txt's
// proposal is approved before the review starts. It returns the proposals
// of a, b, c and x.
func changesetOfThree(h *harness) (a, b, c, x review.Proposal) {
	for _, f := range []string{"a.txt", "b.txt", "dir/c.txt", "x.txt"} {
		h.write(f, f+"\n")
	}
	a = h.propose("claude-code", "s1", engine.FormatWrite, "a.txt", "A\n")
	b = h.propose("claude-code", "s1", engine.FormatWrite, "b.txt", "B\n")
	c = h.propose("claude-code", "s1", engine.FormatWrite, "dir/c.txt", "C\n")
	x = h.propose("claude-code", "s2", engine.FormatWrite, "x.txt", "X\n")
	h.win.Select(a.ID)
	h.win.Approve()
	h.outcome(a.ID)
	h.settle()
	return a, b, c, x
}

// TestChangesetTreeAndContinuousReview: the tree lists every file of the
// session's proposals with its state and counts, the decided one too; j
// and k go on from one proposal to the next and back, ] and [ step through
// the changeset's files (into the decided proposal too), a click on a row
// shows its file, and the counter counts over the changeset.
func TestChangesetTreeAndContinuousReview(t *testing.T) {
	h := newHarness(t)
	a, b, c, _ := changesetOfThree(h)
	h.win.Select(b.ID)
	if !h.TreeShown() {
		t.Fatal("the changeset tree is hidden")
	}
	want := []string{"a.txt approved +1 −1", "▸ b.txt waiting +1 −1", "dir/", "c.txt waiting +1 −1"}
	if got := h.TreeRows(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("tree = %q; want %q", got, want)
	}
	if title := h.TreeTitle(); !strings.Contains(title, "3 files in 3 proposals") || !strings.Contains(title, "+3 −3") || !strings.Contains(title, "2 open") {
		t.Errorf("tree title %q; want 3 files in 3 proposals, +3 −3, 2 open", title)
	}
	if got := h.Diff().Counter(); got != "hunk 2 of 3 · file 2 of 3 in the changeset" {
		t.Errorf("counter = %q; want hunk 2 of 3 over the changeset", got)
	}
	h.press('j') // past b.txt's only change: on into c.txt's proposal
	if h.Shown() != c.ID || h.Diff().Counter() != "hunk 3 of 3 · file 3 of 3 in the changeset" {
		t.Fatalf("after j: showing %s (%q); want c.txt's proposal %s, hunk 3 of 3", h.Shown(), h.Diff().Counter(), c.ID)
	}
	if got := h.TreeRows()[3]; got != "▸ c.txt waiting +1 −1" {
		t.Errorf("after j the tree marks %q; want c.txt", got)
	}
	h.press('k')
	if h.Shown() != b.ID || h.Decided() {
		t.Fatalf("after k: showing %s (decided %v); want b.txt's proposal back, waiting", h.Shown(), h.Decided())
	}
	h.press('[') // the decided proposal of the changeset, read again
	if h.Shown() != a.ID || !h.Decided() || !strings.HasPrefix(h.Status(), "Approved") || h.Bar().Button("Approve") != "" {
		t.Errorf("after [: showing %s (decided %v), status %q, bar %q; want a.txt's decided proposal, approved, no approve", h.Shown(), h.Decided(), h.Status(), h.Bar().Buttons())
	}
	h.press('[')
	if !strings.Contains(h.Message(), "first file of the changeset") {
		t.Errorf("[ on the first file says %q", h.Message())
	}
	h.press(']')
	h.press(']')
	if h.Shown() != c.ID {
		t.Errorf("after ] ]: showing %s; want c.txt's proposal", h.Shown())
	}
	h.ClickTreeFile(1) // a click on a row shows its file
	if h.Shown() != b.ID {
		t.Errorf("after clicking b.txt: showing %s; want b.txt's proposal", h.Shown())
	}
}

// TestApproveChangesetAsksThenAnswersEachCall: A asks before approving
// more than the shown proposal; Esc cancels, Enter approves every open
// proposal of the changeset, each with its own outcome, and leaves the
// other session's proposal waiting.
func TestApproveChangesetAsksThenAnswersEachCall(t *testing.T) {
	h := newHarness(t)
	_, b, c, x := changesetOfThree(h)
	h.win.Select(b.ID)
	h.press('A')
	if h.ChangesetQuestion() == "" || !h.Modal() {
		t.Fatal("A did not ask before approving two proposals")
	}
	h.pressKey(fyne.KeyEscape)
	h.settle()
	if h.ChangesetQuestion() != "" || h.Modal() || h.read("b.txt") != "b.txt\n" {
		t.Fatalf("Esc: question still asked %q, b.txt %q; want cancelled, nothing written", h.ChangesetQuestion(), h.read("b.txt"))
	}
	h.press('A')
	h.pressKey(fyne.KeyReturn)
	ob, oc := h.outcome(b.ID), h.outcome(c.ID)
	h.until("the status tells of the changeset", func() bool { return strings.Contains(h.Status(), "2 proposals") })
	if ob.Status != decision.Approved || oc.Status != decision.Approved || h.read("b.txt") != "B\n" || h.read("dir/c.txt") != "C\n" {
		t.Errorf("b %s %q, c %s %q; want both approved and written", ob.Status, h.read("b.txt"), oc.Status, h.read("dir/c.txt"))
	}
	if ob.ID != b.ID || oc.ID != c.ID {
		t.Errorf("outcomes %s, %s; want each proposal's own", ob.ID, oc.ID)
	}
	if p, _ := h.desk.Get(x.ID); p.State != review.StatePending || h.read("x.txt") != "x.txt\n" {
		t.Errorf("the other session's proposal is %s; want it left waiting", p.State)
	}
}

// TestRejectChangesetWithOneReason: R opens the reject dialog for the
// whole changeset; its one reason reaches every open proposal's agent.
func TestRejectChangesetWithOneReason(t *testing.T) {
	h := newHarness(t)
	a, b, c, _ := changesetOfThree(h)
	h.win.Select(c.ID)
	h.press('R')
	if !h.RejectBox().Whole() {
		t.Fatal("R did not open the reject dialog for the changeset")
	}
	h.RejectBox().SetReason("wrong approach")
	h.RejectBox().Send()
	ob, oc := h.outcome(b.ID), h.outcome(c.ID)
	for _, o := range []review.Outcome{ob, oc} {
		if o.Status != decision.Rejected || o.Feedback != "wrong approach" {
			t.Errorf("%s: %s %q; want rejected with the one reason", o.ID, o.Status, o.Feedback)
		}
	}
	if o, _ := h.desk.Outcome(a.ID); o.Status != decision.Approved {
		t.Errorf("the proposal decided before is %s; want it left approved", o.Status)
	}
	if h.read("b.txt") != "b.txt\n" || h.read("dir/c.txt") != "dir/c.txt\n" {
		t.Error("a rejected file was written")
	}
}

// TestToggleFileHunksLeavesTheFileUnwritten: H unticks every hunk of the
// shown file of a multi-file proposal; approving writes the other file and
// leaves this one (a new file: not created).
func TestToggleFileHunksLeavesTheFileUnwritten(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\n")
	patch := "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n@@\n-nine\n+NINE\n*** Add File: new.txt\n+new\n*** End Patch\n"
	p := h.propose("codex", "s", engine.FormatPatch, "", patch)
	h.win.Select(p.ID)
	h.press(']')
	if h.ShownFile() != "new.txt" {
		t.Fatalf("] showed %q; want new.txt", h.ShownFile())
	}
	h.press('H')
	if len(h.win.View().AcceptedHunks()) != 0 {
		t.Fatalf("after H: %d hunks ticked; want none", len(h.win.View().AcceptedHunks()))
	}
	h.press('[')
	h.press('H') // all ticked: H unticks both of a.txt's
	h.press('H') // and ticks them again
	if len(h.win.View().AcceptedHunks()) != 2 {
		t.Fatalf("after H H on a.txt: %d hunks ticked; want 2", len(h.win.View().AcceptedHunks()))
	}
	h.press('a')
	if o := h.outcome(p.ID); o.Status != decision.Partial {
		t.Fatalf("approve: %s; want partial", o.Status)
	}
	if got := h.read("a.txt"); !strings.HasPrefix(got, "ONE\n") || !strings.HasSuffix(got, "NINE\n") {
		t.Errorf("a.txt = %q; want both hunks written", got)
	}
	if h.read("new.txt") != "" {
		t.Errorf("new.txt was created (%q); none of its hunks was ticked", h.read("new.txt"))
	}
}

// TestChangesetTreeFollowsTheSession: a proposal of the shown changeset
// arriving later joins the tree at once; A refuses to drop the person's
// unticked hunks on the shown proposal.
func TestChangesetTreeFollowsTheSession(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\n")
	h.write("b.txt", "b\n")
	a := h.propose("claude-code", "s1", engine.FormatWrite, "a.txt", "ONE\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nNINE\n")
	h.win.Select(a.ID)
	if h.TreeShown() {
		t.Fatal("the tree shows for a changeset of one file")
	}
	h.propose("claude-code", "s1", engine.FormatWrite, "b.txt", "B\n")
	h.settle()
	if rows := h.TreeRows(); !h.TreeShown() || len(rows) != 2 || h.Shown() != a.ID {
		t.Fatalf("after b.txt arrived: tree shown %v with %q, showing %s; want both files, a.txt still shown", h.TreeShown(), rows, h.Shown())
	}
	h.press(' ') // untick a.txt's current hunk
	h.press('A')
	if h.ChangesetQuestion() != "" || !strings.Contains(h.Message(), "approve it with a first") {
		t.Errorf("A with a hunk unticked: question %q, message %q; want it refused", h.ChangesetQuestion(), h.Message())
	}
}

// TestChangesetDecisionsCarryEachProposalsComments: the comments the person
// made on proposals of a changeset go with R (and A) to each proposal's
// agent, on its own lines (real window: the pane said "Comments for the
// agent (1), sent with your decision", and R sent none).
func TestChangesetDecisionsCarryEachProposalsComments(t *testing.T) {
	for _, key := range []rune{'R', 'A'} {
		t.Run(string(key), func(t *testing.T) {
			h := newHarness(t)
			_, b, c, x := changesetOfThree(h)
			h.win.Select(b.ID)
			h.press('c')
			h.typeWord("on b")
			h.CtrlEnter()
			h.win.Select(x.ID) // another session's: not in the changeset
			h.press('c')
			h.typeWord("on x")
			h.CtrlEnter()
			h.win.Select(c.ID)
			h.press('c')
			h.typeWord("on c")
			h.CtrlEnter()
			h.press(key)
			if key == 'R' {
				h.RejectBox().SetReason("wrong approach")
				h.RejectBox().Send()
			} else {
				h.pressKey(fyne.KeyReturn)
			}
			for _, it := range []struct {
				p    review.Proposal
				want string
			}{{b, "on b"}, {c, "on c"}} {
				o := h.outcome(it.p.ID)
				if len(o.Comments) != 1 || o.Comments[0].Text != it.want || o.Comments[0].Line != 1 {
					t.Errorf("%s: comments %+v; want its own, %q on line 1", it.p.Files[0].Rel, o.Comments, it.want)
				}
			}
			if got := h.Comments().Kept(x.ID); len(got) != 1 {
				t.Errorf("the other session's proposal keeps %d comments; want its 1, unsent", len(got))
			}
			if got := h.Comments().Kept(b.ID); len(got) != 0 {
				t.Errorf("b's comments still pending after they were sent: %+v", got)
			}
		})
	}
}

// The changeset's hunk counts follow a proposal whose text changed (a held
// failure's block placed by the person); they were cached once for good.
func TestChangesetHunkCountFollowsAChangedProposal(t *testing.T) {
	tr := &changesetTree{paneKit: paneKit{sh: &shown{id: "shown"}, c: &choices{}}}
	f := review.File{Path: "/w/a.txt", Base: atomicfile.Snapshot{Exists: true, Content: []byte("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n")}, Proposed: "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"}
	tr.cs = review.Changeset{Proposals: []review.Proposal{{ID: "p2", Files: []review.File{f}}}}
	cf := review.ChangesetFile{Proposal: "p2", Path: f.Path}
	if n := tr.hunkCount(cf); n != 0 {
		t.Fatalf("unchanged file: %d hunks", n)
	}
	tr.cs.Proposals[0].Files[0].Proposed = "ONE\n2\n3\n4\n5\n6\n7\n8\n9\nTEN\n"
	if n := tr.hunkCount(cf); n != 2 {
		t.Errorf("after its text changed: %d hunks; want 2", n)
	}
}

// A file still streaming in has no line counts yet: its tree row says it
// streams, without "+0 −0".
func TestTreeRowOfAStreamHasNoCounts(t *testing.T) {
	tr := &changesetTree{paneKit: paneKit{sh: &shown{id: "shown"}, c: &choices{}}}
	texts := func(f review.ChangesetFile) string {
		var s []string
		for _, o := range test.LaidOutObjects(newTreeRow(tr, 0, "", f, false).content) {
			if txt, ok := o.(*canvas.Text); ok {
				s = append(s, txt.Text)
			}
		}
		return strings.Join(s, " ")
	}
	if got := texts(review.ChangesetFile{Rel: "a.go", State: review.StateStreaming}); strings.Contains(got, "+0") {
		t.Errorf("a streaming file's row: %q; want no counts", got)
	}
	if got := texts(review.ChangesetFile{Rel: "a.go", State: review.StatePending, Added: 2, Removed: 1}); !strings.Contains(got, "+2") {
		t.Errorf("a waiting file's row: %q; want its counts", got)
	}
}
