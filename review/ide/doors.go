package ide

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/config"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The agents' tools the doors serve, as the desk names them (a
// withdrawal's door: review.Withdrawal).
const (
	claudeTool = "Claude Code"
	geminiTool = "Gemini CLI"
)

// Options configures Start.
type Options struct {
	Doors config.Doors // which doors to open (Config.Doors); Native is served elsewhere (Server)
	// ClaudeLockDir is where the Claude Code lock file goes; "" means
	// $CLAUDE_CONFIG_DIR/ide, else ~/.claude/ide.
	ClaudeLockDir string
	// GeminiDir is where the Gemini CLI discovery file goes; "" means
	// $TMPDIR/gemini/ide (os.TempDir).
	GeminiDir string
	// IDEName is the name the agents show, e.g. "Opened changes in Diff Desk";
	// "" means "Diff Desk".
	IDEName string
	// AgentWriteWait is how long after answering an approval a door waits
	// for its agent to write the approved text before the desk records it
	// as not written (wrote.go); 0 means 30 s.
	AgentWriteWait time.Duration
}

// Doors are the agent front doors a desk has open: the Claude Code IDE
// WebSocket and the Gemini CLI IDE companion. Close shuts them.
type Doors struct {
	claude *claudeDoor
	gemini *geminiDoor
	failed []review.DoorStatus // the doors that did not open, and why
}

// maxMessageBytes is the largest MCP message a door reads, as on the
// native socket: edits larger than that do not come through an IDE door.
const maxMessageBytes = 64 << 20

// Start opens the IDE doors opts.Doors asks for on the loopback
// interface, each with a fresh token, and writes their lock and discovery
// files (0600). ctx bounds the start only; the doors run until Close. A
// door that cannot open (its directory shared or another user's, no port)
// does not stop the others: Start returns the doors that opened, and an
// error naming each that did not, which Status lists too.
func Start(ctx context.Context, desk *review.Desk, opts Options) (*Doors, error) {
	if opts.IDEName == "" {
		opts.IDEName = "Diff Desk"
	}
	d := &Doors{}
	var errs []error
	if opts.Doors.Claude {
		c, err := startClaudeDoor(ctx, desk, opts)
		if err != nil {
			errs = append(errs, fmt.Errorf("the Claude Code door did not open: %w", err))
			d.failed = append(d.failed, review.DoorStatus{Name: "claude-code", Error: err.Error()})
		}
		d.claude = c
	}
	if opts.Doors.Gemini {
		g, err := startGeminiDoor(ctx, desk, opts)
		if err != nil {
			errs = append(errs, fmt.Errorf("the Gemini CLI door did not open: %w", err))
			d.failed = append(d.failed, review.DoorStatus{Name: "gemini-cli", Error: err.Error()})
		}
		d.gemini = g
	}
	return d, errors.Join(errs...)
}

// Status lists the open doors.
func (d *Doors) Status() []review.DoorStatus {
	var out []review.DoorStatus
	if d.claude != nil {
		out = append(out, d.claude.status())
	}
	if d.gemini != nil {
		out = append(out, d.gemini.status())
	}
	return append(out, d.failed...)
}

// Close withdraws the reviews the doors still wait on, stops their
// listeners and removes their lock and discovery files.
func (d *Doors) Close() error {
	var errs []error
	if d.claude != nil {
		errs = append(errs, d.claude.close())
	}
	if d.gemini != nil {
		errs = append(errs, d.gemini.close())
	}
	return errors.Join(errs...)
}

// doorToken returns a fresh secret for a door: 32 hex digits from the
// system's CSPRNG.
func doorToken() string {
	b := make([]byte, 16)
	rand.Read(b) // never fails (crypto/rand panics instead)
	return hex.EncodeToString(b)
}

// listenLoopback listens on an ephemeral port of 127.0.0.1 only.
func listenLoopback(ctx context.Context) (*net.TCPListener, error) {
	var lc net.ListenConfig
	l, err := lc.Listen(ctx, "tcp4", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("door: listen on 127.0.0.1: %w", err)
	}
	return l.(*net.TCPListener), nil
}

// writeDoorFile writes v as JSON to path, readable by its owner only
// (directory 0700, file 0600), replacing it atomically.
func writeDoorFile(path string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("door file %s: %w", path, err)
	}
	if err := privateDir(filepath.Dir(path)); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".door-*")
	if err != nil {
		return fmt.Errorf("door file %s: %w", path, err)
	}
	defer os.Remove(tmp.Name()) // gone after the rename; cleans up a failure
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("door file %s: %w", path, err)
	}
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("door file %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("door file %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("door file %s: %w", path, err)
	}
	return nil
}

// privateDir makes dir (0700) if it is missing, and checks it as the
// socket's directory is checked: a directory of the user's that no one
// else can write, in a parent that no one else can rename it out of
// (one of the user's, or a sticky one such as /tmp). Door files hold a
// token; the Gemini CLI's place, $TMPDIR/gemini/ide, is shared by every
// user of the machine, so another user may have made it first. Nothing
// is chmodded: a directory the desk did not make is not the desk's to
// change.
func privateDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("door directory %s: %w", dir, err)
	}
	uid := os.Getuid()
	st, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("door directory %s: %w", dir, err)
	}
	if !st.IsDir() {
		return fmt.Errorf("door directory %s is not a directory (%s); remove it", dir, st.Mode().Type())
	}
	if owner := ownerOf(st); owner != uid {
		return fmt.Errorf("door directory %s belongs to uid %d, not to you (uid %d): its owner could read the door's token; "+
			"the door stays closed (the others are open); remove that directory or ask its owner to", dir, owner, uid)
	}
	if st.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("door directory %s is writable by other users (mode %v): they could replace the door's file; "+
			"the door stays closed (the others are open); chmod go-w %s", dir, st.Mode().Perm(), dir)
	}
	parent := filepath.Dir(dir)
	pst, err := os.Stat(parent)
	if err != nil {
		return fmt.Errorf("door directory %s: %w", dir, err)
	}
	if po := ownerOf(pst); po != uid && po != 0 {
		return fmt.Errorf("door directory %s is in %s, which belongs to uid %d, not to you (uid %d): its owner could swap the directory; "+
			"the door stays closed (the others are open)", dir, parent, po, uid)
	}
	if pst.Mode().Perm()&0o022 != 0 && pst.Mode()&fs.ModeSticky == 0 {
		return fmt.Errorf("door directory %s is in %s, which other users can write (mode %v, not sticky): they could swap the directory; "+
			"the door stays closed (the others are open)", dir, parent, pst.Mode().Perm())
	}
	return nil
}

