package ui

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
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

// TestTrustDialog: the window asks about each untrusted repository file,
// showing the exact command and rule; Keep off leaves its rules off, Trust
// turns them on in the running desk.
func TestTrustDialog(t *testing.T) {
	a := test.NewTempApp(t)
	win := a.NewWindow("DiffDesk")
	win.Resize(fyne.NewSize(1000, 700))
	b := startHostile(t)
	roots := b.Desk.Roots()
	askTrust(win, b, nil)
	s := screen(t, win)

	text := s.Dialog()
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
	if !s.DialogOpen() {
		t.Fatal("no dialog on the window")
	}

	s.Click("Keep off") // the first file stays off; the second is asked about
	if text := s.Dialog(); !strings.Contains(text, filepath.Join(roots[1], config.FileName)+" is not trusted") {
		t.Fatalf("after Keep off, the question shows:\n%s", text)
	}
	s.Click("Trust")
	if s.DialogOpen() {
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
	if askTrust(win, &fakeTrustDesk{}, nil); screen(t, win).DialogOpen() {
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
	askTrust(h.win.Win, fake, h.win.setCloser)
	if q := h.Dialog().Text(); !strings.Contains(q, files[0].File+" is not trusted") {
		t.Fatalf("the question asks:\n%s\nwant the first file asked about", q)
	}
	h.pressKey(fyne.KeyEscape)
	if q := h.Dialog().Text(); !strings.Contains(q, files[1].File+" is not trusted") {
		t.Fatalf("after Esc the question asks:\n%s\nwant the second file asked about", q)
	}
	h.pressKey(fyne.KeyEscape)
	if h.Dialog().Open() || fake.trusted != 0 {
		t.Errorf("after Esc twice: dialog open %v, trusted %d; want no dialog and nothing trusted", h.Dialog().Open(), fake.trusted)
	}
}

// fakeTrustDesk asks about files and counts what it is told to trust.
type fakeTrustDesk struct {
	files   []config.WorkspaceFile
	trusted int
}

func (f fakeTrustDesk) Untrusted() []config.WorkspaceFile { return f.files }
func (f *fakeTrustDesk) Trust(config.WorkspaceFile) error { f.trusted++; return nil }
func (fakeTrustDesk) TrustCommand(root string) string     { return "deskctl trust " + root }

// A reload of the config files is told: a file that did not load in a
// dialog (what the person saved is not in force), a good one under the
// bar; repository rules it found off are asked about once per content.
func TestConfigReloadIsTold(t *testing.T) {
	h := newHarness(t)
	b := startHostile(t)
	files := b.Untrusted()
	fake := &fakeTrustDesk{files: files[:1]}
	asked := askedAbout(fake.files)

	h.win.configReloaded(fake, asked, startup.Reloaded{}, errors.New("config.toml line 2: bad"))
	if top := h.win.Win.Canvas().Overlays().Top(); top == nil || !strings.Contains(overlayText(top), "config.toml line 2: bad") || !strings.Contains(overlayText(top), "unchanged") {
		t.Fatalf("a failed reload shows %v; want a dialog with the error, saying the config in force is unchanged", top)
	}
	h.pressKey(fyne.KeyEscape)

	h.win.configReloaded(fake, asked, startup.Reloaded{Files: []string{"/c/config.toml"}, Untrusted: true}, nil)
	if !strings.Contains(h.Message(), "config read again and in force: /c/config.toml") {
		t.Errorf("after a reload the message is %q", h.Message())
	}
	if top := h.win.Win.Canvas().Overlays().Top(); top != nil {
		t.Fatalf("a reload with only the file asked about before asks again: %v", overlayText(top))
	}
	fake.files = files // the second root's file is new
	h.win.configReloaded(fake, asked, startup.Reloaded{Untrusted: true}, nil)
	top := h.win.Win.Canvas().Overlays().Top()
	if top == nil || !strings.Contains(overlayText(top), files[1].File) || strings.Contains(overlayText(top), files[0].File+" is not") {
		t.Fatalf("a reload with a new untrusted file shows %v; want the question about %s only", top, files[1].File)
	}
}

// overlayText is every text an overlay (a dialog) shows, one a line.
func overlayText(o fyne.CanvasObject) string {
	var out []string
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch o := o.(type) {
		case *fyne.Container:
			for _, c := range o.Objects {
				walk(c)
			}
		case *widget.Label:
			out = append(out, o.Text)
		case *canvas.Text:
			out = append(out, o.Text)
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(o).Objects() {
				walk(c)
			}
		}
	}
	walk(o)
	return strings.Join(out, "\n")
}
