package review_test

import (
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/checker"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

func needTool(t *testing.T, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		t.Skipf("%s not on PATH (scripts/test installs it)", name)
	}
}

// TestChecksFindProposalsProblem: gofmt -e runs on a proposal while it
// waits; the syntax error it adds is on the file at its line, and the
// outcome of approving it anyway tells the agent.
func TestChecksFindProposalsProblem(t *testing.T) {
	needTool(t, "gofmt")
	d := reviewtest.NewDesk(t, "", "[[checker]]\npreset = \"gofmt\"\n")
	path := filepath.Join(d.Root, "a.go")
	reviewtest.WriteFile(t, path, "package a\n\nfunc A() {}\n")
	p := d.MustPropose(t, engine.FormatWrite, "a.go", "package a\n\nfunc A() {\n\tif {\n\t}\n}\n")
	f := reviewtest.WaitChecks(t, d.Desk, p.ID, path)
	want := []checker.Problem{{Line: 4, Col: 5, Severity: checker.SeverityError, Message: "missing condition in if statement", Source: "gofmt"}}
	if got := f.Checks.Problems(); !reflect.DeepEqual(got, want) {
		t.Fatalf("Checks.Problems() = %+v; want %+v", got, want)
	}
	o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Approved})
	if got := o.Files[0].NewProblems; !reflect.DeepEqual(got, want) {
		t.Errorf("outcome newProblems = %+v; want %+v", got, want)
	}
	text := "New problems detected after saving the file:\n" + path + "\n- [gofmt Error] Line 4: missing condition in if statement\n"
	if !strings.Contains(agenttext.Outcome(o), text) {
		t.Errorf("agent text lacks\n%s\nin\n%s", text, agenttext.Outcome(o))
	}
}

// TestChecksOfTheWrittenText: a person who edits the proposal (here
// fixing the problem and adding another) gets the written text checked,
// not the proposal's.
func TestChecksOfTheWrittenText(t *testing.T) {
	needTool(t, "gofmt")
	d := reviewtest.NewDesk(t, "", "[[checker]]\npreset = \"gofmt\"\n")
	path := filepath.Join(d.Root, "a.go")
	reviewtest.WriteFile(t, path, "package a\n")
	p := d.MustPropose(t, engine.FormatWrite, "a.go", "package a\n\nfunc A() {\n\tif {\n\t}\n}\n")
	edited := "package a\n\nfunc A() {\n\tif true {\n\t}\n}\n\nvar x = 08\n"
	o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.ApprovedEdited, Edited: map[string]string{path: edited}})
	got := o.Files[0].NewProblems
	if len(got) != 1 || got[0].Line != 8 || !strings.Contains(got[0].Message, "invalid digit") {
		t.Errorf("newProblems of the edited text = %+v; want the one at line 8", got)
	}
}

// TestChecksCleanProposal: a proposal that adds no problem has a finished
// check with no problems, and the outcome none.
func TestChecksCleanProposal(t *testing.T) {
	needTool(t, "gofmt")
	d := reviewtest.NewDesk(t, "", "[[checker]]\npreset = \"gofmt\"\n")
	path := filepath.Join(d.Root, "a.go")
	p := d.MustPropose(t, engine.FormatWrite, "a.go", "package a\n\nfunc A() {}\n")
	f := reviewtest.WaitChecks(t, d.Desk, p.ID, path)
	if len(f.Checks.Reports) != 1 || f.Checks.Reports[0].Checker != "gofmt" || f.Checks.Problems() != nil || f.Checks.Failed() != nil {
		t.Errorf("Checks = %+v; want gofmt's report, with no problem", f.Checks)
	}
	o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Approved})
	if o.Files[0].NewProblems != nil || strings.Contains(agenttext.Outcome(o), "New problems") {
		t.Errorf("outcome of a clean proposal: %+v\n%s", o.Files[0].NewProblems, agenttext.Outcome(o))
	}
}

// TestChecksFailureIsNotAProblem: a checker that cannot run shows its
// error, never a made-up problem.
func TestChecksFailureIsNotAProblem(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "[[checker]]\nname = \"missing\"\nglob = \"*.go\"\ncommand = [\"/nonexistent/checker\"]\n")
	path := filepath.Join(d.Root, "a.go")
	p := d.MustPropose(t, engine.FormatWrite, "a.go", "package a\n")
	f := reviewtest.WaitChecks(t, d.Desk, p.ID, path)
	errs := f.Checks.Failed()
	if f.Checks.Problems() != nil || len(errs) != 1 || !strings.Contains(errs[0].Error(), `checker "missing" failed on `+path) {
		t.Fatalf("Checks = %+v; want one failure naming the checker and file", f.Checks)
	}
	o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Approved})
	if fo := o.Files[0]; fo.NewProblems != nil || len(fo.CheckErrors) != 1 {
		t.Errorf("outcome newProblems %+v checkErrors %q; want no problem and the checker's error", fo.NewProblems, fo.CheckErrors)
	}
}

