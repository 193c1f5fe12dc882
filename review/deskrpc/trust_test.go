package deskrpc

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/diffdesk/diffdesk/review/config"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// fakeTrust is a trust store over one workspace's config.
type fakeTrust struct {
	mu      sync.Mutex
	files   []config.WorkspaceFile
	trusted []string
}

func (f *fakeTrust) Untrusted() []config.WorkspaceFile {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.files
}

func (f *fakeTrust) Trust(w config.WorkspaceFile) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.trusted = append(f.trusted, w.File+" "+w.SHA256)
	f.files = nil
	return nil
}

// TestTrustOverTheProtocol: a reviewer sees each untrusted repository
// config with the rules it would turn on, and trusts exactly the content
// it was shown: a hash that is no longer the file's trusts nothing; an
// agent's connection can neither list nor trust.
func TestTrustOverTheProtocol(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	if err := os.WriteFile(filepath.Join(d.Root, config.FileName), []byte("[[formatter]]\nglob = \"*.go\"\ncommand = [\"gofmt\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load("", []string{d.Root})
	if err != nil {
		t.Fatal(err)
	}
	store := &fakeTrust{files: cfg.Untrusted()}
	dir, err := os.MkdirTemp("", "dd")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "run", "desk.sock")
	l, err := Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(d.Desk)
	srv.ShowTrust(store)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, l) }()
	t.Cleanup(func() { cancel(); <-done })

	agent, err := Dial(sock)
	if err != nil {
		t.Fatal(err)
	}
	defer agent.Close()
	if _, err := agent.Untrusted(reviewtest.Context(t)); err == nil || !strings.Contains(err.Error(), "only a reviewer") {
		t.Errorf("an agent listed the untrusted configs: %v", err)
	}
	if err := agent.Trust(reviewtest.Context(t), store.files[0].Root, store.files[0].SHA256); err == nil {
		t.Error("an agent trusted a repository's config")
	}

	rev, err := Dial(sock)
	if err != nil {
		t.Fatal(err)
	}
	defer rev.Close()
	if err := rev.Call(reviewtest.Context(t), "hello", map[string]any{"protocol": 1, "role": "reviewer"}, nil); err != nil {
		t.Fatal(err)
	}
	files, err := rev.Untrusted(reviewtest.Context(t))
	if err != nil || len(files) != 1 || files[0].File != filepath.Join(cfg.WorkspaceFiles[0].Root, config.FileName) || len(files[0].Rules) != 1 || !strings.Contains(files[0].Rules[0], `"gofmt"`) {
		t.Fatalf("Untrusted: %+v, %v; want the file with its formatter", files, err)
	}
	if err := rev.Trust(reviewtest.Context(t), files[0].Root, strings.Repeat("0", 64)); err == nil || !strings.Contains(err.Error(), "changed since it was shown") {
		t.Errorf("trusting another content: %v", err)
	}
	if len(store.trusted) != 0 {
		t.Fatalf("trusted %v before the right content was named", store.trusted)
	}
	if err := rev.Trust(reviewtest.Context(t), files[0].Root, files[0].SHA256); err != nil {
		t.Fatal(err)
	}
	if len(store.trusted) != 1 || store.trusted[0] != files[0].File+" "+files[0].SHA256 {
		t.Errorf("trusted %v", store.trusted)
	}
}
