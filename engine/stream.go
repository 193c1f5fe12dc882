package engine

import (
	"errors"
	"sort"
	"strings"
)

// LineRange is a range of lines, 1-based and inclusive; End is Start-1 for an
// empty range. The zero LineRange means no range.
type LineRange struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// Preview is the proposed file while an edit streams in, as lines with "\n"
// endings: Done, then Partial, then Tail. Building one costs O(1) plus the
// new bytes of Partial; its slices share memory with the Stream and must not
// be modified.
type Preview struct {
	// Done holds the completed proposed lines so far, each ending in "\n".
	// Later Feeds append to the same backing array, or start a new one
	// (an out-of-order block; a block whose REPLACE lines turn out not to
	// carry Roo line numbers after all), never rewrite it.
	Done []string
	// Partial is the unfinished last streamed line, without "\n"; "" if none
	// or while it might still turn out to be a marker.
	Partial string
	// Tail is the original's lines after the growing region (a sub-slice of
	// the original, with "\n" line endings; the last may lack one).
	Tail []string
	// TailStart is the 0-based index in the original of Tail[0].
	TailStart int
	// Growing is the 1-based range of proposed lines still being written
	// (Done's last lines and Partial); the zero LineRange when none is.
	Growing LineRange
}

// Text returns the proposed text: Done, Partial (on a line of its own when
// Tail follows) and Tail. It costs O(file).
func (p Preview) Text() string {
	var b strings.Builder
	for _, l := range p.Done {
		b.WriteString(l)
	}
	b.WriteString(p.Partial)
	if p.Partial != "" && len(p.Tail) > 0 {
		b.WriteByte('\n')
	}
	for _, l := range p.Tail {
		b.WriteString(l)
	}
	return b.String()
}

// Stream applies an edit incrementally as its payload arrives in chunks, for
// FormatWrite and FormatSearchReplace. Each Feed costs O(chunk), plus one
// match per SEARCH/REPLACE block when its SEARCH section completes (and one
// rebuild of Done per out-of-order block), so a whole stream costs
// O(payload + file × blocks) at worst and O(payload + file) for in-order
// blocks. Close applies the full payload exactly as Apply does.
//
// For write, Done is the streamed lines and Tail the original after them.
// For search-replace, Done is the original with the completed blocks
// applied, up to the end of the block whose REPLACE lines are growing (they
// replace its matched lines); Tail is the original after that. A block whose
// SEARCH is still streaming changes nothing yet; one that cannot match fails
// Feed as soon as its SEARCH is complete. While an out-of-order block grows,
// Tail shows the original after it even where a block completed earlier
// changed it; Done catches up when the block completes. A block not in the
// original (see inSequence) stops the preview where it stands: Close
// applies the payload in sequence, or reports the block that fails.
type Stream struct {
	format Format
	doc    Doc
	orig   []string // lines of doc.Text
	raw    strings.Builder
	cr     bool            // the last chunk ended in "\r"
	line   strings.Builder // the unfinished payload line, LF
	err    error
	done   []string
	tail   int

	// search-replace only
	run          *srRun
	closed       bool // Close finished run; a second Close applies the payload again
	inSequence   bool // a block was not in the original: Close applies the payload in sequence
	growing      bool
	growStart    int  // index in done of the growing block's first line
	replNumbered bool // every REPLACE line so far has a Roo line number to strip
	// shaped is the unfinished REPLACE line as it goes into the file, for the
	// first shapedLen bytes of the raw line; once those hold a non-blank
	// character (stable), later bytes are appended as they are.
	shaped    strings.Builder
	shapedLen int
	stable    bool
}

// NewStream starts streaming an edit of format f to original (the file's
// bytes, "" for a new file). The original is decoded once; Preview lines
// have "\n" endings, and Close re-encodes as Apply does.
func NewStream(original string, f Format) (*Stream, error) {
	if f != FormatWrite && f != FormatSearchReplace {
		return nil, &FormatError{Format: f, Msg: "only write and search-replace edits can be streamed; send the whole payload"}
	}
	doc, err := Decode(original)
	if err != nil {
		return nil, err
	}
	s := &Stream{format: f, doc: doc, orig: splitLines(doc.Text)}
	// The proposed file is usually about the original's size.
	s.done = make([]string, 0, len(s.orig)+64)
	if f == FormatSearchReplace {
		s.run = newSRRun(doc.Text)
	} else {
		s.raw.Grow(len(doc.Text) + 1024)
	}
	return s, nil
}

