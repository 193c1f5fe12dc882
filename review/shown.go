package review

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
)

// ShownVersion names exactly the texts of p a person is shown: each
// file's path, whether it is deleted, its base, its proposed text and,
// while it is stale, the disk's text. A decision carries the version of
// the proposal the person had on screen (Decision.Shown): a desk, a far
// desk or the hub refuses to write on it once the proposal holds other
// texts, so nobody approves a version they never saw. It is a digest, not
// a secret: anyone who can read the proposal can compute it.
func ShownVersion(p Proposal) string {
	h := sha256.New()
	for _, f := range p.Files {
		var b strings.Builder
		b.WriteString(strconv.Quote(f.Path))
		b.WriteString(" " + strconv.FormatBool(f.Delete) + " " + strconv.FormatBool(f.Base.Exists) + " " + contentSum(f.Base.SHA256, f.Base.Content))
		proposed := sha256.Sum256([]byte(f.Proposed))
		b.WriteString(" " + hex.EncodeToString(proposed[:]))
		if f.Stale() {
			b.WriteString(" disk " + strconv.FormatBool(f.Disk.Exists) + " " + contentSum(f.Disk.SHA256, f.Disk.Content))
		}
		b.WriteString("\n")
		h.Write([]byte(b.String()))
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// contentSum is a snapshot's SHA-256: the one it carries (a far desk may
// send the sum without the text), or the text's.
func contentSum(sum string, content []byte) string {
	if sum != "" || len(content) == 0 {
		return sum
	}
	s := sha256.Sum256(content)
	return hex.EncodeToString(s[:])
}

// ChangedError reports a decision that would write a proposal made on
// texts it no longer holds (Decision.Shown): nothing was written, the
// proposal waits on with its new texts, which the window shows.
type ChangedError struct {
	ID          string
	Shown, Want string // the version decided on, and the proposal's now
}

func (e *ChangedError) Error() string {
	return fmt.Sprintf("proposal %s changed after it was shown (you decided on version %s; it is now %s): nothing was written; its new version is shown, review it and decide again",
		e.ID, shortVersion(e.Shown), shortVersion(e.Want))
}

func shortVersion(v string) string {
	v = Printable(v)
	if len(v) > 12 {
		return v[:12]
	}
	return v
}

// checkShown refuses dec if it writes and names a version other than p's.
func checkShown(p Proposal, dec Decision) error {
	if dec.Shown == "" || !dec.Verdict.Wrote() {
		return nil
	}
	if now := ShownVersion(p); now != dec.Shown {
		return &ChangedError{ID: p.ID, Shown: dec.Shown, Want: now}
	}
	return nil
}
