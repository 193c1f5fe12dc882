package decision

import "fmt"

// HunkSeen says of one hunk of a decided proposal whether the person had
// it on screen before deciding. A decision records one per hunk of its
// proposal's files (the proposal's own diff, base against proposed), or
// none at all when nobody tracked what was on screen (a rule, a reviewer
// that did not say).
type HunkSeen struct {
	Path string `json:"path"` // the file's absolute path
	Hunk string `json:"hunk"` // the hunk's id (engine.Hunk.ID)
	Seen bool   `json:"seen"` // every line it changes was on screen
	// Lines is how many lines the hunk changes, removed and added (at
	// least 1); 0 in a record made before lines were counted, which says
	// per hunk only.
	Lines int `json:"lines,omitempty"`
	// LinesSeen is how many of them were on screen (Lines when Seen): a
	// 5,000-line new file of which 42 lines were shown is one hunk, not
	// seen, with 42 of 5,000 lines seen.
	LinesSeen int `json:"linesSeen,omitempty"`
}

// SeenCount returns how many of hs were seen, and how many there are.
func SeenCount(hs []HunkSeen) (seen, total int) {
	for _, h := range hs {
		if h.Seen {
			seen++
		}
	}
	return seen, len(hs)
}

// SeenLines returns how many of the lines hs change were never on screen,
// and how many they change; ok is false when a record does not count
// lines (one made before they were counted).
func SeenLines(hs []HunkSeen) (never, total int, ok bool) {
	for _, h := range hs {
		if h.Lines <= 0 {
			return 0, 0, false
		}
		total += h.Lines
		never += h.Lines - min(max(h.LinesSeen, 0), h.Lines)
	}
	return never, total, true
}

// SeenSummary says what of hs was on screen before the decision: "N of M
// changed lines never on screen (k of n hunks seen whole)"; for a record
// made before lines were counted, "k of n hunks on screen".
func SeenSummary(hs []HunkSeen) string {
	seen, hunks := SeenCount(hs)
	never, total, ok := SeenLines(hs)
	if !ok {
		return fmt.Sprintf("%d of %d hunks on screen (lines not recorded)", seen, hunks)
	}
	return fmt.Sprintf("%d of %d changed lines never on screen (%d of %d hunks seen whole)", never, total, seen, hunks)
}
