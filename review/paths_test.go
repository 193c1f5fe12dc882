package review_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
	"github.com/diffdesk/diffdesk/review/workspace"
)

// controlFiles are agent-control and git files no rule may approve (issue
// 11): at the root, nested, in another case.
var controlFiles = []string{
	".git", "sub/.git", ".GIT", ".gitmodules", ".git/hooks/pre-commit", "vendor/x/.Git/Hooks/post-checkout",
	".claude/settings.json", "pkg/.claude/settings.local.json", ".gemini/settings.json", ".mcp.json", "sub/.MCP.json",
	".vscode/tasks.json", ".vscode/settings.json", ".github/workflows/ci.yml", "sub/.github/workflows/x.yml",
	".husky/pre-commit", ".npmrc", "sub/.NPMRC", ".pypirc", ".envrc", ".cursor/mcp.json", ".pre-commit-config.yaml",
	".cline/hooks/PreToolUse",
}

// TestUnattendedDeskNeverApprovesControlFiles: the unattended policy
// rejects an edit to each control file, saying why a person is needed;
// nothing is written.
func TestUnattendedDeskNeverApprovesControlFiles(t *testing.T) {
	for _, rel := range controlFiles {
		t.Run(rel, func(t *testing.T) {
			d := reviewtest.NewDesk(t, decision.Approved, "")
			if err := os.MkdirAll(filepath.Join(d.Root, "sub"), 0o755); err != nil {
				t.Fatal(err)
			}
			p := d.MustPropose(t, engine.FormatWrite, rel, "x\n")
			o := reviewtest.WaitOutcome(t, d.Desk, p.ID)
			if o.Status != decision.Rejected || !strings.Contains(agenttext.Reason(o), "a person must review") || !strings.Contains(agenttext.Reason(o), p.Files[0].Protected.Reason) {
				t.Errorf("outcome %s %q; want rejected, a person needed, with the reason %q", o.Status, agenttext.Reason(o), p.Files[0].Protected.Reason)
			}
			if _, err := os.Lstat(filepath.Join(d.Root, rel)); err == nil {
				t.Errorf("%s was written", rel)
			}
		})
	}
}

// TestAutoApproveRuleNeverApprovesControlFiles: an auto_approve rule that
// allows everything leaves each control file to the person, while it
// approves an ordinary file.
func TestAutoApproveRuleNeverApprovesControlFiles(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "[[auto_approve]]\n")
	if err := os.MkdirAll(filepath.Join(d.Root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	ok := d.MustPropose(t, engine.FormatWrite, "docs/a.md", "# A\n")
	if o := reviewtest.WaitOutcome(t, d.Desk, ok.ID); o.Status != decision.Approved {
		t.Fatalf("docs/a.md: %s; want the rule to approve it", o.Status)
	}
	for _, rel := range controlFiles {
		p := d.MustPropose(t, engine.FormatWrite, rel, "x\n")
		got, _ := d.Get(p.ID)
		if got.AutoRule != "" || got.State != review.StatePending || got.Files[0].Protected.IsZero() {
			t.Errorf("%s: rule %q, state %s, protected %+v; want it pending for a person, protected", rel, got.AutoRule, got.State, got.Files[0].Protected)
		}
		if _, err := os.Lstat(filepath.Join(d.Root, rel)); err == nil {
			t.Errorf("%s was written", rel)
		}
	}
}

// TestRuleDecisionCannotApproveProtectedFile: a decision that names a rule
// is refused for a protected file, whoever makes it; a person may approve.
func TestRuleDecisionCannotApproveProtectedFile(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	p := d.MustPropose(t, engine.FormatWrite, ".claude/settings.json", "{}\n")
	_, err := d.Decide(context.Background(), p.ID, review.Decision{Verdict: decision.Approved, Rule: "auto_approve rule at x line 1"})
	if err == nil || !strings.Contains(err.Error(), "protected") || !strings.Contains(err.Error(), "Claude Code's settings") {
		t.Fatalf("Decide(by a rule) = %v; want a refusal naming the protection", err)
	}
	if _, err := os.Stat(filepath.Join(d.Root, ".claude")); err == nil {
		t.Fatal("a rule wrote .claude/settings.json")
	}
	if o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Approved}); o.Status != decision.Approved {
		t.Errorf("the person's approval: %s; want approved", o.Status)
	}
}

// swapDesk is a desk whose workspace holds sub/a.txt ("one\n"), and a
// directory outside the workspace holding the same file.
func swapDesk(t *testing.T) (d *reviewtest.Desk, outside string) {
	t.Helper()
	d = reviewtest.NewDesk(t, "", "")
	outside = filepath.Join(filepath.Dir(d.Root), "outside-"+filepath.Base(d.Root))
	t.Cleanup(func() { os.RemoveAll(outside) })
	reviewtest.WriteFile(t, filepath.Join(d.Root, "sub", "a.txt"), "one\n")
	reviewtest.WriteFile(t, filepath.Join(outside, "a.txt"), "one\n")
	return d, outside
}

