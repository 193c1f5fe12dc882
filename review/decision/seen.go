package decision

// HunkSeen says of one hunk of a decided proposal whether the person had
// it on screen before deciding. A decision records one per hunk of its
// proposal's files (the proposal's own diff, base against proposed), or
// none at all when nobody tracked what was on screen (a rule, a reviewer
// that did not say).
type HunkSeen struct {
	Path string `json:"path"` // the file's absolute path
	Hunk string `json:"hunk"` // the hunk's id (engine.Hunk.ID)
	Seen bool   `json:"seen"`
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
