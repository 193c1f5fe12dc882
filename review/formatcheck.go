package review

import (
	"context"
	"slices"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/config"
	"github.com/diffdesk/diffdesk/review/formatter"
)

// Formatting-only hunks: a hunk the project's formatter (config
// [[formatter]], a workspace's only once trusted) would make anyway. The
// formatter runs on the base and, for each hunk, on the base with only
// that hunk applied (then with each pair of neighbouring hunks); a hunk
// whose text formats to the base's formatted text changes nothing the
// formatter leaves, so its region yields no difference after formatting.
// It runs in the background beside the checkers (startChecks starts it,
// stopChecksLocked stops it: on a decision, a withdrawal, SetConfig,
// Close) and stores the ids in File.Formatting with an EventUpdated. Each
// run formats the whole file, so the runs are bounded (maxFormatHunks),
// not one per hunk of a big file.

// maxFormatHunks bounds the formatter runs per file (at most two per hunk,
// one at a time, each a new process: a slow formatter such as prettier
// takes a few hundred milliseconds a run): a file with more hunks than
// this is not looked at.
const maxFormatHunks = 16

// startFormatCheckLocked starts looking for e's formatting-only hunks in
// the background, replacing a run under way. d.mu must be held.
func (d *Desk) startFormatCheckLocked(e *entry) {
	if e.format != nil {
		e.format.cancel()
		e.format = nil
	}
	type job struct {
		i    int
		rule config.FormatterRule
		f    File
	}
	var jobs []job
	for i, f := range e.p.Files {
		if f.Delete || !f.Base.Exists || f.Stale() {
			continue
		}
		rule, ok := d.cfg.FormatterFor(f.Path, f.Root)
		if !ok {
			continue
		}
		jobs = append(jobs, job{i: i, rule: *rule, f: f})
	}
	if len(jobs) == 0 {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	run := &checkRun{cancel: cancel, done: make(chan struct{})}
	e.format = run
	d.checking.Add(1)
	// Ends when every job's formatter runs have returned: at once when ctx
	// is cancelled, since formatter.Run kills its process then.
	go func() {
		defer d.checking.Done()
		defer close(run.done)
		defer cancel()
		for _, j := range jobs {
			hs := j.f.Hunks() // the file's diff (made again if its text changed): never under d.mu
			if len(hs) == 0 || len(hs) > maxFormatHunks {
				continue
			}
			ids, ok := formattingOnly(ctx, j.rule, j.f, hs)
			if !ok {
				continue
			}
			d.storeFormatting(e, run, ctx, j.i, j.f.Proposed, ids)
		}
	}()
}

// formattingOnly returns the ids of f's hunks whose change the formatter
// rule undoes, alone or with the hunk after it (a line the formatter
// moves is two hunks: removed in one place, added in another); false when
// the formatter failed on the base or ctx ended.
func formattingOnly(ctx context.Context, rule config.FormatterRule, f File, hunks []engine.Hunk) ([]string, bool) {
	base := f.BaseText()
	want, err := formatter.Run(ctx, rule, f.Path, base)
	if err != nil {
		return nil, false
	}
	undone := func(accept ...string) bool {
		text := f.WithHunks(func(id string) bool { return slices.Contains(accept, id) })
		got, err := formatter.Run(ctx, rule, f.Path, text)
		return err == nil && got == want
	}
	found := make([]bool, len(hunks))
	for k, h := range hunks {
		found[k] = undone(h.ID)
		if ctx.Err() != nil {
			return nil, false
		}
	}
	for k := 0; k+1 < len(hunks); k++ {
		if !(found[k] && found[k+1]) && undone(hunks[k].ID, hunks[k+1].ID) {
			found[k], found[k+1] = true, true
		}
		if ctx.Err() != nil {
			return nil, false
		}
	}
	ids := []string{}
	for k, h := range hunks {
		if found[k] {
			ids = append(ids, h.ID)
		}
	}
	return ids, true
}

// storeFormatting keeps the formatting-only hunks of file i (whose
// proposed text was proposed), unless the run was superseded or stopped.
func (d *Desk) storeFormatting(e *entry, run *checkRun, ctx context.Context, i int, proposed string, ids []string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if e.format != run || ctx.Err() != nil || i >= len(e.p.Files) || e.p.Files[i].Proposed != proposed {
		return
	}
	e.p.Files[i].Formatting = ids
	d.subs.Emit(Event{Kind: EventUpdated, ID: e.p.ID})
}

// stopFormatCheckLocked cancels e's formatter run under way, if any.
// d.mu must be held.
func (d *Desk) stopFormatCheckLocked(e *entry) {
	if e.format != nil {
		e.format.cancel()
		e.format = nil
	}
}
