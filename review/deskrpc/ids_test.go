package deskrpc

import (
	"bufio"
	"encoding/json"
	"net"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// A request with a field of the wrong type is answered with its own id
// (readable all the same), not null; an id holding invalid UTF-8 is not
// echoed raw (the answer is valid UTF-8, the bad bytes U+FFFD); an id
// that is neither a string nor a number is answered as null.
func TestAnswersCarryReadableIDsSafely(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path := serveTestDesk(t, d.Desk)
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second))
	r := bufio.NewReader(c)
	cases := []struct {
		line, id string
		code     int
	}{
		{`{"jsonrpc":"2.0","id":11,"method":5}`, `11`, codeInvalidRequest},
		{`{"jsonrpc":2,"id":"abc","method":"status"}`, `"abc"`, codeInvalidRequest},
		{`{"jsonrpc":"2.0","id":12,"method":"propose","params":{"format":"write","path":7}}`, `12`, codeInvalidParams},
		{"{\"jsonrpc\":\"2.0\",\"id\":\"\xff\xfeX\",\"method\":\"status\",\"params\":{}}", "\"\ufffd\ufffdX\"", 0},
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"status","params":{}}`, `null`, 0},
	}
	for _, tc := range cases {
		if _, err := c.Write([]byte(tc.line + "\n")); err != nil {
			t.Fatal(err)
		}
		b, err := r.ReadBytes('\n')
		if err != nil {
			t.Fatal(err)
		}
		if !utf8.Valid(b) {
			t.Errorf("the answer to %q is not valid UTF-8: %q", tc.line, b)
		}
		var resp struct {
			ID    json.RawMessage `json:"id"`
			Error *rpcError       `json:"error"`
		}
		if err := json.Unmarshal(b, &resp); err != nil {
			t.Fatalf("answer %q: %v", b, err)
		}
		code := 0
		if resp.Error != nil {
			code = resp.Error.Code
		}
		if string(resp.ID) != tc.id || code != tc.code {
			t.Errorf("%q answered with id %s, code %d; want id %s, code %d (%s)", tc.line, resp.ID, code, tc.id, tc.code, strings.TrimSpace(string(b)))
		}
	}
}
