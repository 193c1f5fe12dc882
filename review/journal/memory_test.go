package journal_test

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/review/journal"
)

// bigText is n lines of ordinary code, changed at every 20th line when
// round is not 0.
func bigText(n, round int) []byte {
	var b strings.Builder
	for i := range n {
		if round != 0 && i%20 == 0 {
			fmt.Fprintf(&b, "\ty%d := compute(%d) // round %d\n", i, i, round)
		} else {
			fmt.Fprintf(&b, "\tx%d := compute(%d) // line %d\n", i, i, i)
		}
	}
	return []byte(b.String())
}

func liveHeap() int64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// TestJournalKeepsNoEncoderHistory: a journal that has stored a big file
// and a delta of it does not keep megabytes of the compressor's history
// in memory afterwards (issue 28: the shared zstd encoder kept a 16 MB
// window for the life of the window, on top of a session's growth).
func TestJournalKeepsNoEncoderHistory(t *testing.T) {
	ctx := context.Background()
	base, next := bigText(100_000, 0), bigText(100_000, 1) // 3.4 MB each
	before := liveHeap()
	j, err := journal.Open(ctx, filepath.Join(t.TempDir(), "journal.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	h, err := j.PutBlob(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.PutBlobDelta(ctx, next, h); err != nil {
		t.Fatal(err)
	}
	readBack(t, j, h, len(base))
	held := liveHeap() - before
	t.Logf("the journal holds %.2f MiB", float64(held)/(1<<20))
	const bound = 2 << 20 // the codec's tables, not a file's history
	if held > bound {
		t.Errorf("an open journal holds %.1f MiB after storing a %.1f MiB file and its delta; want at most %.1f MiB", float64(held)/(1<<20), float64(len(base))/(1<<20), float64(bound)/(1<<20))
	}
	runtime.KeepAlive(base)
	runtime.KeepAlive(next)
}

func readBack(t *testing.T, j *journal.Journal, hash string, size int) {
	t.Helper()
	if got, err := j.Blob(context.Background(), hash); err != nil || len(got) != size {
		t.Fatalf("Blob: %d bytes, %v; want the %d stored", len(got), err, size)
	}
}
