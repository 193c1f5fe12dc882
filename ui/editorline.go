package ui

import (
	"path/filepath"
	"strconv"
	"strings"
)

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
	hs, k := e.view.Hunks(), e.view.CurrentHunk()
	if k < 0 || k >= len(hs) {
		return 0
	}
	return hs[k].Change.B0 + 1
}
