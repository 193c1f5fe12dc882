package realclients

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// fakeModel is a loopback stand-in for a model API that asks once for a
// tool call and says "Done." once it sees the tool's result. No model and
// no key are involved.
type fakeModel struct {
	URL      string
	tool     string         // the tool it calls
	input    map[string]any // with this input
	mu       sync.Mutex
	calls    int      // tool calls asked for
	askedAt  int      // the index in requests of the one answered with the tool call
	requests []string // the body of every model request, in order
}

// serveFake starts h on 127.0.0.1 until the test ends.
func serveFake(t *testing.T, h http.Handler) string {
	t.Helper()
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h}
	// Ends when the cleanup closes the server.
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return "http://" + l.Addr().String()
}

// askOnce reports whether to ask for the tool call now: the request offers
// the tool, shows no tool result yet, and none was asked for before.
func (f *fakeModel) askOnce(body []byte, resultMarker string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := string(body)
	f.requests = append(f.requests, s)
	if f.calls > 0 || strings.Contains(s, resultMarker) || !strings.Contains(s, `"`+f.tool+`"`) {
		return false
	}
	f.calls++
	f.askedAt = len(f.requests) - 1
	return true
}

// afterToolCall returns the model requests made after the one answered
// with the tool call: what the agent told the model next.
func (f *fakeModel) afterToolCall() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.calls == 0 {
		return nil
	}
	return append([]string(nil), f.requests[f.askedAt+1:]...)
}

// toldAfterToolCall reports whether a model request made after the tool
// call holds text, as JSON spells it: whether the agent passed it on.
func (f *fakeModel) toldAfterToolCall(text string) bool {
	b, _ := json.Marshal(text)
	quoted := string(b[1 : len(b)-1])
	for _, r := range f.afterToolCall() {
		if strings.Contains(r, quoted) {
			return true
		}
	}
	return false
}

// fakeAnthropic serves the Messages API (streamed SSE or plain JSON).
func fakeAnthropic(t *testing.T, tool string, input map[string]any) *fakeModel {
	f := &fakeModel{tool: tool, input: input}
	f.URL = serveFake(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if !strings.HasPrefix(r.URL.Path, "/v1/messages") || strings.Contains(r.URL.Path, "count_tokens") {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"input_tokens":10}`)
			return
		}
		var req struct{ Stream bool }
		json.Unmarshal(body, &req)
		args, _ := json.Marshal(f.input)
		useTool := f.askOnce(body, `"tool_result"`)
		if !req.Stream {
			w.Header().Set("Content-Type", "application/json")
			content := `[{"type":"text","text":"Done."}]`
			stop := "end_turn"
			if useTool {
				content = fmt.Sprintf(`[{"type":"tool_use","id":"toolu_fake1","name":%q,"input":%s}]`, f.tool, args)
				stop = "tool_use"
			}
			fmt.Fprintf(w, `{"id":"msg_fake","type":"message","role":"assistant","model":"claude-fake","content":%s,"stop_reason":%q,"stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":5}}`, content, stop)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		ev := func(name, data string) { fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, data) }
		ev("message_start", `{"type":"message_start","message":{"id":"msg_fake","type":"message","role":"assistant","model":"claude-fake","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":1}}}`)
		if useTool {
			partial, _ := json.Marshal(string(args))
			ev("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_fake1","name":%q,"input":{}}}`, f.tool))
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

// fakeGemini serves the Gemini API's generateContent and
// streamGenerateContent (SSE).
func fakeGemini(t *testing.T, tool string, input map[string]any) *fakeModel {
	f := &fakeModel{tool: tool, input: input}
	f.URL = serveFake(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		args, _ := json.Marshal(f.input)
		part := `{"text":"Done."}`
		if strings.Contains(r.URL.Path, ":streamGenerateContent") && f.askOnce(body, `"functionResponse"`) {
			part = fmt.Sprintf(`{"functionCall":{"name":%q,"args":%s}}`, f.tool, args)
		}
		resp := fmt.Sprintf(`{"candidates":[{"content":{"role":"model","parts":[%s]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":10,"candidatesTokenCount":5,"totalTokenCount":15}}`, part)
		if strings.Contains(r.URL.Path, ":streamGenerateContent") {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "data: %s\n\n", resp)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if strings.Contains(r.URL.Path, ":countTokens") {
			io.WriteString(w, `{"totalTokens":10}`)
			return
		}
		if strings.Contains(r.URL.Path, ":generateContent") {
			// The router and the classifier ask for JSON text.
			io.WriteString(w, `{"candidates":[{"content":{"role":"model","parts":[{"text":"{\"reasoning\":\"simple\",\"model_choice\":\"flash\",\"complexity_reasoning\":\"simple\",\"complexity_score\":1}"}]},"finishReason":"STOP","index":0}]}`)
			return
		}
		io.WriteString(w, `{}`)
	}))
	return f
}