// TestChecksShellcheck: a non-Go checker from Debian's packages through
// the desk: the unquoted variable the proposal adds is reported at its
// line; the one the file already had is not.
func TestChecksShellcheck(t *testing.T) {
	needTool(t, "shellcheck")
	d := reviewtest.NewDesk(t, "", "[[checker]]\npreset = \"shellcheck\"\n")
	path := filepath.Join(d.Root, "bin", "run.sh")
	reviewtest.WriteFile(t, path, "#!/bin/sh\necho $1\n")
	p := d.MustPropose(t, engine.FormatWrite, "bin/run.sh", "#!/bin/sh\n# Run it.\necho $1\nrm -rf $2\n")
	f := reviewtest.WaitChecks(t, d.Desk, p.ID, path)
	got := f.Checks.Problems()
	if len(got) != 1 || got[0].Line != 4 || got[0].Code != "SC2086" || got[0].Source != "shellcheck" {
		t.Errorf("Checks.Problems() = %+v; want SC2086 at line 4 only", got)
	}
}

// TestNoCheckersNoChecks: without a matching checker, a file has no
// checks, running or finished.
func TestNoCheckersNoChecks(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "[[checker]]\npreset = \"gofmt\"\n")
	p := d.MustPropose(t, engine.FormatWrite, "notes.txt", "hello\n")
	if c := p.Files[0].Checks; c.Running || c.Reports != nil {
		t.Errorf("Checks of a file no checker matches = %+v; want none", c)
	}
}

// TestCheckTextFindsTheEditsProblem: the person's edit of a clean
// proposal is checked against the base; the syntax error it adds is
// reported at its line, and a problem only the proposal had is gone.
func TestCheckTextFindsTheEditsProblem(t *testing.T) {
	needTool(t, "gofmt")
	d := reviewtest.NewDesk(t, "", "[[checker]]\npreset = \"gofmt\"\n")
	path := filepath.Join(d.Root, "a.go")
	reviewtest.WriteFile(t, path, "package a\n")
	p := d.MustPropose(t, engine.FormatWrite, "a.go", "package a\n\nfunc A() {\n\tif {\n\t}\n}\n")
	edited := "package a\n\nfunc A() {\n\tif true {\n\t}\n}\n\nvar y = 08\n"
	for _, name := range []string{path, "a.go"} {
		reports, err := d.CheckText(reviewtest.Context(t), p.ID, name, edited)
		if err != nil {
			t.Fatalf("CheckText(%s): %v", name, err)
		}
		if len(reports) != 1 || reports[0].Checker != "gofmt" || reports[0].Err != nil {
			t.Fatalf("CheckText(%s) = %+v; want gofmt's report", name, reports)
		}
		got := reports[0].Problems
		if len(got) != 1 || got[0].Line != 8 || got[0].Severity != checker.SeverityError || !strings.Contains(got[0].Message, "invalid digit") {
			t.Errorf("CheckText(%s) problems = %+v; want gofmt's one error, at line 8", name, got)
		}
	}
}

// TestCheckTextOfAStaleFile: a stale file's edit is written over the
// disk, so a problem the disk already has is not the edit's.
func TestCheckTextOfAStaleFile(t *testing.T) {
	needTool(t, "gofmt")
	d := reviewtest.NewDesk(t, "", "[[checker]]\npreset = \"gofmt\"\n")
	path := filepath.Join(d.Root, "a.go")
	reviewtest.WriteFile(t, path, "package a\n\nvar x = 1\n")
	p := d.MustPropose(t, engine.FormatSearchReplace, "a.go", reviewtest.SR("var x = 1\n", "var x = 2\n"))
	reviewtest.WriteFile(t, path, "package a\n\nvar x = 1\n\nvar y = 08\n")
	if _, err := d.Decide(reviewtest.Context(t), p.ID, review.Decision{Verdict: decision.Approved}); err == nil {
		t.Fatal("Decide over a file changed on disk wrote it; want it refused as stale")
	}
	if got, _ := d.Get(p.ID); !got.Files[0].Stale() {
		t.Fatalf("the file is not stale after the refused approval: %+v", got.Files[0])
	}
	reports, err := d.CheckText(reviewtest.Context(t), p.ID, path, "package a\n\nvar x = 2\n\nvar y = 08\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(reports) != 1 || reports[0].Err != nil || reports[0].Problems != nil {
		t.Errorf("CheckText of an edit keeping the disk's problem = %+v; want gofmt's report with no new problem", reports)
	}
}

// TestCheckTextRefuses: an edit of a proposal or file the desk does not
// hold waiting is an error naming it.
func TestCheckTextRefuses(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "[[checker]]\npreset = \"gofmt\"\n")
	p := d.MustPropose(t, engine.FormatWrite, "a.go", "package a\n")
	decided := d.MustPropose(t, engine.FormatWrite, "b.go", "package b\n")
	d.MustDecide(t, decided.ID, review.Decision{Verdict: decision.Rejected})
	for _, tc := range []struct{ id, path, want string }{
		{"nope", "a.go", "proposal nope: review: unknown proposal id"},
		{p.ID, "c.go", "it has no file c.go"},
		{decided.ID, "b.go", "it is reported, not waiting"},
	} {
		_, err := d.CheckText(reviewtest.Context(t), tc.id, tc.path, "package a\n")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("CheckText(%s, %s) = %v; want an error saying %q", tc.id, tc.path, err, tc.want)
		}
	}
}
