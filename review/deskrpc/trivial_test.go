package deskrpc

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestApproveTrivialForAReviewer: a reviewer has the desk approve a
// changeset's proposals trivial throughout (but the one it has open):
// the whitespace-only edit is approved, the real one left and the mixed
// one named; an unknown changeset is named.
func TestApproveTrivialForAReviewer(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	code := "package x\n\nfunc a() int {\n\treturn 1\n}\n\n\n\n\n\n\nfunc b() int {\n\treturn 2\n}\n"
	ids := map[string]string{}
	var key string
	for _, f := range []struct{ name, edit string }{
		{"open.go", reviewtest.SR("\treturn 1\n", "\treturn 1  \n")},
		{"ws.go", reviewtest.SR("\treturn 1\n", "\treturn 1   \n")},
		{"mix.go", reviewtest.SR("\treturn 1\n", "\treturn 1   \n") + reviewtest.SR("\treturn 2\n", "\treturn 3\n")},
		{"real.go", reviewtest.SR("\treturn 2\n", "\treturn 4\n")},
	} {
		reviewtest.WriteFile(t, filepath.Join(d.Root, f.name), code)
		p, err := d.Propose(context.Background(), review.Request{Agent: "a", Session: "s", Format: engine.FormatSearchReplace, Path: f.name, Payload: f.edit})
		if err != nil {
			t.Fatal(err)
		}
		ids[f.name], key = p.ID, review.ChangesetKey(p)
	}
	cl := dialReviewer(t, d.Desk)
	res, err := cl.ApproveTrivial(reviewtest.Context(t), key, review.ChangesetDecision{}, ids["open.go"])
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Approved) != 1 || res.Approved[0].ID != ids["ws.go"] || res.Approved[0].Status != decision.Approved || !slices.Equal(res.Mixed, []string{ids["mix.go"]}) {
		t.Errorf("approveTrivial = %+v; want ws.go approved, mix.go mixed", res)
	}
	for _, name := range []string{"open.go", "real.go"} {
		if p, _ := d.Get(ids[name]); p.State != review.StatePending {
			t.Errorf("%s after approveTrivial: %s; want it left waiting", name, p.State)
		}
	}
	if code, err := callCode(t, cl, "approveTrivial", map[string]any{"changeset": "cs-000000000000"}); code != codeInvalidParams || !strings.Contains(err.Error(), "cs-000000000000") {
		t.Errorf("approveTrivial of an unknown changeset: %v (code %d); want %d naming it", err, code, codeInvalidParams)
	}
}
