package checker

import (
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// names tells which file a path in a checker's output is: the checked
// file (under its real path, a shadow copy's, or a name for stdin), one
// of the proposal's other files through its shadow copy, or another file
// on disk.
//
// A shadow copy is recognised by its place, not by its exact path:
// tempPrefix*/KEY/NAME, where KEY is shadowKey of the real path. go vet
// caches its findings by content and replays them with the paths of the
// run that found them, whose temporary directory is long gone.
type names struct {
	dir     string            // where the command ran; relative paths are from here
	self    string            // the checked file's real path
	shadows map[string]string // "KEY/NAME" → the real path
	stdin   bool              // the text was on stdin
}

// tempPrefix starts the name of every run's temporary directory.
const tempPrefix = "diffdesk-check-"

// stdinNames are what tools call the text they read from stdin.
var stdinNames = map[string]bool{"-": true, "<stdin>": true, "<standard input>": true, "stdin": true, "<text>": true}

// shadowKey names the directory of the shadow copy of the file at path:
// the same for the same path in every run.
func shadowKey(path string) string {
	sum := sha256.Sum256([]byte(path))
	return hex.EncodeToString(sum[:6])
}

// shadowPath returns where, under a run's temporary directory tmp, the
// shadow copy of the file at path goes, and records it.
func (n *names) shadowPath(tmp, path string) string {
	key := shadowKey(path) + "/" + filepath.Base(path)
	n.shadows[key] = path
	return filepath.Join(tmp, filepath.FromSlash(key))
}

// resolve returns the real path of the file a path in a tool's output
// names, "" for the checked file (also for an empty path: no location),
// and false for a path that names no file (not a location).
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
	key, tmp := filepath.Base(filepath.Dir(p))+"/"+filepath.Base(p), filepath.Base(filepath.Dir(filepath.Dir(p)))
	if real, ok := n.shadows[key]; ok && strings.HasPrefix(tmp, tempPrefix) {
		p = real
	}
	if p == n.self || resolved(p) == n.self {
		return "", true
	}
	if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
		return p, true
	}
	if _, ok := n.shadows[key]; ok {
		return p, true // one of the proposal's other files, not on disk yet
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
