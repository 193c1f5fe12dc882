package ui

import (
	"reflect"
	"testing"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/atomicfile"
	"github.com/diffdesk/diffdesk/review/decision"
)

// The person's choices on a proposal build the decision each approval
// sends: these are the decisions, without a window.

// choicesProposal has a.txt with two hunks, b.txt with one, and c.txt
// stale (changed on disk: its merge is written).
func choicesProposal() review.Proposal {
	base := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n"
	two := "ONE\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\nTWELVE\n"
	snap := func(s string) atomicfile.Snapshot {
		return atomicfile.Snapshot{Exists: true, Content: []byte(s), SHA256: atomicfile.Hash([]byte(s))}
	}
	disk := "x\n" + base
	return review.Proposal{ID: "p", Files: []review.File{
		{Path: "/w/a.txt", Rel: "a.txt", Base: snap(base), Proposed: two},
		{Path: "/w/b.txt", Rel: "b.txt", Base: snap(base), Proposed: "one\n" + base[2:]},
		{Path: "/w/c.txt", Rel: "c.txt", Base: snap(base), Proposed: base + "13\n", Disk: func() atomicfile.Snapshot { s := snap(disk); s.Path = "/w/c.txt"; return s }()},
	}}
}

func TestChoicesBuildTheDecision(t *testing.T) {
	p := choicesProposal()
	a, b, c := p.Files[0], p.Files[1], p.Files[2]
	merged := "x\n" + c.BaseText() + "13\n"
	ids := func(f review.File) []string {
		var out []string
		for _, h := range f.Hunks() {
			out = append(out, h.ID)
		}
		return out
	}
	if len(ids(a)) != 2 || len(ids(b)) != 1 {
		t.Fatalf("a.txt has %d hunks, b.txt %d; want 2 and 1", len(ids(a)), len(ids(b)))
	}
	firstOfA := ids(a)[:1]

	t.Run("nothing chosen: the merge of the stale file alone", func(t *testing.T) {
		ch := newChoices()
		got := ch.approveMerged(p)
		want := review.Decision{Verdict: decision.ApprovedEdited, Edited: map[string]string{c.Path: merged}, Overwrite: map[string]string{c.Path: c.Disk.SHA256}}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("approveMerged = %+v; want %+v", got, want)
		}
		if ch.any() {
			t.Error("fresh choices say they hold one")
		}
	})
	t.Run("a hunk unticked: merged keeps it out, edited too", func(t *testing.T) {
		ch := newChoices().withTicks(a.Path, firstOfA)
		ch.edited = map[string]string{b.Path: "mine\n"}
		got := ch.approveMerged(p)
		if !reflect.DeepEqual(got.Hunks, map[string][]string{a.Path: firstOfA}) || got.Edited[b.Path] != "" {
			t.Errorf("approveMerged hunks %v, edited %v; want a.txt's first hunk only and no edit of b.txt", got.Hunks, got.Edited)
		}
		got = ch.approveEdited(p)
		if got.Edited[b.Path] != "mine\n" || got.Edited[c.Path] != merged || !reflect.DeepEqual(got.Hunks, map[string][]string{a.Path: firstOfA}) {
			t.Errorf("approveEdited = %+v; want b.txt edited, c.txt merged, a.txt's first hunk", got)
		}
		if !ch.any() {
			t.Error("choices with a tick and an edit say they hold none")
		}
	})
	t.Run("an edit of the stale file wins over its merge", func(t *testing.T) {
		ch := newChoices()
		ch.edited[c.Path] = "resolved\n"
		if got := ch.approveEdited(p); got.Edited[c.Path] != "resolved\n" || got.Overwrite[c.Path] != c.Disk.SHA256 {
			t.Errorf("approveEdited = %+v; want the edit, written only over the disk reviewed", got)
		}
	})
	t.Run("partial: the ticks of every file", func(t *testing.T) {
		ch := newChoices().withTicks(a.Path, firstOfA).withTicks(b.Path, nil)
		got, n := ch.approvePartial(p)
		if got.Verdict != decision.Partial || n != 1+len(ids(c)) || !reflect.DeepEqual(got.Hunks[a.Path], firstOfA) || len(got.Hunks[b.Path]) != 0 {
			t.Errorf("approvePartial = %+v, %d", got, n)
		}
		none, n := newChoices().withTicks(a.Path, nil).withTicks(b.Path, nil).withTicks(c.Path, nil).approvePartial(p)
		if n != 0 {
			t.Errorf("nothing ticked: %d hunks (%+v); want 0, asked as a rejection", n, none)
		}
	})
	t.Run("kept: the choices, not the cache; withTicks leaves the original", func(t *testing.T) {
		ch := newChoices()
		ch.merge(c)
		moved := ch.withTicks(a.Path, firstOfA)
		if _, ok := ch.accepted[a.Path]; ok {
			t.Error("withTicks changed the choices it was called on")
		}
		k := moved.keep()
		if k.merges != nil || !reflect.DeepEqual(k.accepted, moved.accepted) {
			t.Errorf("keep = %+v", k)
		}
		k.accepted[b.Path] = nil
		if _, ok := moved.accepted[b.Path]; ok {
			t.Error("a kept copy shares its ticks with the shown proposal's")
		}
	})
}
