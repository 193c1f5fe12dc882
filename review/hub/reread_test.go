package hub_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review/hub"
	"github.com/nats-io/nats.go/jetstream"
)

// TestViewReadsTextsThatCameLate: a proposal whose texts the view cannot
// read yet — in a cluster, a text read from a replica that has not
// stored it yet; here, a desk's proposal published before its text — is
// read again until it can be: the window shows it once its text is on
// the hub, not never (the view's reader has gone past its message, and
// the desk publishes it once).
func TestViewReadsTextsThatCameLate(t *testing.T) {
	limit(t, 2*time.Minute)
	h := startHub(t, []string{"d1"}, []string{"r1"})
	js, err := jetstream.New(h.dial(t, "d1"))
	if err != nil {
		t.Fatal(err)
	}
	v, events, notices := openView(t, h, "r1", hub.ViewLimits{})
	const text = "late\n"
	sum := sha256.Sum256([]byte(text))
	version, hid := hex.EncodeToString(sum[:8]), "0123456789abcdef0123456789abcdef"
	p := hub.Proposal{Desk: "d1", Hub: hid, ID: "p1", Agent: "a", Format: "write", State: "pending", Created: time.Now(), Round: 1, Version: version,
		Files: []hub.File{{Path: "/w/x.txt", Rel: "x.txt", Root: "/w", Proposed: hub.TextRef{Size: int64(len(text)), SHA256: hex.EncodeToString(sum[:]), Chunks: 1}}}}
	data, _ := json.Marshal(p)
	if _, err := js.Publish(ctx(t), "dd.d1.p."+hid, data); err != nil {
		t.Fatal(err)
	}
	waitNotice(t, notices, "d1."+hid)
	if _, err := js.Publish(ctx(t), "dd.d1.t."+hid+"."+version+".0.p.0", []byte(text)); err != nil {
		t.Fatal(err)
	}
	waitEvent(t, events, "the proposal in the view once its text is on the hub", func() bool {
		got, ok := v.Get("d1." + hid)
		return ok && got.Files[0].Proposed == text
	})
}
