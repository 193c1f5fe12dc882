package present

import (
	"fmt"
	"time"

	"github.com/diffdesk/diffdesk/review"
)

// GroupName is how the queue names a proposal's agent and session, and
// in a window over several desks the desk that holds it.
func GroupName(p review.Proposal) string {
	name := p.Agent
	if p.Session != "" {
		name += " · " + p.Session
	}
	if p.Where != "" {
		name += " @ " + p.Where
	}
	return name
}

// FileNames names a proposal's files for the queue: the first file's path
// relative to its root, and how many more there are.
func FileNames(p review.Proposal) string {
	switch len(p.Files) {
	case 0:
		return "(no files)"
	case 1:
		return p.Files[0].Rel
	}
	return fmt.Sprintf("%s +%d more", p.Files[0].Rel, len(p.Files)-1)
}

// Age says how long ago t was, compactly: "now", "40s", "2m", "3h", "2d".
func Age(now, t time.Time) string {
	d := now.Sub(t)
	switch {
	case d < 5*time.Second:
		return "now"
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d/time.Minute))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh", int(d/time.Hour))
	}
	return fmt.Sprintf("%dd", int(d/(24*time.Hour)))
}

// LineCounts is "+added −removed" of a group of proposals, of which
// streaming are still streaming in: their lines are not counted yet.
func LineCounts(added, removed, streaming, proposals int) string {
	switch {
	case streaming == 0:
		return fmt.Sprintf("+%d −%d", added, removed)
	case streaming == proposals:
		return "streaming"
	}
	return fmt.Sprintf("+%d −%d, %d streaming", added, removed, streaming)
}
