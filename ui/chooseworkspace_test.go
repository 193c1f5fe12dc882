package ui

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// TestAskForWorkspace: a start with no --workspace in the home directory
// or / (the applications menu's) asks; in a project folder, or with
// --workspace, it does not.
func TestAskForWorkspace(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, "proj")
	os.Mkdir(proj, 0o755)
	link := filepath.Join(t.TempDir(), "home-link")
	os.Symlink(home, link)
	for _, tc := range []struct {
		roots []string
		wd    string
		want  bool
	}{
		{nil, home, true},
		{nil, home + "/", true},
		{nil, link, true}, // home through a symlink
		{nil, "/", true},
		{nil, proj, false},
		{[]string{home}, home, false}, // the person said so
	} {
		if got := AskForWorkspace(tc.roots, tc.wd, home); got != tc.want {
			t.Errorf("AskForWorkspace(%q, %q) = %v; want %v", tc.roots, tc.wd, got, tc.want)
		}
	}
}

// TestWorkspaceChooser: the chooser offers the folder chosen last, says
// when it is gone instead of offering it, refuses home and /, and
// remembers what it opened.
func TestWorkspaceChooser(t *testing.T) {
	a := test.NewTempApp(t)
	home := t.TempDir()
	proj := filepath.Join(home, "proj")
	os.Mkdir(proj, 0o755)
	var opened []string
	fail := error(nil)
	open := func(dir string) error {
		if fail != nil {
			return fail
		}
		opened = append(opened, dir)
		return nil
	}

	const title = "DiffDesk — choose a workspace"
	c := newWorkspaceChooser(a, home, open)
	s := windowTitled(t, a, title)
	s.Click("Choose a folder…") // the folder dialog opens (on the window, at home)
	if !s.DialogOpen() {
		t.Error("Choose a folder… opened no dialog")
	}
	s.CloseDialog()
	if b := s.Button("Open"); b != "" {
		t.Errorf("nothing chosen before, yet the chooser offers %q", b)
	}
	for dir, say := range map[string]string{home: "~ is your home folder", "/": "/ is the whole machine", filepath.Join(home, "nope"): "~/nope is no longer there"} {
		c.choose(dir) // as the folder dialog does with the folder chosen
		if len(opened) != 0 || !strings.Contains(s.Text(), say) {
			t.Errorf("choosing %s opened %v, said %q; want it refused, saying %q", dir, opened, s.Text(), say)
		}
	}
	fail = errors.New("a desk is already running")
	c.choose(proj)
	if !strings.Contains(s.Text(), "a desk is already running") || a.Preferences().String(prefWorkspace) != "" {
		t.Errorf("a desk that could not open: said %q, remembered %q", s.Text(), a.Preferences().String(prefWorkspace))
	}
	fail = nil
	c.choose(proj)
	if len(opened) != 1 || opened[0] != proj || a.Preferences().String(prefWorkspace) != proj {
		t.Fatalf("opened %v, remembered %q; want %s both", opened, a.Preferences().String(prefWorkspace), proj)
	}

	// Next time: offered, Enter opens it.
	newWorkspaceChooser(a, home, open)
	s = windowTitled(t, a, title)
	if b := s.Button("Open"); !strings.Contains(b, "proj") {
		t.Errorf("the folder chosen last is not offered: %q", s.Text())
	}
	s.Key(fyne.KeyReturn)
	if len(opened) != 2 || opened[1] != proj {
		t.Errorf("Enter opened %v; want %s again", opened, proj)
	}

	// The folder is gone: said, not offered.
	os.Remove(proj)
	newWorkspaceChooser(a, home, open)
	s = windowTitled(t, a, title)
	if s.Button("Open") != "" || !strings.Contains(s.Text(), "~/proj is no longer there") {
		t.Errorf("a remembered folder that is gone: offered %q, said %q", s.Button("Open"), s.Text())
	}
	// Remembered as home (an older choice, or a hand-edited preference): not offered either.
	a.Preferences().SetString(prefWorkspace, home)
	newWorkspaceChooser(a, home, open)
	if b := windowTitled(t, a, title).Button("Open"); b != "" {
		t.Errorf("home is offered as the workspace: %q", b)
	}
}
