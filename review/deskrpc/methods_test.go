package deskrpc

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestMethodTableIsTheProtocol: the method table holds exactly the methods
// docs/protocol.md describes, and every method limited to a role says so.
func TestMethodTableIsTheProtocol(t *testing.T) {
	doc, err := os.ReadFile("../../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	var documented []string
	for _, m := range regexp.MustCompile("(?m)^### `(\\w+)`").FindAllSubmatch(doc, -1) {
		documented = append(documented, string(m[1]))
	}
	var table []string
	for name, m := range methods {
		table = append(table, name)
		if m.role != anyone && !strings.Contains(m.denied, name) {
			t.Errorf("method %s is limited to a role; its refusal %q does not name it", name, m.denied)
		}
	}
	slices.Sort(documented)
	slices.Sort(table)
	if !slices.Equal(documented, table) {
		t.Errorf("the method table holds %v; docs/protocol.md describes %v", table, documented)
	}
}

// TestMethodRoles: each method limited to a role is refused to a
// connection of the other role with its own answer, before anything is
// done; an unknown method and params of the wrong shape are named.
func TestMethodRoles(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	agent := dialTestDesk(t, d.Desk)
	rev := dialReviewer(t, d.Desk)
	for name, m := range methods {
		var cl *Client
		switch m.role {
		case agentOnly:
			cl = rev
		case reviewerOnly:
			cl = agent
		default:
			continue
		}
		code, err := callCode(t, cl, name, map[string]any{})
		if code != codeForbidden || err == nil || !strings.Contains(err.Error(), m.denied) {
			t.Errorf("%s on the other role's connection: %v (code %d); want %d, %q", name, err, code, codeForbidden, m.denied)
		}
	}
	if code, err := callCode(t, agent, "approveAll", map[string]any{}); code != codeMethodNotFound || !strings.Contains(err.Error(), `unknown method "approveAll"`) {
		t.Errorf("an unknown method: %v (code %d); want %d naming it", err, code, codeMethodNotFound)
	}
	if code, err := callCode(t, agent, "read", []int{1}); code != codeInvalidParams || !strings.HasPrefix(strings.TrimPrefix(err.Error(), "desk: "), "read: ") {
		t.Errorf("read with params of the wrong shape: %v (code %d); want %d, named read", err, code, codeInvalidParams)
	}
}
