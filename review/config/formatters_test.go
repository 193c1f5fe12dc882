package config

import (
	"path/filepath"
	"testing"

	"github.com/diffdesk/diffdesk/review/internal/testfs"
)

func TestFormatterFor(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	testfs.Write(t, dir, map[string]string{
		"user.toml": "[[formatter]]\nglob = \"*.go\"\ncommand = [\"gofmt\"]\n" +
			"[[formatter]]\nglob = \"web/**/*.ts\"\ncommand = [\"prettier\"]\n" +
			"[[formatter]]\nglob = \"gen/\"\ncommand = [\"genfmt\"]\n",
		"a/" + FileName: "[[formatter]]\nglob = \"/cmd/*.go\"\ncommand = [\"goimports\"]\n",
		"b/keep":        "",
	})
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	c, err := LoadTrusting(filepath.Join(dir, "user.toml"), []string{a, b}, trustAll)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []struct {
		root, rel string
		want      string // command; "" = none
	}{
		{a, "main.go", "gofmt"},
		{a, "internal/deep/x.go", "gofmt"},
		{a, "cmd/tool.go", "goimports"},
		{b, "cmd/tool.go", "gofmt"},
		{a, "web/x.ts", "prettier"},
		{a, "web/app/x.ts", "prettier"},
		{a, "src/web/x.ts", ""},
		{a, "gen/a/b.txt", "genfmt"},
		{a, "README.md", ""},
		{a, "../outside.go", ""},
	} {
		t.Run(x.rel, func(t *testing.T) {
			r, ok := c.FormatterFor(filepath.Join(x.root, x.rel), x.root)
			got := ""
			if ok {
				got = r.Command[0]
				if r.Dir != x.root {
					t.Errorf("FormatterFor(%q).Dir = %q; want %q", x.rel, r.Dir, x.root)
				}
			}
			if got != x.want {
				t.Errorf("FormatterFor(%q) = %q; want %q", x.rel, got, x.want)
			}
		})
	}
}