// TestSymlinkSwappedInBeforeApprovalIsRefused: between proposal and
// approval the file's directory, or the file, is replaced by a symlink
// to a directory outside the workspace holding the same content. The
// approval is refused with a clear error, nothing is written outside, and
// the agent is told.
func TestSymlinkSwappedInBeforeApprovalIsRefused(t *testing.T) {
	for _, tt := range []struct {
		name string
		file string
		swap func(t *testing.T, root, outside string)
	}{
		{"directory", "sub/a.txt", func(t *testing.T, root, outside string) {
			must(t, os.RemoveAll(filepath.Join(root, "sub")))
			must(t, os.Symlink(outside, filepath.Join(root, "sub")))
		}},
		{"file", "sub/a.txt", func(t *testing.T, root, outside string) {
			must(t, os.Remove(filepath.Join(root, "sub", "a.txt")))
			must(t, os.Symlink(filepath.Join(outside, "a.txt"), filepath.Join(root, "sub", "a.txt")))
		}},
		{"directory of a new file", "sub/new.txt", func(t *testing.T, root, outside string) {
			must(t, os.RemoveAll(filepath.Join(root, "sub")))
			must(t, os.Symlink(outside, filepath.Join(root, "sub")))
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, outside := swapDesk(t)
			p := d.MustPropose(t, engine.FormatWrite, tt.file, "evil\n")
			tt.swap(t, d.Root, outside)
			_, err := d.Decide(context.Background(), p.ID, review.Decision{Verdict: decision.Approved})
			var re *workspace.RefusalError
			if !errors.As(err, &re) || re.Rule != workspace.RuleMoved || !strings.Contains(err.Error(), "symlink") || !strings.Contains(err.Error(), outside) {
				t.Fatalf("Decide after the swap = %v; want a path_changed refusal naming the symlink and where it leads", err)
			}
			if got := reviewtest.ReadFile(t, filepath.Join(outside, "a.txt")); got != "one\n" {
				t.Errorf("outside a.txt = %q; want it untouched", got)
			}
			if _, err := os.Stat(filepath.Join(outside, "new.txt")); err == nil {
				t.Error("new.txt was created outside the workspace")
			}
			o := reviewtest.WaitOutcome(t, d.Desk, p.ID)
			text := agenttext.Outcome(o)
			if o.Status != decision.Failed || !strings.Contains(text, "refused to write your edit to "+filepath.Join(d.Root, tt.file)) || !strings.Contains(text, outside) ||
				!strings.Contains(strings.ToLower(text), "nothing was written") || strings.Count(strings.ToLower(text), "nothing was written") > 1 || strings.Contains(text, "refused: ") {
				t.Errorf("the agent is told %s:\n%s\nwant a failure saying the write was refused", o.Status, agenttext.Outcome(o))
			}
		})
	}
}

// TestReadOnlyFileIsRefused: an edit to a read-only file is refused when
// proposed, saying how to make it writable; a file made read-only while
// the proposal waits is refused at approval and left as it is.
func TestReadOnlyFileIsRefused(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path := filepath.Join(d.Root, "ro.txt")
	reviewtest.WriteFile(t, path, "one\n")
	must(t, os.Chmod(path, 0o444))
	_, err := d.Propose(context.Background(), review.Request{Format: engine.FormatWrite, Path: "ro.txt", Payload: "two\n"})
	var re *workspace.RefusalError
	if !errors.As(err, &re) || re.Rule != workspace.RuleReadOnly || !strings.Contains(err.Error(), "chmod u+w "+path) {
		t.Fatalf("Propose(read-only file) = %v; want a read_only refusal saying chmod u+w %s", err, path)
	}
	if _, err := d.Read("ro.txt"); err != nil {
		t.Errorf("Read(read-only file) = %v; want it readable", err)
	}

	must(t, os.Chmod(path, 0o644))
	p := d.MustPropose(t, engine.FormatWrite, "ro.txt", "two\n")
	must(t, os.Chmod(path, 0o444))
	if _, err := d.Decide(context.Background(), p.ID, review.Decision{Verdict: decision.Approved}); !errors.As(err, &re) || re.Rule != workspace.RuleReadOnly {
		t.Fatalf("Decide after chmod 0444 = %v; want a read_only refusal", err)
	}
	if got := reviewtest.ReadFile(t, path); got != "one\n" {
		t.Errorf("read-only file holds %q; want it untouched", got)
	}
	if got, _ := d.Get(p.ID); got.State != review.StatePending {
		t.Errorf("state %s; want pending (the person may make it writable and approve again)", got.State)
	}
}

// TestControlCharactersInAgentNamesAreEscaped: an agent and session name
// holding terminal escapes or a newline are kept escaped.
func TestControlCharactersInAgentNamesAreEscaped(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	p, err := d.Propose(context.Background(), review.Request{Agent: "evil\x1b[2J\nroot", Session: "s\r1", Format: engine.FormatWrite, Path: "a.txt", Payload: "x\n"})
	if err != nil {
		t.Fatal(err)
	}
	if p.Agent != `"evil\x1b[2J\nroot"` || p.Session != `"s\r1"` {
		t.Errorf("agent %s, session %s; want them escaped", p.Agent, p.Session)
	}
}

// TestControlCharactersInPathsAreRefused: a path holding a control
// character is refused, naming it escaped.
func TestControlCharactersInPathsAreRefused(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	for _, path := range []string{"a\nb.txt", "x\x1b[31m.go", "dir\r/f.txt", "evil\u202egpj.exe"} {
		_, err := d.Propose(context.Background(), review.Request{Format: engine.FormatWrite, Path: path, Payload: "x\n"})
		var re *workspace.RefusalError
		if !errors.As(err, &re) || re.Rule != workspace.RuleInvalidPath || strings.ContainsAny(err.Error(), "\n\r\x1b\u202e") {
			t.Errorf("Propose(%q) = %v; want an invalid_path refusal printed escaped", path, err)
		}
	}
	if n := len(d.List()); n != 0 {
		t.Errorf("%d proposals queued; want 0", n)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
