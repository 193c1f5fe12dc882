package ide

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// geminiDoor is the Gemini CLI IDE companion door: MCP streamable HTTP at
// /mcp on 127.0.0.1, found by the CLI through a discovery file
// (docs/agent-protocols.md §2). openDiff answers at once; the outcome goes
// out later as an ide/diffAccepted or ide/diffRejected notification.
type geminiDoor struct {
	desk    *review.Desk
	token   string
	file    string // the discovery file
	server  *mcp.Server
	http    *doorServer
	reviews doorReviews    // by file path as the CLI sent it
	waiters sync.WaitGroup // the goroutines waiting for outcomes
	mu      sync.Mutex     // guards sessions
	sess    map[string]*geminiSession
	hosts   []string // the Host values allowed
	// keepAlive is how often each session is pinged (geminiKeepAlive).
	keepAlive time.Duration
	writes    *writeWatch // the approvals Gemini CLI is to write
}

// geminiSession is one MCP session of a Gemini CLI.
type geminiSession struct {
	transport *notifyingTransport
	ss        *mcp.ServerSession
}

// geminiDiscovery is the discovery file's content.
type geminiDiscovery struct {
	Port          int    `json:"port"`
	WorkspacePath string `json:"workspacePath"`
	AuthToken     string `json:"authToken"`
	IDEInfo       struct {
		Name        string `json:"name"`
		DisplayName string `json:"displayName"`
	} `json:"ideInfo"`
}

func startGeminiDoor(ctx context.Context, desk *review.Desk, opts Options) (*geminiDoor, error) {
	dir := opts.GeminiDir
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "gemini", "ide")
	}
	l, err := listenLoopback(ctx)
	if err != nil {
		return nil, err
	}
	port := l.Addr().(*net.TCPAddr).Port
	g := &geminiDoor{
		desk: desk, token: doorToken(), sess: map[string]*geminiSession{}, keepAlive: geminiKeepAlive,
		file:   filepath.Join(dir, fmt.Sprintf("gemini-ide-server-%d-%d.json", os.Getpid(), port)),
		hosts:  []string{"127.0.0.1:" + strconv.Itoa(port), "localhost:" + strconv.Itoa(port)},
		writes: newWriteWatch(desk, opts.AgentWriteWait),
	}
	g.server = g.newServer(opts.IDEName)
	var disc geminiDiscovery
	disc.Port, disc.AuthToken = port, g.token
	disc.WorkspacePath = strings.Join(desk.Roots(), string(os.PathListSeparator))
	disc.IDEInfo.Name, disc.IDEInfo.DisplayName = "diffdesk", opts.IDEName
	if err := writeDoorFile(g.file, disc); err != nil {
		l.Close()
		return nil, err
	}
	g.http = serveDoor(l, g)
	return g, nil
}

func (g *geminiDoor) status() review.DoorStatus {
	clients, ready, pending := g.reviews.count()
	return review.DoorStatus{
		Name: "gemini-cli", Addr: g.http.l.Addr().String(), File: g.file,
		Connect: `gemini, with "ide": {"enabled": true} in ~/.gemini/settings.json (or /ide enable)`,
		Clients: clients, Ready: ready, Pending: pending,
	}
}

func (g *geminiDoor) close() error {
	for _, r := range g.reviews.takeSession("") {
		g.desk.WithdrawBecause(context.Background(), r.id, review.Withdrawal(review.WithdrawDeskClosed, geminiTool, ""))
	}
	g.waiters.Wait()
	g.writes.close()
	g.mu.Lock()
	for _, s := range g.sess {
		s.ss.Close()
	}
	g.mu.Unlock()
	err := g.http.shutdown()
	if rerr := os.Remove(g.file); rerr != nil && !os.IsNotExist(rerr) && err == nil {
		err = fmt.Errorf("gemini door: %w", rerr)
	}
	return err
}

// ServeHTTP admits a request with the token, a loopback Host and no Origin
// (no web page may reach the door), then hands it to its MCP session.
func (g *geminiDoor) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path != "/mcp":
		http.Error(w, "diffdesk: the Gemini door serves /mcp only", http.StatusNotFound)
		return
	case r.Header.Get("Origin") != "":
		http.Error(w, "diffdesk: requests from web pages (with an Origin header) are refused", http.StatusForbidden)
		return
	case !slices.Contains(g.hosts, r.Host):
		http.Error(w, "diffdesk: Host must be "+g.hosts[0], http.StatusForbidden)
		return
	}
	auth, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || subtle.ConstantTimeCompare([]byte(auth), []byte(g.token)) != 1 {
		http.Error(w, "diffdesk: missing or wrong bearer token; connect through the discovery file "+g.file, http.StatusUnauthorized)
		return
	}
	id := r.Header.Get("Mcp-Session-Id")
	if id == "" {
		if r.Method != http.MethodPost {
			http.Error(w, "diffdesk: start a session with a POST of initialize", http.StatusBadRequest)
			return
		}
		s, err := g.connect(r.Context())
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		s.transport.ServeHTTP(w, r)
		return
	}
	g.mu.Lock()
	s := g.sess[id]
	g.mu.Unlock()
	switch {
	case s == nil:
		http.Error(w, "diffdesk: unknown session "+id+"; initialize again", http.StatusNotFound)
	case r.Method == http.MethodDelete:
		s.ss.Close()
		w.WriteHeader(http.StatusNoContent)
	default:
		s.transport.ServeHTTP(w, r)
	}
}

