package ui

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/memory"
	"github.com/diffdesk/diffdesk/review/trivial"
	"github.com/diffdesk/diffdesk/ui/diffview"
	"github.com/diffdesk/diffdesk/ui/present"
)

// Trivial hunks: whitespace only, comment only (trivial.Classify) or
// formatting only (the desk's formatter run, File.Formatting). The view
// labels each at its first row; the counter line says how many the shown
// proposal has; t approves them all (ApproveTrivial).
//
// Classifying a file means diffing it and reading both texts (a
// 1,000,000-line file takes most of a second), so it runs in a goroutine
// for every file, whatever its size, and its result reaches the UI
// goroutine through Window.do. Meanwhile t says it is still at it, and
// for a big file (quietClassifyBytes) so does the counter. A result
// arriving for a proposal no longer shown, or for text of the file since
// changed, is dropped.

// trivialJobs are the classifications of the shown proposal's files, its
// hunk labels, and t's approval of the other proposals of its changeset.
type trivialJobs struct {
	paneKit
	deps trivialDeps
	jobs map[string]*trivialJob // path → its file's classification, under way or done
	// work counts the goroutines that have yet to post their result
	// (tests wait on it: the harness's settle).
	work sync.WaitGroup
	// hold, when set (tests), runs in each classifying goroutine of the
	// shown proposal's files before it starts: a test holds the
	// classification of proposal id pending with it.
	hold func(id string)
}

// trivialDeps is what the classifications need beyond their kit.
type trivialDeps struct {
	// labelled reports whether the view shows f's hunks with the
	// proposal's ids: its own diff, or a stale file's merge.
	labelled  func(f review.File) bool
	changeset func() []review.Proposal
	seen      func(ps []review.Proposal) (map[string]map[string][]string, map[string]map[string]map[string]int)
	desk      interface {
		ApproveTrivial(ctx context.Context, key string, dec review.ChangesetDecision, except ...string) (review.TrivialApproval, error)
	}
	name    func(id string) string // names a proposal (Window.proposalName)
	refresh func()                 // the tree and the queue, after other proposals were decided
	stop    <-chan struct{}        // closed with the window
}

// trivialJob classifies one file of one proposal, in a goroutine.
type trivialJob struct {
	id, path string // the proposal and its file
	base     string // the SHA-256 of the base classified
	proposed string // the proposed text classified
	dropped  atomic.Bool
	started  bool                    // its goroutine runs or ran (UI goroutine)
	done     bool                    // the result arrived (UI goroutine)
	kinds    map[string]trivial.Kind // hunk id → kind, once done
}

// of reports whether j classifies the text file f of proposal id holds
// now. The proposed text compares in constant time while it is the same
// string; once a copy equal to it (a remote desk's update) compared equal,
// j keeps the copy.
func (j *trivialJob) of(id string, f review.File) bool {
	if j.id != id || j.path != f.Path || j.base != f.Base.SHA256 || j.proposed != f.Proposed {
		return false
	}
	j.proposed = f.Proposed
	return true
}

// dropAll forgets every classification, under way or done: their results
// are dropped when they arrive.
func (t *trivialJobs) dropAll() {
	for _, j := range t.jobs {
		j.dropped.Store(true)
	}
	t.jobs = map[string]*trivialJob{}
}

// job returns the classification of f, a file of the shown
// proposal, starting it when there is none for its text. It classifies
// the file's own hunks (File.Hunks: the desk's one diff), off the UI
// goroutine.
func (t *trivialJobs) job(f review.File) *trivialJob {
	id := t.sh.id
	j := t.jobs[f.Path]
	if j == nil || !j.of(id, f) {
		if j != nil {
			j.dropped.Store(true) // the file changed since (streamed on, placed)
		}
		j = &trivialJob{id: id, path: f.Path, base: f.Base.SHA256, proposed: f.Proposed}
		if t.jobs == nil {
			t.jobs = map[string]*trivialJob{}
		}
		t.jobs[f.Path] = j
	}
	if j.started {
		return j
	}
	j.started = true
	hold := t.hold
	t.work.Add(1)
	go func() {
		defer t.work.Done() // after the post: settle finds the result scheduled
		if hold != nil {
			hold(j.id)
		}
		var kinds map[string]trivial.Kind
		if !j.dropped.Load() {
			kinds = trivial.Classify(f.Path, f.BaseText(), f.Proposed, f.Hunks())
			memory.Release(f.TextBytes())
		}
		t.post(func() { t.arrived(j, kinds) })
	}()
	return j
}

