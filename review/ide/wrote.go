package ide

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/atomicfile"
)

// The IDE doors answer an approval with the text for the agent to write
// (Claude Code's FILE_SAVED, Gemini CLI's ide/diffAccepted), and the agent
// writes the file itself. Neither protocol has a word for what became of
// that write — no after-tool call reaches an IDE — so the desk would record
// "approved" for a file the agent never wrote: its tool failed (the file
// changed in between), the person said no in the agent's own terminal,
// Claude Code found the text already there and took the answer as a
// deny. So the door watches the disk: once every file holds the approved
// text (its finalSha256) the approval stands; if one does not within
// writeWait, the desk is told (review.Desk.AgentWrote), checks the disk
// itself and records the approval as failed, "approved, but not written"
// (docs/agent-protocols.md §1.6).

// defaultWriteWait is how long after its answer a door waits for the
// agent to write the approved text: both CLIs write it at once.
const defaultWriteWait = 30 * time.Second

// writePoll is how often the disk is read while waiting.
const writePoll = 50 * time.Millisecond

// writeWatch watches the files of a door's approvals until its agent has
// written them, or the time is up.
type writeWatch struct {
	desk *review.Desk
	wait time.Duration
	stop chan struct{} // closed by close
	once sync.Once
	wg   sync.WaitGroup
}

func newWriteWatch(desk *review.Desk, wait time.Duration) *writeWatch {
	if wait <= 0 {
		wait = defaultWriteWait
	}
	return &writeWatch{desk: desk, wait: wait, stop: make(chan struct{})}
}

// watch waits, in the background, for agent to write approval o, which
// the door answered with answer (what it sent, for the history).
func (w *writeWatch) watch(o review.Outcome, agent, answer string) {
	if !o.AgentWrites || !o.Status.Wrote() {
		return
	}
	w.wg.Add(1)
	// Ends when the files hold the text, the time is up, or the door closes.
	go func() {
		defer w.wg.Done()
		deadline := time.NewTimer(w.wait)
		defer deadline.Stop()
		tick := time.NewTicker(writePoll)
		defer tick.Stop()
		seen := map[string]fileStamp{}
		for !holds(o, seen) {
			select {
			case <-w.stop:
				return // the desk closes: the agent may still write; nobody can tell
			case <-deadline.C:
				note := fmt.Sprintf("%s was answered %s with the approved text, and %s later the file did not hold it: its tool failed, or the person answered otherwise in %s's terminal (an IDE door hears nothing after its answer)", agent, answer, w.wait, agent)
				w.desk.AgentWrote(context.Background(), o.ID, note)
				return
			case <-tick.C:
			}
		}
	}()
}

// close stops every watch and waits for them.
func (w *writeWatch) close() {
	w.once.Do(func() { close(w.stop) })
	w.wg.Wait()
}

// holds reports whether every file of o holds its final text now. The
// agent chose what is there by now: a file is read as the desk reads
// files (atomicfile.ReadSnapshotMax), never more than the final text and a
// byte, and a FIFO or a link to /dev/zero is not a file that holds it —
// never waited on or read whole. A file is read only when its size is the
// text's and it changed since the last look (seen): not a big file 20
// times a second.
func holds(o review.Outcome, seen map[string]fileStamp) bool {
	for _, f := range o.Files {
		info, err := os.Stat(f.Path)
		if err != nil || info.Size() != int64(len(f.FinalContent)) {
			return false
		}
		now := fileStamp{size: info.Size(), mod: info.ModTime()}
		if last, ok := seen[f.Path]; ok && last.size == now.size && last.mod.Equal(now.mod) && !last.holds {
			return false
		}
		s, err := atomicfile.ReadSnapshotMax(f.Path, int64(len(f.FinalContent))+1)
		now.holds = err == nil && s.Exists && s.SHA256 == f.FinalSHA256
		seen[f.Path] = now
		if !now.holds {
			return false
		}
	}
	return true
}

// fileStamp is what the watch saw of a file: its size and time, and
// whether it held the text then.
type fileStamp struct {
	size  int64
	mod   time.Time
	holds bool
}
