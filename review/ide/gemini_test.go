package ide

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// bearer adds the door's token to every request, as the Gemini CLI does.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// listenSSE opens the session's GET stream, as the Gemini CLI does after
// initialize, and hands the ide/ notifications on it to the returned
// channel until the test ends.
func listenSSE(t *testing.T, url, token, session string) <-chan *jsonrpc.Request {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Mcp-Session-Id", session)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s = %s", url, resp.Status)
	}
	got := make(chan *jsonrpc.Request, 16)
	// Ends when the test's cleanup cancels the request.
	go func() {
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			data, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok {
				continue
			}
			if m, err := jsonrpc.DecodeMessage([]byte(data)); err == nil {
				if r, ok := m.(*jsonrpc.Request); ok && strings.HasPrefix(r.Method, "ide/") {
					got <- r
				}
			}
		}
	}()
	return got
}

// readDiscovery reads the Gemini door's discovery file.
func readDiscovery(t *testing.T, s review.DoorStatus) geminiDiscovery {
	t.Helper()
	var disc geminiDiscovery
	b, err := os.ReadFile(s.File)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &disc); err != nil {
		t.Fatal(err)
	}
	return disc
}

// dialGemini connects like the Gemini CLI: port and token from the
// discovery file. Notifications arrive on the returned channel.
func dialGemini(t *testing.T, s review.DoorStatus) (*mcp.ClientSession, <-chan *jsonrpc.Request) {
	t.Helper()
	disc := readDiscovery(t, s)
	url := "http://127.0.0.1:" + itoa(disc.Port) + "/mcp"
	tr := &mcp.StreamableClientTransport{
		Endpoint: url, HTTPClient: &http.Client{Transport: bearer{disc.AuthToken}}, DisableStandaloneSSE: true,
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "gemini-cli", Version: "test"}, nil).Connect(reviewtest.Context(t), tr, &mcp.ClientSessionOptions{ProtocolVersion: "2025-06-18"}) // what the Gemini CLI's TS SDK speaks
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, listenSSE(t, url, disc.AuthToken, cs.ID())
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestGeminiDiscoveryFile(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	s := doorStatus(t, startTestDoors(t, d.Desk), "gemini-cli")
	disc := readDiscovery(t, s)
	want := "gemini-ide-server-" + itoa(os.Getpid()) + "-" + itoa(disc.Port) + ".json"
	if filepath.Base(s.File) != want || disc.WorkspacePath != d.Root || len(disc.AuthToken) != 32 ||
		disc.IDEInfo.Name != "diffdesk" || disc.IDEInfo.DisplayName != "Diff Desk" {
		t.Errorf("discovery %s = %+v; want file %s, workspace %s, a token and ideInfo", s.File, disc, want, d.Root)
	}
}

