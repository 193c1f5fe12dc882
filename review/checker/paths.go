package checker

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// names tells which file a path in a checker's output is: the checked
// file (under its real path, its shadow copy's, or a name for stdin), one
// of the proposal's other files through its shadow copy, or another file
// on disk.
type names struct {
	dir    string            // where the command ran; relative paths are from here
	self   map[string]bool   // clean absolute paths of the checked file
	others map[string]string // clean absolute shadow path → the real path
	stdin  bool              // the text was on stdin
}

// stdinNames are what tools call the text they read from stdin.
var stdinNames = map[string]bool{"-": true, "<stdin>": true, "<standard input>": true, "stdin": true, "<text>": true}

// add records a shadow copy at p: of the checked file when real is "",
// else of the file at real. Both the path and its symlink-resolved form
// are recorded, as tools print either.
func (n *names) add(p, real string) {
	for _, q := range []string{p, resolved(p)} {
		if real == "" {
			n.self[q] = true
		} else {
			n.others[q] = real
		}
	}
}

// resolve returns "" for a path in a tool's output that names the checked
// file (or is empty: no location), the real absolute path of another file
// it names, and false for a path that names no file (not a location).
func (n names) resolve(p string) (string, bool) {
	if p == "" || n.stdin && stdinNames[p] {
		return "", true
	}
	if strings.HasPrefix(p, "file:") {
		u, err := url.Parse(p)
		if err != nil {
			return "", false
		}
		p = u.Path
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(n.dir, p)
	}
	p = filepath.Clean(p)
	if n.self[p] {
		return "", true
	}
	if real, ok := n.others[p]; ok {
		return real, true
	}
	if r := resolved(p); n.self[r] {
		return "", true
	} else if real, ok := n.others[r]; ok {
		return real, true
	}
	if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
		return p, true
	}
	return "", false
}

// resolved returns p with symlinks resolved, or p when that fails.
func resolved(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}
