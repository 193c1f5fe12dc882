package hub

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/diffdesk/diffdesk/review"
)

// Names on the hub. Every desk's messages live under dd.DESK. in one
// stream, so the hub's permissions can give each desk its own subjects;
// decisions are entries of one key-value bucket, keyed DESK.H.ROUND.
const (
	// Stream holds proposals, outcomes and the texts of both.
	Stream = "DIFFDESK"
	// Bucket is the key-value bucket of decisions (its stream is
	// "KV_" + Bucket).
	Bucket = "diffdesk-decisions"
	// ChunkSize is the most text one message carries; a text is split
	// into chunks of at most this many bytes.
	ChunkSize = 256 << 10
	// MaxMessage is the largest message the hub takes (its max_payload):
	// a decision, with any edited text, must fit in it.
	MaxMessage = 1 << 20
	// MaxFiles is the most files a proposal on the hub may name.
	MaxFiles = 256
)

// nameRE is what a desk's or reviewer's name may hold: one subject token.
var nameRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// CheckName reports whether name can name a desk or a reviewer on the
// hub: 1 to 64 letters, digits, '-' or '_'.
func CheckName(name string) error {
	if !nameRE.MatchString(name) {
		return fmt.Errorf("hub: %q cannot name a desk or reviewer: use 1 to 64 letters, digits, '-' or '_'", name)
	}
	return nil
}

// hubIDRE is a proposal's id on the hub: 32 hex digits, fresh for every
// proposal a desk publishes (a replayed decision never names a new one).
var hubIDRE = regexp.MustCompile(`^[0-9a-f]{32}$`)

// versionRE is a proposal's version: a subject token of its texts.
var versionRE = regexp.MustCompile(`^[0-9a-f]{16}$`)

func newHubID() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func newNonce() string { return newHubID() }

func proposalSubject(desk, h string) string { return "dd." + desk + ".p." + h }
func outcomeSubject(desk, h string) string  { return "dd." + desk + ".o." + h }
func textSubject(desk, h, version string, file int, kind string, chunk int) string {
	return fmt.Sprintf("dd.%s.t.%s.%s.%d.%s.%d", desk, h, version, file, kind, chunk)
}

// decisionKey is the key-value key a decision on round of proposal h is
// created at.
func decisionKey(desk, h string, round int) string {
	return desk + "." + h + "." + strconv.Itoa(round)
}

// parseKey splits a decision key (or the KV stream's subject of one).
func parseKey(key string) (desk, h string, round int, ok bool) {
	key = strings.TrimPrefix(key, "$KV."+Bucket+".")
	parts := strings.Split(key, ".")
	if len(parts) != 3 || CheckName(parts[0]) != nil || !hubIDRE.MatchString(parts[1]) {
		return "", "", 0, false
	}
	round, err := strconv.Atoi(parts[2])
	if err != nil || round < 1 || strconv.Itoa(round) != parts[2] {
		return "", "", 0, false
	}
	return parts[0], parts[1], round, true
}

// parseSubject splits a proposal's or outcome's subject: dd.DESK.p.H or
// dd.DESK.o.H.
func parseSubject(subj string) (desk, kind, h string, ok bool) {
	parts := strings.Split(subj, ".")
	if len(parts) != 4 || parts[0] != "dd" || CheckName(parts[1]) != nil || !hubIDRE.MatchString(parts[3]) {
		return "", "", "", false
	}
	if parts[2] != "p" && parts[2] != "o" {
		return "", "", "", false
	}
	return parts[1], parts[2], parts[3], true
}

// Text kinds: a file's content when the proposal arrived, as proposed,
// and on disk now (a stale file).
const (
	TextBase     = "b"
	TextProposed = "p"
	TextDisk     = "d"
)

// TextRef says where a text is on the hub: its size, its SHA-256 (which
// the reader checks) and how many chunks carry it. A zero TextRef is no
// text (a file that did not exist).
type TextRef struct {
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
	Chunks int    `json:"chunks"`
}

func refOf(text string) TextRef {
	sum := sha256.Sum256([]byte(text))
	n := (len(text) + ChunkSize - 1) / ChunkSize
	return TextRef{Size: int64(len(text)), SHA256: hex.EncodeToString(sum[:]), Chunks: n}
}

// File is one file of a proposal as the hub carries it.
type File struct {
	Path      string   `json:"path"` // absolute, on the desk's machine
	Rel       string   `json:"rel"`  // relative to its workspace root
	Root      string   `json:"root"`
	Exists    bool     `json:"exists"`
	Delete    bool     `json:"delete,omitempty"`
	Added     int      `json:"added"`
	Removed   int      `json:"removed"`
	Protected string   `json:"protected,omitempty"` // why a person must decide it
	Base      TextRef  `json:"base"`
	Proposed  TextRef  `json:"proposed"`
	Disk      *TextRef `json:"disk,omitempty"` // stale: the file on disk now (nil: not stale)
	DiskGone  bool     `json:"diskGone,omitempty"`
	Hunks     []string `json:"hunks,omitempty"` // hunk ids, as a partial decision names them
}

