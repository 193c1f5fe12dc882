package review

// recheckAfterFormat reads each file of the plan again once formatters
// have run, just before the decision is journaled and written: a formatter
// may take seconds (its timeout), and a file someone changed meanwhile
// would be overwritten without a word, its change missing from the
// journal's "before" too, so no undo could bring it back (real window: a
// 4-second formatter, the file saved in an editor meanwhile: written over,
// and the agent told "saved as proposed"). A changed file stops the
// decision as checkDisk does: nothing is written, the proposal is stale,
// and the person reviews base / disk / proposal and decides again.
func (d *Desk) recheckAfterFormat(p Proposal, plan []fileWrite) error {
	var stale []string
	for _, w := range plan {
		now, err := d.readDisk(w.Path, w.Root)
		if err != nil {
			return err
		}
		if !w.now.Changed(now) {
			continue
		}
		stale = append(stale, w.Path)
		d.markStale(p.ID, w.Path, now)
	}
	if len(stale) > 0 {
		return &StaleError{ID: p.ID, Paths: stale}
	}
	return nil
}
