package review_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/reviewtest"
	"github.com/diffdesk/diffdesk/review/trivial"
)

// waitFormatting waits (at most a minute) until the formatting-only hunks
// of file path of proposal id are known.
func waitFormatting(t *testing.T, d *review.Desk, id, path string) review.File {
	t.Helper()
	return reviewtest.WaitFile(t, d, id, path, "the formatting-only hunks", func(f review.File) bool { return f.Formatting != nil })
}

// TestFormattingOnlyHunksWithGofmt: with gofmt as the project's
// formatter, sorting an import block (which gofmt does anyway) is
// formatting-only (two hunks: gofmt undoes them together); a changed call
// is not.
func TestFormattingOnlyHunksWithGofmt(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "[[formatter]]\nglob = \"*.go\"\ncommand = [\"gofmt\"]\n")
	base := "package app\n\nimport (\n\t\"os\"\n\t\"fmt\"\n)\n\n" + strings.Repeat("// filler\n", 12) +
		"func Run() {\n\tfmt.Println(os.Args)\n}\n"
	proposed := strings.Replace(strings.Replace(base, "\t\"os\"\n\t\"fmt\"\n", "\t\"fmt\"\n\t\"os\"\n", 1), "os.Args)", "os.Args[1:])", 1)
	path := filepath.Join(d.Root, "app.go")
	reviewtest.WriteFile(t, path, base)
	p := d.MustPropose(t, engine.FormatWrite, "app.go", proposed)
	hs := p.Files[0].Hunks()
	if len(hs) != 3 {
		t.Fatalf("%d hunks; want 3 (an import out, the same import in, the call)", len(hs))
	}
	f := waitFormatting(t, d.Desk, p.ID, path)
	if !slices.Equal(f.Formatting, []string{hs[0].ID, hs[1].ID}) {
		t.Errorf("formatting-only hunks %v; want the import sort's two (%s, %s) only", f.Formatting, hs[0].ID, hs[1].ID)
	}
	if got := trivial.Classify(path, base, proposed, hs); len(got) != 0 {
		t.Errorf("the import sort is neither whitespace nor comment only, yet ClassifyHunks says %v", got)
	}
}
