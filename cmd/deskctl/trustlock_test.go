package main

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/diffdesk/diffdesk/review/config"
)

// A revoke and a trust at the same moment both last: the trust store is
// locked from read to save (gofrs/flock), so neither save undoes the
// other (without the lock a --revoke that printed success was undone in
// about half the runs).
func TestConcurrentTrustChangesBothLast(t *testing.T) {
	a, userConfig := trustRepo(t)
	b := filepath.Join(filepath.Dir(a), "other")
	if err := os.MkdirAll(b, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(b, config.FileName), []byte("[[auto_approve]]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	trusted := func(root string) bool {
		s, err := config.ReadTrust(config.TrustPath(userConfig))
		if err != nil {
			t.Fatal(err)
		}
		_, ok := s.Record(root)
		return ok
	}
	for i := range 30 {
		if _, e, code := deskctl(t, "", "trust", "--yes", "--config", userConfig, a); code != 0 {
			t.Fatalf("trust %s: %s", a, e)
		}
		var wg sync.WaitGroup
		codes := make([]int, 2)
		for j, args := range [][]string{{"trust", "--revoke", "--config", userConfig, a}, {"trust", "--yes", "--config", userConfig, b}} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, _, codes[j] = deskctl(t, "", args...)
			}()
		}
		wg.Wait()
		if codes[0] != 0 || codes[1] != 0 {
			t.Fatalf("run %d: exit codes %v", i, codes)
		}
		if trusted(a) || !trusted(b) {
			t.Fatalf("run %d: after --revoke %s and --yes %s at once, %s trusted: %v, %s trusted: %v; want the revoke and the trust both kept", i, a, b, a, trusted(a), b, trusted(b))
		}
		if _, e, code := deskctl(t, "", "trust", "--revoke", "--config", userConfig, b); code != 0 {
			t.Fatalf("revoke %s: %s", b, e)
		}
	}
}
