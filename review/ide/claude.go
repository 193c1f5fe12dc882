package ide

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/coder/websocket"
	"github.com/diffdesk/diffdesk/review"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// claudeAuthHeader carries the lock file's token on the WebSocket upgrade.
const claudeAuthHeader = "X-Claude-Code-Ide-Authorization"

// claudeDoor is the Claude Code IDE door: MCP over a WebSocket on
// 127.0.0.1, found by the CLI through a lock file named for its port
// (docs/agent-protocols.md §1).
type claudeDoor struct {
	desk    *review.Desk
	token   string
	lock    string // the lock file
	ideName string
	http    *doorServer
	reviews doorReviews
	// diagnosed are the files it reviewed, for getDiagnostics {}.
	diagnosed diagnosed
	seq       atomic.Int64
	mu        sync.Mutex
	sessions  map[*mcp.ServerSession]bool // open connections, closed by close
	writes    *writeWatch                 // the approvals Claude Code is to write
}

// claudeLock is the lock file's content, the fields 2.1.330 reads
// (docs/agent-protocols.md §1.1).
type claudeLock struct {
	PID              int      `json:"pid"`
	WorkspaceFolders []string `json:"workspaceFolders"`
	IDEName          string   `json:"ideName"`
	Transport        string   `json:"transport"`
	AuthToken        string   `json:"authToken"`
}

// claudeLockDir is $CLAUDE_CONFIG_DIR/ide, else ~/.claude/ide.
func claudeLockDir() (string, error) {
	if d := os.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return filepath.Join(d, "ide"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("claude door: no home directory for ~/.claude/ide: %w", err)
	}
	return filepath.Join(home, ".claude", "ide"), nil
}

func startClaudeDoor(ctx context.Context, desk *review.Desk, opts Options) (*claudeDoor, error) {
	dir := opts.ClaudeLockDir
	if dir == "" {
		var err error
		if dir, err = claudeLockDir(); err != nil {
			return nil, err
		}
	}
	l, err := listenLoopback(ctx)
	if err != nil {
		return nil, err
	}
	c := &claudeDoor{desk: desk, token: doorToken(), ideName: opts.IDEName, sessions: map[*mcp.ServerSession]bool{},
		writes: newWriteWatch(desk, opts.AgentWriteWait)}
	port := l.Addr().(*net.TCPAddr).Port
	c.lock = filepath.Join(dir, strconv.Itoa(port)+".lock")
	if err := writeDoorFile(c.lock, claudeLock{
		PID: os.Getpid(), WorkspaceFolders: desk.Roots(), IDEName: opts.IDEName, Transport: "ws", AuthToken: c.token,
	}); err != nil {
		l.Close()
		return nil, err
	}
	c.http = serveDoor(l, c)
	return c, nil
}

func (c *claudeDoor) status() review.DoorStatus {
	clients, ready, pending := c.reviews.count()
	return review.DoorStatus{
		Name: "claude-code", Addr: c.http.l.Addr().String(), File: c.lock,
		Connect: fmt.Sprintf("CLAUDE_CODE_SSE_PORT=%d claude --permission-mode default   (or /ide inside claude)", c.http.port()),
		Clients: clients, Ready: ready, Pending: pending,
	}
}

func (c *claudeDoor) close() error {
	for _, r := range c.reviews.takeSession("") {
		c.desk.WithdrawBecause(context.Background(), r.id, review.Withdrawal(review.WithdrawDeskClosed, claudeTool, ""))
	}
	c.writes.close()
	c.mu.Lock()
	for ss := range c.sessions {
		ss.Close()
	}
	c.mu.Unlock()
	err := c.http.shutdown()
	if rerr := os.Remove(c.lock); rerr != nil && !os.IsNotExist(rerr) && err == nil {
		err = fmt.Errorf("claude door: %w", rerr)
	}
	return err
}

