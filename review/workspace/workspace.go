package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"unicode"

	"github.com/diffdesk/diffdesk/review/config"
)

// Workspace is the set of roots a desk serves and the rules for the paths
// under them: roots, ignore files, protected paths and content limits. It
// is safe for concurrent use.
type Workspace struct {
	roots   []string                      // absolute, symlink-resolved, in the order given
	cfg     atomic.Pointer[config.Config] // protected paths and limits; SetConfig replaces it
	ignores ignoreCache
	own     []string // the desk's own files and directories (Guard)
}

// Target is a path the workspace accepts for an edit.
type Target struct {
	Abs  string // absolute, symlinks resolved (for a new file: its nearest existing parent's)
	Root string // the workspace root that holds it
	Rel  string // relative to Root, slash-separated
	// Protected, when not zero, says why a person must decide: no rule
	// may approve an edit to the file.
	Protected config.Protection
}

// The refusal rules a RefusalError carries.
const (
	RuleInvalidPath = "invalid_path"   // empty, or holding a NUL byte, another control character or a bidirectional-text control
	RuleOutside     = "outside_roots"  // not under any workspace root
	RuleIgnored     = "ignored"        // matched by an ignore file
	RuleNotFile     = "not_a_file"     // a directory, device, socket or pipe
	RuleSymlink     = "symlink"        // a symlink whose target does not exist
	RuleBinary      = "binary"         // a NUL byte in the first 8 KiB, or a binary format's magic bytes (magic.go)
	RuleTooLarge    = "max_file_bytes" // over [limits] max_file_bytes
	RuleReadOnly    = "read_only"      // an existing file its owner may not write (CheckWritable)
	RuleMoved       = "path_changed"   // at write time the path no longer leads to the file the proposal was made for (Recheck)
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
	w := new(Workspace)
	w.SetConfig(cfg)
	for _, r := range roots {
		abs, err := config.ResolveRoot(r)
		if err != nil {
			return nil, err
		}
		w.roots = append(w.roots, abs)
	}
	return w, nil
}

// SetConfig replaces the protected paths and limits the workspace checks
// by (the config was read again). It is safe while paths are resolved.
func (w *Workspace) SetConfig(cfg config.Config) { w.cfg.Store(&cfg) }

// Roots returns the workspace roots, absolute and symlink-resolved, in the
// order given.
func (w *Workspace) Roots() []string { return append([]string(nil), w.roots...) }

// Resolve checks the path an agent wants to edit: absolute, or relative to
// the first root. It resolves ".." (lexically, first) and symlinks (for a
// file that does not exist yet, those of its nearest existing parent),
// refuses anything outside every root, ignored by an ignore file, or not a
// regular file, and a path holding a control character, and flags
// protected paths (relative to every root holding them). Ignore and protected rules are
// checked against the real path and, for a symlink inside the workspace,
// the path as named. Refusals are *RefusalError.
// Ignore files are re-read when they change, so Resolve always applies the
// current ones.
func (w *Workspace) Resolve(p string) (Target, error) {
	if p == "" || strings.ContainsRune(p, 0) {
		return Target{}, &RefusalError{Path: fmt.Sprintf("%q", p), Rule: RuleInvalidPath,
			Detail: "not a usable file path; give a path relative to " + w.roots[0] + " or an absolute one"}
	}
	if r, ok := unprintable(p); ok {
		return Target{}, &RefusalError{Path: strconv.QuoteToGraphic(p), Rule: RuleInvalidPath,
			Detail: fmt.Sprintf("the path holds the control character %U; DiffDesk does not edit files whose names hold control characters (they can forge or hide what a terminal shows); rename the file or choose another", r)}
	}
	if r, ok := invisible(p); ok {
		return Target{}, &RefusalError{Path: strconv.QuoteToGraphic(p), Rule: RuleInvalidPath,
			Detail: fmt.Sprintf("the path holds the invisible character %U, which draws nothing: the window would show another file's name; DiffDesk does not edit such files; rename the file or choose another", r)}
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
	}
	// The desk's own files come first: no pattern, and so no unprotect,
	// decides about them.
	if t.Protected = w.ownProtection(real, filepath.Clean(abs)); !t.Protected.IsZero() {
		return t, nil
	}
	// Protected patterns apply relative to every root holding the path,
	// not only the deepest: a root nested in .git/ does not unprotect the
	// hooks beside it.
	for _, rel := range append(w.within(real), w.within(filepath.Clean(abs))...) {
		if t.Protected = w.protection(rel); !t.Protected.IsZero() {
			break
		}
	}
	return t, nil
}

// CheckWritable refuses an edit to an existing file whose owner may not
// write it (mode 0444 and the like): someone made it read-only on purpose,
// and the desk's atomic replace (a new file renamed over it) would
// otherwise replace it regardless. mode is the file's permission bits.
func CheckWritable(abs string, mode fs.FileMode) error {
	if mode.Perm()&0o200 != 0 {
		return nil
	}
	return &RefusalError{Path: abs, Rule: RuleReadOnly,
		Detail: fmt.Sprintf("the file is read-only (mode %04o), and DiffDesk does not replace read-only files; if it should change, make it writable first (chmod u+w %s), then propose the edit again", mode.Perm(), shellQuote(abs))}
}

