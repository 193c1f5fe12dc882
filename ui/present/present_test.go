package present

import (
	"errors"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/atomicfile"
	"github.com/diffdesk/diffdesk/review/checker"
	"github.com/diffdesk/diffdesk/review/config"
	"github.com/diffdesk/diffdesk/review/decision"
)

var protection = config.Protection{Pattern: ".envrc", Origin: "built-in", Reason: "runs when you enter the directory"}

func TestState(t *testing.T) {
	files := []review.File{{Added: 3, Removed: 1}}
	for _, c := range []struct {
		p    review.Proposal
		want string
	}{
		{review.Proposal{State: review.StatePending, Files: files}, "waiting · +3 −1"},
		{review.Proposal{State: review.StatePending, Files: files, Failure: &review.Failure{Kind: review.FailWrite, Err: "disk full"}}, "write failed; +3 −1"},
		{review.Proposal{State: review.StateStale, Files: files}, "stale · +3 −1"},
		{review.Proposal{State: review.StateStreaming}, "streaming…"},
		{review.Proposal{State: review.StateStreaming, Files: []review.File{{Growing: engine.LineRange{End: 40}}}}, "streaming… line 40"},
		{review.Proposal{State: review.StateFailed}, "failed"},
		{review.Proposal{State: review.StateHeld}, "did not match · the agent waits for you"},
		{review.Proposal{State: review.StateDecided}, "writing…"},
		{review.Proposal{State: review.StateWithdrawn}, "withdrawn"},
		{review.Proposal{State: review.StateReported}, "decided"},
	} {
		if got := State(c.p); got != c.want {
			t.Errorf("State(%s) = %q; want %q", c.p.State, got, c.want)
		}
	}
}

func TestHunkWhere(t *testing.T) {
	for _, c := range []struct {
		k, above, offset, total int
		want                    string
	}{
		{2, 0, 0, 5, "hunk 2 of 5"},
		{2, 0, 3, 9, "hunk 5 of 9"},
		{0, -1, 0, 5, "5 hunks"},
		{0, -1, 0, 1, "1 hunk"},
		{0, 0, 0, 0, "0 hunks"},
		{0, 0, 0, 4, "above hunk 1 of 4"},
		{0, 4, 0, 4, "below hunk 4 of 4"},
		{0, 1, 0, 4, "between hunks 1 and 2 of 4"},
		{0, 1, 2, 6, "between hunks 3 and 4 of 6"},
	} {
		if got := HunkWhere(c.k, c.above, c.offset, c.total); got != c.want {
			t.Errorf("HunkWhere(%d, %d, %d, %d) = %q; want %q", c.k, c.above, c.offset, c.total, got, c.want)
		}
	}
}

func TestBadge(t *testing.T) {
	prot := []review.File{{Rel: ".envrc", Protected: protection}}
	for _, c := range []struct {
		p    review.Proposal
		want string
		tone Tone
	}{
		{review.Proposal{State: review.StatePending}, "", Normal},
		{review.Proposal{State: review.StatePending, Failure: &review.Failure{Kind: review.FailWrite, Err: "x"}}, "write failed", Danger},
		{review.Proposal{State: review.StateStreaming}, "streaming", Accent},
		{review.Proposal{State: review.StateStale}, "stale", Warning},
		{review.Proposal{State: review.StateFailed}, "failed", Danger},
		{review.Proposal{State: review.StateHeld}, "pick lines", Warning},
		{review.Proposal{State: review.StateDecided}, "writing", Accent},
		{review.Proposal{State: review.StatePending, Unreachable: true}, "unreachable", Danger},
		{review.Proposal{State: review.StatePending, Files: prot}, "protected", Danger},
		{review.Proposal{State: review.StateStale, Files: prot}, "protected · stale", Danger},
		// decided: the protected badge has done its work
		{review.Proposal{State: review.StateDecided, Files: prot}, "writing", Accent},
	} {
		if got, tone := Badge(c.p); got != c.want || tone != c.tone {
			t.Errorf("Badge(%s) = %q, %s; want %q, %s", c.p.State, got, tone, c.want, c.tone)
		}
	}
}

