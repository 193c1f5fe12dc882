package review

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/atomicfile"
	"github.com/diffdesk/diffdesk/review/decision"
)

func TestOutcomeGoldens(t *testing.T) {
	const path = "/home/me/project/src/app.go"
	proposed := "package app\n\nfunc Run() error {\n\treturn nil\n}\n"
	approved := "package app\n\n// Run runs the app.\nfunc Run() error {\n\treturn nil\n}\n"
	final := "package app\n\n// Run runs the app.\nfunc Run() error {\n\treturn nil\n}\n\nvar _ = 1\n"
	file := func(p, a, f string) FileOutcome {
		return FileOutcome{
			Path: path, Written: true,
			UserEdits:       engine.Unified("proposal/src/app.go", "approved/src/app.go", p, a, 3),
			AutoFormatEdits: engine.Unified("approved/src/app.go", "final/src/app.go", a, f, 3),
			FinalContent:    f, FinalSHA256: atomicfile.Hash([]byte(f)),
		}
	}
	partial := file(proposed, approved, approved)
	partial.Hunks = []HunkVerdict{{ID: "0a1b2c3d4e5f", Accepted: true}, {ID: "9f8e7d6c5b4a", Accepted: false}}
	unformatted := file(proposed, proposed, proposed)
	unformatted.FormatterError = `formatter "gofmt" (.diffdesk.toml line 2) failed: exit status 2: <standard input>:3:1: expected declaration`
	agentWrites := file(proposed, proposed, proposed)
	agentWrites.Written = false
	// Stale: the agent read base and proposed "return os.ErrClosed"; someone
	// else added the import meanwhile; the proposal was merged onto that.
	base := "package app\n\nfunc Run() error {\n\treturn nil\n}\n"
	disk := "package app\n\nimport \"os\"\n\nfunc Run() error {\n\treturn nil\n}\n"
	merged := "package app\n\nimport \"os\"\n\nfunc Run() error {\n\treturn os.ErrClosed\n}\n"
	mergedEdited := "package app\n\nimport \"os\"\n\n// Run runs the app.\nfunc Run() error {\n\treturn os.ErrClosed\n}\n"
	staleMerged := FileOutcome{Path: path, Written: true,
		DiskEdits:    engine.Unified("base/src/app.go", "disk/src/app.go", base, disk, 3),
		FinalContent: merged, FinalSHA256: atomicfile.Hash([]byte(merged))}
	staleEdited := staleMerged
	staleEdited.UserEdits = engine.Unified("merged/src/app.go", "approved/src/app.go", merged, mergedEdited, 3)
	staleEdited.FinalContent, staleEdited.FinalSHA256 = mergedEdited, atomicfile.Hash([]byte(mergedEdited))
	// Loose: the agent searched for "return nil" where the file held
	// "return err"; fuzzy matching applied it there. And an edit cut short.
	loose := file(proposed, proposed, proposed)
	loose.Matches = []engine.Match{{Block: 1, Strategy: engine.StrategyFuzzy, StartLine: 4, EndLine: 4, Similarity: 0.82, Candidates: 1,
		Searched: "\treturn nil\n", Found: "\treturn err\n"}}
	// Chosen: the agent's block 2 matched nowhere; the person chose line 4.
	chosen := file(proposed, proposed, proposed)
	chosen.Matches = []engine.Match{{Block: 2, Strategy: engine.StrategyPersonChosen, StartLine: 4, EndLine: 4, Similarity: 0.6, Candidates: 1,
		Searched: "\treturn nill\n", Found: "\treturn err\n"}}
	cut := file(proposed, proposed, proposed)
	cut.Incomplete = &engine.Incomplete{Block: 2, Line: 9, Reason: "has no end marker (+++++++ REPLACE): the payload stops in its REPLACE part"}
	comments := []decision.Comment{
		{Path: path, Side: decision.SideOld, Line: 3, EndLine: 3, Quote: "func Run() error {\n", Text: "Keep the name Run: main.go calls it."},
		{Path: path, Side: decision.SideNew, Line: 3, EndLine: 4, Quote: "// Run runs the app.\nfunc Run() error {\n", Text: "Say what the error means.\nAnd mention the config file."},
		{Path: "/home/me/project/src/app_test.go", Side: decision.SideNew, Line: 1, EndLine: 1, Quote: "package app\n", Text: "Use package app_test."},
	}
	tests := []struct {
		name string
		o    Outcome
	}{
		{"approved-with-comments", Outcome{ID: "p16", DecidedBy: DecidedByPerson, Status: decision.Approved, Checkpoint: 17, Comments: comments[1:2],
			Files: []FileOutcome{file(proposed, proposed, proposed)}}},
		{"partial-with-comments", Outcome{ID: "p17", DecidedBy: DecidedByPerson, Status: decision.Partial, Checkpoint: 18, Feedback: "the rest later", Comments: comments[:2],
			Files: []FileOutcome{partial}}},
		{"rejected-with-comments", Outcome{ID: "p18", DecidedBy: DecidedByPerson, Status: decision.Rejected, Feedback: "not like this", Comments: comments, Files: []FileOutcome{}}},
		{"rejected-with-only-comments", Outcome{ID: "p19", DecidedBy: DecidedByPerson, Status: decision.Rejected, Comments: comments[2:], Files: []FileOutcome{}}},
		{"approved", Outcome{ID: "p1", DecidedBy: DecidedByPerson, Status: decision.Approved, Checkpoint: 7, Files: []FileOutcome{file(proposed, proposed, proposed)}}},
		{"approved-edited-formatted", Outcome{ID: "p2", DecidedBy: DecidedByPerson, Status: decision.ApprovedEdited, Checkpoint: 8, Feedback: "document it",
			Files: []FileOutcome{file(proposed, approved, final)}}},
		{"partial", Outcome{ID: "p3", DecidedBy: DecidedByPerson, Status: decision.Partial, Checkpoint: 9, Files: []FileOutcome{partial}}},
		{"formatter-failed", Outcome{ID: "p4", DecidedBy: DecidedByPerson, Status: decision.Approved, Checkpoint: 10, Files: []FileOutcome{unformatted}}},
		{"agent-writes", Outcome{ID: "p5", DecidedBy: DecidedByPerson, Status: decision.Approved, AgentWrites: true, Files: []FileOutcome{agentWrites}}},
		{"stale-merged", Outcome{ID: "p9", DecidedBy: DecidedByPerson, Status: decision.ApprovedEdited, Checkpoint: 12, Files: []FileOutcome{staleMerged}}},
		{"stale-merged-edited", Outcome{ID: "p10", DecidedBy: DecidedByPerson, Status: decision.ApprovedEdited, Checkpoint: 13, Files: []FileOutcome{staleEdited}}},
		{"rejected", Outcome{ID: "p6", DecidedBy: DecidedByPerson, Status: decision.Rejected, Feedback: "use the existing helper in util.go", Files: []FileOutcome{}}},
		{"rejected-without-reason", Outcome{ID: "p6", DecidedBy: DecidedByPerson, Status: decision.Rejected, Files: []FileOutcome{}}},
		{"approved-by-rule", Outcome{ID: "p11", DecidedBy: DecidedByRule, Rule: "auto_approve rule at /home/me/project/.diffdesk.toml line 4",
			Status: decision.Approved, Checkpoint: 14, Files: []FileOutcome{file(proposed, proposed, proposed)}}},
		{"rejected-by-rule", Outcome{ID: "p12", DecidedBy: DecidedByRule, Rule: unattendedReject,
			Status: decision.Rejected, Feedback: "this desk runs without a person and rejects every edit", Files: []FileOutcome{}}},
		{"stale", Outcome{ID: "p13", Status: decision.Stale, DecidedBy: DecidedByRule, Rule: unattendedApprove, Files: []FileOutcome{},
			Feedback: "src/app.go changed on disk after you read it, and this desk runs without a person to review your edit against that change"}},
		{"loose-match", Outcome{ID: "p14", DecidedBy: DecidedByPerson, Status: decision.Approved, Checkpoint: 15, Files: []FileOutcome{loose}}},
		{"person-chosen", Outcome{ID: "p20", DecidedBy: DecidedByPerson, Status: decision.Approved, Checkpoint: 19, Files: []FileOutcome{chosen}}},
		{"cut-short", Outcome{ID: "p15", DecidedBy: DecidedByPerson, Status: decision.Approved, Checkpoint: 16, Files: []FileOutcome{cut}}},
		{"withdrawn", Outcome{ID: "p7", Status: decision.Withdrawn, Feedback: "the agent disconnected", Files: []FileOutcome{}}},
		{"failed", Outcome{ID: "p8", Status: decision.Failed, Files: []FileOutcome{},
			Error: FailureText("src/app.go", &engine.MatchError{Format: engine.FormatEdit, Block: 1, Kind: engine.FailNoMatch, Search: "return nil\n"})}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			golden(t, filepath.Join("outcome", tt.name+".txt"), tt.o.Text())
			js, err := json.MarshalIndent(tt.o, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join("outcome", tt.name+".json"), string(js)+"\n")
		})
	}
}

func TestOutcomeHasNoPhantomEdits(t *testing.T) {
	f := FileOutcome{Path: "/p", Written: true, FinalContent: "x\n",
		UserEdits: engine.Unified("a", "b", "x\n", "x\n", 3), AutoFormatEdits: engine.Unified("a", "b", "x\n", "x\n", 3)}
	if f.UserEdits != "" || f.AutoFormatEdits != "" {
		t.Fatalf("Unified of equal texts = %q, %q; want empty", f.UserEdits, f.AutoFormatEdits)
	}
	js, _ := json.Marshal(f)
	for _, key := range []string{`"userEdits"`, `"autoFormatEdits"`} {
		if strings.Contains(string(js), key) {
			t.Errorf("JSON %s has %s for an unchanged file", js, key)
		}
	}
}
