package engine

// liveLag is how many lines behind the streaming frontier LiveDiff keeps
// its stable point. With no lag, repetitive code freezes a wrong alignment;
// lags of 8 to 128 lines all gave the full diff's result on real edits.
const liveLag = 32

// liveRun is the shortest run of unchanged lines LiveDiff will end its
// stable point on. Runs of three lines match by chance in unrelated code
// (a moved block streaming in) and froze wrong alignments; eight did not,
// and costs no more.
const liveRun = 8

// LiveDiff keeps the line diff of a proposal that is still streaming in
// against the original, at a cost per update proportional to the region
// near the streaming frontier rather than to the file.
//
// At any moment the proposed text is done, the lines streamed so far (all
// complete; each update may only append), followed by original[tail:], the
// original after the region being rewritten. Ops before a stable point are
// final; each Update re-diffs only the original from there to tail against
// the streamed lines from there. The stable point sits at the end of a run
// of at least liveRun unchanged lines, at least liveLag lines behind the
// frontier and further back by as many lines as the proposal has gained or
// lost against the original's numbering. For a finished stream the result
// equals DiffLines on real edits (scattered, 10 % changed and a moved
// block, on 10k-line files); every intermediate result is a valid diff.
type LiveDiff struct {
	orig  []int32          // ids of the original's lines
	done  []int32          // ids of the streamed lines
	origL []string         // the original's lines
	doneL []string         // the streamed lines
	ids   map[string]int32 // line → id
	tail  int              // the tail of the last Update
	sa    int              // stable point: lines of the original before it are final…
	sb    int              // …and lines of done before it
	fixed int              // ops[:fixed] end at the stable point
	ops   []Op
	h     histogram
	ca    []bool
	cb    []bool
}

// NewLiveDiff starts a live diff against original's lines; until the first
// Update the proposal equals the original.
func NewLiveDiff(original []string) *LiveDiff {
	d := &LiveDiff{ids: make(map[string]int32, len(original)), orig: make([]int32, len(original)), origL: original, tail: -1}
	for i, l := range original {
		d.orig[i] = d.intern(l)
	}
	d.Update(nil, 0)
	return d
}

func (d *LiveDiff) intern(l string) int32 {
	id, ok := d.ids[l]
	if !ok {
		id = int32(len(d.ids))
		d.ids[l] = id
	}
	return id
}

// Update sets the proposal to done followed by original[tail:]. done must
// extend the done of the previous Update (lines are only appended); tail
// is clamped to 0..len(original). If done shrank or tail moved back past
// the stable point, the diff starts over from the top.
func (d *LiveDiff) Update(done []string, tail int) {
	tail = min(max(tail, 0), len(d.orig))
	if len(done) < len(d.done) || tail < d.sa {
		d.done, d.doneL, d.sa, d.sb, d.fixed = d.done[:0], d.doneL[:0], 0, 0, 0
	}
	if len(done) == len(d.done) && tail == d.tail {
		return
	}
	for _, l := range done[len(d.done):] {
		d.done = append(d.done, d.intern(l))
		d.doneL = append(d.doneL, l)
	}
	d.tail = tail

	a, b := d.orig[d.sa:tail], d.done[d.sb:]
	d.ca, d.cb = resetBools(d.ca, len(a)), resetBools(d.cb, len(b))
	d.h.diffCompacted(a, b, d.origL[d.sa:tail], d.doneL[d.sb:], len(d.ids), d.ca, d.cb)
	region := appendOps(nil, d.ca, d.cb, d.sa, d.sb)

	d.ops = d.ops[:d.fixed]
	if d.fixed > 0 {
		d.ops[d.fixed-1].A1, d.ops[d.fixed-1].B1 = d.sa, d.sb // the Equal op may run past the stable point
	}
	for _, op := range region {
		if op.Kind == OpEqual {
			d.ops = appendEqual(d.ops, op.A0, op.A1, op.B0, op.B1)
		} else {
			d.ops = append(d.ops, op)
		}
	}
	if tail < len(d.orig) {
		d.ops = appendEqual(d.ops, tail, len(d.orig), len(d.done), len(d.done)+len(d.orig)-tail)
	}

	// Move the stable point to the end of the last run of ≥ liveRun
	// unchanged lines, or of the part of a run, that lies liveLag lines or
	// more behind the frontier. While done runs ahead of or behind the
	// original's numbering (net insertions or deletions so far), the
	// region after the stable point must absorb that drift as lines
	// missing from or doubled at the frontier, and those lines may align
	// by chance with lines before it; so the point also stays as many
	// lines further back as the drift.
	front := len(d.done) - tail // b-a offset at the frontier
	// The region's first Equal op may have joined the last fixed one.
	for k := len(d.ops) - 1; k >= max(d.fixed-1, 0); k-- {
		op := d.ops[k]
		if op.Kind != OpEqual {
			continue
		}
		drift := max(front-(op.B0-op.A0), (op.B0-op.A0)-front)
		if end := min(op.B1, len(d.done)-liveLag-drift); end-op.B0 >= liveRun && end > d.sb {
			d.sa, d.sb, d.fixed = op.A0+end-op.B0, end, k+1
			break
		}
	}
}

// Ops returns the current diff from the original to the proposal, as
// DiffLines would. The slice is valid until the next Update.
func (d *LiveDiff) Ops() []Op { return d.ops }
