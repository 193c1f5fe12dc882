package ui

import (
	"context"
	"fmt"
	"strings"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/journal"
	"github.com/diffdesk/diffdesk/ui/diffview"
)

// Trivial hunks: whitespace only, comment only (review.ClassifyHunks) or
// formatting only (the desk's formatter run, File.Formatting). The view
// labels each at its first row; the counter line says how many the shown
// proposal has; t approves them all (ApproveTrivial).

// maxTrivialBytes bounds the files classified on the UI goroutine (a diff
// and a scan of both texts); the view diffs bigger ones off it.
const maxTrivialBytes = 1 << 20

// trivialOf returns the trivial hunks of f, by id: the classification of
// its own diff (cached per file) and the formatter's findings.
func (d *detail) trivialOf(f review.File) map[string]review.Trivial {
	c, ok := d.trivial[f.Path]
	if !ok {
		c = map[string]review.Trivial{}
		if len(f.Base.Content)+len(f.Proposed) <= maxTrivialBytes {
			c = review.ClassifyHunks(f.Path, f.BaseText(), f.Proposed, d.fileHunks(f))
		}
		d.trivial[f.Path] = c
	}
	if len(f.Formatting) == 0 {
		return c
	}
	out := make(map[string]review.Trivial, len(c)+len(f.Formatting))
	for _, id := range f.Formatting {
		out[id] = review.TrivialFormatting
	}
	for id, k := range c {
		out[id] = k // whitespace or comment: the plainer reason
	}
	return out
}

// showTrivial labels the shown file's trivial hunks in the view, when it
// shows the proposal's own diff.
func (d *detail) showTrivial() {
	if len(d.p.Files) == 0 || d.file >= len(d.p.Files) || !d.viewHasProposal(d.cur()) || d.p.State == review.StateFailed {
		d.view.SetHunkNotes(nil)
		return
	}
	f := d.cur()
	notes := map[string]diffview.HunkNote{}
	for id, k := range d.trivialOf(f) {
		notes[id] = diffview.HunkNote{Text: string(k), Done: d.trivialOK[f.Path][id]} // approved by t: green
	}
	d.view.SetHunkNotes(notes)
}

