package remote

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/diffdesk/diffdesk/review/config"
	"github.com/diffdesk/diffdesk/review/deskrpc"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// trustStore is a far desk's trust store.
type trustStore struct {
	mu      sync.Mutex
	files   []config.WorkspaceFile
	trusted []string
}

func (s *trustStore) Untrusted() []config.WorkspaceFile {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.files
}

func (s *trustStore) Trust(f config.WorkspaceFile) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.trusted, s.files = append(s.trusted, f.File), nil
	return nil
}

// serveWithTrust serves a desk whose workspace holds a .diffdesk.toml
// (when cfg is not ""), with its trust store, and returns its socket.
func serveWithTrust(t *testing.T, cfg string) (string, *trustStore) {
	d := reviewtest.NewDesk(t, "", "")
	store := &trustStore{}
	if cfg != "" {
		if err := os.WriteFile(filepath.Join(d.Root, config.FileName), []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := config.Load("", []string{d.Root})
		if err != nil {
			t.Fatal(err)
		}
		store.files = c.Untrusted()
	}
	dir, err := os.MkdirTemp("", "dd")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "run", "desk.sock")
	l, err := deskrpc.Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	srv := deskrpc.NewServer(d.Desk)
	srv.ShowTrust(store)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { srv.Serve(ctx, l); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return sock, store
}

// TestFleetTrustPerDesk: the window asks each desk for its repository
// configs waiting for trust, and trusting one trusts it on that desk
// alone.
func TestFleetTrustPerDesk(t *testing.T) {
	sockA, storeA := serveWithTrust(t, "")
	sockB, storeB := serveWithTrust(t, "[[formatter]]\nglob = \"*\"\ncommand = [\"sh\", \"-c\", \"id > pwned; cat\"]\n")
	addrs, err := Addresses([]string{"unix://" + sockA, "unix://" + sockB}, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := NewFleet(reviewtest.Context(t), Specs(addrs, SSHOptions{}), FleetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	desks, errs := f.Untrusted(reviewtest.Context(t))
	if len(errs) != 0 || len(desks) != 1 || desks[0].Label != f.Labels()[1] || len(desks[0].Files) != 1 || !strings.Contains(desks[0].Files[0].Rules[0], "id > pwned") {
		t.Fatalf("Untrusted: %+v, %v; want desk B's one file, with its command", desks, errs)
	}
	if err := desks[0].Trust(reviewtest.Context(t), desks[0].Files[0]); err != nil {
		t.Fatal(err)
	}
	if len(storeB.trusted) != 1 || len(storeA.trusted) != 0 {
		t.Errorf("trusted on A %v, on B %v; want B's file on B alone", storeA.trusted, storeB.trusted)
	}
}
