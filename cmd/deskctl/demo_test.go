package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
)

func TestDemoAgainstHeadlessDesk(t *testing.T) {
	root, sock := startServe(t, decision.Approved)
	out, errOut, code := deskctl(t, "", "demo", "--socket", sock, "--fast")
	if code != 0 {
		t.Fatalf("demo = exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	dir := filepath.Join(root, "diffdesk-demo")
	for _, want := range []string{
		"approved         middleware.go",
		"approved         main.go",
		"approved         store/store.go",
		"approved         catalog/catalog.go",
		"failed           README.md",
		"stale            config.go",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q:\n%s", want, out)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "middleware.go")); string(b) != demoMiddleware {
		t.Errorf("middleware.go = %q; want the streamed file", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "store", "store.go")); !strings.Contains(string(b), "sync.RWMutex") {
		t.Errorf("store.go was not edited:\n%s", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "config.go")); string(b) != demoConfigByPerson {
		t.Errorf("config.go = %q; the stale edit must not be written", b)
	}
}

func TestDemoCatalogIsBig(t *testing.T) {
	if n := strings.Count(demoCatalog(), "\n"); n < 2900 {
		t.Errorf("catalog has %d lines; want a big file", n)
	}
}

func TestDemoNeedsADesk(t *testing.T) {
	_, errOut, code := deskctl(t, "", "demo", "--socket", filepath.Join(t.TempDir(), "none.sock"), "--fast")
	if code != 1 || !strings.Contains(errOut, "no desk is running") {
		t.Errorf("demo with no desk: exit %d, %q", code, errOut)
	}
}

// TestDemoSummaryOfAPartial: a partial approval is summed up as the hunks
// the person kept, not "edited by the person" (QA finding 12: the demo
// said a person who unticked two hunks had edited the file).
func TestDemoSummaryOfAPartial(t *testing.T) {
	o := &review.Outcome{Status: decision.Partial, Files: []review.FileOutcome{{
		Path:      "/w/store.go",
		UserEdits: "--- proposal\n+++ approved\n@@ -1 +1 @@\n-a\n+b\n",
		Hunks:     []review.HunkVerdict{{ID: "1", Accepted: true}, {ID: "2"}, {ID: "3", Accepted: true}, {ID: "4"}},
	}}}
	if got, want := demoSummary(o), " — 2 of 4 hunks"; got != want {
		t.Errorf("demoSummary(partial) = %q; want %q", got, want)
	}
	o.Status = decision.ApprovedEdited
	o.Files[0].Hunks = nil
	if got, want := demoSummary(o), " — edited by the person"; got != want {
		t.Errorf("demoSummary(approved-edited) = %q; want %q", got, want)
	}
}
