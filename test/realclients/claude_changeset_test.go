package realclients

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
)

// toolCall is one tool call a fake model asks for.
type toolCall struct {
	tool  string
	input map[string]any
}

// fakeAnthropicTurn serves the Messages API asking for calls one after
// another within one turn: the n-th once the request carries n tool
// results, then "Done.".
func fakeAnthropicTurn(t *testing.T, calls []toolCall) *fakeModel {
	f := &fakeModel{tool: calls[0].tool}
	var mu sync.Mutex
	asked := map[int]bool{}
	f.URL = serveFake(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if !strings.HasPrefix(r.URL.Path, "/v1/messages") || strings.Contains(r.URL.Path, "count_tokens") {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"input_tokens":10}`)
			return
		}
		s := string(body)
		f.mu.Lock()
		f.requests = append(f.requests, s)
		f.mu.Unlock()
		n := strings.Count(s, `"tool_result"`)
		var call *toolCall
		mu.Lock()
		if n < len(calls) && strings.Contains(s, `"`+calls[n].tool+`"`) && !asked[n] {
			asked[n] = true
			call = &calls[n]
		}
		mu.Unlock()
		var req struct{ Stream bool }
		json.Unmarshal(body, &req)
		id := fmt.Sprintf("toolu_fake%d", n+1)
		if !req.Stream {
			w.Header().Set("Content-Type", "application/json")
			content, stop := `[{"type":"text","text":"Done."}]`, "end_turn"
			if call != nil {
				args, _ := json.Marshal(call.input)
				content, stop = fmt.Sprintf(`[{"type":"tool_use","id":%q,"name":%q,"input":%s}]`, id, call.tool, args), "tool_use"
			}
			fmt.Fprintf(w, `{"id":"msg_fake","type":"message","role":"assistant","model":"claude-fake","content":%s,"stop_reason":%q,"stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":5}}`, content, stop)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		ev := func(name, data string) { fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, data) }
		ev("message_start", `{"type":"message_start","message":{"id":"msg_fake","type":"message","role":"assistant","model":"claude-fake","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":1}}}`)
		if call != nil {
			args, _ := json.Marshal(call.input)
			partial, _ := json.Marshal(string(args))
			ev("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":%q,"name":%q,"input":{}}}`, id, call.tool))
			ev("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":%s}}`, partial))
			ev("content_block_stop", `{"type":"content_block_stop","index":0}`)
			ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":5}}`)
		} else {
			ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
			ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Done."}}`)
			ev("content_block_stop", `{"type":"content_block_stop","index":0}`)
			ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":2}}`)
		}
		ev("message_stop", `{"type":"message_stop"}`)
	}))
	return f
}

// TestClaudeIDEChangeset drives the real claude TUI through the Claude
// door while the fake model writes two files in one turn: claude opens
// one diff at a time, each waiting for its answer, and both proposals land
// in one changeset (the same key: one session, one turn), each approved
// with its own file written by claude.
func TestClaudeIDEChangeset(t *testing.T) {
	bin := claudeBin(t)
	e := newEnv(t)
	dk := startDesk(t, e, approve())
	a, b := filepath.Join(dk.root, "a.txt"), filepath.Join(dk.root, "b.txt")
	api := fakeAnthropicTurn(t, []toolCall{
		{"Write", map[string]any{"file_path": a, "content": "first file of the turn\n"}},
		{"Write", map[string]any{"file_path": b, "content": "second file of the turn\n"}},
	})
	seedClaudeConfig(t, e, dk.root)
	port := ""
	for _, s := range dk.doors.Status() {
		if s.Name == "claude-code" {
			port = s.Addr[strings.LastIndex(s.Addr, ":")+1:]
		}
	}
	e.vars = append(e.vars, "ANTHROPIC_BASE_URL="+api.URL, "ANTHROPIC_API_KEY="+fakeAnthropicKey, "CLAUDE_CODE_SSE_PORT="+port)
	debug := filepath.Join(e.home, "claude-debug.log")
	term := startTerminal(t, e, dk.root, bin, "--permission-mode", "default", "--debug-file", debug)
	t.Cleanup(func() {
		if t.Failed() {
			b, _ := os.ReadFile(debug)
			t.Logf("claude debug log:\n%s", b)
			t.Logf("screen:\n%s", term.screen())
		}
	})
	eventually(t, 60*time.Second, "claude connecting to the Claude door", func() bool {
		for _, s := range dk.doors.Status() {
			if s.Name == "claude-code" && s.Ready > 0 {
				return true
			}
		}
		return false
	})
	term.waitScreen(30*time.Second, "? for shortcuts")
	time.Sleep(claudeIDESettle) // as in TestClaudeIDE: no event tells when the IDE counts as connected
	term.submit("write a.txt and b.txt")
	o1 := dk.outcome(t, 90*time.Second)
	o2 := dk.outcome(t, 90*time.Second)
	var ps []review.Proposal
	for _, o := range []review.Outcome{o1, o2} {
		if o.Status != decision.Approved {
			t.Errorf("outcome of %s: %s; want approved", o.ID, o.Status)
		}
		p, ok := dk.Get(o.ID)
		if !ok {
			t.Fatalf("proposal %s no longer at the desk", o.ID)
		}
		ps = append(ps, p)
	}
	if ps[0].Files[0].Path != a || ps[1].Files[0].Path != b {
		t.Errorf("proposals for %s, %s; want a.txt then b.txt", ps[0].Files[0].Path, ps[1].Files[0].Path)
	}
	k1, k2 := review.ChangesetKey(ps[0]), review.ChangesetKey(ps[1])
	t.Logf("changesets %s (session %s, turn %q) and %s (session %s, turn %q)", k1, ps[0].Session, ps[0].Turn, k2, ps[1].Session, ps[1].Turn)
	if k1 != k2 {
		t.Errorf("the two files of one turn are in changesets %s and %s; want one", k1, k2)
	}
	if ps[0].Turn == "" {
		t.Errorf("no turn named: claude called no closeAllDiffTabs before the turn's diffs")
	}
	if cs, ok := dk.ChangesetOf(o2.ID); !ok || len(cs.Proposals) != 2 || len(cs.Files) != 2 {
		t.Errorf("the changeset holds %d proposals, %d files; want both", len(cs.Proposals), len(cs.Files))
	}
	eventually(t, 30*time.Second, "claude writing both files", func() bool {
		ga, _ := os.ReadFile(a)
		gb, _ := os.ReadFile(b)
		return string(ga) == "first file of the turn\n" && string(gb) == "second file of the turn\n"
	})
}
