// Package testfs builds file trees for the desk's tests.
package testfs

import (
	"os"
	"path/filepath"
	"testing"
)

// Write creates each file of files (slash-separated path relative to dir →
// content) under dir, with its parent directories.
func Write(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
