package agenttext_test

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/atomicfile"
	"github.com/diffdesk/diffdesk/review/decision"
)

func TestOutcomeGoldens(t *testing.T) {
	const path = "/home/me/project/src/app.go"
	proposed := "package app\n\nfunc Run() error {\n\treturn nil\n}\n"
	approved := "package app\n\n// Run runs the app.\nfunc Run() error {\n\treturn nil\n}\n"
	final := "package app\n\n// Run runs the app.\nfunc Run() error {\n\treturn nil\n}\n\nvar _ = 1\n"
	file := func(p, a, f string) review.FileOutcome {
		return review.FileOutcome{
			Path: path, Written: true,
			UserEdits:       engine.Unified("proposal/src/app.go", "approved/src/app.go", p, a, 3),
			AutoFormatEdits: engine.Unified("approved/src/app.go", "final/src/app.go", a, f, 3),
			FinalContent:    f, FinalSHA256: atomicfile.Hash([]byte(f)),
		}
	}
	partial := file(proposed, approved, approved)
	partial.Hunks = []review.HunkVerdict{{ID: "0a1b2c3d4e5f", Accepted: true}, {ID: "9f8e7d6c5b4a", Accepted: false}}
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
	staleMerged := review.FileOutcome{Path: path, Written: true,
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
		o    review.Outcome
	}{
		{"approved-with-comments", review.Outcome{ID: "p16", DecidedBy: review.DecidedByPerson, Status: decision.Approved, Checkpoint: 17, Comments: comments[1:2],
			Files: []review.FileOutcome{file(proposed, proposed, proposed)}}},
		{"partial-with-comments", review.Outcome{ID: "p17", DecidedBy: review.DecidedByPerson, Status: decision.Partial, Checkpoint: 18, Feedback: "the rest later", Comments: comments[:2],
			Files: []review.FileOutcome{partial}}},
		{"rejected-with-comments", review.Outcome{ID: "p18", DecidedBy: review.DecidedByPerson, Status: decision.Rejected, Feedback: "not like this", Comments: comments, Files: []review.FileOutcome{}}},
		{"rejected-with-only-comments", review.Outcome{ID: "p19", DecidedBy: review.DecidedByPerson, Status: decision.Rejected, Comments: comments[2:], Files: []review.FileOutcome{}}},
		{"approved", review.Outcome{ID: "p1", DecidedBy: review.DecidedByPerson, Status: decision.Approved, Checkpoint: 7, Files: []review.FileOutcome{file(proposed, proposed, proposed)}}},
		{"approved-edited-formatted", review.Outcome{ID: "p2", DecidedBy: review.DecidedByPerson, Status: decision.ApprovedEdited, Checkpoint: 8, Feedback: "document it",
			Files: []review.FileOutcome{file(proposed, approved, final)}}},
		{"partial", review.Outcome{ID: "p3", DecidedBy: review.DecidedByPerson, Status: decision.Partial, Checkpoint: 9, Files: []review.FileOutcome{partial}}},
		{"formatter-failed", review.Outcome{ID: "p4", DecidedBy: review.DecidedByPerson, Status: decision.Approved, Checkpoint: 10, Files: []review.FileOutcome{unformatted}}},
		{"agent-writes", review.Outcome{ID: "p5", DecidedBy: review.DecidedByPerson, Status: decision.Approved, AgentWrites: true, Files: []review.FileOutcome{agentWrites}}},
		{"stale-merged", review.Outcome{ID: "p9", DecidedBy: review.DecidedByPerson, Status: decision.ApprovedEdited, Checkpoint: 12, Files: []review.FileOutcome{staleMerged}}},
		{"stale-merged-edited", review.Outcome{ID: "p10", DecidedBy: review.DecidedByPerson, Status: decision.ApprovedEdited, Checkpoint: 13, Files: []review.FileOutcome{staleEdited}}},
		{"rejected", review.Outcome{ID: "p6", DecidedBy: review.DecidedByPerson, Status: decision.Rejected, Feedback: "use the existing helper in util.go", Files: []review.FileOutcome{}}},
		{"rejected-without-reason", review.Outcome{ID: "p6", DecidedBy: review.DecidedByPerson, Status: decision.Rejected, Files: []review.FileOutcome{}}},
		{"approved-by-rule", review.Outcome{ID: "p11", DecidedBy: review.DecidedByRule, Rule: "auto_approve rule at /home/me/project/.diffdesk.toml line 4",
			Status: decision.Approved, Checkpoint: 14, Files: []review.FileOutcome{file(proposed, proposed, proposed)}}},
		{"rejected-by-rule", review.Outcome{ID: "p12", DecidedBy: review.DecidedByRule, Rule: "the desk's unattended policy (reject every edit)",
			Status: decision.Rejected, Failure: &review.Failure{Kind: review.FailUnattended}, Files: []review.FileOutcome{}}},
		{"stale", review.Outcome{ID: "p13", Status: decision.Stale, DecidedBy: review.DecidedByRule, Rule: "the desk's unattended policy (approve every edit but those to protected paths)", Files: []review.FileOutcome{},
			Failure: &review.Failure{Kind: review.FailStale, Paths: []string{"src/app.go"}}}},
		{"loose-match", review.Outcome{ID: "p14", DecidedBy: review.DecidedByPerson, Status: decision.Approved, Checkpoint: 15, Files: []review.FileOutcome{loose}}},
		{"person-chosen", review.Outcome{ID: "p20", DecidedBy: review.DecidedByPerson, Status: decision.Approved, Checkpoint: 19, Files: []review.FileOutcome{chosen}}},
		{"cut-short", review.Outcome{ID: "p15", DecidedBy: review.DecidedByPerson, Status: decision.Approved, Checkpoint: 16, Files: []review.FileOutcome{cut}}},
		{"withdrawn", review.Outcome{ID: "p7", Status: decision.Withdrawn, Feedback: "the agent disconnected", Files: []review.FileOutcome{}}},
		{"failed", review.Outcome{ID: "p8", Status: decision.Failed, Files: []review.FileOutcome{},
			Failure: review.EditFailure("src/app.go", &engine.MatchError{Format: engine.FormatEdit, Block: 1, Kind: engine.FailNoMatch, Search: "return nil\n"})}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			golden(t, filepath.Join("outcome", tt.name+".txt"), agenttext.Outcome(tt.o))
			js, err := json.MarshalIndent(agenttext.ForWire(tt.o), "", "  ") // as the protocol carries it
			if err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join("outcome", tt.name+".json"), string(js)+"\n")
		})
	}
}

func TestOutcomeHasNoPhantomEdits(t *testing.T) {
	f := review.FileOutcome{Path: "/p", Written: true, FinalContent: "x\n",
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

var update = flag.Bool("update", false, "rewrite golden files in ../testdata/")

// golden compares got with review/testdata/<name> (the desk's goldens of
// what the agent reads), rewriting it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("..", "testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from golden file:\n--- got ---\n%s\n--- want ---\n%s", name, got, want)
	}
}
