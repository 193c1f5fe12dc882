package realclients

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/journal"
)

// historyOf is the history's one decision: its verdict and feedback.
func (dk *desk) historyOf(t *testing.T) (decision.Verdict, string) {
	t.Helper()
	page, err := dk.journal.History(context.Background(), journal.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Entries) != 1 {
		t.Fatalf("history %+v; want one decision", page.Entries)
	}
	return page.Entries[0].Decision, page.Entries[0].Feedback
}

// TestClineApprovalNotWritten runs the real cline where the person
// approves but Cline writes nothing: DiffDesk's own hook blocks the
// approval (the person's text is too long for Cline's editor in one
// call), or a hook of the person's own that runs after DiffDesk's blocks
// the tool. The history says failed — approved, not written — never
// approved; the file is untouched.
func TestClineApprovalNotWritten(t *testing.T) {
	bin := clineBin(t)
	long := strings.Repeat("x", 7000) + "\n"
	for _, tc := range []struct {
		name      string
		who       person
		theirHook string
		why       string
	}{
		{"DiffDesk's hook blocks it", approveAs(long), "", "longer than the 6000 characters"},
		{"their own hook blocks it after DiffDesk's", approve(), `{"overrideInput":{}}`, "Cline's tool failed"},
		{"their own hook cancels the run after DiffDesk's", approve(), `{"cancel":true,"errorMessage":"stop"}`, "before the tool's PostToolUse hook"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			dk := startDesk(t, e, tc.who)
			target := dk.writeFile(t, "a.txt", "hello\n")
			api := fakeOpenAI(t, "editor", map[string]any{"path": target, "old_text": "hello", "new_text": "hello from the model"})
			clineEnv(t, e, bin, api, dk.sock)
			if tc.theirHook != "" {
				hooks := filepath.Join(dk.root, ".cline", "hooks")
				os.MkdirAll(hooks, 0o755)
				os.WriteFile(filepath.Join(hooks, "PreToolUse"), []byte("#!/bin/sh\ncat >/dev/null\nprintf 'HOOK_CONTROL\\t%s\\n' '"+tc.theirHook+"'\n"), 0o755)
			}
			out := runCline(t, e, bin, dk.root)
			if got := readFile(t, target); got != "hello\n" {
				t.Fatalf("a.txt = %q; want it untouched\ncline said:\n%s", got, out)
			}
			if o := dk.outcome(t, 10*time.Second); !o.Status.Wrote() {
				t.Fatalf("the person's decision ended %s; want an approval", o.Status)
			}
			deadline := time.Now().Add(10 * time.Second)
			v, fb := dk.historyOf(t)
			for v != decision.Failed && time.Now().Before(deadline) {
				time.Sleep(100 * time.Millisecond)
				v, fb = dk.historyOf(t)
			}
			if v != decision.Failed || !strings.Contains(fb, "but not written") || !strings.Contains(fb, tc.why) {
				t.Errorf("history: %s %q; want failed, approved but not written, saying %q\ncline said:\n%s", v, fb, tc.why, out)
			}
		})
	}
}
