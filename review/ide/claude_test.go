package ide

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coder/websocket"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// dialClaude connects to the Claude door the way Claude Code does: the
// port and token from the lock file, subprotocol mcp.
func dialClaude(t *testing.T, s review.DoorStatus) *mcp.ClientSession {
	cs, _ := dialClaudeWS(t, s)
	return cs
}

// dialClaudeWS is dialClaude that also returns the WebSocket.
func dialClaudeWS(t *testing.T, s review.DoorStatus) (*mcp.ClientSession, *websocket.Conn) {
	t.Helper()
	var lock claudeLock
	b, err := os.ReadFile(s.File)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &lock); err != nil {
		t.Fatal(err)
	}
	port := strings.TrimSuffix(filepath.Base(s.File), ".lock")
	ctx := reviewtest.Context(t)
	ws, _, err := websocket.Dial(ctx, "ws://127.0.0.1:"+port, &websocket.DialOptions{
		Subprotocols: []string{"mcp"},
		HTTPHeader:   http.Header{claudeAuthHeader: {lock.AuthToken}},
	})
	if err != nil {
		t.Fatal(err)
	}
	ws.SetReadLimit(maxMessageBytes)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "claude-code", Version: "test"}, nil).Connect(ctx, &wsTransport{ws: ws}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, ws
}

func callTool(ctx context.Context, cs *mcp.ClientSession, name string, args any) (*mcp.CallToolResult, error) {
	return cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
}

func TestClaudeLockFileFields(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	s := doorStatus(t, startTestDoors(t, d.Desk), "claude-code")
	var lock claudeLock
	b, err := os.ReadFile(s.File)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &lock); err != nil {
		t.Fatal(err)
	}
	if lock.PID != os.Getpid() || lock.Transport != "ws" || len(lock.AuthToken) != 32 ||
		len(lock.WorkspaceFolders) != 1 || lock.WorkspaceFolders[0] != d.Root || lock.IDEName != "Diff Desk" {
		t.Errorf("lock file %s = %s; want pid %d, ws, a 32-digit token, folder %s", s.File, b, os.Getpid(), d.Root)
	}
	if !strings.HasSuffix(s.Addr, ":"+strings.TrimSuffix(filepath.Base(s.File), ".lock")) {
		t.Errorf("lock file %s is not named for the port of %s", s.File, s.Addr)
	}
}

func TestClaudeDoorRefusesWrongToken(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	s := doorStatus(t, startTestDoors(t, d.Desk), "claude-code")
	for _, tc := range []struct{ name, token string }{{"missing", ""}, {"wrong", strings.Repeat("0", 32)}} {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{}
			if tc.token != "" {
				h.Set(claudeAuthHeader, tc.token)
			}
			_, resp, err := websocket.Dial(reviewtest.Context(t), "ws://"+s.Addr, &websocket.DialOptions{Subprotocols: []string{"mcp"}, HTTPHeader: h})
			if err == nil {
				t.Fatal("upgrade succeeded without the token")
			}
			if resp == nil || resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("upgrade answered %v; want 401", resp)
			}
		})
	}
}

func TestClaudeOpenDiffOutcomes(t *testing.T) {
	for _, tc := range []struct {
		name     string
		decide   func(t *testing.T, d *reviewtest.Desk, cs *mcp.ClientSession, id, path string)
		want     []string
		wantStat decision.Verdict
	}{
		{"accept", func(t *testing.T, d *reviewtest.Desk, _ *mcp.ClientSession, id, _ string) {
			d.MustDecide(t, id, review.Decision{Verdict: decision.Approved})
		}, []string{"FILE_SAVED", "new\n"}, decision.Approved},
		{"accept edited", func(t *testing.T, d *reviewtest.Desk, _ *mcp.ClientSession, id, path string) {
			d.MustDecide(t, id, review.Decision{Verdict: decision.ApprovedEdited, Edited: map[string]string{path: "edited by a person\n"}})
		}, []string{"FILE_SAVED", "edited by a person\n"}, decision.ApprovedEdited},
		// The IDE protocol has no place for comments: the answer is the
		// file's text alone, or the rejection (protocol.md, the outcome).
		{"accept with comments", func(t *testing.T, d *reviewtest.Desk, _ *mcp.ClientSession, id, path string) {
			d.MustDecide(t, id, review.Decision{Verdict: decision.Approved, Comments: []decision.Comment{{Path: path, Side: decision.SideNew, Line: 1, Text: "ok"}}})
		}, []string{"FILE_SAVED", "new\n"}, decision.Approved},
		{"reject with comments", func(t *testing.T, d *reviewtest.Desk, _ *mcp.ClientSession, id, path string) {
			d.MustDecide(t, id, review.Decision{Verdict: decision.Rejected, Comments: []decision.Comment{{Path: path, Side: decision.SideOld, Line: 1, Text: "keep"}}})
		}, []string{"DIFF_REJECTED", "tab 1"}, decision.Rejected},
		{"reject", func(t *testing.T, d *reviewtest.Desk, _ *mcp.ClientSession, id, _ string) {
			d.MustDecide(t, id, review.Decision{Verdict: decision.Rejected, Feedback: "no"})
		}, []string{"DIFF_REJECTED", "tab 1"}, decision.Rejected},
		{"answered in the terminal", func(t *testing.T, _ *reviewtest.Desk, cs *mcp.ClientSession, _, _ string) {
			res, err := callTool(reviewtest.Context(t), cs, "close_tab", claudeTabArgs{TabName: "tab 1"})
			if err != nil || strings.Join(resultTexts(res), "|") != "TAB_CLOSED" {
				t.Errorf("close_tab = %v, %v; want TAB_CLOSED", res, err)
			}
		}, []string{"DIFF_REJECTED", "tab 1"}, decision.Withdrawn},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := reviewtest.NewDesk(t, "", "")
			path := filepath.Join(d.Root, "a.txt")
			reviewtest.WriteFile(t, path, "old\n")
			pending := pendingProposals(t, d.Desk)
			cs := dialClaude(t, doorStatus(t, startTestDoors(t, d.Desk), "claude-code"))
			type reply struct {
				res *mcp.CallToolResult
				err error
			}
			done := make(chan reply, 1)
			// Ends when openDiff is answered.
			go func() {
				res, err := callTool(reviewtest.Context(t), cs, "openDiff", claudeOpenDiffArgs{OldFilePath: path, NewFilePath: path, NewFileContents: "new\n", TabName: "tab 1"})
				done <- reply{res, err}
			}()
			id := next(t, pending, "the proposal")
			checkVerdictOnly(t, d.Desk, id)
			tc.decide(t, d, cs, id, path)
			r := next(t, done, "openDiff's answer")
			if r.err != nil {
				t.Fatal(r.err)
			}
			if got := resultTexts(r.res); strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("openDiff = %q; want %q", got, tc.want)
			}
			if o := reviewtest.WaitOutcome(t, d.Desk, id); o.Status != tc.wantStat {
				t.Errorf("outcome %s; want %s", o.Status, tc.wantStat)
			}
			if got := reviewtest.ReadFile(t, path); got != "old\n" {
				t.Errorf("the desk wrote %s (%q); the agent writes it", path, got)
			}
		})
	}
}