// Proposal is a desk's proposal as the hub carries it, published on
// dd.DESK.p.H each time it changes. Only the desk publishes it.
type Proposal struct {
	Desk    string    `json:"desk"`
	Hub     string    `json:"hub"` // H: fresh per proposal
	ID      string    `json:"id"`  // the desk's own id
	Agent   string    `json:"agent"`
	Session string    `json:"session,omitempty"`
	Format  string    `json:"format"`
	State   string    `json:"state"` // pending or stale
	Created time.Time `json:"created"`
	// Round is the round decisions are taken for: a decision is created
	// at key DESK.H.ROUND. The desk starts a new round when the proposal
	// changes (a file changed on disk) or a decision could not be carried
	// out; Note then says why.
	Round int `json:"round"`
	// Version names the texts the round is about (16 hex digits); a
	// decision carries the version its reviewer was shown, and the desk
	// carries out only one naming the round's.
	Version     string `json:"version"`
	Note        string `json:"note,omitempty"`
	Instruction string `json:"instruction,omitempty"`
	Files       []File `json:"files"`
}

// Key is the key-value key a decision on p's current round is created at.
func (p Proposal) Key() string { return decisionKey(p.Desk, p.Hub, p.Round) }

func (p Proposal) check(desk, h string) error {
	switch {
	case p.Desk != desk || p.Hub != h:
		return fmt.Errorf("hub: proposal published on dd.%s.p.%s names desk %q and id %q", desk, h, p.Desk, p.Hub)
	case p.Round < 1:
		return fmt.Errorf("hub: proposal %s/%s has round %d", desk, h, p.Round)
	case !versionRE.MatchString(p.Version):
		return fmt.Errorf("hub: proposal %s/%s has version %q, not 16 hex digits", desk, h, review.Printable(p.Version))
	case len(p.Files) == 0 || len(p.Files) > MaxFiles:
		return fmt.Errorf("hub: proposal %s/%s has %d files (1 to %d)", desk, h, len(p.Files), MaxFiles)
	}
	return nil
}

// Decision is a reviewer's decision, created at a proposal's round key.
// The first one created wins; the desk carries out at most one decision
// per round, and only one whose Hub, Round and Version match the round.
type Decision struct {
	Hub     string `json:"hub"`
	Round   int    `json:"round"`
	Version string `json:"version"`
	// Nonce is fresh per decision: the outcome names the decision it
	// carried out by it.
	Nonce   string    `json:"nonce"`
	By      string    `json:"by"`      // the reviewer, as it names itself
	Verdict string    `json:"verdict"` // approved, approved-edited, partial, rejected
	At      time.Time `json:"at"`

	Feedback  string              `json:"feedback,omitempty"`
	Edited    map[string]string   `json:"edited,omitempty"`    // absolute path → full text
	Hunks     map[string][]string `json:"hunks,omitempty"`     // absolute path → accepted hunk ids
	Overwrite map[string]string   `json:"overwrite,omitempty"` // stale path → SHA-256 of the disk reviewed
	// Seen and SeenLines are review.Decision's: the hunks the person had
	// on screen (path → hunk ids) and the lines of hunks shown in part;
	// nil: not tracked. The desk checks them against its proposal (at
	// most MaxFiles paths each) and the journal keeps them.
	Seen      map[string][]string       `json:"seen,omitempty"`
	SeenLines map[string]map[string]int `json:"seenLines,omitempty"`
}

// Outcome is what became of a proposal, published by its desk on
// dd.DESK.o.H. Reviewers trust only the desk's outcome, never the
// decision entries, for what was written.
type Outcome struct {
	Desk   string `json:"desk"`
	Hub    string `json:"hub"`
	ID     string `json:"id"`
	Status string `json:"status"` // the journal's verdict: approved, rejected, withdrawn, …
	// Nonce is the hub decision carried out ("" when it was decided at
	// the desk itself, or never: withdrawn).
	Nonce    string        `json:"nonce,omitempty"`
	Round    int           `json:"round,omitempty"`
	By       string        `json:"by,omitempty"`
	Rule     string        `json:"rule,omitempty"`
	Feedback string        `json:"feedback,omitempty"`
	Error    string        `json:"error,omitempty"`
	Files    []FileOutcome `json:"files,omitempty"`
	At       time.Time     `json:"at"`
}

// FileOutcome is one file's result.
type FileOutcome struct {
	Path        string `json:"path"`
	Written     bool   `json:"written"`
	Deleted     bool   `json:"deleted,omitempty"`
	FinalSHA256 string `json:"finalSha256,omitempty"`
}

// decode reads a message of at most MaxMessage bytes into v.
func decode(data []byte, v any, what string) error {
	if len(data) > MaxMessage {
		return fmt.Errorf("hub: %s of %d bytes is over the hub's %d-byte limit", what, len(data), MaxMessage)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("hub: reading %s: %w", what, err)
	}
	return nil
}
