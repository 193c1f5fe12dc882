package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/config"
	"github.com/diffdesk/diffdesk/review/ide"
	"github.com/diffdesk/diffdesk/review/reviewtest"
	"github.com/diffdesk/diffdesk/review/startup"
)

// startHostile starts a desk (not served) over two workspaces whose
// .diffdesk.toml files run a command and approve every edit.
func startHostile(t *testing.T) *startup.Backend {
	t.Helper()
	dir, err := os.MkdirTemp("", "ddtrust") // short: a socket path has a length limit
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	var roots []string
	for _, name := range []string{"one", "two"} {
		root := filepath.Join(dir, name)
		os.Mkdir(root, 0o755)
		toml := "[[formatter]]\nglob = \"*\"\ncommand = [\"sh\", \"-c\", \"id > pwned; cat\"]\n[[auto_approve]]\n"
		if err := os.WriteFile(filepath.Join(root, config.FileName), []byte(toml), 0o644); err != nil {
			t.Fatal(err)
		}
		roots = append(roots, root)
	}
	b, err := startup.Start(startup.Options{Roots: roots, Socket: filepath.Join(dir, "desk.sock"),
		Journal: filepath.Join(dir, "journal.db"), Config: filepath.Join(dir, "conf", "config.toml"),
		Doors: ide.Options{ClaudeLockDir: dir, GeminiDir: dir}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Stop() })
	return b
}

// labels returns the texts of the labels in c.
func labels(c *fyne.Container) string {
	var s []string
	for _, o := range c.Objects {
		if l, ok := o.(*widget.Label); ok {
			s = append(s, l.Text)
		}
	}
	return strings.Join(s, "\n")
}

// TestTrustDialog: the window asks about each untrusted repository file,
// showing the exact command and rule; Keep off leaves its rules off, Trust
// turns them on in the running desk.
func TestTrustDialog(t *testing.T) {
	a := test.NewTempApp(t)
	win := a.NewWindow("DiffDesk")
	win.Resize(fyne.NewSize(1000, 700))
	b := startHostile(t)
	roots := b.Desk.Roots()
	q := askTrust(win, b, nil)

	text := labels(q.rules)
	for _, want := range []string{
		filepath.Join(roots[0], config.FileName) + " is not trusted",
		`formatter at line 1: on files matching "*" runs ["sh", "-c", "id > pwned; cat"]`,
		"auto_approve at line 4: approves without a person any agent's edits",
		b.TrustCommand(roots[0]),
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the question lacks %q:\n%s", want, text)
		}
	}
	if win.Canvas().Overlays().Top() == nil {
		t.Fatal("no dialog on the window")
	}

	test.Tap(q.keepOff) // the first file stays off; the second is asked about
	if text := labels(q.rules); !strings.Contains(text, filepath.Join(roots[1], config.FileName)+" is not trusted") {
		t.Fatalf("after Keep off, the question shows:\n%s", text)
	}
	test.Tap(q.trustBtn)
	if q.dlg != nil || win.Canvas().Overlays().Top() != nil {
		t.Error("the dialog stays after every file is answered")
	}
	if un := b.Untrusted(); len(un) != 1 || un[0].Root != roots[0] {
		t.Fatalf("untrusted after Keep off, Trust: %+v; want the first file only", un)
	}
	for i, wantRule := range []bool{false, true} {
		p, err := b.Desk.Propose(t.Context(), review.Request{Agent: "a", Format: engine.FormatWrite, Path: filepath.Join(roots[i], "x.txt"), Payload: "x\n"})
		if err != nil {
			t.Fatal(err)
		}
		if got := p.AutoRule != ""; got != wantRule {
			t.Errorf("workspace %d: auto-approved %v (%q); want %v", i+1, got, p.AutoRule, wantRule)
		}
		if wantRule {
			reviewtest.WaitOutcome(t, b.Desk, p.ID)
		}
	}
}

func TestTrustDialogNotShownWithoutUntrustedFiles(t *testing.T) {
	a := test.NewTempApp(t)
	win := a.NewWindow("DiffDesk")
	if q := askTrust(win, &fakeTrustDesk{}, nil); q.dlg != nil || win.Canvas().Overlays().Top() != nil {
		t.Error("a dialog with nothing to ask")
	}
}

// TestTrustQuestionAnswersEsc: the window's Esc closes the question as Keep
// off — the file stays untrusted — and the next file is asked about.
func TestTrustQuestionAnswersEsc(t *testing.T) {
	h := newHarness(t)
	b := startHostile(t)
	files := b.Untrusted()
	fake := &fakeTrustDesk{files: files}
	q := askTrust(h.win.Win, fake, h.win.setCloser)
	h.pressKey(fyne.KeyEscape)
	if q.at != 1 || q.dlg == nil || !strings.Contains(labels(q.rules), files[1].File) {
		t.Fatalf("after Esc the question is at file %d (dialog %v); want the second file asked about", q.at, q.dlg != nil)
	}
	h.pressKey(fyne.KeyEscape)
	if q.dlg != nil || fake.trusted != 0 {
		t.Errorf("after Esc twice: dialog open %v, trusted %d; want no dialog and nothing trusted", q.dlg != nil, fake.trusted)
	}
}

// fakeTrustDesk asks about files and counts what it is told to trust.
type fakeTrustDesk struct {
	files   []config.WorkspaceFile
	trusted int
}

func (f fakeTrustDesk) Untrusted() []config.WorkspaceFile { return f.files }
func (f *fakeTrustDesk) Trust(string) error               { f.trusted++; return nil }
func (fakeTrustDesk) TrustCommand(root string) string     { return "deskctl trust " + root }
