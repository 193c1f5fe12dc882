package review

import (
	"fmt"
	"sort"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/decision"
)

// Seen coverage: which lines of a proposal's changes the person had on
// screen.
//
// The window tracks it (ui/diffview's Seen.In, Seen.Lines) and sends it with
// a decision as Decision.Seen (the hunks seen whole) and
// Decision.SeenLines (how many lines of the others were on screen); the
// journal keeps, per hunk of the proposal's own diff (File.Hunks: base
// against proposed), whether it was seen whole and how many of the lines
// it changes were on screen (HunkLines).
// CheckSeen is the question before approving: it takes any number of
// proposals, so a whole changeset's approval asks it once.

// SeenError reports Decision.Seen naming a file or hunk that is not the
// proposal's; nothing is decided.
type SeenError struct {
	Path   string // the path as given
	Detail string
}

func (e *SeenError) Error() string {
	return fmt.Sprintf("review: seen (on %s): %s", e.Path, e.Detail)
}

// seenRecord checks seen (path → ids of the hunks every line of which was
// on screen; a path is absolute, or relative to its root when that names
// one file of p) and lines (path → hunk id → how many of its changed lines
// were on screen, for hunks partly shown), and returns one
// decision.HunkSeen per hunk of each of p's files, in file and hunk order,
// each with its lines; nil when seen is nil (not tracked).
func seenRecord(p Proposal, seen map[string][]string, lines map[string]map[string]int) ([]decision.HunkSeen, error) {
	if seen == nil {
		return nil, nil
	}
	hunks := map[string][]engine.Hunk{}
	file := func(path string) (File, map[string]bool, error) {
		f, err := commentFile(p, path)
		if err != nil {
			return File{}, nil, &SeenError{Path: Printable(path), Detail: err.Error()}
		}
		if hunks[f.Path] == nil {
			hunks[f.Path] = f.Hunks()
		}
		ids := map[string]bool{}
		for _, h := range hunks[f.Path] {
			ids[h.ID] = true
		}
		return f, ids, nil
	}
	notHunk := func(path, id string, n int) error {
		return &SeenError{Path: Printable(path), Detail: fmt.Sprintf("%q is not a hunk of this file's proposal (its hunks: %d)", id, n)}
	}
	byPath := map[string]map[string]bool{}
	for _, path := range sortedKeys(seen) { // the first bad one, the same every time
		f, ids, err := file(path)
		if err != nil {
			return nil, err
		}
		set := byPath[f.Path]
		if set == nil {
			set = map[string]bool{}
			byPath[f.Path] = set
		}
		for _, id := range seen[path] {
			if !ids[id] {
				return nil, notHunk(path, id, len(ids))
			}
			set[id] = true
		}
	}
	partly := map[string]map[string]int{}
	for _, path := range sortedKeys(lines) {
		f, ids, err := file(path)
		if err != nil {
			return nil, err
		}
		if partly[f.Path] == nil {
			partly[f.Path] = map[string]int{}
		}
		for _, id := range sortedKeys(lines[path]) {
			n := lines[path][id]
			switch {
			case !ids[id]:
				return nil, notHunk(path, id, len(ids))
			case n < 0:
				return nil, &SeenError{Path: Printable(path), Detail: fmt.Sprintf("hunk %q: %d lines on screen; want 0 or more", id, n)}
			}
			partly[f.Path][id] = n
		}
	}
	out := []decision.HunkSeen{}
	for _, f := range p.Files {
		hs, ok := hunks[f.Path]
		if !ok {
			hs = f.Hunks()
		}
		for _, h := range hs {
			n := HunkLines(h)
			r := decision.HunkSeen{Path: f.Path, Hunk: h.ID, Seen: byPath[f.Path][h.ID], Lines: n, LinesSeen: min(partly[f.Path][h.ID], n)}
			if r.Seen {
				r.LinesSeen = n
			}
			out = append(out, r)
		}
	}
	return out, nil
}

// HunkLines is how many lines hunk h changes, removed and added (at least
// 1): the unit "seen" is counted in.
func HunkLines(h engine.Hunk) int {
	return max((h.Change.A1-h.Change.A0)+(h.Change.B1-h.Change.B0), 1)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// ProposalSeen is one proposal about to be approved and what of it the
// person had on screen.
type ProposalSeen struct {
	Proposal Proposal
	// Seen maps a file's absolute path to the ids of its hunks that were
	// on screen.
	Seen map[string]map[string]bool
	// Only, when not nil, limits the question to these hunk ids per path
	// (a partial approval asks only about the hunks it writes; a path
	// missing from it writes none).
	Only map[string][]string
}

// Unseen is what CheckSeen found: of Total hunks about to be approved,
// Unseen were never on screen; First is the first of them.
type Unseen struct {
	Total, Unseen int
	// Files are the files with hunks never on screen (Rel), in order.
	Files []string
	First UnseenHunk
}

// UnseenHunk is one hunk never on screen.
type UnseenHunk struct {
	Proposal string // its proposal's id
	Path     string // its file's absolute path
	Rel      string // its file's path relative to its root
	Hunk     engine.Hunk
}

// CheckSeen counts the hunks of items that would be approved but were
// never on screen, in proposal, file and hunk order.
func CheckSeen(items []ProposalSeen) Unseen {
	var u Unseen
	for _, it := range items {
		for _, f := range it.Proposal.Files {
			var only map[string]bool
			if it.Only != nil {
				only = map[string]bool{}
				for _, id := range it.Only[f.Path] {
					only[id] = true
				}
			}
			fileUnseen := false
			for _, h := range f.Hunks() {
				if only != nil && !only[h.ID] {
					continue
				}
				u.Total++
				if it.Seen[f.Path][h.ID] {
					continue
				}
				if u.Unseen == 0 {
					u.First = UnseenHunk{Proposal: it.Proposal.ID, Path: f.Path, Rel: f.Rel, Hunk: h}
				}
				u.Unseen++
				if !fileUnseen {
					fileUnseen = true
					u.Files = append(u.Files, f.Rel)
				}
			}
		}
	}
	return u
}

// SeenIDs returns, per file of p, the ids of its hunks in seen (path → id
// → on screen), as Decision.Seen takes them: only the proposal's own
// hunks, every file present (an empty list: none seen).
func SeenIDs(p Proposal, seen map[string]map[string]bool) map[string][]string {
	out := map[string][]string{}
	for _, f := range p.Files {
		ids := []string{}
		for _, h := range f.Hunks() {
			if seen[f.Path][h.ID] {
				ids = append(ids, h.ID)
			}
		}
		out[f.Path] = ids
	}
	return out
}