// shellQuote quotes path for a shell command the person may copy.
func shellQuote(path string) string {
	if !strings.ContainsAny(path, " \t'\"$`\\;&|<>*?()[]{}!#~") {
		return path
	}
	return "'" + strings.ReplaceAll(path, "'", `'\''`) + "'"
}

// Recheck re-resolves, just before a write, the path Resolve gave as
// Target.Abs (abs) and refuses (RuleMoved) one that no longer leads there:
// a directory above it or the file itself replaced by a symlink since, to
// elsewhere in the workspace or out of it. The write itself must still
// not follow links out of the root (atomicfile.SaveIn): the swap can come
// after this check too.
func (w *Workspace) Recheck(abs string) error {
	real, _, err := resolveExisting(abs)
	if err == nil && real == abs {
		return nil
	}
	why := ""
	var re *RefusalError
	switch _, _, inside := w.under(real); {
	case errors.As(err, &re):
		why = re.Detail
	case err != nil:
		return err
	case !inside:
		why = "it now leads to " + real + ", outside the workspace roots " + strings.Join(w.roots, ", ")
	default:
		why = "it now leads to " + real
	}
	return &RefusalError{Path: abs, Rule: RuleMoved,
		Detail: why + "; a symlink was put in its way after the edit was proposed, so nothing was written; look at what changed there, then propose the edit again"}
}

// OwnReason is why an edit to one of the desk's own files needs a person.
const OwnReason = "DiffDesk's own config, trust store or journal: an approved edit could put commands in force, trust a repository for the person, or rewrite the record of what was decided"

// Guard protects the desk's own files and directories (the user config,
// --config FILE, the trust store, the journal's directory), by their real
// paths, wherever the workspace roots are: an edit to one needs a person
// (Target.Protected says so with OwnReason), and no unprotect lifts it.
// A path that does not exist yet is guarded too. Call it before paths
// are resolved.
func (w *Workspace) Guard(paths ...string) {
	for _, p := range paths {
		if p == "" {
			continue
		}
		if abs, err := filepath.Abs(p); err == nil {
			w.own = append(w.own, filepath.Clean(abs))
		}
	}
}

// ownProtection is the protection of paths (real, then as named) when
// one is, or is inside, a guarded path; zero otherwise. Guarded paths are
// resolved each time, so a directory made or linked since is followed.
func (w *Workspace) ownProtection(paths ...string) config.Protection {
	for _, o := range w.own {
		forms := []string{o}
		if real, _, err := resolveExisting(o); err == nil && real != o {
			forms = append(forms, real)
		}
		for _, f := range forms {
			for _, p := range paths {
				if _, under := relUnder(f, p); under {
					return config.Protection{Pattern: o, Origin: "built-in", Reason: OwnReason}
				}
			}
		}
	}
	return config.Protection{}
}

// protection is the first protected pattern matching rel, in any case;
// zero if none.
func (w *Workspace) protection(rel string) config.Protection {
	for _, pp := range w.cfg.Load().Protected {
		if pp.Match(rel) {
			return pp.Protection()
		}
	}
	return config.Protection{}
}

// within returns path (absolute, clean) relative to every root holding
// it, the deepest root first.
func (w *Workspace) within(path string) []string {
	var out []string
	for _, r := range w.roots {
		if rel, ok := relUnder(r, path); ok && rel != "" {
			out = append(out, rel)
		}
	}
	slices.SortStableFunc(out, func(a, b string) int { return len(a) - len(b) })
	return out
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
		if x, in := relUnder(r, real); in {
			root, rel, ok = r, x, true
		}
	}
	return root, rel, ok
}

// relUnder returns path relative to root, slash-separated ("" for root
// itself), if path is root or inside it; both absolute and clean.
func relUnder(root, path string) (string, bool) {
	switch {
	case path == root:
		return "", true
	case strings.HasPrefix(path, root) && (strings.HasSuffix(root, string(filepath.Separator)) || path[len(root)] == filepath.Separator):
		return filepath.ToSlash(strings.TrimPrefix(path[len(root):], string(filepath.Separator))), true
	}
	return "", false
}

// unprintable returns the first control character (C0, DEL, C1) or
// bidirectional-text control in s, which no path the desk edits may hold.
func unprintable(s string) (rune, bool) {
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
			return r, true
		}
	}
	return 0, false
}

// invisible returns the first character of s that draws nothing — a
// format character (zero-width space and joiners, soft hyphen, word
// joiner, byte order mark), another default-ignorable one (the Hangul
// fillers) or a variation selector — so that "main\u200b.go" is not shown
// as "main.go" beside the real one. (Zero-width joiners are also part of
// Persian spelling and emoji sequences; such names are refused too.)
func invisible(s string) (rune, bool) {
	for _, r := range s {
		if unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) || unicode.Is(unicode.Variation_Selector, r) {
			return r, true
		}
	}
	return 0, false
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
	limit := w.cfg.Load().LimitsFor(t.Root).MaxFileBytes
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
	if limit := w.cfg.Load().LimitsFor(t.Root).MaxFileBytes; limit > 0 && int64(len(content)) > limit {
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
	if ws, ok := w.cfg.Load().Workspaces[root]; ok && ws.File != "" {
		return ws.File
	}
	return "the user config or " + filepath.Join(root, config.FileName)
}
