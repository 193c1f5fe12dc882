package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/diffdesk/diffdesk/review/config"
)

// Workspace is the set of roots a desk serves and the rules for the paths
// under them: roots, ignore files, protected paths and content limits. It
// is safe for concurrent use.
type Workspace struct {
	roots   []string // absolute, symlink-resolved, in the order given
	cfg     config.Config
	ignores ignoreCache
}

// Target is a path the workspace accepts for an edit.
type Target struct {
	Abs           string // absolute, symlinks resolved (for a new file: its nearest existing parent's)
	Root          string // the workspace root that holds it
	Rel           string // relative to Root, slash-separated
	Protected     bool   // a person must decide: no auto-approval
	ProtectedRule string // which pattern made it protected, e.g. `".env*" (built-in)`; "" if none
}

// The refusal rules a RefusalError carries.
const (
	RuleInvalidPath = "invalid_path"   // empty or containing a NUL byte
	RuleOutside     = "outside_roots"  // not under any workspace root
	RuleIgnored     = "ignored"        // matched by an ignore file
	RuleNotFile     = "not_a_file"     // a directory, device, socket or pipe
	RuleSymlink     = "symlink"        // a symlink whose target does not exist
	RuleBinary      = "binary"         // a NUL byte in the first 8 KiB, or a binary format's magic bytes (magic.go)
	RuleTooLarge    = "max_file_bytes" // over [limits] max_file_bytes
)

// RefusalError is the desk refusing a path: outside the roots, ignored,
// binary, too large. The agent sees its message.
type RefusalError struct {
	Path   string // as the agent gave it, or the resolved path
	Rule   string // one of the Rule… constants
	Detail string // why, and what to do
}

// Error returns "refused: PATH: DETAIL".
func (e *RefusalError) Error() string {
	return "refused: " + e.Path + ": " + e.Detail
}

// binarySniffBytes is how much of a file is searched for a NUL byte or a
// binary format's magic bytes.
const binarySniffBytes = 8 << 10

// New makes a workspace of roots (at least one; each must be an
// existing directory) with cfg's protected patterns and limits. Relative
// roots are taken from the current directory.
func New(roots []string, cfg config.Config) (*Workspace, error) {
	if len(roots) == 0 {
		return nil, errors.New("a workspace needs at least one root directory")
	}
	w := &Workspace{cfg: cfg}
	for _, r := range roots {
		abs, err := config.ResolveRoot(r)
		if err != nil {
			return nil, err
		}
		w.roots = append(w.roots, abs)
	}
	return w, nil
}

// Roots returns the workspace roots, absolute and symlink-resolved, in the
// order given.
func (w *Workspace) Roots() []string { return append([]string(nil), w.roots...) }

// Resolve checks the path an agent wants to edit: absolute, or relative to
// the first root. It resolves ".." (lexically, first) and symlinks (for a
// file that does not exist yet, those of its nearest existing parent),
// refuses anything outside every root, ignored by an ignore file, or not a
// regular file, and flags protected paths. Ignore and protected rules are
// checked against the real path and, for a symlink inside the workspace,
// the path as named. Refusals are *RefusalError.
// Ignore files are re-read when they change, so Resolve always applies the
// current ones.
func (w *Workspace) Resolve(p string) (Target, error) {
	if p == "" || strings.ContainsRune(p, 0) {
		return Target{}, &RefusalError{Path: fmt.Sprintf("%q", p), Rule: RuleInvalidPath,
			Detail: "not a usable file path; give a path relative to " + w.roots[0] + " or an absolute one"}
	}
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(w.roots[0], abs)
	}
	real, info, err := resolveExisting(filepath.Clean(abs))
	if err != nil {
		var re *RefusalError
		if errors.As(err, &re) {
			re.Path = p
		}
		return Target{}, err
	}
	root, rel, ok := w.under(real)
	if !ok {
		return Target{}, &RefusalError{Path: p, Rule: RuleOutside,
			Detail: fmt.Sprintf("outside the workspace roots %s%s; propose a path inside one of them", strings.Join(w.roots, ", "), resolvedNote(p, real))}
	}
	if rel == "" || (info != nil && !info.Mode().IsRegular()) {
		kind := "a directory"
		if info != nil && !info.IsDir() {
			kind = "not a regular file (" + info.Mode().Type().String() + ")"
		}
		return Target{}, &RefusalError{Path: p, Rule: RuleNotFile, Detail: kind + "; propose an edit to a file"}
	}
	// Rules apply to the real path and, when a symlink inside the
	// workspace leads elsewhere, to the path as named too: an ignored or
	// protected name stays so through a link.
	names := [][2]string{{root, rel}}
	if lexRoot, lexRel, ok := w.under(filepath.Clean(abs)); ok && lexRel != "" && lexRel != rel {
		names = append(names, [2]string{lexRoot, lexRel})
	}
	t := Target{Abs: real, Root: root, Rel: rel}
	for _, n := range names {
		v, ignored, err := w.ignores.ignored(n[0], n[1], false)
		if err != nil {
			return Target{}, err
		}
		if ignored {
			return Target{}, &RefusalError{Path: p, Rule: RuleIgnored,
				Detail: fmt.Sprintf("ignored by %s line %d (%q); edit another file, or ask the person to change that ignore file", v.file, v.line, v.pattern)}
		}
		if rule := w.protectedRule(n[1]); rule != "" && !t.Protected {
			t.Protected, t.ProtectedRule = true, rule
		}
	}
	return t, nil
}