// ServeHTTP upgrades a Claude Code connection that presents the token and
// serves MCP on it until either side closes.
func (c *claudeDoor) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if subtle.ConstantTimeCompare([]byte(r.Header.Get(claudeAuthHeader)), []byte(c.token)) != 1 {
		http.Error(w, "diffdesk: missing or wrong "+claudeAuthHeader+"; connect through the lock file "+c.lock, http.StatusUnauthorized)
		return
	}
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{"mcp"}})
	if err != nil {
		return // Accept has answered the client
	}
	ws.SetReadLimit(maxMessageBytes)
	session := "claude-ide-" + strconv.FormatInt(c.seq.Add(1), 10)
	t := &wsTransport{ws: ws, closed: make(chan struct{})}
	ss, err := c.server(session).Connect(r.Context(), t, nil)
	if err != nil {
		ws.CloseNow()
		return
	}
	c.mu.Lock()
	c.sessions[ss] = true
	c.mu.Unlock()
	c.reviews.connected(1)
	// The SDK waits for the calls in flight before the session ends, and
	// openDiff waits for a person: withdraw this connection's reviews as soon
	// as it drops, which answers them.
	<-t.closed
	for _, rv := range c.reviews.takeSession(session) {
		c.desk.WithdrawBecause(context.Background(), rv.id, review.Withdrawal(review.WithdrawDisconnected, claudeTool, ""))
	}
	ss.Wait()
	c.reviews.connected(-1)
	c.mu.Lock()
	delete(c.sessions, ss)
	c.mu.Unlock()
}

// Arguments of the Claude Code IDE tools.
type (
	claudeOpenDiffArgs struct {
		OldFilePath     string `json:"old_file_path" jsonschema:"the file's absolute path"`
		NewFilePath     string `json:"new_file_path" jsonschema:"the file's absolute path (the same)"`
		NewFileContents string `json:"new_file_contents" jsonschema:"the proposed full text"`
		TabName         string `json:"tab_name" jsonschema:"names the review; close_tab refers to it"`
	}
	claudeTabArgs struct {
		TabName string `json:"tab_name"`
	}
	claudeDiagnosticsArgs struct {
		URI string `json:"uri,omitempty"`
	}
	claudeNoArgs struct{}
)

// server is the MCP server for one connection; session names it.
//
// The CLI calls closeAllDiffTabs at the start of every turn (and only
// then; docs/agent-protocols.md §1.3): the door counts them to name the
// turn of each openDiff, so the edits of one turn form one changeset.
func (c *claudeDoor) server(session string) *mcp.Server {
	var turns atomic.Int64
	s := mcp.NewServer(&mcp.Implementation{Name: "diffdesk", Title: c.ideName, Version: "1"}, nil)
	s.AddReceivingMiddleware(c.reviews.countReady)
	mcp.AddTool(s, &mcp.Tool{Name: "openDiff", Description: "Show a proposed file in the desk and wait for the person's decision."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in claudeOpenDiffArgs) (*mcp.CallToolResult, any, error) {
			turn := ""
			if n := turns.Load(); n > 0 {
				turn = strconv.FormatInt(n, 10)
			}
			return c.openDiff(ctx, session, turn, in)
		})
	mcp.AddTool(s, &mcp.Tool{Name: "close_tab", Description: "Close a diff: the person answered in the terminal."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in claudeTabArgs) (*mcp.CallToolResult, any, error) {
			if r, ok := c.reviews.take(in.TabName, ""); ok && r.id != "" {
				c.desk.WithdrawBecause(ctx, r.id, review.Withdrawal(review.WithdrawAnswered, claudeTool, ""))
			}
			return textResult("TAB_CLOSED"), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "closeAllDiffTabs", Description: "Close every diff this session opened."},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ claudeNoArgs) (*mcp.CallToolResult, any, error) {
			turns.Add(1)
			rs := c.reviews.takeSession(session)
			for _, r := range rs {
				if r.id != "" {
					c.desk.WithdrawBecause(ctx, r.id, review.Withdrawal(review.WithdrawClosedDiffs, claudeTool, ""))
				}
			}
			return textResult(fmt.Sprintf("CLOSED_%d_DIFF_TABS", len(rs))), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "getDiagnostics", Description: "The project checkers' problems in a file (uri), or in every file this desk reviewed for Claude Code."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in claudeDiagnosticsArgs) (*mcp.CallToolResult, any, error) {
			return textResult(diagnostics(ctx, c.desk, in.URI, c.diagnosed.list())), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "getWorkspaceFolders", Description: "The desk's workspace roots."},
		func(context.Context, *mcp.CallToolRequest, claudeNoArgs) (*mcp.CallToolResult, any, error) {
			return textResult(c.workspaceFolders()), nil, nil
		})
	return s
}

