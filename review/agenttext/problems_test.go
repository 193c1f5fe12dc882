package agenttext_test

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/atomicfile"
	"github.com/diffdesk/diffdesk/review/checker"
	"github.com/diffdesk/diffdesk/review/decision"
)

// TestNewProblemsGoldens: what the agent reads, and the JSON, when the
// checkers find new problems in what was written — also when the person
// approved it anyway, edited it, or a checker could not run.
func TestNewProblemsGoldens(t *testing.T) {
	const path = "/home/me/project/src/app.go"
	proposed := "package app\n\nimport \"fmt\"\n\nfunc Run() {\n\tfmt.Printf(\"%d\\n\", \"x\")\n\tif {\n\t}\n}\n"
	edited := "package app\n\nimport \"fmt\"\n\nfunc Run() {\n\tfmt.Printf(\"%d\\n\", \"x\")\n}\n"
	vet := checker.Problem{Line: 6, Col: 2, Severity: checker.SeverityError, Source: "go vet", Code: "printf",
		Message: "fmt.Printf format %d has arg \"x\" of wrong type string"}
	syntax := checker.Problem{Line: 7, Col: 5, Severity: checker.SeverityError, Source: "gofmt", Message: "missing condition in if statement"}
	caller := checker.Problem{Line: 3, Col: 21, Severity: checker.SeverityError, Source: "go vet", Path: "/home/me/project/src/main.go",
		Message: "not enough arguments in call to app.Run"}
	style := checker.Problem{Line: 5, Severity: checker.SeverityWarning, Source: "revive", Message: "exported function Run should have comment or be unexported"}
	file := func(final string, problems ...checker.Problem) review.FileOutcome {
		return review.FileOutcome{Path: path, Written: true, FinalContent: final, FinalSHA256: atomicfile.Hash([]byte(final)), NewProblems: problems}
	}
	editedFile := file(edited, vet)
	editedFile.UserEdits = engine.Unified("proposal/src/app.go", "approved/src/app.go", proposed, edited, 3)
	failed := file(proposed, syntax)
	failed.CheckErrors = []string{`checker "go vet" failed on /home/me/project/src/app.go: exited with status 1 and named no problem in the file: go: cannot find main module; check the [[checker]] at /home/me/.config/diffdesk/config.toml line 4`}
	tests := []struct {
		name string
		o    review.Outcome
	}{
		{"new-problems", review.Outcome{ID: "p20", DecidedBy: review.DecidedByPerson, Status: decision.Approved, Checkpoint: 20,
			Files: []review.FileOutcome{file(proposed, style, caller, vet, syntax)}}},
		{"new-problems-edited", review.Outcome{ID: "p21", DecidedBy: review.DecidedByPerson, Status: decision.ApprovedEdited, Checkpoint: 21,
			Files: []review.FileOutcome{editedFile}}},
		{"new-problems-checker-failed", review.Outcome{ID: "p22", DecidedBy: review.DecidedByPerson, Status: decision.Approved, Checkpoint: 22,
			Files: []review.FileOutcome{failed}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			golden(t, filepath.Join("outcome", tt.name+".txt"), agenttext.Outcome(tt.o))
			js, err := json.MarshalIndent(tt.o, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join("outcome", tt.name+".json"), string(js)+"\n")
		})
	}
}
