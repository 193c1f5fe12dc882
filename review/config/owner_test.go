//go:build unix

package config

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The user config runs commands as the user, so one that others may write
// or that another user owns is refused, as the trust store is; a FIFO in
// place of the config or of trusted.json is refused at once, not waited
// on (start-up once hung there with no message).
func TestUserConfigOthersControlIsRefused(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(user, []byte("[[formatter]]\nglob = \"*\"\ncommand = [\"true\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(user, nil); err != nil {
		t.Fatalf("a config of the user's, mode 0644: %v", err)
	}
	if err := os.Chmod(user, 0o666); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(user, nil); err == nil || !strings.Contains(err.Error(), "may be written by others") || !strings.Contains(err.Error(), "chmod go-w") {
		t.Errorf("a world-writable user config: %v; want refused, with the chmod to run", err)
	}
	if os.Getuid() == 0 {
		if err := os.Chmod(user, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(user, 4242, 4242); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(user, nil); err == nil || !strings.Contains(err.Error(), "belongs to user 4242") {
			t.Errorf("another user's config: %v; want refused", err)
		}
	}

	fifoDir := t.TempDir()
	for _, name := range []string{"config.toml", TrustFileName} {
		if err := syscall.Mkfifo(filepath.Join(fifoDir, name), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan [2]error, 1)
	go func() {
		_, cerr := Load(filepath.Join(fifoDir, "config.toml"), nil)
		_, terr := ReadTrust(filepath.Join(fifoDir, TrustFileName))
		done <- [2]error{cerr, terr}
	}()
	select {
	case errs := <-done:
		if errs[0] == nil || !strings.Contains(errs[0].Error(), "not a regular file") {
			t.Errorf("a FIFO as the config: %v; want refused as not a regular file", errs[0])
		}
		if errs[1] == nil || !strings.Contains(errs[1].Error(), "not a regular file") {
			t.Errorf("a FIFO as the trust store: %v; want refused as not a regular file", errs[1])
		}
	case <-time.After(time.Minute):
		t.Fatal("reading a FIFO in place of the config or trust store hangs")
	}
}