// protectedRule names the first protected pattern matching rel, in any
// case, or "".
func (w *Workspace) protectedRule(rel string) string {
	for _, pp := range w.cfg.Protected {
		if pp.Match(rel) {
			return fmt.Sprintf("%q (%s)", pp.Pattern, pp.Origin)
		}
	}
	return ""
}

// resolvedNote says where a path really leads when symlinks or ".." moved it.
func resolvedNote(given, real string) string {
	if given == real {
		return ""
	}
	return " (it resolves to " + real + ")"
}

// under finds the deepest root holding real and the slash-separated path
// relative to it ("" for the root itself).
func (w *Workspace) under(real string) (root, rel string, ok bool) {
	for _, r := range w.roots {
		if len(r) <= len(root) {
			continue
		}
		switch {
		case real == r:
			root, rel, ok = r, "", true
		case strings.HasPrefix(real, r) && (strings.HasSuffix(r, string(filepath.Separator)) || real[len(r)] == filepath.Separator):
			root, rel, ok = r, filepath.ToSlash(strings.TrimPrefix(real[len(r):], string(filepath.Separator))), true
		}
	}
	return root, rel, ok
}

// resolveExisting resolves the symlinks of abs (clean and absolute). If abs
// does not exist, the nearest existing ancestor is resolved and the rest
// appended. info describes abs if it exists.
func resolveExisting(abs string) (string, fs.FileInfo, error) {
	var missing []string
	cur := abs
	for {
		li, err := os.Lstat(cur)
		if err == nil {
			real, err := filepath.EvalSymlinks(cur)
			if err != nil {
				if li.Mode()&fs.ModeSymlink != 0 {
					target, _ := os.Readlink(cur)
					return "", nil, &RefusalError{Rule: RuleSymlink,
						Detail: fmt.Sprintf("%s is a symlink to %s, which does not exist; edit the target instead or remove the link", cur, target)}
				}
				return "", nil, fmt.Errorf("resolving %s: %w", abs, err)
			}
			if len(missing) > 0 {
				fi, err := os.Stat(real)
				if err == nil && !fi.IsDir() {
					return "", nil, &RefusalError{Rule: RuleNotFile,
						Detail: fmt.Sprintf("%s is a file, not a directory; choose another path", cur)}
				}
				slices.Reverse(missing)
				return filepath.Join(append([]string{real}, missing...)...), nil, nil
			}
			fi, err := os.Stat(real)
			if err != nil {
				return "", nil, fmt.Errorf("resolving %s: %w", abs, err)
			}
			return real, fi, nil
		}
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			return "", nil, fmt.Errorf("resolving %s: %w", abs, err)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return "", nil, fmt.Errorf("resolving %s: no existing parent directory", abs)
		}
		missing = append(missing, filepath.Base(cur))
		cur = parent
	}
}

// CheckContent refuses a file the desk cannot review: binary (a NUL byte
// in the first 8 KiB of sample, or the magic bytes of a binary format such
// as PNG, PDF, ZIP or ELF, even when they are valid UTF-8), or size (bytes)
// over the max_file_bytes limit in force under t.Root. sample is the start
// (or all) of the file.
func (w *Workspace) CheckContent(t Target, size int64, sample []byte) error {
	limit := w.cfg.LimitsFor(t.Root).MaxFileBytes
	if limit > 0 && size > limit {
		return &RefusalError{Path: t.Abs, Rule: RuleTooLarge,
			Detail: fmt.Sprintf("%d bytes, over the %d-byte limit; raise [limits] max_file_bytes in %s or edit a smaller file", size, limit, w.limitSource(t.Root))}
	}
	if why := sniffBinary(sample); why != "" {
		return &RefusalError{Path: t.Abs, Rule: RuleBinary,
			Detail: "looks binary (" + why + "); DiffDesk reviews text files only, so change it outside DiffDesk"}
	}
	return nil
}

// CheckProposed refuses content proposed for t that CheckContent would
// refuse as a file: over the size limit, or binary.
func (w *Workspace) CheckProposed(t Target, content string) error {
	if limit := w.cfg.LimitsFor(t.Root).MaxFileBytes; limit > 0 && int64(len(content)) > limit {
		return &RefusalError{Path: t.Abs, Rule: RuleTooLarge,
			Detail: fmt.Sprintf("the proposed content is %d bytes, over the %d-byte limit", len(content), limit)}
	}
	if why := sniffBinary([]byte(content[:min(len(content), binarySniffBytes)])); why != "" {
		return &RefusalError{Path: t.Abs, Rule: RuleBinary,
			Detail: "the proposed content looks binary (" + why + "); DiffDesk reviews text files only, so propose text"}
	}
	return nil
}

// limitSource names the file where root's limits are set.
func (w *Workspace) limitSource(root string) string {
	if ws, ok := w.cfg.Workspaces[root]; ok && ws.File != "" {
		return ws.File
	}
	return "the user config or " + filepath.Join(root, config.FileName)
}
