package decision

import (
	"encoding/json"
	"testing"
)

// TestSeenSummaryOfARecordFromBeforeLines: a record made before lines
// were counted (no lines in its JSON) still reads, by hunks.
func TestSeenSummaryOfARecordFromBeforeLines(t *testing.T) {
	var hs []HunkSeen
	if err := json.Unmarshal([]byte(`[{"path":"/a","hunk":"0123456789ab","seen":true},{"path":"/a","hunk":"ba9876543210","seen":false}]`), &hs); err != nil {
		t.Fatal(err)
	}
	if got, want := SeenSummary(hs), "1 of 2 hunks on screen (lines not recorded)"; got != want {
		t.Errorf("SeenSummary = %q; want %q", got, want)
	}
	if _, _, ok := SeenLines(hs); ok {
		t.Error("SeenLines of an old record says it counted lines")
	}
}