// openDiff queues the proposed text and blocks until the person decides:
// FILE_SAVED and the text the agent must write, or DIFF_REJECTED and the
// tab name. A refused path is a tool error, so the terminal prompt stays
// (docs/agent-protocols.md §1.4).
func (c *claudeDoor) openDiff(ctx context.Context, session, turn string, in claudeOpenDiffArgs) (*mcp.CallToolResult, any, error) {
	path := in.NewFilePath
	if path == "" {
		path = in.OldFilePath
	}
	// Reserve the tab first: a close_tab may come while the desk is still
	// taking the proposal in.
	if old, had := c.reviews.put(in.TabName, doorReview{session: session}); had && old.id != "" {
		c.desk.WithdrawBecause(ctx, old.id, review.Withdrawal(review.WithdrawReopened, claudeTool, in.TabName))
	}
	p, err := proposeWhole(ctx, c.desk, "claude-code", session, turn, path, in.NewFileContents)
	if err != nil {
		c.reviews.take(in.TabName, "")
		return nil, nil, fmt.Errorf("diffdesk cannot review %s: %w; answer in the terminal instead", path, err)
	}
	c.diagnosed.add(p.Files[0].Path)
	if !c.reviews.settle(in.TabName, session, p.ID) {
		c.desk.WithdrawBecause(ctx, p.ID, review.Withdrawal(review.WithdrawAnswered, claudeTool, ""))
	}
	o, err := c.desk.Wait(ctx, p.ID)
	c.reviews.take(in.TabName, p.ID)
	if err != nil {
		c.desk.WithdrawBecause(context.WithoutCancel(ctx), p.ID, review.Withdrawal(review.WithdrawStoppedWaiting, claudeTool, ""))
		return nil, nil, fmt.Errorf("diffdesk: review of %s ended: %w", path, err)
	}
	if text, ok := finalText(o); ok {
		c.writes.watch(o, claudeTool, "FILE_SAVED")
		return textResult("FILE_SAVED", text), nil, nil
	}
	return textResult("DIFF_REJECTED", in.TabName), nil, nil
}

// workspaceFolders is getWorkspaceFolders' JSON text.
func (c *claudeDoor) workspaceFolders() string {
	type folder struct {
		Name string `json:"name"`
		URI  string `json:"uri"`
		Path string `json:"path"`
	}
	roots := c.desk.Roots()
	out := struct {
		Success  bool     `json:"success"`
		Folders  []folder `json:"folders"`
		RootPath string   `json:"rootPath"`
	}{Success: true, Folders: []folder{}}
	for _, r := range roots {
		out.Folders = append(out.Folders, folder{Name: filepath.Base(r), URI: fileURI(r), Path: r})
	}
	if len(roots) > 0 {
		out.RootPath = roots[0]
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// wsTransport carries MCP over one accepted WebSocket: one JSON-RPC message
// per text frame (docs/agent-protocols.md §1.2). The SDK has no WebSocket
// transport (go-sdk #652).
type wsTransport struct {
	ws     *websocket.Conn
	mu     sync.Mutex    // serializes writes
	once   sync.Once     // closes closed
	closed chan struct{} // closed by Close; nil if nobody watches
}

func (t *wsTransport) Connect(context.Context) (mcp.Connection, error) { return t, nil }

func (t *wsTransport) Read(ctx context.Context) (jsonrpc.Message, error) {
	_, b, err := t.ws.Read(ctx)
	if err != nil {
		return nil, err
	}
	return jsonrpc.DecodeMessage(b)
}

func (t *wsTransport) Write(ctx context.Context, m jsonrpc.Message) error {
	b, err := jsonrpc.EncodeMessage(m)
	if err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.ws.Write(ctx, websocket.MessageText, b)
}

func (t *wsTransport) Close() error {
	if t.closed != nil {
		t.once.Do(func() { close(t.closed) })
	}
	return t.ws.CloseNow()
}

func (t *wsTransport) SessionID() string { return "" }
