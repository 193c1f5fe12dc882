package diffview

import (
	"image/color"
	"path"
	"slices"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
)

// token is one syntax-coloured run of a line: bytes start:end of the line
// (without its line ending), 0-based and half-open.
type token struct {
	start, end int32
	typ        chroma.TokenType
}

// hlMargin is how many rows above and below the visible ones have their
// lines tokenised with them, so small scrolls find their colours ready.
const hlMargin = 20

// hlContext is how many cached lines before the first missing one a job
// tokenises again, so the lexer starts in the right state for the usual
// cases (not inside a long comment or string).
const hlContext = 8

// hlCacheMax bounds the tokenised lines kept per side; past it the cache
// starts over (it only ever holds windows near where the person looked).
const hlCacheMax = 20000

var (
	lexerMu    sync.Mutex
	lexerByExt = map[string]chroma.Lexer{}
)

// lexerFor returns the lexer for a file, chosen once per extension
// (lexers.Match costs about 3 ms); nil means plain text.
func lexerFor(p string) chroma.Lexer {
	ext := strings.ToLower(path.Ext(p))
	key := ext
	if ext == "" {
		key = "name:" + path.Base(p) // Makefile, Dockerfile, …
	}
	lexerMu.Lock()
	defer lexerMu.Unlock()
	if l, ok := lexerByExt[key]; ok {
		return l
	}
	l := lexers.Match(path.Base(p))
	if l != nil {
		l = chroma.Coalesce(l)
	}
	lexerByExt[key] = l
	return l
}

// tokenise colours lines (without line endings) as one text starting at
// the first, and returns each line's tokens.
func tokenise(lx chroma.Lexer, lines []string) [][]token {
	out := make([][]token, len(lines))
	if lx == nil {
		return out
	}
	it, err := lx.Tokenise(nil, strings.Join(lines, "\n")+"\n")
	if err != nil {
		return out
	}
	ln, col := 0, int32(0)
	for t := it(); t != chroma.EOF; t = it() {
		v := t.Value
		for v != "" && ln < len(lines) {
			nl := strings.IndexByte(v, '\n')
			part := v
			if nl >= 0 {
				part = v[:nl]
			}
			if part != "" && t.Type != chroma.Text && t.Type != chroma.TextWhitespace {
				out[ln] = append(out[ln], token{start: col, end: col + int32(len(part)), typ: t.Type})
			}
			col += int32(len(part))
			if nl < 0 {
				break
			}
			v = v[nl+1:]
			ln++
			col = 0
		}
	}
	return out
}

// hlSeg is a run of lines of one side to tokenise together, from first:
// its tokens are kept for all of lines; get and n read the side's lines
// after them, for a run that ends inside a construct (hlAfter).
type hlSeg struct {
	first int
	lines []string
	get   func(int) string
	n     int
}

// hlJob asks for runs of lines of one side: each run is tokenised on its
// own, from a few lines of context before it (folds put the lines on
// screen in runs far apart; the lines between them are not asked for).
type hlJob struct {
	side int
	gen  uint64
	segs []hlSeg
}

func (j hlJob) covers(side int, gen uint64, line int) bool {
	if j.segs == nil || j.side != side || j.gen != gen {
		return false
	}
	for _, s := range j.segs {
		if s.first <= line && line < s.first+len(s.lines) {
			return true
		}
	}
	return false
}

