package ide

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestClaudeDoorTurnsMakeChangesets: the CLI's openDiff calls come one at
// a time, each waiting for its answer; those of one turn (between two
// closeAllDiffTabs, which starts every turn) land in one changeset, the
// next turn's in another, and every call gets its own file's answer.
func TestClaudeDoorTurnsMakeChangesets(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	pending := pendingProposals(t, d.Desk)
	cs := dialClaude(t, doorStatus(t, startTestDoors(t, d.Desk), "claude-code"))
	ctx := reviewtest.Context(t)
	open := func(rel, content string) string {
		path := filepath.Join(d.Root, rel)
		done := make(chan []string, 1)
		go func() {
			res, err := callTool(ctx, cs, "openDiff", claudeOpenDiffArgs{OldFilePath: path, NewFilePath: path, NewFileContents: content, TabName: rel})
			if err != nil {
				t.Error(err)
			}
			done <- resultTexts(res)
		}()
		id := next(t, pending, "the proposal of "+rel)
		d.MustDecide(t, id, review.Decision{Verdict: decision.Approved})
		if got := next(t, done, "openDiff's answer"); strings.Join(got, "|") != "FILE_SAVED|"+content {
			t.Errorf("openDiff(%s) = %q; want its own text", rel, got)
		}
		return id
	}
	turn := func() {
		if _, err := callTool(ctx, cs, "closeAllDiffTabs", claudeNoArgs{}); err != nil {
			t.Fatal(err)
		}
	}
	turn()
	a, b := open("a.txt", "A\n"), open("b.txt", "B\n")
	turn()
	c := open("c.txt", "C\n")
	key := func(id string) string {
		p, _ := d.Get(id)
		return review.ChangesetKey(p)
	}
	if key(a) != key(b) || key(a) == key(c) {
		t.Errorf("changeset keys a %s, b %s, c %s; want a and b together, c (the next turn) apart", key(a), key(b), key(c))
	}
	if set, _ := d.ChangesetOf(b); len(set.Proposals) != 2 || set.Proposals[0].ID != a {
		t.Errorf("b's changeset holds %d proposals; want a's and b's", len(set.Proposals))
	}
}
