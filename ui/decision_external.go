package ui

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/fsnotify/fsnotify"
)

// externalEdit is one run of the person's own editor on a temp copy of a
// proposed file.
type externalEdit struct {
	id, path string // the proposal and the file being edited
	dir      string // the temp dir holding the copy
	cmd      *exec.Cmd
	watcher  *fsnotify.Watcher
}

// EditorCommand is the external editor diffdesk runs: $VISUAL, else
// $EDITOR, else "code --wait" when VS Code is on PATH; nil if none.
func EditorCommand() []string {
	for _, v := range []string{"VISUAL", "EDITOR"} {
		if f := strings.Fields(os.Getenv(v)); len(f) > 0 {
			return f
		}
	}
	if _, err := exec.LookPath("code"); err == nil {
		return []string{"code", "--wait"}
	}
	return nil
}

// EditExternal opens the shown file's proposed (or edited) text in the
// person's editor (x). The diff reloads whenever the editor saves; when the
// editor exits, its text is what Approve edited writes. The UI never waits
// for the editor.
func (d *detail) EditExternal() {
	if !d.canDecide() || len(d.p.Files) == 0 {
		return
	}
	argv := d.w.opts.Editor
	if argv == nil {
		argv = EditorCommand()
	}
	if len(argv) == 0 {
		d.setStatus("No external editor: set $VISUAL or $EDITOR (a GUI editor that waits, e.g. \"code --wait\" or \"gvim -f\").", true)
		return
	}
	d.closeExternal()
	f := d.cur()
	text := f.Proposed
	switch {
	case d.editing:
		text = d.view.EditedText()
	case f.Stale():
		text = d.merge(f).Text
	}
	if t, ok := d.edited[f.Path]; ok && !d.editing {
		text = t
	}
	dir, err := os.MkdirTemp("", "diffdesk-edit-")
	if err != nil {
		d.setStatus("External editor: "+err.Error(), true)
		return
	}
	tmp := filepath.Join(dir, filepath.Base(f.Path)) // same name, so the editor picks the same syntax
	if err := os.WriteFile(tmp, []byte(text), 0o600); err != nil {
		os.RemoveAll(dir)
		d.setStatus("External editor: "+err.Error(), true)
		return
	}
	watcher, err := fsnotify.NewWatcher()
	if err == nil {
		err = watcher.Add(dir) // the dir: editors often save by renaming a new file over the old
	}
	if err != nil {
		if watcher != nil {
			watcher.Close()
		}
		os.RemoveAll(dir)
		d.setStatus("External editor: "+err.Error(), true)
		return
	}
	args := editorArgs(argv, tmp, d.editorLine()) // at the current hunk, where the editor takes a line
	cmd := exec.Command(args[0], args[1:]...)
	if err := cmd.Start(); err != nil {
		watcher.Close()
		os.RemoveAll(dir)
		d.setStatus("External editor "+argv[0]+": "+err.Error(), true)
		return
	}
	x := &externalEdit{id: d.id, path: f.Path, dir: dir, cmd: cmd, watcher: watcher}
	d.ext = x
	d.edited[f.Path] = text
	if !d.editing {
		d.editing = true
		d.shownKey = ""
		d.render()
	}
	d.setStatus("Editing in "+argv[0]+"; the diff reloads when you save there, and Approve edited writes your text.", false)
	// The watching goroutine ends when the watcher is closed (the editor
	// exited, or the person moved on).
	go func() {
		for {
			select {
			case ev, ok := <-watcher.Events:
				if !ok {
					return
				}
				if filepath.Clean(ev.Name) != tmp || !ev.Has(fsnotify.Write) && !ev.Has(fsnotify.Create) {
					continue
				}
				if b, err := os.ReadFile(tmp); err == nil {
					d.w.do(func() { d.externalSaved(x, string(b)) })
				}
			case _, ok := <-watcher.Errors:
				if !ok {
					return
				}
			}
		}
	}()
	// The waiting goroutine ends when the editor exits (closing the window
	// does not wait for it).
	go func() {
		err := cmd.Wait()
		b, rerr := os.ReadFile(tmp)
		watcher.Close()
		os.RemoveAll(dir)
		d.w.do(func() { d.externalExited(x, string(b), errors.Join(err, rerr)) })
	}()
}

// externalSaved shows the text the external editor saved.
func (d *detail) externalSaved(x *externalEdit, text string) {
	if d.ext != x {
		return // a later run, or the person moved on
	}
	d.takeExternal(x, text)
}

// takeExternal makes text the edit of x's file and shows it.
func (d *detail) takeExternal(x *externalEdit, text string) {
	if d.id != x.id || d.edited[x.path] == text {
		return
	}
	d.edited[x.path] = text
	if len(d.p.Files) > 0 && d.curPath() == x.path {
		d.shownKey = ""
		d.render()
	}
}

// externalExited takes the editor's final text as the edit to approve.
func (d *detail) externalExited(x *externalEdit, text string, err error) {
	if d.ext != x {
		return
	}
	d.ext = nil
	if d.id != x.id {
		return
	}
	if err != nil {
		d.setStatus("The external editor ended with an error ("+err.Error()+"); the last saved text is kept.", true)
		return
	}
	d.takeExternal(x, text)
	d.setStatus("The external editor closed: Approve edited writes its text.", false)
}

// closeExternal stops following an external editor (the editor itself keeps
// running; its later saves are ignored).
func (d *detail) closeExternal() {
	if d.ext != nil {
		d.ext.watcher.Close()
		d.ext = nil
	}
}
