// Package memory gives the garbage of big work back to the system. Reading
// a big edit off the socket, decoding it, diffing, classifying, journaling
// and answering it leave several times the file's size as garbage, which
// the Go runtime keeps from the system long after: a 55 MB file took the
// window from 190 MB to 840 MB with 190 MB live, and approving it to 900.
package memory

import (
	"runtime/debug"
	"sync"
)

// Big is the bytes of text past which work is big.
const Big = 16 << 20

// free is debug.FreeOSMemory (tests count the calls).
var free, defaultFree = debug.FreeOSMemory, debug.FreeOSMemory

var (
	mu      sync.Mutex
	running bool // a release is under way
	again   bool // asked for while one ran: it runs once more after
)

// Release returns freed memory to the system, in its own goroutine, when
// n, the bytes of text just worked on, make big work. Releases asked for
// while one runs come to one more after it.
func Release(n int) {
	if n < Big {
		return
	}
	mu.Lock()
	defer mu.Unlock()
	if running {
		again = true
		return
	}
	running = true
	go func() {
		for {
			free()
			mu.Lock()
			if !again {
				running = false
				mu.Unlock()
				return
			}
			again = false
			mu.Unlock()
		}
	}()
}