// highlighter colours the lines on screen of both sides of a view in a
// background goroutine, caching tokens per line. The UI asks with want
// (lines on screen) and ahead (the pages above and below, tokenised once
// nothing on screen waits); results arrive in the cache and one coalesced
// fyne.Do calls refresh. Each side has a generation: new text bumps it and
// drops results computed for the old one.
type highlighter struct {
	refresh func() // called on the UI goroutine after tokens arrive

	mu      sync.Mutex
	lexer   chroma.Lexer
	gen     [2]uint64
	cache   [2]map[int][]token
	queue   []hlJob  // pending, newest last; at most one per side
	later   []hlJob  // ahead of the scroll: run when queue is empty; at most one per side
	running bool     // a worker goroutine is draining queue
	busy    [2]hlJob // the job of each side being tokenised
	waited  bool     // a want found its line in a job of later or busy: refresh when it is stored
	top     [2]int   // no line after it is cached
	// inline makes want tokenise at once on the calling goroutine (tests
	// and benchmarks: the test driver runs fyne.Do inline, so a worker
	// would race with the test); ahead does nothing then.
	inline bool
	idle   *sync.Cond
	// lines counts the lines tokenised (benchmarks: what a screen costs).
	lines int
	// noSync sends every job to the worker, small ones too (a stream).
	noSync bool
	// asked is what the view last asked for ahead of the scroll (tokensAhead).
	asked struct {
		m   *rowModel
		gen [2]uint64
		r   [2]int
	}
}

func newHighlighter(refresh func()) *highlighter {
	h := &highlighter{refresh: refresh}
	h.idle = sync.NewCond(&h.mu)
	h.cache[0], h.cache[1] = map[int][]token{}, map[int][]token{}
	return h
}

// reset sets the file type and drops every cached token.
func (h *highlighter) reset(p string) {
	lx := lexerFor(p)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.lexer = lx
	for s := range 2 {
		h.gen[s]++
		h.cache[s] = map[int][]token{}
		h.top[s] = -1
	}
	h.queue, h.later = nil, nil
}

// invalidateFrom drops the cached tokens of side's lines from line on
// (a stream's growing region and the tail that shifts after it).
func (h *highlighter) invalidateFrom(side, line int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.gen[side]++
	c := h.cache[side]
	if len(c) < h.top[side]-line {
		for k := range c {
			if k >= line {
				delete(c, k)
			}
		}
	} else {
		for k := line; k <= h.top[side]; k++ {
			delete(c, k)
		}
	}
	h.top[side] = min(h.top[side], line-1)
}

// edited records that lines line:line+removed of side were replaced by
// added lines: their tokens go, the tokens after them move.
func (h *highlighter) edited(side, line, removed, added int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.gen[side]++
	c := h.cache[side]
	if removed == added {
		for k := line; k < line+removed; k++ {
			delete(c, k)
		}
		return
	}
	n := map[int][]token{}
	for k, t := range c {
		switch {
		case k < line:
			n[k] = t
		case k >= line+removed:
			n[k+added-removed] = t
		}
	}
	h.cache[side] = n
	h.top[side] += max(added-removed, 0)
}

// generation returns both sides' generations (new text, an edit).
func (h *highlighter) generation() [2]uint64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.gen
}

// tokens returns the cached tokens of a line and whether it has been
// tokenised (always, for a file without a lexer).
func (h *highlighter) tokens(side, line int) ([]token, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.lexer == nil {
		return nil, true // plain text: no colours to wait for
	}
	t, ok := h.cache[side][line]
	return t, ok
}

// pending reports, with h.mu held, whether line of side is cached or in a
// job waiting or running (then it notes that a refresh is owed).
func (h *highlighter) pending(side, line int) bool {
	if _, ok := h.cache[side][line]; ok {
		return true
	}
	g := h.gen[side]
	for _, j := range h.queue {
		if j.covers(side, g, line) {
			return true
		}
	}
	for _, j := range h.later {
		if j.covers(side, g, line) {
			h.waited = true
			return true
		}
	}
	if h.busy[side].covers(side, g, line) {
		h.waited = true
		return true
	}
	return false
}

// segments returns the runs of lines to tokenise for lines (ascending):
// the lines not cached, runs less than hlContext apart joined (the lines
// between cost less than starting the lexer again), each from hlContext
// lines before it.
func (h *highlighter) segments(side int, lines []int, get func(int) string, n int) []hlSeg {
	c := h.cache[side]
	var runs [][2]int
	for _, l := range lines {
		if _, ok := c[l]; ok {
			continue
		}
		if n := len(runs); n > 0 && l <= runs[n-1][1] {
			continue // repeated
		}
		lo := max(l-hlContext, 0)
		if n := len(runs); n > 0 && lo <= runs[n-1][1] {
			runs[n-1][1] = l + 1
			continue
		}
		runs = append(runs, [2]int{lo, l + 1})
	}
	segs := make([]hlSeg, len(runs))
	for k, r := range runs {
		segs[k] = hlSeg{first: r[0], lines: make([]string, r[1]-r[0]), get: get, n: n}
		for i := range segs[k].lines {
			segs[k].lines[i] = get(r[0] + i)
		}
	}
	return segs
}