func TestGeminiDoorAdmission(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	s := doorStatus(t, startTestDoors(t, d.Desk), "gemini-cli")
	disc := readDiscovery(t, s)
	url := "http://127.0.0.1:" + itoa(disc.Port) + "/mcp"
	for _, tc := range []struct {
		name   string
		header map[string]string
		host   string
		want   int
	}{
		{"no token", nil, "", http.StatusUnauthorized},
		{"wrong token", map[string]string{"Authorization": "Bearer " + strings.Repeat("0", 32)}, "", http.StatusUnauthorized},
		{"origin", map[string]string{"Authorization": "Bearer " + disc.AuthToken, "Origin": "http://evil.example"}, "", http.StatusForbidden},
		{"foreign host", map[string]string{"Authorization": "Bearer " + disc.AuthToken}, "evil.example:" + itoa(disc.Port), http.StatusForbidden},
		{"unknown session", map[string]string{"Authorization": "Bearer " + disc.AuthToken, "Mcp-Session-Id": "nope"}, "", http.StatusNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequestWithContext(reviewtest.Context(t), http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			for k, v := range tc.header {
				req.Header.Set(k, v)
			}
			if tc.host != "" {
				req.Host = tc.host
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tc.want {
				t.Errorf("POST /mcp with %s = %d; want %d", tc.name, resp.StatusCode, tc.want)
			}
		})
	}
}

func TestGeminiOpenDiffOutcomes(t *testing.T) {
	for _, tc := range []struct {
		name    string
		decide  func(t *testing.T, d *reviewtest.Desk, id, path string)
		method  string
		content string
	}{
		{"accept", func(t *testing.T, d *reviewtest.Desk, id, _ string) {
			d.MustDecide(t, id, review.Decision{Verdict: decision.Approved})
		}, "ide/diffAccepted", "new\n"},
		{"accept edited", func(t *testing.T, d *reviewtest.Desk, id, path string) {
			d.MustDecide(t, id, review.Decision{Verdict: decision.ApprovedEdited, Edited: map[string]string{path: "edited by a person\n"}})
		}, "ide/diffAccepted", "edited by a person\n"},
		{"reject", func(t *testing.T, d *reviewtest.Desk, id, _ string) {
			d.MustDecide(t, id, review.Decision{Verdict: decision.Rejected, Feedback: "no"})
		}, "ide/diffRejected", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := reviewtest.NewDesk(t, "", "")
			path := filepath.Join(d.Root, "a.txt")
			reviewtest.WriteFile(t, path, "old\n")
			pending := pendingProposals(t, d.Desk)
			cs, got := dialGemini(t, doorStatus(t, startTestDoors(t, d.Desk), "gemini-cli"))
			res, err := callTool(reviewtest.Context(t), cs, "openDiff", geminiOpenDiffArgs{FilePath: path, NewContent: "new\n"})
			if err != nil || res.IsError || len(res.Content) != 0 {
				t.Fatalf("openDiff = %+v, %v; want an empty acknowledgement", res, err)
			}
			id := next(t, pending, "the proposal")
			checkVerdictOnly(t, d.Desk, id)
			tc.decide(t, d, id, path)
			n := next(t, got, tc.method)
			var params geminiAccepted
			if err := json.Unmarshal(n.Params, &params); err != nil {
				t.Fatal(err)
			}
			if n.Method != tc.method || params.FilePath != path || params.Content != tc.content {
				t.Errorf("notification %s %s; want %s {%s %q}", n.Method, n.Params, tc.method, path, tc.content)
			}
			if got := reviewtest.ReadFile(t, path); got != "old\n" {
				t.Errorf("the desk wrote %s (%q); the agent writes it", path, got)
			}
		})
	}
}

func TestGeminiCloseDiff(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	pending := pendingProposals(t, d.Desk)
	cs, got := dialGemini(t, doorStatus(t, startTestDoors(t, d.Desk), "gemini-cli"))
	ctx := reviewtest.Context(t)
	a, b := filepath.Join(d.Root, "a.txt"), filepath.Join(d.Root, "b.txt")

	closeDiff := func(path string, suppress bool) string {
		t.Helper()
		res, err := callTool(ctx, cs, "closeDiff", geminiCloseDiffArgs{FilePath: path, SuppressNotification: suppress})
		if err != nil || res.IsError {
			t.Fatalf("closeDiff(%s) = %+v, %v", path, res, err)
		}
		return strings.Join(resultTexts(res), "")
	}
	if _, err := callTool(ctx, cs, "openDiff", geminiOpenDiffArgs{FilePath: a, NewContent: "proposed\n"}); err != nil {
		t.Fatal(err)
	}
	idA := next(t, pending, "a's proposal")
	if text := closeDiff(a, true); text != `{"content":"proposed\n"}` {
		t.Errorf("closeDiff(a) = %s; want the proposed text as JSON", text)
	}
	if o := reviewtest.WaitOutcome(t, d.Desk, idA); o.Status != decision.Withdrawn {
		t.Errorf("a's outcome %s; want withdrawn", o.Status)
	}
	if text := closeDiff(a, false); text != `{"content":null}` {
		t.Errorf("closeDiff of a closed diff = %s; want null content", text)
	}
	// The suppressed close sent nothing: the first notification is b's.
	if _, err := callTool(ctx, cs, "openDiff", geminiOpenDiffArgs{FilePath: b, NewContent: "x\n"}); err != nil {
		t.Fatal(err)
	}
	next(t, pending, "b's proposal")
	closeDiff(b, false)
	if n := next(t, got, "b's notification"); n.Method != "ide/diffRejected" || !strings.Contains(string(n.Params), "b.txt") {
		t.Errorf("first notification %s %s; want ide/diffRejected for b.txt", n.Method, n.Params)
	}
}
