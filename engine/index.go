package engine

import "strings"

// Looking for a long text (a SEARCH block, an old_string) in a file. Go's
// strings.Index steps through every place the needle's first byte occurs,
// and for a needle over simdMax bytes falls back to Rabin-Karp, a hash per
// byte; JavaScript's indexOf, the one Cline and Gemini use, skips ahead
// (Boyer-Moore-Horspool). A finder skips ahead too: it reads the last four
// bytes under the window, and unless they end a place in the needle's last
// 255+4 bytes the needle cannot start anywhere up to 255 bytes on. On a
// 100k-line file and a 50-line block that reads one byte in a few dozen.
// Text where it cannot skip (long runs of the same few bytes) gives it up
// for indexLong; its answers are always strings.Index's.

// simdMax is the longest needle strings.Index finds with vector
// instructions on amd64; longer ones fall back to slower loops.
const simdMax = 63

// indexLong is strings.Index, faster for needles over simdMax bytes: it
// looks for their first simdMax bytes and checks the rest.
func indexLong(s, sub string) int {
	if len(sub) <= simdMax {
		return strings.Index(s, sub)
	}
	for from := 0; ; {
		i := strings.Index(s[from:], sub[:simdMax])
		if i < 0 {
			return -1
		}
		if strings.HasPrefix(s[from+i:], sub) {
			return from + i
		}
		from += i + 1
	}
}

// When a finder skips: a needle of skipMinNeedle bytes or more in a text
// of skipMinText bytes or more (below them building the table costs more
// than it saves). skipBits sizes the table of shifts.
const (
	skipMinNeedle = 32
	skipMinText   = 4 << 10
	skipBits      = 12
	skipMaxShift  = 255
)

// finder looks for one needle in texts; index is strings.Index.
type finder struct {
	sub   string
	plain bool                  // always use indexLong (the needle or the texts are short, or lineSplitExact)
	shift *[1 << skipBits]uint8 // by hash of a window's last 4 bytes: how far on the needle can start next
	last  uint32                // the needle's last 4 bytes
	after int                   // the shift after a window whose last 4 bytes are the needle's
}

func newFinder(sub string) *finder {
	return &finder{sub: sub, plain: len(sub) < skipMinNeedle || lineSplitExact}
}

// gram is the 4 bytes of s ending at e, little-endian.
func gram(s string, e int) uint32 {
	s = s[e-4 : e]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

func gramHash(g uint32) uint32 { return g * 0x9E3779B1 >> (32 - skipBits) }

// table builds the shifts, once: for each 4 bytes of the needle but its
// last, ending k bytes before the needle's end (k ≤ skipMaxShift), a
// window whose last 4 bytes hash alike can move on by k; by at most
// skipMaxShift otherwise. Bytes hashing alike keep the smallest shift.
func (f *finder) table() {
	if f.shift != nil {
		return
	}
	m := len(f.sub)
	t := new([1 << skipBits]uint8)
	def := uint8(min(m-3, skipMaxShift))
	for i := range t {
		t[i] = def
	}
	for e := max(4, m-skipMaxShift); e < m; e++ {
		t[gramHash(gram(f.sub, e))] = uint8(m - e)
	}
	f.shift, f.last = t, gram(f.sub, m)
	f.after = int(t[gramHash(f.last)])
}

// index returns the first offset of f's needle in s, or -1.
func (f *finder) index(s string) int {
	m := len(f.sub)
	if f.plain || len(s) < skipMinText {
		return indexLong(s, f.sub)
	}
	f.table()
	shift, last, after := f.shift, f.last, f.after
	steps, checks := 0, 0
	for i := 0; i+m <= len(s); {
		g := gram(s, i+m)
		if g == last {
			if s[i:i+m] == f.sub {
				return i
			}
			checks++
			i += after
		} else {
			i += int(shift[gramHash(g)])
		}
		// Where the text keeps the shifts short (a run of the needle's
		// own bytes) or keeps nearly matching, scan the rest plainly.
		if steps++; steps&63 == 0 && (steps > 64+i/8 || checks > 8+i/256) {
			if j := indexLong(s[i:], f.sub); j >= 0 {
				return i + j
			}
			return -1
		}
	}
	return -1
}