// connect starts a new MCP session.
func (g *geminiDoor) connect(ctx context.Context) (*geminiSession, error) {
	id := rand.Text()
	t := &notifyingTransport{StreamableServerTransport: &mcp.StreamableServerTransport{SessionID: id}}
	ss, err := g.server.Connect(ctx, t, nil)
	if err != nil {
		return nil, fmt.Errorf("gemini door: %w", err)
	}
	s := &geminiSession{transport: t, ss: ss}
	g.mu.Lock()
	g.sess[id] = s
	g.mu.Unlock()
	g.reviews.connected(1)
	done := make(chan struct{})
	// Ends when the session closes: done is closed below.
	go keepAlive(t, g.keepAlive, done)
	// Ends when the session closes (the client's DELETE, or the door's close).
	go func() {
		ss.Wait()
		close(done)
		g.reviews.connected(-1)
		g.mu.Lock()
		delete(g.sess, id)
		g.mu.Unlock()
		for _, r := range g.reviews.takeSession(id) {
			g.desk.WithdrawBecause(context.Background(), r.id, review.Withdrawal(review.WithdrawDisconnected, geminiTool, ""))
		}
	}()
	return s, nil
}

// Arguments of the Gemini CLI IDE tools.
type (
	geminiOpenDiffArgs struct {
		FilePath   string `json:"filePath" jsonschema:"the file's absolute path"`
		NewContent string `json:"newContent" jsonschema:"the proposed full text"`
	}
	geminiCloseDiffArgs struct {
		FilePath             string `json:"filePath" jsonschema:"the file's absolute path"`
		SuppressNotification bool   `json:"suppressNotification,omitempty" jsonschema:"send no ide/diffRejected"`
	}
)

// The notifications that carry an outcome.
type (
	geminiAccepted struct {
		FilePath string `json:"filePath"`
		Content  string `json:"content"`
	}
	geminiRejected struct {
		FilePath string `json:"filePath"`
	}
)

func (g *geminiDoor) newServer(ideName string) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "diffdesk", Title: ideName, Version: "1"}, nil)
	s.AddReceivingMiddleware(g.reviews.countReady)
	mcp.AddTool(s, &mcp.Tool{Name: "openDiff", Description: "Show a proposed file in the desk; the decision follows as ide/diffAccepted or ide/diffRejected."},
		func(ctx context.Context, req *mcp.CallToolRequest, in geminiOpenDiffArgs) (*mcp.CallToolResult, any, error) {
			return g.openDiff(ctx, req.Session.ID(), in)
		})
	mcp.AddTool(s, &mcp.Tool{Name: "closeDiff", Description: "Close a diff (the person answered in the terminal) and return the desk's text for it."},
		func(ctx context.Context, req *mcp.CallToolRequest, in geminiCloseDiffArgs) (*mcp.CallToolResult, any, error) {
			return g.closeDiff(ctx, req.Session.ID(), in)
		})
	return s
}

// openDiff queues the proposal and answers at once; a goroutine sends the
// outcome when the person decides.
func (g *geminiDoor) openDiff(ctx context.Context, session string, in geminiOpenDiffArgs) (*mcp.CallToolResult, any, error) {
	p, err := proposeWhole(ctx, g.desk, "gemini-cli", session, "", in.FilePath, in.NewContent)
	if err != nil {
		return nil, nil, fmt.Errorf("diffdesk cannot review %s: %w; answer in the terminal instead", in.FilePath, err)
	}
	if old, had := g.reviews.put(in.FilePath, doorReview{id: p.ID, session: session}); had {
		g.desk.WithdrawBecause(ctx, old.id, review.Withdrawal(review.WithdrawNewerDiff, geminiTool, in.FilePath))
	}
	g.waiters.Add(1)
	// Ends when the proposal has an outcome: a decision, closeDiff, the
	// session closing, or the door's close (which withdraws every review).
	go func() {
		defer g.waiters.Done()
		o, err := g.desk.Wait(context.Background(), p.ID)
		if _, ours := g.reviews.take(in.FilePath, p.ID); !ours || err != nil {
			return // closeDiff or a newer openDiff took it over
		}
		g.send(session, in.FilePath, o)
	}()
	return textResult(), nil, nil
}

// send tells session the outcome for filePath.
func (g *geminiDoor) send(session, filePath string, o review.Outcome) {
	g.mu.Lock()
	s := g.sess[session]
	g.mu.Unlock()
	if s == nil {
		return // the CLI went away; nobody to tell
	}
	if text, ok := finalText(o); ok {
		s.transport.notify(context.Background(), "ide/diffAccepted", geminiAccepted{FilePath: filePath, Content: text})
		g.writes.watch(o, geminiTool, "ide/diffAccepted")
		return
	}
	s.transport.notify(context.Background(), "ide/diffRejected", geminiRejected{FilePath: filePath})
}

// closeDiff withdraws the review of a file the person answered in the
// terminal and returns {"content": text} — the text the desk holds for it
// (the person's approved text if they decided first) or null — which the
// CLI writes on a terminal accept.
func (g *geminiDoor) closeDiff(ctx context.Context, session string, in geminiCloseDiffArgs) (*mcp.CallToolResult, any, error) {
	var content *string
	if r, ok := g.reviews.take(in.FilePath, ""); ok {
		g.desk.WithdrawBecause(ctx, r.id, review.Withdrawal(review.WithdrawAnswered, geminiTool, ""))
		if o, ok := g.desk.Outcome(r.id); ok {
			if text, ok := finalText(o); ok {
				content = &text
			}
		}
		if p, ok := g.desk.Get(r.id); ok && content == nil && len(p.Files) > 0 {
			content = &p.Files[0].Proposed
		}
		if !in.SuppressNotification {
			g.send(session, in.FilePath, review.Outcome{Status: decision.Withdrawn})
		}
	}
	b, _ := json.Marshal(struct {
		Content *string `json:"content"`
	}{content})
	return textResult(string(b)), nil, nil
}