// want asks for line of side to be coloured, with the other lines of side
// on screen: around returns them (ascending; the view's rows on screen and
// a margin); get returns line i. It returns at once (unless inline); a line
// already cached, queued or being tokenised is not asked for again.
func (h *highlighter) want(side, line int, around func() []int, get func(int) string, n int) {
	h.mu.Lock()
	if h.lexer == nil || h.pending(side, line) {
		h.mu.Unlock()
		return
	}
	lines := around()
	if i, ok := slices.BinarySearch(lines, line); !ok {
		lines = slices.Insert(slices.Clone(lines), i, line)
	}
	job := hlJob{side: side, gen: h.gen[side], segs: h.segments(side, lines, get, n)}
	if h.inline || job.small() && !h.noSync {
		// A screen's worth of ordinary lines costs a few milliseconds:
		// tokenised here, the row is drawn in its colours in this frame,
		// not drawn plain and again a frame later (a page down drew two
		// frames, each the window's whole cost under the software
		// renderer).
		lx := h.lexer
		h.mu.Unlock()
		h.store(job, h.tokeniseJob(lx, job))
		return
	}
	h.queue = append(dropSide(h.queue, side), job)
	h.start()
	h.mu.Unlock()
}

// Limits of a job want tokenises on the caller's goroutine: about a
// screen and its margins of ordinary lines. More, or a very long line,
// goes to the worker.
const (
	hlSyncLines = 160
	hlSyncBytes = 32 << 10
)

// small reports whether the job is within hlSyncLines and hlSyncBytes.
func (j hlJob) small() bool {
	n, b := 0, 0
	for _, s := range j.segs {
		n += len(s.lines)
		for _, l := range s.lines {
			b += len(l)
		}
	}
	return n <= hlSyncLines && b <= hlSyncBytes
}

// ahead asks for lines of side (ascending) that are not on screen yet but
// may soon be (the pages above and below): tokenised once nothing on
// screen waits, replacing what was asked ahead for that side before. It
// does nothing inline.
func (h *highlighter) ahead(side int, lines []int, get func(int) string, n int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.lexer == nil || h.inline {
		return
	}
	segs := h.segments(side, lines, get, n)
	h.later = dropSide(h.later, side)
	if len(segs) == 0 {
		return
	}
	h.later = append(h.later, hlJob{side: side, gen: h.gen[side], segs: segs})
	h.start()
}

// start starts the worker unless it runs; h.mu is held.
func (h *highlighter) start() {
	if !h.running {
		h.running = true
		go h.work() // ends when both queues are empty
	}
}

func dropSide(q []hlJob, side int) []hlJob {
	out := q[:0]
	for _, j := range q {
		if j.side != side {
			out = append(out, j)
		}
	}
	return out
}

// How many lines after a run a lexer error retries it with: hlAfter,
// then four times as many, up to hlAfterMax.
const (
	hlAfter    = 16
	hlAfterMax = 1024
)

// lexError reports whether the lexer marked an error in toks.
func lexError(toks [][]token) bool {
	for _, l := range toks {
		for _, t := range l {
			if t.typ == chroma.Error {
				return true
			}
		}
	}
	return false
}

