package startup

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/review/config"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestRepositoryCheckerWaitsForTrust: a repository's [[checker]] runs a
// program on every proposal, so it stays off until trusted, and the
// summary shows its exact command; trusted, it checks the proposal
// already waiting. The user's own checkers are listed as in force.
func TestRepositoryCheckerWaitsForTrust(t *testing.T) {
	if _, err := exec.LookPath("gofmt"); err != nil {
		t.Skip("gofmt not on PATH")
	}
	c := testConfig(t, "0s")
	reviewtest.WriteFile(t, c.Config, "[[checker]]\npreset = \"gofmt\"\n")
	reviewtest.WriteFile(t, filepath.Join(c.Roots[0], config.FileName),
		"[[checker]]\nname = \"lint\"\nglob = \"*.txt\"\ncommand = [\"sh\", \"-c\", \"touch pwned; cat >/dev/null\"]\n")
	b, root := startRepo(t, c)
	sum := b.Summary()
	for _, want := range []string{
		"checkers (run on each proposal while you review it):\n  \"gofmt\" (" + c.Config + " line 1): on files matching \"*.go\" runs [\"gofmt\" \"-e\" \"-l\"]\n",
		`  checker "lint" at line 1: on files matching "*.txt" runs ["sh", "-c", "touch pwned; cat >/dev/null"] in the file's directory while you review`,
	} {
		if !strings.Contains(sum, want) {
			t.Errorf("Summary() lacks %q:\n%s", want, sum)
		}
	}
	p := proposeWrite(t, b.Desk, "a.txt", "new\n")
	if ch := p.Files[0].Checks; ch.Running || ch.Reports != nil {
		t.Fatalf("Checks under the untrusted repo = %+v; want none", ch)
	}
	if err := b.Trust(b.Untrusted()[0]); err != nil {
		t.Fatal(err)
	}
	f := reviewtest.WaitChecks(t, b.Desk, p.ID, filepath.Join(root, "a.txt"))
	if len(f.Checks.Reports) != 1 || f.Checks.Reports[0].Checker != "lint" || f.Checks.Reports[0].Err != nil {
		t.Errorf("Checks after Trust = %+v; want lint's clean report", f.Checks)
	}
	if _, err := os.Stat(filepath.Join(root, "pwned")); errors.Is(err, fs.ErrNotExist) {
		t.Error("the trusted repo's checker did not run")
	}
}