// ownerOf returns the uid owning the file st describes; -1 if unknown.
func ownerOf(st fs.FileInfo) int {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return int(s.Uid)
	}
	return -1
}

// doorServer is the HTTP side of a door: its listener, server and the
// goroutine serving it.
type doorServer struct {
	l      *net.TCPListener
	srv    *http.Server
	served chan struct{} // closed when Serve returns
}

// serveDoor serves h on l until shutdown.
func serveDoor(l *net.TCPListener, h http.Handler) *doorServer {
	s := &doorServer{l: l, srv: &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}, served: make(chan struct{})}
	// Ends when shutdown closes the server.
	go func() {
		defer close(s.served)
		s.srv.Serve(l)
	}()
	return s
}

// shutdown stops accepting, closes every connection (long polls and
// WebSockets included) and waits for Serve to return.
func (s *doorServer) shutdown() error {
	err := s.srv.Close()
	<-s.served
	return err
}

// port is the TCP port the door listens on.
func (s *doorServer) port() int { return s.l.Addr().(*net.TCPAddr).Port }

// doorReviews tracks the proposals a door waits on, by the key the agent
// uses to refer to them (Claude's tab name, Gemini's file path).
type doorReviews struct {
	mu      sync.Mutex
	byKey   map[string]doorReview
	clients int
	ready   map[*mcp.ServerSession]bool // clients that listed the tools: the handshake is done
}

// doorReview is one proposal a door waits on.
type doorReview struct {
	id      string // the desk's proposal id; "" while it is being proposed
	session string // the agent connection that opened it
}

func (r *doorReviews) put(key string, v doorReview) (old doorReview, had bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.byKey == nil {
		r.byKey = map[string]doorReview{}
	}
	old, had = r.byKey[key]
	r.byKey[key] = v
	return old, had
}

// settle gives the review reserved under key (with id "") its proposal id.
// It reports false if the reservation was taken meanwhile: the agent
// closed the review before the desk had it.
func (r *doorReviews) settle(key, session, id string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	v, ok := r.byKey[key]
	if !ok || v.id != "" || v.session != session {
		return false
	}
	r.byKey[key] = doorReview{id: id, session: session}
	return true
}

// take removes key's review if it is still proposal id ("" matches any).
func (r *doorReviews) take(key, id string) (doorReview, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	v, ok := r.byKey[key]
	if !ok || (id != "" && v.id != id) {
		return doorReview{}, false
	}
	delete(r.byKey, key)
	return v, true
}

// takeSession removes every review of session ("" for all).
func (r *doorReviews) takeSession(session string) []doorReview {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []doorReview
	for k, v := range r.byKey {
		if session == "" || v.session == session {
			out = append(out, v)
			delete(r.byKey, k)
		}
	}
	return out
}

func (r *doorReviews) count() (clients, ready, pending int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.clients, len(r.ready), len(r.byKey)
}

// countReady is MCP middleware that counts a client as ready once it has
// listed the tools, the last step of the agents' handshake.
func (r *doorReviews) countReady(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		ss, ok := req.GetSession().(*mcp.ServerSession)
		if method != "tools/list" || err != nil || !ok {
			return res, err
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.ready == nil {
			r.ready = map[*mcp.ServerSession]bool{}
		}
		if !r.ready[ss] {
			r.ready[ss] = true
			// Ends when the session does.
			go func() {
				ss.Wait()
				r.mu.Lock()
				delete(r.ready, ss)
				r.mu.Unlock()
			}()
		}
		return res, err
	}
}

func (r *doorReviews) connected(delta int) {
	r.mu.Lock()
	r.clients += delta
	r.mu.Unlock()
}

// textResult is a tool result of text items, as both IDE protocols expect.
func textResult(texts ...string) *mcp.CallToolResult {
	res := &mcp.CallToolResult{Content: []mcp.Content{}}
	for _, t := range texts {
		res.Content = append(res.Content, &mcp.TextContent{Text: t})
	}
	return res
}

// proposeWhole queues an IDE door's whole-file proposal, which the agent
// writes itself once approved; turn names the agent's turn if the door
// can tell ("" if not).
func proposeWhole(ctx context.Context, desk *review.Desk, agent, session, turn, path, content string) (review.Proposal, error) {
	return desk.Propose(ctx, review.Request{
		Agent: agent, Session: session, Turn: turn, Format: engine.FormatWrite, Path: path, Payload: content, AgentWrites: true,
		VerdictOnly: true, // openDiff's answer carries the final text or a bare rejection, nothing else (docs/agent-protocols.md §1.3, §2.5)
	})
}

// finalText is the text an agent must write for an approved outcome: the
// first file's final content (docs/agent-protocols.md §1.4, §2.3).
func finalText(o review.Outcome) (string, bool) {
	if !o.Status.Wrote() || len(o.Files) == 0 {
		return "", false
	}
	return o.Files[0].FinalContent, true
}