// tokeniseJob tokenises each run of a job.
func (h *highlighter) tokeniseJob(lx chroma.Lexer, job hlJob) [][][]token {
	out := make([][][]token, len(job.segs))
	n := 0
	for k, s := range job.segs {
		out[k] = tokenise(lx, s.lines)
		n += len(s.lines)
		// A run that ends inside a construct closed on a later line (a Go
		// raw string: its rule needs the closing backtick) lexes as an
		// error and what follows as something else (a changed line of a
		// shell script in a raw string drawn as a comment: QA): again
		// with more of the lines after it, its own lines' tokens kept.
		for more := hlAfter; lexError(out[k]) && s.first+len(s.lines) < s.n && more <= hlAfterMax; more *= 4 {
			end := min(s.first+len(s.lines)+more, s.n)
			lines := slices.Grow(slices.Clone(s.lines), end-s.first-len(s.lines))
			for i := s.first + len(s.lines); i < end; i++ {
				lines = append(lines, s.get(i))
			}
			out[k] = tokenise(lx, lines)[:len(s.lines)]
			n += len(lines)
		}
	}
	h.mu.Lock()
	h.lines += n
	h.mu.Unlock()
	return out
}

func (h *highlighter) store(job hlJob, toks [][][]token) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if job.gen != h.gen[job.side] {
		return false
	}
	c := h.cache[job.side]
	n := 0
	for _, t := range toks {
		n += len(t)
	}
	if len(c)+n > hlCacheMax {
		c = map[int][]token{}
		h.cache[job.side] = c
		h.top[job.side] = -1
	}
	for k, seg := range job.segs {
		for i, t := range toks[k] {
			c[seg.first+i] = t
		}
		h.top[job.side] = max(h.top[job.side], seg.first+len(seg.lines)-1)
	}
	return true
}

// work drains the queue, calls refresh once through fyne.Do, then works
// through the lines asked for ahead (refreshing only when a row waited for
// them), and ends when no job is left.
func (h *highlighter) work() {
	for {
		stored := false
		for {
			h.mu.Lock()
			q, early := &h.queue, true
			if len(h.queue) == 0 {
				if stored { // what is on screen first
					h.mu.Unlock()
					break
				}
				q, early = &h.later, false
			}
			if len(*q) == 0 {
				h.mu.Unlock()
				break
			}
			job := (*q)[0]
			*q = (*q)[1:]
			h.busy[job.side] = job
			lx := h.lexer
			h.mu.Unlock()
			ok := h.store(job, h.tokeniseJob(lx, job))
			h.mu.Lock()
			h.busy[job.side] = hlJob{}
			if ok && (early || h.waited) {
				stored, h.waited = true, false
			}
			h.mu.Unlock()
		}
		if stored && h.refresh != nil {
			fyne.Do(h.refresh)
		}
		h.mu.Lock()
		if len(h.queue) > 0 || len(h.later) > 0 {
			h.mu.Unlock()
			continue
		}
		h.running = false
		h.idle.Broadcast()
		h.mu.Unlock()
		return
	}
}

// palette maps token types to colours for one chroma style.
type palette struct {
	style *chroma.Style
	cache map[chroma.TokenType]color.Color
}

var (
	paletteMu sync.Mutex
	palettes  = map[bool]*palette{}
)

// paletteFor returns the syntax colours for a light or dark theme: chroma's
// "github" and "github-dark" styles, readable on Fyne's backgrounds.
func paletteFor(dark bool) *palette {
	paletteMu.Lock()
	defer paletteMu.Unlock()
	if p, ok := palettes[dark]; ok {
		return p
	}
	name := "github"
	if dark {
		name = "github-dark"
	}
	p := &palette{style: styles.Get(name), cache: map[chroma.TokenType]color.Color{}}
	palettes[dark] = p
	return p
}

// colour returns the colour of a token type, or nil for the theme's text
// colour.
func (p *palette) colour(t chroma.TokenType) color.Color {
	paletteMu.Lock()
	defer paletteMu.Unlock()
	if c, ok := p.cache[t]; ok {
		return c
	}
	var c color.Color
	if e := p.style.Get(t); e.Colour.IsSet() {
		c = color.NRGBA{R: e.Colour.Red(), G: e.Colour.Green(), B: e.Colour.Blue(), A: 0xff}
	}
	p.cache[t] = c
	return c
}
