package review_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// trivialChangeset proposes, as one agent session: a whitespace-only edit
// (ws.go), a comment-only edit (cm.go), an edit with a trivial and a real
// hunk (mix.go) and a real edit (real.go).
func trivialChangeset(t *testing.T, d *reviewtest.Desk) (key string, ids map[string]string) {
	t.Helper()
	code := "package x\n\nfunc a() int {\n\treturn 1\n}\n\n\n\n\n\n\nfunc b() int {\n\treturn 2\n}\n"
	ids = map[string]string{}
	for name, edit := range map[string]string{
		"ws.go":   reviewtest.SR("\treturn 1\n", "\treturn 1   \n"),
		"cm.go":   reviewtest.SR("func a() int {\n", "// a is one.\nfunc a() int {\n"),
		"mix.go":  reviewtest.SR("\treturn 1\n", "\treturn 1   \n") + reviewtest.SR("\treturn 2\n", "\treturn 3\n"),
		"real.go": reviewtest.SR("\treturn 2\n", "\treturn 4\n"),
	} {
		reviewtest.WriteFile(t, filepath.Join(d.Root, name), code)
		p, err := d.Propose(context.Background(), review.Request{Agent: "a", Session: "s", Format: engine.FormatSearchReplace, Path: name, Payload: edit})
		if err != nil {
			t.Fatal(err)
		}
		ids[name] = p.ID
		key = review.ChangesetKey(p)
	}
	return key, ids
}

func TestApproveTrivialApprovesWhatIsTrivialThroughout(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	key, ids := trivialChangeset(t, d)
	res, err := d.ApproveTrivial(context.Background(), key, review.ChangesetDecision{}, ids["cm.go"])
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Approved) != 1 || res.Approved[0].ID != ids["ws.go"] || res.Approved[0].Status != decision.Approved {
		t.Errorf("approved %+v; want ws.go alone (cm.go is the one the person has open)", res.Approved)
	}
	if len(res.Mixed) != 1 || res.Mixed[0] != ids["mix.go"] || len(res.Skipped) != 0 {
		t.Errorf("mixed %v, skipped %v; want mix.go mixed", res.Mixed, res.Skipped)
	}
	for _, name := range []string{"cm.go", "mix.go", "real.go"} {
		if p, _ := d.Get(ids[name]); p.State != review.StatePending {
			t.Errorf("%s is %s; want it waiting", name, p.State)
		}
	}
	if !strings.Contains(reviewtest.ReadFile(t, filepath.Join(d.Root, "ws.go")), "return 1   \n") {
		t.Error("ws.go not written")
	}
	res, err = d.ApproveTrivial(context.Background(), key, review.ChangesetDecision{})
	if err != nil || len(res.Approved) != 1 || res.Approved[0].ID != ids["cm.go"] {
		t.Errorf("second pass: %+v, %v; want cm.go approved", res, err)
	}
}

// TestApproveTrivialRefusesTextChangedAfterClassification: what is
// approved is what was classified.
func TestApproveTrivialRefusesTextChangedAfterClassification(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	key, _ := trivialChangeset(t, d)
	review.AfterTrivialClassified(t, func(d *review.Desk, id string) {
		d.ChangeProposedText(id, "package x\n\nfunc evil() {}\n")
	})
	res, err := d.ApproveTrivial(context.Background(), key, review.ChangesetDecision{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Approved) != 0 || len(res.Skipped) != 2 || !strings.Contains(res.Skipped[0].Reason, "changed since it was classified") {
		t.Errorf("approved %+v, skipped %+v; want both refused as changed", res.Approved, res.Skipped)
	}
	if strings.Contains(reviewtest.ReadFile(t, filepath.Join(d.Root, "ws.go")), "evil") {
		t.Error("the changed text was written")
	}
}