// arrived takes the result of job j, unless it was dropped (another
// proposal shown, the file changed), and shows it.
func (t *trivialJobs) arrived(j *trivialJob, kinds map[string]trivial.Kind) {
	if j.dropped.Load() || t.jobs[j.path] != j {
		return
	}
	j.done, j.kinds = true, kinds
	t.show()
	t.counter()
}

// of returns the trivial hunks of f, by id: the classification of
// its own diff and the formatter's findings; pending says the
// classification is still under way (the formatter's alone so far).
func (t *trivialJobs) of(f review.File) (kinds map[string]trivial.Kind, pending bool) {
	j := t.job(f)
	if len(f.Formatting) == 0 && j.done {
		return j.kinds, false
	}
	out := make(map[string]trivial.Kind, len(j.kinds)+len(f.Formatting))
	for _, id := range f.Formatting {
		out[id] = trivial.Formatting
	}
	for id, k := range j.kinds {
		out[id] = k // whitespace or comment: the plainer reason
	}
	return out, !j.done
}

// quietClassifyBytes is the size of the files (base and proposal) still
// being classified up to which the counter does not say so: their labels
// follow within a frame or two, and a word there and gone would flicker.
const quietClassifyBytes = 1 << 20

// pendingBytes is the size of the shown proposal's files whose
// classification is under way, base and proposal.
func (t *trivialJobs) pendingBytes() int {
	p := t.sh.p
	n := 0
	for _, f := range p.Files {
		if _, pending := t.of(f); pending {
			n += f.TextBytes()
		}
	}
	return n
}

// pending reports whether the classification of a file of the
// shown proposal is still under way.
func (t *trivialJobs) pending() bool {
	p := t.sh.p
	for _, f := range p.Files {
		if _, pending := t.of(f); pending {
			return true
		}
	}
	return false
}

// show labels the shown file's trivial hunks in the view, when it
// shows the proposal's own diff.
func (t *trivialJobs) show() {
	p, file := t.sh.p, t.c.file
	if len(p.Files) == 0 || file >= len(p.Files) || !t.deps.labelled(p.Files[file]) || p.State.DidNotApply() {
		t.view.Marks().SetNotes(nil)
		return
	}
	f := p.Files[file]
	notes := map[string]diffview.HunkNote{}
	kinds, _ := t.of(f) // the rest label themselves once classified (arrived)
	for id, k := range kinds {
		notes[id] = diffview.HunkNote{Text: string(k), Done: t.c.trivialOK[f.Path][id]} // approved by t: green
	}
	t.view.Marks().SetNotes(notes)
}

// unapproved counts the shown proposal's trivial hunks t has not
// approved, for the counter line; -1 while big files are being classified.
func (t *trivialJobs) unapproved() int {
	p := t.sh.p
	if t.pendingBytes() > quietClassifyBytes {
		return -1
	}
	n := 0
	for _, f := range p.Files {
		kinds, _ := t.of(f)
		for id := range kinds {
			if !t.c.trivialOK[f.Path][id] {
				n++
			}
		}
	}
	return n
}

