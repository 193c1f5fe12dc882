package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestTheWindowDiffsAFileOnce: a changeset of two files, each with three
// changes, read and decided in the window (shown, stepped through, a hunk
// unticked, the tree's counts, t, the other file and back, the unseen
// question, a partial approval and an approval) makes no diff of its own:
// each file is diffed once, by the desk when proposed (File.Hunks), and
// over --connect once more, by the window's side of the protocol. A window
// that kept hunks of its own, or asked a copy of the file that lost them,
// diffs again.
func TestTheWindowDiffsAFileOnce(t *testing.T) {
	for _, far := range []bool{false, true} {
		name, perFile := "local desk", int64(1)
		if far {
			name, perFile = "a desk over --connect", 2
		}
		t.Run(name, func(t *testing.T) {
			local := reviewtest.NewDesk(t, "", "")
			var h *harness
			if far {
				h = windowOver(t, remoteDesk(t, local), WindowOptions{Remote: "dev@box"})
			} else {
				h = windowOver(t, local.Desk, WindowOptions{})
			}
			base, proposed := reviewtest.ThreeChanges()
			a, b := filepath.Join(local.Root, "a.txt"), filepath.Join(local.Root, "b.txt")
			reviewtest.WriteFile(t, a, base)
			reviewtest.WriteFile(t, b, base)
			diffs := reviewtest.CountDiffs(t)
			propose := func(rel string) review.Proposal {
				p, err := local.Propose(reviewtest.Context(t), review.Request{Agent: "claude-code", Session: "s1", Format: engine.FormatWrite, Path: rel, Payload: proposed})
				if err != nil {
					t.Fatal(err)
				}
				return p
			}
			p, q := propose("a.txt"), propose("b.txt")
			h.until("both proposals in the window", func() bool { return h.InQueue(p.ID) && h.InQueue(q.ID) })
			decided := func(id string) review.Outcome {
				h.until("the outcome of "+id, func() bool { _, ok := local.Outcome(id); return ok })
				o, _ := local.Outcome(id)
				return o
			}
			h.win.Select(p.ID)
			h.Keys("jj")
			h.win.View().ToggleHunk(1) // a.txt's line 15 unticked
			h.settle()
			if rows := strings.Join(h.TreeRows(), "\n"); !strings.Contains(rows, "a.txt waiting · 2 of 3 ticked") {
				t.Fatalf("the tree after a hunk was unticked:\n%s\nwant a.txt's 2 of 3 ticked", rows)
			}
			h.Keys("]tjj[")
			if h.Shown() != p.ID {
				t.Fatalf("] then [: %s shown; want a.txt's proposal back", h.Shown())
			}
			h.Keys("a")
			h.ApproveAnywayIfAsked()
			if o := decided(p.ID); o.Status != decision.Partial {
				t.Fatalf("a on a.txt with a hunk unticked: %s; want partial", o.Status)
			}
			h.win.Select(q.ID)
			h.Keys("a")
			h.ApproveAnywayIfAsked()
			if o := decided(q.ID); o.Status != decision.Approved {
				t.Fatalf("a on b.txt: %s; want approved", o.Status)
			}
			lines := strings.SplitAfter(proposed, "\n")
			lines[14] = strings.SplitAfter(base, "\n")[14]
			if got, want := reviewtest.ReadFile(t, a), strings.Join(lines, ""); got != want {
				t.Errorf("a.txt = %q; want the first and third change only, %q", got, want)
			}
			if got := reviewtest.ReadFile(t, b); got != proposed {
				t.Errorf("b.txt = %q; want the proposal", got)
			}
			if n := diffs.Load(); n != 2*perFile {
				t.Errorf("two files read and decided in the window were diffed %d times; want %d (each file %d: the window makes no diff of its own)", n, 2*perFile, perFile)
			}
		})
	}
}
