package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/diffdesk/diffdesk/review/config"
	"github.com/diffdesk/diffdesk/review/internal/testfs"
)

// newTestWorkspace makes roots a and b in a temp dir with files, and a
// workspace over them with the default config.
func newTestWorkspace(t testing.TB, files map[string]string) (ws *Workspace, a, b string) {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	a, b = filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for _, r := range []string{a, b, filepath.Join(dir, "outside")} {
		if err := os.Mkdir(r, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	testfs.Write(t, dir, files)
	ws, err = New([]string{a, b}, config.Default())
	if err != nil {
		t.Fatal(err)
	}
	return ws, a, b
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func TestNewWorkspace(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(dir, "real")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	mustSymlink(t, real, filepath.Join(dir, "link"))
	if err := os.WriteFile(filepath.Join(dir, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Run("symlinked root is resolved", func(t *testing.T) {
		ws, err := New([]string{filepath.Join(dir, "link")}, config.Default())
		if err != nil {
			t.Fatal(err)
		}
		if got := ws.Roots(); len(got) != 1 || got[0] != real {
			t.Errorf("Roots() = %q; want [%q]", got, real)
		}
	})
	for _, c := range []struct {
		name  string
		roots []string
		want  string
	}{
		{"no roots", nil, "at least one root"},
		{"missing root", []string{filepath.Join(dir, "nope")}, "does not exist"},
		{"file root", []string{filepath.Join(dir, "file")}, "is not a directory"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := New(c.roots, config.Default())
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("New(%q) error = %v; want one containing %q", c.roots, err, c.want)
			}
		})
	}
}

func TestResolve(t *testing.T) {
	ws, a, b := newTestWorkspace(t, map[string]string{
		"a/main.go":         "package main\n",
		"a/sub/x.go":        "package sub\n",
		"a/.clineignore":    "# generated\n\nbuild/\n",
		"a/build/out.js":    "x",
		"b/README.md":       "hi\n",
		"outside/secret.go": "package secret\n",
	})
	dir := filepath.Dir(a)
	mustSymlink(t, filepath.Join(dir, "outside"), filepath.Join(a, "escape"))
	mustSymlink(t, filepath.Join(dir, "outside", "secret.go"), filepath.Join(a, "secret.go"))
	mustSymlink(t, filepath.Join(a, "sub"), filepath.Join(a, "alias"))
	mustSymlink(t, filepath.Join(a, "nowhere.go"), filepath.Join(a, "dangling.go"))
	if err := syscall.Mkfifo(filepath.Join(a, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}

	ok := []struct {
		path     string
		abs, rel string
		root     string
	}{
		{"main.go", filepath.Join(a, "main.go"), "main.go", a},
		{filepath.Join(b, "README.md"), filepath.Join(b, "README.md"), "README.md", b},
		{"sub/../main.go", filepath.Join(a, "main.go"), "main.go", a},
		{"alias/x.go", filepath.Join(a, "sub", "x.go"), "sub/x.go", a},
		{"alias/new.go", filepath.Join(a, "sub", "new.go"), "sub/new.go", a},
		{"new/dir/file.go", filepath.Join(a, "new", "dir", "file.go"), "new/dir/file.go", a},
		{filepath.Join(b, "docs", "new.md"), filepath.Join(b, "docs", "new.md"), "docs/new.md", b},
	}
	for _, c := range ok {
		t.Run("ok "+c.path, func(t *testing.T) {
			got, err := ws.Resolve(c.path)
			if err != nil {
				t.Fatalf("Resolve(%q) error: %v", c.path, err)
			}
			want := Target{Abs: c.abs, Root: c.root, Rel: c.rel}
			if got != want {
				t.Errorf("Resolve(%q) = %+v; want %+v", c.path, got, want)
			}
		})
	}

	refused := []struct {
		path string
		rule string
		msg  string // the whole message, with ROOT_A, ROOT_B and DIR for the temp paths
	}{
		{"../x.go", RuleOutside, "refused: ../x.go: outside the workspace roots ROOT_A, ROOT_B (it resolves to DIR/x.go); propose a path inside one of them"},
		{"escape/secret.go", RuleOutside, "refused: escape/secret.go: outside the workspace roots ROOT_A, ROOT_B (it resolves to DIR/outside/secret.go); propose a path inside one of them"},
		{"escape/new.go", RuleOutside, ""},
		{"secret.go", RuleOutside, ""},
		{"/etc/passwd", RuleOutside, ""},
		{"build/out.js", RuleIgnored, `refused: build/out.js: ignored by ROOT_A/.clineignore line 3 ("build/"); edit another file, or ask the person to change that ignore file`},
		{"build/new.js", RuleIgnored, ""},
		{"sub", RuleNotFile, "refused: sub: a directory; propose an edit to a file"},
		{".", RuleNotFile, ""},
		{"fifo", RuleNotFile, ""},
		{"main.go/x", RuleNotFile, ""},
		{"dangling.go", RuleSymlink, "refused: dangling.go: ROOT_A/dangling.go is a symlink to ROOT_A/nowhere.go, which does not exist; edit the target instead or remove the link"},
		{"", RuleInvalidPath, `refused: "": not a usable file path; give a path relative to ROOT_A or an absolute one`},
		{"a\x00b", RuleInvalidPath, ""},
	}
	for _, c := range refused {
		t.Run("refused "+c.path, func(t *testing.T) {
			_, err := ws.Resolve(c.path)
			var re *RefusalError
			if !errors.As(err, &re) {
				t.Fatalf("Resolve(%q) error = %v; want a *RefusalError", c.path, err)
			}
			if re.Rule != c.rule {
				t.Errorf("Resolve(%q) rule = %q; want %q (%v)", c.path, re.Rule, c.rule, err)
			}
			want := strings.NewReplacer("ROOT_A", a, "ROOT_B", b, "DIR", dir).Replace(c.msg)
			if c.msg != "" && err.Error() != want {
				t.Errorf("Resolve(%q) error =\n%s\nwant\n%s", c.path, err, want)
			}
		})
	}
}

func TestResolveNestedRootsPicksDeepest(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	inner := filepath.Join(dir, "inner")
	if err := os.Mkdir(inner, 0o755); err != nil {
		t.Fatal(err)
	}
	ws, err := New([]string{dir, inner}, config.Default())
	if err != nil {
		t.Fatal(err)
	}
	got, err := ws.Resolve(filepath.Join(inner, "x.go"))
	if err != nil {
		t.Fatal(err)
	}
	if got.Root != inner || got.Rel != "x.go" {
		t.Errorf("Resolve(inner/x.go) = root %q rel %q; want root %q rel x.go", got.Root, got.Rel, inner)
	}
}

func TestResolveProtected(t *testing.T) {
	ws, _, _ := newTestWorkspace(t, nil)
	for _, c := range []struct {
		path    string
		pattern string // the built-in pattern that protects it; "" = not protected
	}{
		{".env", ".env*"},
		{"web/.env.local", ".env*"},
		{".git/config", ".git"},
		{"vendor/x/.git/hooks/pre-commit", ".git"},
		{"go.sum", "go.sum"},
		{"web/package-lock.json", "package-lock.json"},
		{"certs/server.pem", "*.pem"},
		{"home/.ssh/id_rsa.pub", "id_rsa*"},
		{".ssh/config", ".ssh/"},
		{"home/.ssh/authorized_keys", ".ssh/"},
		{".gnupg/pubring.kbx", ".gnupg/"},
		{".aws/credentials", ".aws/"},
		{".docker/config.json", "**/.docker/config.json"},
		{"home/.kube/config", ".kube/"},
		{".config/gcloud/credentials.db", "**/.config/gcloud/"},
		{".git-credentials", ".git-credentials"},
		{".pgpass", ".pgpass"},
		{"android/release.keystore", "*.keystore"},
		{"infra/terraform.tfstate", "*.tfstate"},
		{".docker/Dockerfile", ""},
		{"docs/ssh.md", ""},
		{".diffdesk.toml", ".diffdesk.toml"},
		{".clineignore", ".clineignore"},
		{".GIT/config", ".git"},
		{"keys/Server.PEM", "*.pem"},
		{"cargo.lock", "Cargo.lock"},
		{"main.go", ""},
		{"environment.go", ""},
		{"docs/git/notes.md", ""},
		{".gitignore", ""},
		// Agent-control, git and tool files that run code or decide
		// without the person (issue 11), at the root, nested, in any case.
		{".git", ".git"},
		{"sub/.GIT", ".git"},
		{".gitmodules", ".gitmodules"},
		{"vendor/lib/.GitModules", ".gitmodules"},
		{".git/hooks/pre-commit", ".git"},
		{".claude/settings.json", ".claude/"},
		{".claude/settings.local.json", ".claude/"},
		{"pkg/.Claude/settings.json", ".claude/"},
		{".gemini/settings.json", ".gemini/"},
		{".mcp.json", ".mcp.json"},
		{"sub/.MCP.json", ".mcp.json"},
		{".vscode/tasks.json", ".vscode/"},
		{".vscode/settings.json", ".vscode/"},
		{"app/.VSCode/launch.json", ".vscode/"},
		{"proj.code-workspace", "*.code-workspace"},
		{".idea/runConfigurations/run.xml", ".idea/"},
		{".github/workflows/ci.yml", "**/.github/workflows/"},
		{"sub/.GitHub/Workflows/release.yaml", "**/.github/workflows/"},
		{".github/actions/setup/action.yml", "**/.github/actions/"},
		{".github/CODEOWNERS", ""},
		{".github/ISSUE_TEMPLATE/bug.md", ""},
		{".gitlab-ci.yml", ".gitlab-ci.yml"},
		{".husky/pre-commit", ".husky/"},
		{".pre-commit-config.yaml", ".pre-commit-config.yaml"},
		{".npmrc", ".npmrc"},
		{"sub/.NPMRC", ".npmrc"},
		{".yarnrc.yml", ".yarnrc.yml"},
		{".pypirc", ".pypirc"},
		{".envrc", ".envrc"},
		{".cursor/mcp.json", ".cursor/"},
		{".roo/mcp.json", ".roo/"},
		{".clinerules/hooks/PreToolUse", ".clinerules/"},
		{".continue/config.yaml", ".continue/"},
		{".devcontainer/devcontainer.json", ".devcontainer/"},
		{".devcontainer.json", ".devcontainer.json"},
		// Instructions an agent keeps current: not protected.
		{"CLAUDE.md", ""},
		{"GEMINI.md", ""},
		{"AGENTS.md", ""},
		{".cursorrules", ""},
		{".clinerules", ""},
		{"docs/claude/notes.md", ""},
		{".github/copilot-instructions.md", ""},
	} {
		t.Run(c.path, func(t *testing.T) {
			got, err := ws.Resolve(c.path)
			if err != nil {
				t.Fatal(err)
			}
			if got.Protected.Pattern != c.pattern {
				t.Fatalf("Resolve(%q) protected by %q; want %q", c.path, got.Protected.Pattern, c.pattern)
			}
			if c.pattern != "" && (got.Protected.Origin != "built-in" || got.Protected.Reason == "") {
				t.Errorf("Resolve(%q) protection %+v; want built-in with a reason", c.path, got.Protected)
			}
		})
	}
}

// TestResolveProtectedUnderNestedRoot: a workspace root nested inside a
// protected directory does not unprotect what is in it.
func TestResolveProtectedUnderNestedRoot(t *testing.T) {
	dir := t.TempDir()
	hooks := filepath.Join(dir, ".git", "hooks")
	if err := os.MkdirAll(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	ws, err := New([]string{dir, hooks}, config.Default())
	if err != nil {
		t.Fatal(err)
	}
	got, err := ws.Resolve(filepath.Join(hooks, "pre-commit"))
	if err != nil {
		t.Fatal(err)
	}
	if got.Rel != "pre-commit" || got.Protected.Pattern != ".git" {
		t.Errorf("Resolve(.git/hooks/pre-commit) under root .git/hooks = rel %q, protected %+v; want rel pre-commit protected by .git", got.Rel, got.Protected)
	}
}

func TestResolveThroughSymlinksKeepsRules(t *testing.T) {
	ws, a, _ := newTestWorkspace(t, map[string]string{
		"a/config/env.txt":  "KEY=1\n",
		"a/out/x.js":        "x",
		"a/.diffdeskignore": "build/\n",
	})
	mustSymlink(t, filepath.Join(a, "config", "env.txt"), filepath.Join(a, ".env"))
	mustSymlink(t, filepath.Join(a, "out"), filepath.Join(a, "build"))
	got, err := ws.Resolve(".env")
	if err != nil {
		t.Fatal(err)
	}
	if want := (Target{Abs: filepath.Join(a, "config", "env.txt"), Root: a, Rel: "config/env.txt", Protected: config.Protection{Pattern: ".env*", Origin: "built-in", Reason: "environment file: usually holds secrets"}}); got != want {
		t.Errorf("Resolve(.env -> config/env.txt) = %+v; want %+v", got, want)
	}
	var re *RefusalError
	if _, err := ws.Resolve("build/x.js"); !errors.As(err, &re) || re.Rule != RuleIgnored {
		t.Errorf("Resolve(build/x.js, build -> out) = %v; want an ignored refusal", err)
	}
	if _, err := ws.Resolve("out/x.js"); err != nil {
		t.Errorf("Resolve(out/x.js) = %v; want it accepted", err)
	}
}

func TestResolveRereadsIgnoreFiles(t *testing.T) {
	ws, a, _ := newTestWorkspace(t, map[string]string{"a/.diffdeskignore": "tmp/\n"})
	if _, err := ws.Resolve("gen/x.go"); err != nil {
		t.Fatalf("Resolve(gen/x.go) before the ignore file lists it: %v", err)
	}
	if err := os.WriteFile(filepath.Join(a, ".diffdeskignore"), []byte("tmp/\ngen/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var re *RefusalError
	if _, err := ws.Resolve("gen/x.go"); !errors.As(err, &re) || re.Rule != RuleIgnored {
		t.Errorf("Resolve(gen/x.go) after the ignore file changed = %v; want an ignored refusal", err)
	}
	if err := os.MkdirAll(filepath.Join(a, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(a, "sub", ".aiderignore"), []byte("*.gen.go\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ws.Resolve("sub/x.gen.go"); !errors.As(err, &re) || re.Rule != RuleIgnored {
		t.Errorf("Resolve(sub/x.gen.go) with a nested .aiderignore = %v; want an ignored refusal", err)
	}
}

func TestResolveConcurrent(t *testing.T) {
	ws, a, _ := newTestWorkspace(t, map[string]string{"a/.clineignore": "*.log\n", "a/src/.aiderignore": "*.tmp\n"})
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		// Each goroutine ends after its 50 resolves.
		go func() {
			defer wg.Done()
			for i := range 50 {
				if g == 0 && i%10 == 0 {
					// Replace an ignore file (atomically, as editors do)
					// while others read it.
					tmp := filepath.Join(a, "src", ".aiderignore.new")
					if err := os.WriteFile(tmp, []byte("*.tmp\n#"+strconv.Itoa(i)+"\n"), 0o644); err != nil {
						errs <- err
						return
					}
					if err := os.Rename(tmp, filepath.Join(a, "src", ".aiderignore")); err != nil {
						errs <- err
						return
					}
				}
				if _, err := ws.Resolve("src/pkg/x.go"); err != nil {
					errs <- err
					return
				}
				var re *RefusalError
				if _, err := ws.Resolve("src/x.tmp"); !errors.As(err, &re) || re.Rule != RuleIgnored {
					errs <- fmt.Errorf("Resolve(src/x.tmp) = %v; want an ignored refusal", err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestCheckContent(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	testfs.Write(t, dir, map[string]string{config.FileName: "[limits]\nmax_file_bytes = 100\n"})
	cfg, err := config.Load("", []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	ws, err := New([]string{dir}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	tgt, err := ws.Resolve("x.txt")
	if err != nil {
		t.Fatal(err)
	}
	lateNUL := append([]byte(strings.Repeat("a", binarySniffBytes)), 0)
	for _, c := range []struct {
		name   string
		size   int64
		sample []byte
		rule   string
		msg    string
	}{
		{"text", 5, []byte("hello"), "", ""},
		{"empty", 0, nil, "", ""},
		{"at the limit", 100, []byte("x"), "", ""},
		{"NUL after 8 KiB", 50, lateNUL, "", ""},
		{"binary", 4, []byte("a\x00bc"), RuleBinary, "refused: " + tgt.Abs + ": looks binary (a NUL byte at offset 1); DiffDesk reviews text files only, so change it outside DiffDesk"},
		{"GIF, valid UTF-8", 20, []byte("GIF89a\x01\x02;abcdefghij"), RuleBinary, "refused: " + tgt.Abs + ": looks binary (a GIF image, by its first bytes); DiffDesk reviews text files only, so change it outside DiffDesk"},
		{"not a GIF", 20, []byte("GIFs are fun\n"), "", ""},
		{"MZ text", 20, []byte("MZ notes\n"), "", ""},
		{"too large", 101, []byte("x"), RuleTooLarge, "refused: " + tgt.Abs + ": 101 bytes, over the 100-byte limit; raise [limits] max_file_bytes in " + filepath.Join(dir, config.FileName) + " or edit a smaller file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := ws.CheckContent(tgt, c.size, c.sample)
			if c.rule == "" {
				if err != nil {
					t.Errorf("CheckContent(%d bytes) = %v; want nil", c.size, err)
				}
				return
			}
			var re *RefusalError
			if !errors.As(err, &re) || re.Rule != c.rule || err.Error() != c.msg {
				t.Errorf("CheckContent(%d bytes) = %v; want %q", c.size, err, c.msg)
			}
		})
	}
}

// TestBinaryByMagicBytes refuses files whose first bytes name a binary
// format, even when they are valid UTF-8 without a NUL byte.
func TestBinaryByMagicBytes(t *testing.T) {
	pe := "MZ" + strings.Repeat("x", 0x3a) + "\x40\x00\x00\x00" + "PE\x00\x00" // e_lfanew at 0x3c points to "PE\0\0"
	for _, c := range []struct {
		sample, kind string
	}{
		{"\x89PNG\r\n\x1a\n....", "a PNG image"},
		{"\xff\xd8\xff\xe0JFIF", "a JPEG image"},
		{"GIF87a....", "a GIF image"},
		{"%PDF-1.7\n%\n1 0 obj\n", "a PDF document"},
		{"PK\x03\x04\x14\x06word/document.xml", "a ZIP archive (also JAR, DOCX, XLSX, APK)"},
		{"\x1f\x8b\x08", "gzip data"},
		{"\x7fELF\x02\x01\x01", "an ELF executable"},
		{"\xcf\xfa\xed\xfe", "a Mach-O executable"},
		{"\xca\xfe\xba\xbe", "a Java class file or Mach-O universal binary"},
		{pe, "a Windows (PE) executable"},
		{"\x00asm\x01", "a WebAssembly module"},
		{"SQLite format 3\x00", "an SQLite database"},
		{"BZh91AY&SY", "bzip2 data"},
		{"RIFF\x10\x10\x10\x10WEBPVP8 ", "a WebP image"},
	} {
		t.Run(c.kind, func(t *testing.T) {
			if got := sniffBinary([]byte(c.sample)); got != c.kind+", by its first bytes" {
				t.Errorf("sniffBinary(%q) = %q; want %q", c.sample, got, c.kind+", by its first bytes")
			}
		})
	}
}

// BenchmarkResolve measures Resolve for a file four directories deep, which
// stats every ignore file name at every level so that edits to ignore files
// apply at once.
func BenchmarkResolve(b *testing.B) {
	ws, _, _ := newTestWorkspace(b, map[string]string{
		"a/.clineignore":         "build/\n*.log\n!keep.log\n",
		"a/.diffdeskignore":      "tmp/\n",
		"a/src/pkg/.aiderignore": "*.gen.go\n",
		"a/src/pkg/deep/main.go": "package deep\n",
	})
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ws.Resolve("src/pkg/deep/main.go"); err != nil {
			b.Fatal(err)
		}
	}
}

// TestResolveRefusesInvisibleCharacters: a name with a character that
// draws nothing (a zero-width space, a soft hyphen, a word joiner, the
// Hangul filler, a variation selector) is refused like a control
// character: "src/main\u200b.go" was queued and shown as "src/main.go",
// a second file the reviewer took for the one on disk (QA finding 16).
// Names in any script stay usable.
func TestResolveRefusesInvisibleCharacters(t *testing.T) {
	ws, a, _ := newTestWorkspace(t, map[string]string{"a/main.go": "package main\n"})
	for _, p := range []string{"main\u200b.go", "ma\u00adin.go", "x\u2060y.go", "\u3164.go", "sub/\u200dmain.go", "e\ufe0f.txt", "\ufeffmain.go"} {
		_, err := ws.Resolve(p)
		var re *RefusalError
		if !errors.As(err, &re) || re.Rule != RuleInvalidPath || !strings.Contains(err.Error(), "invisible") {
			t.Errorf("Resolve(%+q) = %v; want refused as invalid_path, naming the invisible character", p, err)
		}
	}
	for _, p := range []string{"café.go", "日本語/説明.md", "naïve.txt", "ملف.txt"} {
		if got, err := ws.Resolve(p); err != nil || got.Abs != filepath.Join(a, p) {
			t.Errorf("Resolve(%q) = %+v, %v; want it usable", p, got, err)
		}
	}
}
