package ide

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review/reviewtest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestGeminiDoorPingsItsSessions: a session's GET stream gets a "ping"
// notification at every keep-alive tick, as from the VS Code companion, so
// that the CLI's fetch does not end the idle stream after 5 minutes and
// drop the IDE connection (real gemini 0.61.0: "SSE stream disconnected:
// TypeError: terminated", then edits asked in the terminal, not at the
// desk, which still counted the session connected).
func TestGeminiDoorPingsItsSessions(t *testing.T) {
	was := geminiKeepAlive
	geminiKeepAlive = 10 * time.Millisecond
	t.Cleanup(func() { geminiKeepAlive = was })
	d := reviewtest.NewDesk(t, "", "")
	disc := readDiscovery(t, doorStatus(t, startTestDoors(t, d.Desk), "gemini-cli"))
	url := "http://127.0.0.1:" + itoa(disc.Port) + "/mcp"
	tr := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{disc.AuthToken}}, DisableStandaloneSSE: true}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "gemini-cli", Version: "test"}, nil).Connect(reviewtest.Context(t), tr, &mcp.ClientSessionOptions{ProtocolVersion: "2025-06-18"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	ctx, cancel := context.WithTimeout(reviewtest.Context(t), 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Authorization", "Bearer "+disc.AuthToken)
	req.Header.Set("Mcp-Session-Id", cs.ID())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			if data != `{"jsonrpc":"2.0","method":"ping"}` {
				t.Fatalf("the GET stream carried %s; want a bare ping notification", data)
			}
			return
		}
	}
	t.Fatalf("no ping on the session's GET stream: %v", sc.Err())
}
