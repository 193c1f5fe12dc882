package diffview

import (
	"image/color"
	"path"
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

// hlMargin is how many lines above and below the visible window are
// tokenised with it, so small scrolls find their colours ready.
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

// hlJob asks for lines first:first+len(lines) of one side.
type hlJob struct {
	side  int
	gen   uint64
	first int
	lines []string
}

// highlighter colours the visible windows of both sides of a view in a
// background goroutine, caching tokens per line. The UI asks with want;
// results arrive in the cache and one coalesced fyne.Do calls refresh.
// Each side has a generation: new text bumps it and drops results
// computed for the old one.
type highlighter struct {
	refresh func() // called on the UI goroutine after tokens arrive

	mu      sync.Mutex
	lexer   chroma.Lexer
	gen     [2]uint64
	cache   [2]map[int][]token
	queue   []hlJob  // pending, newest last; at most one per side
	running bool     // a worker goroutine is draining queue
	busy    [2]hlJob // the job of each side being tokenised
	top     [2]int   // no line after it is cached
	// inline makes want tokenise at once on the calling goroutine (tests
	// and benchmarks: the test driver runs fyne.Do inline, so a worker
	// would race with the test).
	inline bool
	idle   *sync.Cond
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
	h.queue = nil
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

// tokens returns the cached tokens of a line and whether it has been
// tokenised.
func (h *highlighter) tokens(side, line int) ([]token, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	t, ok := h.cache[side][line]
	return t, ok
}

// want asks for line of side to be coloured, with radius lines either
// side of it (the view passes its height, so any visible row's request
// covers the whole screen); get returns line i of total. It returns at once
// (unless inline); a line already cached, queued or being tokenised is not
// asked for again.
func (h *highlighter) want(side, line, radius, total int, get func(int) string) {
	h.mu.Lock()
	if h.lexer == nil {
		h.mu.Unlock()
		return
	}
	if _, ok := h.cache[side][line]; ok {
		h.mu.Unlock()
		return
	}
	covers := func(j hlJob) bool {
		return j.lines != nil && j.side == side && j.gen == h.gen[side] && j.first <= line && line < j.first+len(j.lines)
	}
	for _, j := range h.queue {
		if covers(j) {
			h.mu.Unlock()
			return // already asked
		}
	}
	if covers(h.busy[side]) {
		h.mu.Unlock()
		return // being tokenised
	}
	from, to := line-radius, line+radius+1
	first, last := max(from-hlMargin, 0), min(to+hlMargin, total)
	// Only the span of lines not cached yet, after a few lines of context
	// (a stream's growing edge, not the whole screen again).
	c := h.cache[side]
	for first < last {
		if _, ok := c[first]; !ok {
			break
		}
		first++
	}
	for last > first {
		if _, ok := c[last-1]; !ok {
			break
		}
		last--
	}
	first = max(first-hlContext, 0)
	job := hlJob{side: side, gen: h.gen[side], first: first, lines: make([]string, last-first)}
	for i := range job.lines {
		job.lines[i] = get(first + i)
	}
	if h.inline {
		lx := h.lexer
		h.mu.Unlock()
		h.store(job, tokenise(lx, job.lines))
		return
	}
	q := h.queue[:0]
	for _, j := range h.queue {
		if j.side != side {
			q = append(q, j)
		}
	}
	h.queue = append(q, job)
	if !h.running {
		h.running = true
		go h.work() // ends when the queue is empty
	}
	h.mu.Unlock()
}

func (h *highlighter) store(job hlJob, toks [][]token) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if job.gen != h.gen[job.side] {
		return false
	}
	c := h.cache[job.side]
	if len(c) > hlCacheMax {
		c = map[int][]token{}
		h.cache[job.side] = c
		h.top[job.side] = -1
	}
	for i, t := range toks {
		c[job.first+i] = t
	}
	h.top[job.side] = max(h.top[job.side], job.first+len(toks)-1)
	return true
}

// work drains the queue, calls refresh once through fyne.Do, and ends
// when no job is left.
func (h *highlighter) work() {
	for {
		stored := false
		for {
			h.mu.Lock()
			if len(h.queue) == 0 {
				h.mu.Unlock()
				break
			}
			job := h.queue[0]
			h.queue = h.queue[1:]
			h.busy[job.side] = job
			lx := h.lexer
			h.mu.Unlock()
			if h.store(job, tokenise(lx, job.lines)) {
				stored = true
			}
			h.mu.Lock()
			h.busy[job.side] = hlJob{}
			h.mu.Unlock()
		}
		if stored && h.refresh != nil {
			fyne.Do(h.refresh)
		}
		h.mu.Lock()
		if len(h.queue) > 0 {
			h.mu.Unlock()
			continue
		}
		h.running = false
		h.idle.Broadcast()
		h.mu.Unlock()
		return
	}
}

// wait blocks until no highlighting is pending (tests).
func (h *highlighter) wait() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for h.running {
		h.idle.Wait()
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