// Feed adds the next chunk of the payload and returns the preview. After an
// error (a *FormatError or *MatchError) every later Feed returns it again,
// but still adds its chunk to the payload Close applies.
func (s *Stream) Feed(chunk string) (Preview, error) {
	s.raw.WriteString(chunk)
	if s.err != nil {
		return Preview{}, s.err
	}
	if s.inSequence {
		return s.Preview(), nil
	}
	if s.cr {
		chunk, s.cr = "\r"+chunk, false
	}
	if strings.HasSuffix(chunk, "\r") {
		chunk, s.cr = chunk[:len(chunk)-1], true
	}
	chunk = toLF(chunk)
	for s.err == nil && !s.inSequence {
		i := strings.IndexByte(chunk, '\n')
		if i < 0 {
			break
		}
		whole := chunk[:i+1]
		if s.line.Len() > 0 {
			s.line.WriteString(whole)
			whole = s.line.String()
			s.line = strings.Builder{}
		}
		s.complete(whole)
		s.resetShaped()
		chunk = chunk[i+1:]
	}
	if s.err != nil {
		return Preview{}, s.err
	}
	if s.inSequence {
		return s.Preview(), nil
	}
	s.line.WriteString(chunk)
	return s.Preview(), nil
}

// complete takes one finished payload line (ending in "\n").
func (s *Stream) complete(whole string) {
	if s.format == FormatWrite {
		s.done = append(s.done, whole)
		return
	}
	ev, err := s.run.line(whole[:len(whole)-1])
	var me *MatchError
	if errors.As(err, &me) && sequential(me) {
		// The block may match the text the blocks before it made: Close
		// applies the payload in sequence; the preview stays as it is.
		s.inSequence = true
		return
	}
	if err != nil {
		s.err = err
		return
	}
	switch ev {
	case srSearchDone:
		s.startBlock()
	case srReplaceLine:
		if s.growing {
			b := s.run.p.cur()
			p := &s.run.placed[len(s.run.placed)-1]
			k := len(b.replace) - 1
			s.replNumbered = s.numbered(b.replace[k])
			s.done = append(s.done, p.replaceLine(k, b.replace[k], s.replNumbered)+"\n")
		}
	case srClosed:
		s.endBlock()
	}
}

// numbered guesses, while a block streams, whether its REPLACE lines will
// lose Roo line numbers: its SEARCH did, and every REPLACE line so far (and
// partial, if not "") has one.
func (s *Stream) numbered(partial string) bool {
	if !s.replNumbered {
		return false
	}
	_, _, ok := cutRooLineNumber(partial)
	return ok || partial == ""
}

// startBlock begins growing the block just placed.
func (s *Stream) startBlock() {
	p := s.run.placed[len(s.run.placed)-1]
	first := p.loc.first
	if first >= s.tail {
		s.done = s.appendProposed(s.done, s.tail, first)
	} else {
		// Out of order: rebuild Done on a new array.
		s.done = s.appendProposed(make([]string, 0, cap(s.done)), 0, first)
	}
	s.growing, s.growStart, s.replNumbered = true, len(s.done), p.stripped
	s.resetShaped()
	s.tail = p.loc.last + 1
}

// endBlock finishes the growing block: Done gets its final lines (rebuilt if
// they differ from the streamed ones), then the proposed lines up to the end
// of the last completed block.
func (s *Stream) endBlock() {
	p := s.run.placed[len(s.run.placed)-1]
	final := replLines(p.repl)
	grown := s.done[s.growStart:]
	same := len(grown) == len(final)
	for i := 0; same && i < len(final); i++ {
		same = grown[i] == final[i]
	}
	if !same {
		nd := make([]string, s.growStart, cap(s.done))
		copy(nd, s.done[:s.growStart])
		s.done = append(nd, final...)
	}
	s.growing = false
	end := s.tail
	for _, q := range s.run.placed {
		end = max(end, q.loc.last+1)
	}
	s.done = s.appendProposed(s.done, s.tail, end)
	s.tail = end
}