// trivialSummary is the counter line's note on the shown proposal's
// trivial hunks, "" when it has none or they are all approved (t).
func (d *detail) trivialSummary() string {
	if !d.canDecide() || d.editing || anyStale(d.p) {
		return ""
	}
	n := 0
	for _, f := range d.p.Files {
		for id := range d.trivialOf(f) {
			if !d.trivialOK[f.Path][id] {
				n++
			}
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" · %d trivial (t approves)", n)
}

// trivialHunks returns the trivial hunks of each proposal, by path, in
// hunk order, and how many of each kind: what t approves. It takes a list
// so that a whole changeset's approval can use it.
func trivialHunks(ps []review.Proposal, trivialOf func(review.File) map[string]review.Trivial, hunks func(review.File) []string) (map[string][]string, map[review.Trivial]int, int) {
	out := map[string][]string{}
	kinds := map[review.Trivial]int{}
	total := 0
	for _, p := range ps {
		for _, f := range p.Files {
			t := trivialOf(f)
			for _, id := range hunks(f) {
				total++
				if k, ok := t[id]; ok {
					out[f.Path] = append(out[f.Path], id)
					kinds[k]++
				}
			}
		}
	}
	return out, kinds, total
}

// ApproveTrivial approves every trivial hunk of the shown proposal (t):
// it ticks them, labels them approved and stops them counting as never on
// screen. When every hunk is trivial, that approves the proposal;
// otherwise the rest wait for the person.
func (d *detail) ApproveTrivial() {
	if !d.canDecide() || d.editing || anyStale(d.p) {
		d.say("t approves trivial hunks of a waiting proposal, outside edit mode and not stale.")
		return
	}
	ids := func(f review.File) []string {
		var out []string
		for _, h := range d.fileHunks(f) {
			out = append(out, h.ID)
		}
		return out
	}
	byPath, kinds, total := trivialHunks([]review.Proposal{d.p}, d.trivialOf, ids)
	n := 0
	for _, v := range kinds {
		n += v
	}
	others := d.approveTrivialOthers()
	if n == 0 {
		if !others {
			d.say("No trivial hunks here (whitespace only, comment only, formatting only).")
		}
		return
	}
	for path, list := range byPath {
		if d.trivialOK[path] == nil {
			d.trivialOK[path] = map[string]bool{}
		}
		for _, id := range list {
			d.trivialOK[path][id] = true
		}
		d.tick(path, list)
	}
	if n == total && !d.someRejected() {
		d.decide(review.Decision{Verdict: journal.Approved})
		return
	}
	d.showTrivial()
	d.updateBar()
	d.updateCounter()
	d.say(fmt.Sprintf("Approved %d trivial %s (%s); %d left to review, then a.", n, plural(n, "hunk", "hunks"), kindsText(kinds), total-n))
}

// approveTrivialOthers approves, each on its own, every other open
// proposal of the shown changeset whose hunks are all trivial, and says
// how many it approved and how many others mix trivial hunks with real
// ones (those wait for the person to open them and press t). It reports
// whether it found any.
func (d *detail) approveTrivialOthers() bool {
	var all, mixed []review.Proposal
	for _, p := range d.tree.openProposals() {
		if p.ID == d.id || p.State != review.StatePending || anyStale(p) {
			continue
		}
		trivial, hunks := 0, 0
		for _, f := range p.Files {
			hs := f.Hunks()
			kinds := map[string]review.Trivial{}
			if len(f.Base.Content)+len(f.Proposed) <= maxTrivialBytes {
				kinds = review.ClassifyHunks(f.Path, f.BaseText(), f.Proposed, hs)
			}
			for _, id := range f.Formatting {
				kinds[id] = review.TrivialFormatting
			}
			for _, h := range hs {
				hunks++
				if _, ok := kinds[h.ID]; ok {
					trivial++
				}
			}
		}
		switch {
		case hunks > 0 && trivial == hunks:
			all = append(all, p)
		case trivial > 0:
			mixed = append(mixed, p)
		}
	}
	if len(all) == 0 {
		if len(mixed) > 0 {
			d.say(fmt.Sprintf("%d other %s of the changeset mix trivial hunks with real ones: open each and press t.", len(mixed), plural(len(mixed), "proposal", "proposals")))
		}
		return len(mixed) > 0
	}
	_, seen := d.changesetSeen(all)
	d.w.decisions.Add(1)
	go func() {
		defer d.w.decisions.Done()
		var failed []string
		for _, p := range all {
			if _, err := d.w.desk.Decide(context.Background(), p.ID, review.Decision{Verdict: journal.Approved, Seen: seen[p.ID]}); err != nil {
				failed = append(failed, fileNames(p)+": "+err.Error())
			}
		}
		d.w.do(func() {
			msg := fmt.Sprintf("Approved %d other %s of the changeset, trivial throughout.", len(all)-len(failed), plural(len(all)-len(failed), "proposal", "proposals"))
			if len(mixed) > 0 {
				msg += fmt.Sprintf(" %d more mix trivial hunks with real ones: open each and press t.", len(mixed))
			}
			for _, f := range failed {
				msg += "\nNot approved: " + f
			}
			d.setStatus(msg, len(failed) > 0)
			d.tree.refresh()
			d.w.refreshQueue()
		})
	}()
	return true
}

// tick accepts the hunks ids of the file at path: in the view when it is
// shown, else in the choices kept for it.
func (d *detail) tick(path string, ids []string) {
	if path == d.curPath() && d.viewHasProposal(d.cur()) {
		for _, id := range ids {
			d.view.SetHunkAccepted(id, true)
		}
		d.accepted[path] = d.view.AcceptedHunks()
		return
	}
	kept, ok := d.accepted[path]
	if !ok {
		return // never ticked: every hunk is accepted
	}
	have := map[string]bool{}
	for _, id := range kept {
		have[id] = true
	}
	for _, id := range ids {
		if !have[id] {
			kept = append(kept, id)
		}
	}
	d.accepted[path] = kept
}

// kindsText is "2 whitespace only, 1 comment only".
func kindsText(kinds map[review.Trivial]int) string {
	var parts []string
	for _, k := range []review.Trivial{review.TrivialWhitespace, review.TrivialComment, review.TrivialFormatting} {
		if kinds[k] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", kinds[k], k))
		}
	}
	return strings.Join(parts, ", ")
}