func TestFileState(t *testing.T) {
	stale := review.Proposal{Files: []review.File{{}, {Disk: atomicfile.Snapshot{Path: "/w/b"}}}}
	held := review.Proposal{State: review.StateHeld}
	o := func(s decision.Verdict) *review.Outcome { return &review.Outcome{Status: s} }
	for _, c := range []struct {
		name string
		tf   TreeFile
		want string
		tone Tone
	}{
		{"waiting", TreeFile{File: review.ChangesetFile{State: review.StatePending}}, "waiting", Accent},
		{"ticked", TreeFile{File: review.ChangesetFile{State: review.StatePending}, Ticks: "1 of 2 ticked"}, "waiting · 1 of 2 ticked", Accent},
		{"stale file", TreeFile{File: review.ChangesetFile{State: review.StateStale, Index: 1}, Proposal: &stale}, "stale", Warning},
		{"its unchanged sibling", TreeFile{File: review.ChangesetFile{State: review.StateStale, Index: 0}, Proposal: &stale}, "waiting · unchanged on disk", Accent},
		{"stale, proposal gone", TreeFile{File: review.ChangesetFile{State: review.StateStale}}, "stale", Warning},
		{"streaming", TreeFile{File: review.ChangesetFile{State: review.StateStreaming}}, "streaming", Accent},
		{"writing", TreeFile{File: review.ChangesetFile{State: review.StateDecided}}, "writing", Accent},
		{"failed", TreeFile{File: review.ChangesetFile{State: review.StateFailed}}, "failed", Danger},
		{"held", TreeFile{File: review.ChangesetFile{State: review.StateFailed}, Proposal: &held}, "pick lines", Warning},
		{"withdrawn", TreeFile{File: review.ChangesetFile{State: review.StateWithdrawn}}, "withdrawn", Muted},
		{"reported, no outcome", TreeFile{File: review.ChangesetFile{State: review.StateReported}}, "decided", Muted},
		{"approved", TreeFile{File: review.ChangesetFile{State: review.StateReported}, Outcome: o(decision.Approved)}, "approved", Success},
		{"partial", TreeFile{File: review.ChangesetFile{State: review.StateReported}, Outcome: o(decision.Partial)}, string(decision.Partial), Success},
		{"rejected", TreeFile{File: review.ChangesetFile{State: review.StateReported}, Outcome: o(decision.Rejected)}, "rejected", Danger},
		{"withdrawn outcome", TreeFile{File: review.ChangesetFile{State: review.StateReported}, Outcome: o(decision.Withdrawn)}, string(decision.Withdrawn), Muted},
	} {
		if got, tone := FileState(c.tf); got != c.want || tone != c.tone {
			t.Errorf("%s: FileState = %q, %s; want %q, %s", c.name, got, tone, c.want, c.tone)
		}
	}
}

func TestTicksNote(t *testing.T) {
	for _, c := range []struct {
		ticked, n int
		want      string
	}{{2, 2, ""}, {0, 0, ""}, {3, 2, ""}, {0, 2, "none ticked"}, {1, 2, "1 of 2 ticked"}} {
		if got := TicksNote(c.ticked, c.n); got != c.want {
			t.Errorf("TicksNote(%d, %d) = %q; want %q", c.ticked, c.n, got, c.want)
		}
	}
}

func TestChecks(t *testing.T) {
	warn := checker.Problem{Severity: checker.SeverityWarning, Message: "w"}
	bad := checker.Problem{Severity: checker.SeverityError, Message: "e"}
	rep := func(ps ...checker.Problem) checker.Report { return checker.Report{Checker: "vet", Problems: ps} }
	for _, c := range []struct {
		name  string
		c     review.Checks
		where string
		want  string
		tone  Tone
	}{
		{"no checker", review.Checks{}, "", "", Normal},
		{"running", review.Checks{Running: true}, "", "checking…", Normal},
		{"clean", review.Checks{Reports: []checker.Report{rep()}}, "", "no new problems", Success},
		{"clean edit", review.Checks{Reports: []checker.Report{rep()}}, " in your edit", "no new problems in your edit", Success},
		{"a warning", review.Checks{Reports: []checker.Report{rep(warn)}}, "", "1 new problem", Warning},
		{"an error", review.Checks{Reports: []checker.Report{rep(warn, bad)}}, "", "2 new problems", Danger},
		{"a checker failed", review.Checks{Reports: []checker.Report{rep(), {Checker: "lint", Err: errors.New("no lint")}}}, "", "no new problems · lint failed", Warning},
	} {
		if got, tone := Checks(c.c, c.where); got != c.want || tone != c.tone {
			t.Errorf("%s: Checks = %q, %s; want %q, %s", c.name, got, tone, c.want, c.tone)
		}
	}
}

func TestStale(t *testing.T) {
	f := review.File{Rel: "a.go", Base: atomicfile.Snapshot{Exists: true, SHA256: "b"}, Disk: atomicfile.Snapshot{Path: "/w/a.go", Exists: true, SHA256: "d"}}
	if got, want := Stale(f, engine.MergeResult{}), "a.go changed on disk after the agent read it, so the proposal is stale. Approve merged writes the proposal merged into the disk's content, and only while the disk still holds what is shown."; got != want {
		t.Errorf("Stale = %q; want %q", got, want)
	}
	if got, want := Stale(f, engine.MergeResult{Conflicts: make([]engine.Conflict, 2)}), "Merging it into the disk's content gives 2 conflicts"; !strings.Contains(got, want) {
		t.Errorf("Stale with conflicts = %q; want it to say %q", got, want)
	}
	gone := f
	gone.Disk = atomicfile.Snapshot{Path: "/w/a.go"}
	if got, want := Stale(gone, engine.MergeResult{Conflicts: make([]engine.Conflict, 1)}), "a.go was deleted on disk after the agent read it, so the proposal is stale. Merging it into the disk's content gives 1 conflict:"; !strings.HasPrefix(got, want) {
		t.Errorf("Stale of a file deleted on disk = %q; want it to start %q", got, want)
	}
	f.Disk.SHA256 = "b"
	if !StaleFromStart(f) || !strings.Contains(Stale(f, engine.MergeResult{}), "stale from the start") {
		t.Errorf("a file whose disk is its base is stale from the start: %q", Stale(f, engine.MergeResult{}))
	}
}

func TestStatusTone(t *testing.T) {
	if StatusTone(true) != Danger || StatusTone(false) != Normal {
		t.Error("an error is red on the status line, anything else plain")
	}
}