// ApproveTrivial approves every trivial hunk of the shown proposal (t):
// it ticks them, labels them approved and stops them counting as never on
// screen. When every hunk is trivial, that approves the proposal;
// otherwise the rest wait for the person.
func (d *detail) ApproveTrivial() {
	if !d.canTick() {
		d.line.say("t approves trivial hunks of a waiting proposal, outside edit mode and not stale.")
		return
	}
	if d.trivial.pending() || d.view.Opening() {
		// Acting on the hunks classified so far would approve some and
		// leave others the person believes approved.
		d.line.say("Still classifying hunks… t approves the trivial ones once their labels show.")
		return
	}
	byPath := map[string][]string{} // the trivial hunks of each file, in hunk order
	kinds := map[trivial.Kind]int{}
	n, total := 0, 0
	for _, f := range d.p.Files {
		classified, _ := d.trivial.of(f)
		for _, h := range f.Hunks() {
			total++
			if k, ok := classified[h.ID]; ok {
				byPath[f.Path] = append(byPath[f.Path], h.ID)
				kinds[k]++
				n++
			}
		}
	}
	others := d.trivial.approveOthers(n == 0)
	if n == 0 {
		if others {
			d.line.say("No trivial hunks here; looking through the changeset's other proposals…")
		} else {
			d.line.say("No trivial hunks here (whitespace only, comment only, formatting only).")
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
		shown := path == d.curPath() && d.viewHasProposal(d.cur()) // its ticks are the view's
		if shown {
			d.accepted[path] = d.view.AcceptedHunks()
		}
		was := len(d.accepted[path])
		d.choices.tick(path, list)
		if shown {
			for _, id := range d.accepted[path][was:] { // only those unticked: each redraws the view
				d.view.SetHunkAccepted(id, true)
			}
			d.accepted[path] = d.view.AcceptedHunks()
		}
	}
	d.tree.ticksChanged()
	if n == total && !d.someRejected() {
		d.decide(review.Decision{Verdict: decision.Approved})
		return
	}
	d.trivial.show()
	d.updateBar()
	d.updateCounter()
	d.line.say(fmt.Sprintf("Approved %d trivial %s (%s); %d left to review, then a.", n, present.Plural(n, "hunk", "hunks"), present.TrivialKinds(kinds), total-n))
}

// approveOthers has the desk approve, each on its own, the other
// open proposals of the shown changeset whose hunks are all trivial
// (Desk.ApproveTrivial: the policy is the desk's, and so is the guard
// that approves only the text it classified), off the UI goroutine, and
// says how many it approved and how many others mix trivial hunks with
// real ones (those wait for the person to open them and press t). It
// reports whether there are others to look through; alone says t found
// nothing in the shown proposal, so the result must say when the others
// hold nothing either.
func (t *trivialJobs) approveOthers(alone bool) bool {
	id, shown := t.sh.id, t.sh.p
	var others []review.Proposal
	for _, p := range t.deps.changeset() {
		if p.ID == id || p.State != review.StatePending || slices.ContainsFunc(p.Files, review.File.Stale) {
			continue
		}
		others = append(others, p)
	}
	if len(others) == 0 {
		return false
	}
	key := review.ChangesetKey(shown)
	seen, seenLines := t.deps.seen(others)
	t.run(func() func() {
		res, err := t.deps.desk.ApproveTrivial(context.Background(), key, review.ChangesetDecision{Seen: seen, SeenLines: seenLines}, id)
		return func() { t.othersApproved(id, alone, res, err) }
	})
	return true
}

// othersApproved says what approveOthers did, under the decision
// bar only while the proposal t was pressed on (id) is shown.
func (t *trivialJobs) othersApproved(id string, alone bool, res review.TrivialApproval, err error) {
	select {
	case <-t.deps.stop:
		return // the window closed meanwhile
	default:
	}
	shown := t.sh.id
	here := shown == id // the proposal t was pressed on is still shown: say what came of it
	if err != nil {
		if here {
			t.setStatus("The changeset's other proposals were not looked through: "+err.Error(), true)
		}
		return
	}
	mixed := len(res.Mixed)
	if len(res.Approved) == 0 && len(res.Skipped) == 0 {
		switch {
		case !here || !alone: // t's own answer stands
		case mixed > 0:
			t.say(fmt.Sprintf("No trivial hunks here; %d other %s of the changeset mix trivial hunks with real ones: open each and press t.", mixed, present.Plural(mixed, "proposal", "proposals")))
		default:
			t.say("No trivial hunks here or in the changeset's other proposals (whitespace only, comment only, formatting only).")
		}
		return
	}
	t.setStatus(present.TrivialOthers(res, t.deps.name), len(res.Skipped) > 0)
	t.deps.refresh()
}
