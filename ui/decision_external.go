package ui

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"strconv"

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

// external opens the shown file's proposed (or edited) text in the
// person's editor (x). The diff reloads whenever the editor saves; when the
// editor exits, its text is what Approve edited writes. The UI never waits
// for the editor.
func (e *editSession) external() {
	if !e.sh.canDecide() || len(e.sh.p.Files) == 0 {
		return
	}
	argv := e.deps.editor()
	if argv == nil {
		argv = EditorCommand()
	}
	if len(argv) == 0 {
		e.setStatus("No external editor: set $VISUAL or $EDITOR (a GUI editor that waits, e.g. \"code --wait\" or \"gvim -f\").", true)
		return
	}
	e.closeExternal()
	f := e.cur()
	text := f.Proposed
	switch {
	case e.c.editing:
		text = e.view.EditedText()
	case f.Stale():
		text = e.c.merge(f).Text
	}
	if t, ok := e.c.edited[f.Path]; ok && !e.c.editing {
		text = t
	}
	dir, err := os.MkdirTemp("", "diffdesk-edit-")
	if err != nil {
		e.setStatus("External editor: "+err.Error(), true)
		return
	}
	tmp := filepath.Join(dir, filepath.Base(f.Path)) // same name, so the editor picks the same syntax
	if err := os.WriteFile(tmp, []byte(text), 0o600); err != nil {
		os.RemoveAll(dir)
		e.setStatus("External editor: "+err.Error(), true)
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
		e.setStatus("External editor: "+err.Error(), true)
		return
	}
	args := editorArgs(argv, tmp, e.editorLine()) // at the current hunk, where the editor takes a line
	cmd := exec.Command(args[0], args[1:]...)
	if err := cmd.Start(); err != nil {
		watcher.Close()
		os.RemoveAll(dir)
		e.setStatus("External editor "+argv[0]+": "+err.Error(), true)
		return
	}
	x := &externalEdit{id: e.sh.id, path: f.Path, dir: dir, cmd: cmd, watcher: watcher}
	e.ext = x
	e.c.edited[f.Path] = text
	if !e.c.editing {
		e.c.editing = true
		e.redraw(true)
	}
	e.setStatus("Editing in "+argv[0]+"; the diff reloads when you save there, and Approve edited writes your text.", false)
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
					e.post(func() { e.externalSaved(x, string(b)) })
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
		e.post(func() { e.externalExited(x, string(b), errors.Join(err, rerr)) })
	}()
}

// externalSaved shows the text the external editor saved.
func (e *editSession) externalSaved(x *externalEdit, text string) {
	if e.ext != x {
		return // a later run, or the person moved on
	}
	e.takeExternal(x, text)
}

// takeExternal makes text the edit of x's file and shows it.
func (e *editSession) takeExternal(x *externalEdit, text string) {
	if e.sh.id != x.id || e.c.edited[x.path] == text {
		return
	}
	e.c.edited[x.path] = text
	if len(e.sh.p.Files) > 0 && e.cur().Path == x.path {
		e.redraw(true)
	}
}

// externalExited takes the editor's final text as the edit to approve.
func (e *editSession) externalExited(x *externalEdit, text string, err error) {
	if e.ext != x {
		return
	}
	e.ext = nil
	if e.sh.id != x.id {
		return
	}
	if err != nil {
		e.setStatus("The external editor ended with an error ("+err.Error()+"); the last saved text is kept.", true)
		return
	}
	e.takeExternal(x, text)
	e.setStatus("The external editor closed: Approve edited writes its text.", false)
}

// closeExternal stops following an external editor (the editor itself keeps
// running; its later saves are ignored).
func (e *editSession) closeExternal() {
	if e.ext != nil {
		e.ext.watcher.Close()
		e.ext = nil
	}
}

// editorArgs is the command line that opens file in the editor argv at
// line (1-based; 0 for none), in the way that editor takes a line: +LINE
// for vi, Vim, Neovim, Emacs, nano and their kin; --goto FILE:LINE for VS
// Code and its forks; FILE:LINE for Sublime Text, Zed and Helix; --line
// for Kate. An editor not known here gets the file alone: a line
// argument it does not take could open a second, empty file.
func editorArgs(argv []string, file string, line int) []string {
	out := append([]string{}, argv...)
	if line <= 0 || len(argv) == 0 {
		return append(out, file)
	}
	n := strconv.Itoa(line)
	switch name := strings.TrimSuffix(filepath.Base(argv[0]), ".exe"); name {
	case "vi", "vim", "nvim", "gvim", "mvim", "view", "nano", "pico", "emacs", "emacsclient", "micro", "kak",
		"joe", "jed", "jove", "mg", "ne", "vis", "gedit", "gnome-text-editor", "mousepad", "pluma", "xed", "leafpad":
		return append(out, "+"+n, file)
	case "code", "code-insiders", "codium", "vscodium", "cursor", "windsurf":
		return append(out, "--goto", file+":"+n)
	case "subl", "sublime_text", "zed", "zeditor", "hx", "helix":
		return append(out, file+":"+n)
	case "kate", "kwrite":
		return append(out, "--line", n, file)
	}
	return append(out, file)
}

// editorLine is the line of the shown text the current hunk's change
// starts on (1-based), where the external editor opens; 0 if none.
func (e *editSession) editorLine() int {
	hs, k := e.view.Hunks(), e.view.Nav().CurrentHunk()
	if k < 0 || k >= len(hs) {
		return 0
	}
	return hs[k].Change.B0 + 1
}
