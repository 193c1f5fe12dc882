package workspace

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/diffdesk/diffdesk/review/glob"
)

// IgnoreFileNames are the ignore files a workspace honours, at its root and
// in any directory below it. Each is read with gitignore syntax; a path any
// of them ignores is refused.
var IgnoreFileNames = []string{".diffdeskignore", ".clineignore", ".geminiignore", ".aiderignore"}

// ignoreFile is one parsed ignore file.
type ignoreFile struct {
	path     string       // absolute
	dir      string       // slash-separated directory relative to the root; "" at the root
	patterns []ignoreLine // in file order
	modTime  time.Time    // when read, to notice edits
	size     int64
}

// ignoreLine is one pattern of an ignore file.
type ignoreLine struct {
	glob.Pattern
	line int // 1-based
}

// parseIgnoreFile parses gitignore-syntax data.
func parseIgnoreFile(data []byte) []ignoreLine {
	var out []ignoreLine
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, len(data)+1)
	for n := 1; sc.Scan(); n++ {
		p, skip, _ := glob.Compile(sc.Text())
		if skip {
			continue
		}
		out = append(out, ignoreLine{p, n})
	}
	return out
}

// ignoreCache reads ignore files on demand and rereads one when its size or
// modification time changes, so edits to ignore files apply to the next
// Resolve without a watcher. It is safe for concurrent use.
type ignoreCache struct {
	mu    sync.Mutex
	files map[string]*ignoreFile // by absolute path; nil entry: no such file
}

// maxIgnoreFileBytes bounds how much of an ignore file is read (1 MiB).
const maxIgnoreFileBytes = 1 << 20

// load returns the parsed ignore file at abs, or nil if there is none.
func (c *ignoreCache) load(abs, dir string) (*ignoreFile, error) {
	fi, err := os.Stat(abs)
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) || (err == nil && !fi.Mode().IsRegular()) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading ignore file: %w", err)
	}
	c.mu.Lock()
	cached := c.files[abs]
	c.mu.Unlock()
	if cached != nil && cached.modTime.Equal(fi.ModTime()) && cached.size == fi.Size() {
		return cached, nil
	}
	f, err := os.Open(abs)
	if err != nil {
		return nil, fmt.Errorf("reading ignore file: %w", err)
	}
	defer f.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(io.LimitReader(f, maxIgnoreFileBytes)); err != nil {
		return nil, fmt.Errorf("reading ignore file %s: %w", abs, err)
	}
	loaded := &ignoreFile{path: abs, dir: dir, patterns: parseIgnoreFile(buf.Bytes()), modTime: fi.ModTime(), size: fi.Size()}
	c.mu.Lock()
	if c.files == nil {
		c.files = map[string]*ignoreFile{}
	}
	c.files[abs] = loaded
	c.mu.Unlock()
	return loaded, nil
}

// ignoreVerdict says which ignore file line ignores a path.
type ignoreVerdict struct {
	file    string // absolute path of the ignore file
	line    int    // 1-based
	pattern string // as written
}

// ignored reports whether rel (slash-separated, relative to root, not
// empty) is ignored by any of the ignore files. Each ignore file name is a
// separate gitignore stack (root file first, deeper files override), so a
// negation in one tool's file cannot re-include what another tool's file
// ignores. As in git, nothing inside an ignored directory can be
// re-included.
func (c *ignoreCache) ignored(root, rel string, isDir bool) (ignoreVerdict, bool, error) {
	parts := strings.Split(rel, "/")
	for _, name := range IgnoreFileNames {
		var stack []*ignoreFile
		for depth := range parts {
			dir := strings.Join(parts[:depth], "/")
			f, err := c.load(filepath.Join(root, filepath.FromSlash(path.Join(dir, name))), dir)
			if err != nil {
				return ignoreVerdict{}, false, err
			}
			if f != nil {
				stack = append(stack, f)
			}
			entry := strings.Join(parts[:depth+1], "/")
			entryIsDir := isDir || depth < len(parts)-1
			if v, ok := stackVerdict(stack, entry, entryIsDir); ok {
				return v, true, nil
			}
		}
	}
	return ignoreVerdict{}, false, nil
}

// stackVerdict applies the last pattern in stack that matches entry.
func stackVerdict(stack []*ignoreFile, entry string, isDir bool) (ignoreVerdict, bool) {
	for i := len(stack) - 1; i >= 0; i-- {
		f := stack[i]
		rel := entry
		if f.dir != "" {
			rel = strings.TrimPrefix(entry, f.dir+"/")
		}
		for j := len(f.patterns) - 1; j >= 0; j-- {
			p := f.patterns[j]
			if p.Match(rel, isDir) {
				if p.Negated() {
					return ignoreVerdict{}, false
				}
				return ignoreVerdict{file: f.path, line: p.line, pattern: p.String()}, true
			}
		}
	}
	return ignoreVerdict{}, false
}
