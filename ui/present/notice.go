package present

import (
	"fmt"
	"sort"
	"strings"

	"github.com/diffdesk/diffdesk/review"
)

// Notice is one desktop notification: a burst of proposals that wait for
// the person. Its default action opens Open, the oldest of them.
type Notice struct {
	Summary string
	Body    string   // one line per proposal: "agent: files +added −removed"
	Open    string   // the proposal the notification's action shows
	Names   []string // every proposal it names: it is withdrawn once none waits
}

// noticeLines is how many proposals a notification names before "… and N
// more".
const noticeLines = 4

// NoticeFor is the notification for proposals that wait for the person,
// oldest first: who proposes what, and how many lines it adds and removes.
// A burst is one notification; its action opens the oldest proposal.
func NoticeFor(ps []review.Proposal) Notice {
	ps = append([]review.Proposal(nil), ps...)
	sort.Slice(ps, func(i, j int) bool { return ps[i].Before(ps[j]) })
	var n Notice
	if len(ps) == 0 {
		return n
	}
	n.Open = ps[0].ID
	for _, p := range ps {
		n.Names = append(n.Names, p.ID)
	}
	if len(ps) == 1 {
		p := ps[0]
		n.Summary = fmt.Sprintf("DiffDesk: %s proposes %s", p.Agent, Plural(len(p.Files), "a change", fmt.Sprintf("changes to %d files", len(p.Files))))
		var lines []string
		for _, f := range p.Files[:min(len(p.Files), noticeLines)] {
			lines = append(lines, fmt.Sprintf("%s  +%d −%d", f.Rel, f.Added, f.Removed))
		}
		if len(p.Files) > noticeLines {
			a, r := p.Counts()
			lines = append(lines, fmt.Sprintf("… and %d more (+%d −%d in all)", len(p.Files)-noticeLines, a, r))
		}
		n.Body = strings.Join(lines, "\n")
		return n
	}
	n.Summary = fmt.Sprintf("DiffDesk: %d proposals need you", len(ps))
	var lines []string
	for _, p := range ps[:min(len(ps), noticeLines)] {
		a, r := p.Counts()
		lines = append(lines, fmt.Sprintf("%s: %s  +%d −%d", p.Agent, FileNames(p), a, r))
	}
	if len(ps) > noticeLines {
		lines = append(lines, fmt.Sprintf("… and %d more", len(ps)-noticeLines))
	}
	n.Body = strings.Join(lines, "\n")
	return n
}
