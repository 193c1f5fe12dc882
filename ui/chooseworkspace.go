package ui

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"
	"github.com/diffdesk/diffdesk/ui/present"
)

// prefWorkspace is the workspace folder last chosen in the chooser: the
// one it offers next time.
const prefWorkspace = "workspace.chosen"

// AskForWorkspace reports whether the desk should ask which folder to
// serve: no --workspace was given and the directory it was started in is
// the home directory or / — what a start from the applications menu
// gives, where serving it would put every file of the person's (or the
// machine's) under review. A start in a project folder serves that folder,
// as before.
func AskForWorkspace(roots []string, wd, home string) bool {
	if len(roots) > 0 {
		return false
	}
	return tooWide(wd, home)
}

// tooWide reports whether dir is the home directory or the file system's
// root (or cannot be told apart from one): no workspace to serve whole.
func tooWide(dir, home string) bool {
	clean := filepath.Clean(dir)
	if clean == string(filepath.Separator) || clean == "." || clean == "" {
		return true
	}
	if home == "" {
		return false
	}
	a, errA := filepath.EvalSymlinks(clean)
	b, errB := filepath.EvalSymlinks(filepath.Clean(home))
	if errA != nil || errB != nil {
		return clean == filepath.Clean(home)
	}
	return a == b || a == string(filepath.Separator)
}

// checkWorkspace says why dir cannot be the workspace; nil if it can.
func checkWorkspace(dir, home string) error {
	if tooWide(dir, home) {
		what := "your home folder"
		if !sameDir(dir, home) {
			what = "the whole machine"
		}
		return fmt.Errorf("%s is %s: agents could propose edits to every file in it, and the desk would watch them all. Choose the project folder the agent works in", present.HomeShort(dir, home), what)
	}
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s is no longer there (moved or deleted)", present.HomeShort(dir, home))
	case err != nil:
		return fmt.Errorf("%s cannot be read: %w", present.HomeShort(dir, home), err)
	case !info.IsDir():
		return fmt.Errorf("%s is not a folder", present.HomeShort(dir, home))
	}
	return nil
}

// sameDir reports whether a and b name the same directory.
func sameDir(a, b string) bool {
	x, errA := os.Stat(a)
	y, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(x, y)
}

// workspaceChooser is the window that asks for the workspace folder when
// the desk was started with none (AskForWorkspace): the folder chosen
// last, if it is still there, and a folder dialog. open starts the desk on
// the folder; it returns an error when it could not, which is shown, and
// the person chooses again.
type workspaceChooser struct {
	a    fyne.App
	win  fyne.Window
	home string
	open func(dir string) error
	info *widget.Label
	last *widget.Button
}

// ShowWorkspaceChooser shows the chooser in a window of a (run a then):
// open starts the desk on the folder chosen and shows its window, or says
// why it could not; the chooser then closes. Closed without a choice, it
// quits a.
func ShowWorkspaceChooser(a fyne.App, home string, open func(dir string) error) {
	newWorkspaceChooser(a, home, open).win.Show()
}

// newWorkspaceChooser makes the chooser in a window of a.
func newWorkspaceChooser(a fyne.App, home string, open func(dir string) error) *workspaceChooser {
	c := &workspaceChooser{a: a, home: home, open: open}
	c.win = newAppWindow(a, "DiffDesk — choose a workspace")
	// Closed without a choice: nothing to serve, the app ends. (Not the
	// master window: closing it once the desk's window is open must not
	// end the app.)
	c.win.SetCloseIntercept(a.Quit)
	c.info = widget.NewLabel("")
	c.info.Wrapping = fyne.TextWrapWord
	intro := widget.NewLabel("Which folder should DiffDesk serve? Agents' edits to files in it wait here for your decision. Choose the project folder the agent works in.")
	intro.Wrapping = fyne.TextWrapWord
	c.last = widget.NewButton("", func() { c.choose(c.a.Preferences().String(prefWorkspace)) })
	c.last.Importance = widget.HighImportance
	c.last.Hide()
	other := widget.NewButton("Choose a folder…", c.showDialog)
	quit := widget.NewButton("Quit", c.a.Quit)
	c.win.SetContent(container.NewVBox(intro, c.info, c.last, other, quit))
	c.win.Resize(fyne.NewSize(820, 620)) // room for the folder dialog
	c.offerLast()
	c.win.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) {
		if (ev.Name == fyne.KeyReturn || ev.Name == fyne.KeyEnter) && c.last.Visible() && c.win.Canvas().Overlays().Top() == nil {
			c.last.OnTapped()
		}
	})
	return c
}

// offerLast offers the folder chosen last, if it can still be served;
// one that is gone (or became unusable) is said, not offered.
func (c *workspaceChooser) offerLast() {
	last := c.a.Preferences().String(prefWorkspace)
	switch {
	case last == "":
		c.info.SetText("")
	case checkWorkspace(last, c.home) != nil:
		c.info.SetText(fmt.Sprintf("The folder you chose last time cannot be served: %v. Choose another.", checkWorkspace(last, c.home)))
		c.last.Hide()
		return
	default:
		c.info.SetText("")
		c.last.SetText("Open " + present.HomeShort(last, c.home) + " (chosen last time; Enter)")
		c.last.Show()
		return
	}
	c.last.Hide()
}

// showDialog opens the folder dialog, at the folder chosen last or home.
func (c *workspaceChooser) showDialog() {
	d := dialog.NewFolderOpen(func(u fyne.ListableURI, err error) {
		if err != nil {
			c.info.SetText(err.Error())
			return
		}
		if u != nil {
			c.choose(u.Path())
		}
	}, c.win)
	start := c.home
	if last := c.a.Preferences().String(prefWorkspace); last != "" && checkWorkspace(last, c.home) == nil {
		start = filepath.Dir(last)
	}
	if l, err := storage.ListerForURI(storage.NewFileURI(start)); err == nil {
		d.SetLocation(l)
	}
	d.Show()
	d.Resize(fyne.NewSize(780, 560)) // after Show: before it, fyne 2.8.1 dereferences the dialog's nil window
}

// choose serves dir if it can be: remembered, and the desk opened; else
// the chooser says why and stays.
func (c *workspaceChooser) choose(dir string) {
	if err := checkWorkspace(dir, c.home); err != nil {
		c.info.SetText(err.Error() + ".")
		return
	}
	if err := c.open(dir); err != nil {
		c.info.SetText(fmt.Sprintf("DiffDesk could not serve %s: %v", present.HomeShort(dir, c.home), err))
		return
	}
	c.a.Preferences().SetString(prefWorkspace, dir)
	c.win.Close()
}