// replLines splits a replacement into lines that each end in "\n".
func replLines(repl string) []string {
	lines := splitLines(repl)
	if n := len(lines); n > 0 && !strings.HasSuffix(lines[n-1], "\n") {
		lines[n-1] += "\n"
	}
	return lines
}

// appendProposed appends the proposed lines standing for original lines
// [from, to): the original's, with every completed block inside the range
// applied.
func (s *Stream) appendProposed(done []string, from, to int) []string {
	var inside []srPlacement
	for i, p := range s.run.placed {
		if (i < len(s.run.placed)-1 || !s.growing) && p.loc.first >= from && p.loc.first < to {
			inside = append(inside, p)
		}
	}
	sort.Slice(inside, func(a, b int) bool { return inside[a].loc.first < inside[b].loc.first })
	pos := from
	for _, p := range inside {
		done = append(done, s.orig[pos:p.loc.first]...)
		done = append(done, replLines(p.repl)...)
		pos = p.loc.last + 1
	}
	if pos < to {
		done = append(done, s.orig[pos:min(to, len(s.orig))]...)
	}
	return done
}

// Preview returns the preview as it stands: before the first Feed, the
// original whole (Tail from line 0), as every preview keeps Tail the
// original's lines from TailStart on.
func (s *Stream) Preview() Preview {
	partial := s.line.String()
	if s.format == FormatWrite {
		n := len(s.done)
		if partial != "" {
			n++
		}
		tail := min(n, len(s.orig))
		return Preview{Done: s.done, Partial: partial, Tail: s.orig[tail:], TailStart: tail, Growing: LineRange{Start: 1, End: n}}
	}
	pv := Preview{Done: s.done, Tail: s.orig[min(s.tail, len(s.orig)):], TailStart: s.tail}
	if !s.growing {
		return pv
	}
	if partial != "" && !srPending(partial) {
		pv.Partial = s.shapePartial(partial)
	}
	pv.Growing = LineRange{Start: s.growStart + 1, End: len(s.done)}
	if pv.Partial != "" {
		pv.Growing.End++
	}
	return pv
}

func (s *Stream) resetShaped() {
	s.shaped, s.shapedLen, s.stable = strings.Builder{}, 0, false
}

// shapePartial returns the unfinished REPLACE line raw as it goes into the
// file, in O(new bytes) once its indentation is known.
func (s *Stream) shapePartial(raw string) string {
	if s.stable && !s.replNumbered {
		s.shaped.WriteString(raw[s.shapedLen:])
		s.shapedLen = len(raw)
		return s.shaped.String()
	}
	b := s.run.p.cur()
	p := &s.run.placed[len(s.run.placed)-1]
	s.resetShaped()
	s.shaped.WriteString(p.replaceLine(len(b.replace), raw, s.numbered(raw)))
	s.shapedLen, s.stable = len(raw), strings.TrimSpace(raw) != ""
	return s.shaped.String()
}

// Close ends the stream and applies the whole payload, exactly as Apply
// would on the original. A search-replace stream that met no error
// finishes the blocks it has placed rather than placing them again.
func (s *Stream) Close() (Result, error) {
	if s.format == FormatWrite {
		return applyDoc(s.doc, Write{Content: s.raw.String()})
	}
	e := SearchReplace{Text: s.raw.String()}
	if s.err != nil || s.closed || s.inSequence {
		return applyDoc(s.doc, e)
	}
	s.closed = true
	return applyDocWith(s.doc, e, func(string) (Result, error) { return s.finishRun() })
}

// finishRun reads the payload's last line into the run, as SearchReplace's
// apply would, and returns the run's result.
func (s *Stream) finishRun() (Result, error) {
	last := s.line.String()
	if s.cr { // a final "\r" ends a line, as toLF reads it
		if _, err := s.run.line(last); err != nil {
			return Result{}, err
		}
		last = ""
	}
	cut := ""
	if srCutMarker(last) {
		cut, last = last, ""
	}
	if last != "" {
		if _, err := s.run.line(last); err != nil {
			return Result{}, err
		}
	}
	inc, err := s.run.finish(cut)
	if err != nil {
		return Result{}, err
	}
	return Result{Content: s.run.output(), Matches: s.run.matches(), Incomplete: inc}, nil
}