func TestClaudeDoorOtherTools(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	pending := pendingProposals(t, d.Desk)
	doors := startTestDoors(t, d.Desk)
	cs := dialClaude(t, doorStatus(t, doors, "claude-code"))
	ctx := reviewtest.Context(t)
	done := make(chan error, 2)
	for _, name := range []string{"a.txt", "b.txt"} {
		path := filepath.Join(d.Root, name)
		// Ends when openDiff is answered (closeAllDiffTabs below).
		go func() {
			_, err := callTool(ctx, cs, "openDiff", claudeOpenDiffArgs{OldFilePath: path, NewFilePath: path, NewFileContents: "x\n", TabName: name})
			done <- err
		}()
		next(t, pending, "proposal of "+name)
	}
	res, err := callTool(ctx, cs, "closeAllDiffTabs", claudeNoArgs{})
	if err != nil || strings.Join(resultTexts(res), "") != "CLOSED_2_DIFF_TABS" {
		t.Errorf("closeAllDiffTabs = %q, %v; want CLOSED_2_DIFF_TABS", resultTexts(res), err)
	}
	for range 2 {
		if err := next(t, done, "openDiff's answer"); err != nil {
			t.Error(err)
		}
	}
	for _, tc := range []struct {
		tool string
		want string
	}{
		{"getDiagnostics", "[]"},
		{"getWorkspaceFolders", `"rootPath":"` + d.Root + `"`},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			res, err := callTool(ctx, cs, tc.tool, map[string]any{})
			if err != nil || !strings.Contains(strings.Join(resultTexts(res), ""), tc.want) {
				t.Errorf("%s = %q, %v; want it to contain %s", tc.tool, resultTexts(res), err, tc.want)
			}
		})
	}
	t.Run("ready once the tools are listed", func(t *testing.T) {
		if _, err := cs.ListTools(ctx, nil); err != nil {
			t.Fatal(err)
		}
		if s := doorStatus(t, doors, "claude-code"); s.Clients != 1 || s.Ready != 1 {
			t.Errorf("status %+v; want 1 client, 1 ready", s)
		}
	})
	t.Run("refused path", func(t *testing.T) {
		res, err := callTool(ctx, cs, "openDiff", claudeOpenDiffArgs{OldFilePath: "/etc/passwd", NewFilePath: "/etc/passwd", NewFileContents: "x", TabName: "t"})
		if err != nil || !res.IsError || !strings.Contains(strings.Join(resultTexts(res), ""), "/etc/passwd") {
			t.Errorf("openDiff outside the workspace = %q, %v; want a tool error naming the path", resultTexts(res), err)
		}
	})
}

func TestClaudeDisconnectWithdraws(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	pending := pendingProposals(t, d.Desk)
	cs, ws := dialClaudeWS(t, doorStatus(t, startTestDoors(t, d.Desk), "claude-code"))
	path := filepath.Join(d.Root, "a.txt")
	// Ends when the connection drops below.
	go callTool(context.Background(), cs, "openDiff", claudeOpenDiffArgs{OldFilePath: path, NewFilePath: path, NewFileContents: "x\n", TabName: "t"})
	id := next(t, pending, "the proposal")
	ws.CloseNow()
	if o := reviewtest.WaitOutcome(t, d.Desk, id); o.Status != decision.Withdrawn {
		t.Errorf("outcome after disconnect %s; want withdrawn", o.Status)
	}
}
