package decision

import "testing"

func TestParseVerdict(t *testing.T) {
	for in, want := range map[string]Verdict{
		"approve": Approved, "approved": Approved, "approve-edited": ApprovedEdited, "approved-edited": ApprovedEdited,
		"partial": Partial, "reject": Rejected, "rejected": Rejected, "overwrite": Overwritten, "approved-overwrite": Overwritten,
	} {
		if got, err := ParseVerdict(in); err != nil || got != want {
			t.Errorf("ParseVerdict(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	// What happens to a proposal is not a decision anyone can ask for.
	for _, in := range []string{"", "withdrawn", "failed", "stale", "Approve", "yes"} {
		if got, err := ParseVerdict(in); err == nil {
			t.Errorf("ParseVerdict(%q) = %q; want an error", in, got)
		}
	}
	for _, v := range verdicts {
		if !v.Valid() {
			t.Errorf("%q.Valid() = false", v)
		}
		if v.Wrote() != (v == Approved || v == ApprovedEdited || v == Partial || v == Overwritten) {
			t.Errorf("%q.Wrote() = %v", v, v.Wrote())
		}
	}
	if Verdict("approve").Valid() {
		t.Error(`"approve" is an imperative, not a recorded verdict`)
	}
}
