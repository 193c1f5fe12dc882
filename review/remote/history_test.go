package remote

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/review/deskrpc"
	"github.com/diffdesk/diffdesk/review/journal"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestAFarDeskSendsNoMoreHistoryThanAsked: a desk answering a page of
// history with more entries than the page holds is not believed: the
// window gets an error naming the desk, not the entries.
func TestAFarDeskSendsNoMoreHistoryThanAsked(t *testing.T) {
	here, there := net.Pipe()
	t.Cleanup(func() { here.Close(); there.Close() })
	go func() { // a desk that answers every page with 5 entries
		r := bufio.NewScanner(there)
		r.Buffer(nil, 1<<20)
		for r.Scan() {
			var req struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if json.Unmarshal(r.Bytes(), &req) != nil {
				return
			}
			var result any = map[string]any{}
			switch req.Method {
			case "hello":
				result = map[string]any{"protocol": 1, "desk": "diffdesk", "roots": []string{"/w"}}
			case "subscribe":
				result = map[string]any{"proposals": []any{}}
			case "history":
				var entries []journal.Entry
				for i := range 5 {
					entries = append(entries, journal.Entry{Ref: journal.Ref(fmt.Sprint(i + 1)), Kind: journal.EntryWrite})
				}
				result = map[string]any{"entries": entries}
			}
			b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
			if _, err := there.Write(append(b, '\n')); err != nil {
				return
			}
		}
	}()
	d, err := Open(reviewtest.Context(t), deskrpc.NewClient(here), "evil@box", "me@laptop")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	page, err := d.History(reviewtest.Context(t), journal.Filter{Limit: 2})
	if err == nil || !strings.Contains(err.Error(), "evil@box sent 5 history entries for a page of 2") || len(page.Entries) != 0 {
		t.Errorf("History from a desk sending too much: %d entries, %v; want an error naming the desk and none", len(page.Entries), err)
	}
}
