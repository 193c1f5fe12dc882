package review

import (
	"path/filepath"
	"sync"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/atomicfile"
	"github.com/fsnotify/fsnotify"
)

// staleWatcher watches the directories of files that open proposals edit
// and calls onChange with the path of any such file that changes.
type staleWatcher struct {
	w        *fsnotify.Watcher
	onChange func(path string)

	mu    sync.Mutex
	files map[string]int // watched file → open proposals editing it
	dirs  map[string]int // watched directory → watched files in it
	done  chan struct{}
}

func newStaleWatcher(onChange func(string)) (*staleWatcher, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	s := &staleWatcher{w: w, onChange: onChange, files: map[string]int{}, dirs: map[string]int{}, done: make(chan struct{})}
	// The loop ends when close closes the watcher's channels.
	go s.loop()
	return s, nil
}

func (s *staleWatcher) loop() {
	defer close(s.done)
	for {
		select {
		case ev, ok := <-s.w.Events:
			if !ok {
				return
			}
			s.mu.Lock()
			_, watched := s.files[ev.Name]
			s.mu.Unlock()
			if watched {
				s.onChange(ev.Name)
			}
		case _, ok := <-s.w.Errors:
			if !ok {
				return
			}
			// An overflow or a watch lost: the write-time check still
			// catches every change, so nothing is lost but early warning.
		}
	}
}

// add starts watching path (once per open proposal that edits it).
func (s *staleWatcher) add(path string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.files[path]++
	if s.files[path] > 1 {
		return
	}
	dir := filepath.Dir(path)
	if s.dirs[dir] == 0 {
		// A directory that does not exist yet (a new file's) cannot be
		// watched; the write-time check covers it.
		if err := s.w.Add(dir); err != nil {
			return
		}
	}
	s.dirs[dir]++
}

// remove undoes one add.
func (s *staleWatcher) remove(path string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, ok := s.files[path]
	if !ok {
		return
	}
	if n > 1 {
		s.files[path] = n - 1
		return
	}
	delete(s.files, path)
	dir := filepath.Dir(path)
	if s.dirs[dir] <= 1 {
		delete(s.dirs, dir)
		s.w.Remove(dir)
		return
	}
	s.dirs[dir]--
}

func (s *staleWatcher) close() error {
	err := s.w.Close()
	<-s.done
	return err
}

// recheck is called when a watched file changes: every open proposal
// editing it is checked against the disk.
func (d *Desk) recheck(path string) {
	d.mu.Lock()
	var es []*entry
	for _, e := range d.entries {
		if !e.p.State.Open() || e.deciding {
			continue
		}
		for _, f := range e.p.Files {
			if f.Path == path {
				es = append(es, e)
				break
			}
		}
	}
	d.mu.Unlock()
	for _, e := range es {
		d.recheckEntry(e)
	}
}

// recheckEntry compares each file of an open proposal with the disk and
// moves the proposal between pending and stale accordingly.
func (d *Desk) recheckEntry(e *entry) {
	d.mu.Lock()
	files := append([]File(nil), e.p.Files...)
	d.mu.Unlock()
	for _, f := range files {
		now, err := d.readDisk(f.Path, f.Root)
		if err != nil {
			continue
		}
		d.markStale(e.p.ID, f.Path, now)
	}
}

// markStale records the disk state of one file of a proposal and updates
// the proposal's state: stale while any file differs from its base.
func (d *Desk) markStale(id, path string, now atomicfile.Snapshot) {
	d.mu.Lock()
	e, ok := d.entries[id]
	if !ok || !e.p.State.Open() && e.p.State != StateDecided {
		d.mu.Unlock()
		return
	}
	stale, diskMoved := false, false
	for i := range e.p.Files {
		f := &e.p.Files[i]
		if f.Path == path {
			was := f.Disk
			if f.staleAgainst(now) {
				f.Disk = now
			} else {
				f.Disk = atomicfile.Snapshot{}
			}
			// Stale before and after, but the disk moved on again (a
			// truncate, then the real write): what the person is shown
			// must follow.
			diskMoved = was.Path != "" && f.Disk.Path != "" && was.Changed(f.Disk)
		}
		stale = stale || f.Disk.Path != ""
	}
	before := e.p.State
	switch {
	case e.p.State == StateStreaming || e.p.State == StateDecided:
		// Keep the state; the Disk field shows the change, and the
		// write-time check acts on it.
	case stale:
		e.p.State = StateStale
	default:
		e.p.State = StatePending
	}
	changed := before != e.p.State || diskMoved
	d.mu.Unlock()
	if changed && stale {
		d.emit(Event{Kind: EventStale, ID: id})
	} else if changed {
		d.emit(Event{Kind: EventUpdated, ID: id})
	}
}

// Merge returns the 3-way merge of a file of proposal id: its base
// snapshot, the disk, and the proposal, conflicts marked in the text. For a
// stale file the disk is what the desk found when it marked it stale
// (File.Merge), the content the person reviews; otherwise the disk now.
func (d *Desk) Merge(id, path string) (engine.MergeResult, error) {
	p, ok := d.Get(id)
	if !ok {
		return engine.MergeResult{}, ErrUnknownProposal
	}
	for _, f := range p.Files {
		if f.Path != path {
			continue
		}
		if f.Stale() {
			return f.Merge(), nil
		}
		now, err := d.readDisk(path, f.Root)
		if err != nil {
			return engine.MergeResult{}, err
		}
		return f.mergeOnto(now), nil
	}
	return engine.MergeResult{}, ErrUnknownProposal
}
