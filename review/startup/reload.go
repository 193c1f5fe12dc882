package startup

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/diffdesk/diffdesk/review/config"
)

// Reloaded says what a reload put in force.
type Reloaded struct {
	Files []string // the config files read, in order
	// Later names what changed but is read at start only: which doors are
	// open, and how much history is kept.
	Later []string
	// Untrusted is set when the reload turned off rules of a workspace's
	// .diffdesk.toml, or found new ones off: its content is not the one
	// the person trusted (Backend.Untrusted lists them).
	Untrusted bool
}

// String says what a reload did, for the person.
func (r Reloaded) String() string {
	s := "config read again and in force: " + strings.Join(r.Files, ", ")
	if len(r.Files) == 0 {
		s = "config read again: no config file now, the defaults are in force"
	}
	if r.Untrusted {
		s += " (a repository's rules that changed stay off until you trust them)"
	}
	if len(r.Later) > 0 {
		s += "; " + strings.Join(r.Later, " and ") + " change at the next start"
	}
	return s
}

// ReloadText says what a reload did, or why it failed, for a person
// reading the desk's output (deskctl serve): with the repository rules a
// reload turned off, and the command that trusts them.
func (b *Backend) ReloadText(r Reloaded, err error) string {
	if err != nil {
		return fmt.Sprintf("config not read again: %v; the config in force is unchanged — fix the file and save it again\n", err)
	}
	s := r.String() + "\n"
	if r.Untrusted {
		s += trustText(b.Config(), b.userFile)
	}
	return s
}

// Reload reads the config files again — the user's, and each root's
// .diffdesk.toml as far as the trust store trusts its exact content — and
// puts them in force in the running desk (review.Desk.SetConfig), so that
// a person who edits a config file need not restart the desk and drop the
// proposals waiting. A file that does not load is an error, and the config
// in force stays.
func (b *Backend) Reload() (Reloaded, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	cfg, err := b.load()
	if err != nil {
		return Reloaded{}, err
	}
	r := Reloaded{Files: cfg.Files}
	if cfg.Doors != b.doorOpts.Doors {
		r.Later = append(r.Later, "which doors are open ([doors])")
	}
	if cfg.Retention != b.startRetention {
		r.Later = append(r.Later, "how much history is kept ([history])")
	}
	r.Untrusted = !slices.Equal(untrustedSums(cfg), untrustedSums(b.cfg)) && len(cfg.Untrusted()) > 0
	b.cfg = cfg
	b.Desk.SetConfig(cfg)
	return r, nil
}

// load reads the config files — a workspace's .diffdesk.toml as far as
// the trust store beside the user file trusts its exact content — and
// notes their content (fingerprint) as read.
func (b *Backend) load() (config.Config, error) {
	b.seen = b.fingerprint()
	trust, err := config.ReadTrust(config.TrustPath(b.userFile))
	if err != nil {
		return config.Config{}, err
	}
	return config.LoadTrusting(b.userFile, b.roots, trust.Trusts)
}

// untrustedSums lists the untrusted workspace files by content.
func untrustedSums(c config.Config) []string {
	var out []string
	for _, f := range c.Untrusted() {
		out = append(out, f.ContentKey())
	}
	return out
}

// configFiles are the files a reload reads: the user's, then each root's.
func (b *Backend) configFiles() []string {
	user, err := filepath.Abs(b.userFile)
	if err != nil {
		user = b.userFile
	}
	files := []string{user}
	for _, r := range b.resolvedRoots {
		files = append(files, filepath.Join(r, config.FileName))
	}
	return files
}

// fingerprint is the content of the config files as last read, so that a
// save that changes nothing (an editor's touch) reloads nothing.
func (b *Backend) fingerprint() string {
	h := sha256.New()
	for _, f := range b.configFiles() {
		data, err := os.ReadFile(f)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			fmt.Fprintf(h, "%s absent\n", f)
		case err != nil:
			fmt.Fprintf(h, "%s %v\n", f, err)
		default:
			fmt.Fprintf(h, "%s %d\n", f, len(data))
			h.Write(data)
		}
	}
	return string(h.Sum(nil))
}

// reloadQuiet is how long the config files must stay unchanged after a
// change before they are read again: an editor's save is several events.
const reloadQuiet = 250 * time.Millisecond

// WatchConfig reads the config files again (Reload) whenever one of them
// changes on disk, and calls report with what the reload did or why it
// failed; report runs on the watcher's goroutine. The directories of the
// files are watched, so an editor that saves by renaming a new file over
// the old one is seen; a directory that does not exist is not. stop ends
// the watching.
func (b *Backend) WatchConfig(report func(Reloaded, error)) (stop func(), err error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watching the config files: %w", err)
	}
	// A file that is a symlink (say into a dotfiles repository) changes
	// where it leads: that directory is watched too.
	var files []string
	for _, f := range b.configFiles() {
		files = append(files, f)
		if real, err := filepath.EvalSymlinks(f); err == nil && real != f {
			files = append(files, real)
		}
	}
	for _, f := range files {
		if err := w.Add(filepath.Dir(f)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			w.Close()
			return nil, fmt.Errorf("watching %s: %w", filepath.Dir(f), err)
		}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		var quiet <-chan time.Time
		for {
			select {
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				if slices.Contains(files, ev.Name) {
					quiet = time.After(reloadQuiet)
				}
			case _, ok := <-w.Errors:
				if !ok {
					return
				}
			case <-quiet:
				quiet = nil
				b.mu.Lock()
				same := b.fingerprint() == b.seen
				b.mu.Unlock()
				if !same {
					report(b.Reload())
				}
			}
		}
	}()
	return func() { w.Close(); <-done }, nil
}
