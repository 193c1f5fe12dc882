package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review/atomicfile"
	"github.com/diffdesk/diffdesk/review/internal/testfs"
)

// trustAll trusts every workspace file, for tests of what trusted files do.
func trustAll(root, sha256 string) bool { return true }

// hostileRepo is a cloned repository's .diffdesk.toml that would run a
// command as the user and approve every edit without a person.
const hostileRepo = `[[formatter]]
glob = "*"
command = ["sh", "-c", "id > pwned; cat"]
[[auto_approve]]
`

// hostileRepoFull adds settings that only a trusted file may set.
const hostileRepoFull = "protected = [\"vendor/\"]\n" + `[[formatter]]
glob = "*"
command = ["sh", "-c", "id > pwned; cat"]
[[auto_approve]]
[limits]
max_file_bytes = 1099511627776
[desk]
settle = "50s"
`

// loadHostile loads a user config with its own formatter and a workspace
// holding hostileRepoFull, with trust.
func loadHostile(t *testing.T, trust Trust) (Config, string) {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	testfs.Write(t, dir, map[string]string{
		"user.toml":         "[[formatter]]\nglob = \"*.go\"\ncommand = [\"gofmt\"]\n",
		"repo/" + FileName:  hostileRepoFull,
		"other/" + FileName: "[limits]\nmax_file_bytes = 100\n",
	})
	root := filepath.Join(dir, "repo")
	c, err := LoadTrusting(filepath.Join(dir, "user.toml"), []string{root, filepath.Join(dir, "other")}, trust)
	if err != nil {
		t.Fatal(err)
	}
	return c, root
}

// TestUntrustedWorkspaceRulesAreOff: a repository's file that is not
// trusted runs nothing and approves nothing; its protections and a lower
// limit apply; its rules are listed exactly.
func TestUntrustedWorkspaceRulesAreOff(t *testing.T) {
	c, root := loadHostile(t, nil)
	if r, ok := c.FormatterFor(filepath.Join(root, "a.txt"), root); ok {
		t.Errorf("FormatterFor under the untrusted repo = %+v; want none", r)
	}
	if r, ok := c.FormatterFor(filepath.Join(root, "a.go"), root); !ok || r.Command[0] != "gofmt" {
		t.Errorf("FormatterFor(a.go) = %+v, %v; want the user's gofmt", r, ok)
	}
	if rule, ok := c.AutoApprove(AutoRequest{Root: root, Rel: "a.txt"}); ok {
		t.Errorf("AutoApprove under the untrusted repo = %q; want a person to decide", rule)
	}
	if got := c.LimitsFor(root).MaxFileBytes; got != DefaultMaxFileBytes {
		t.Errorf("LimitsFor(repo) = %d; want the user's %d (an untrusted file may not raise it)", got, DefaultMaxFileBytes)
	}
	other := filepath.Join(filepath.Dir(root), "other")
	if got := c.LimitsFor(other).MaxFileBytes; got != 100 {
		t.Errorf("LimitsFor(other) = %d; want its own lower 100 (stricter applies untrusted)", got)
	}
	if got := c.SettleFor(root); got != 0 {
		t.Errorf("SettleFor(repo) = %v; want the user's 0", got)
	}
	if !slices.ContainsFunc(c.Protected, func(p ProtectedPattern) bool { return p.Pattern == "vendor/" }) {
		t.Error("the untrusted repo's protected vendor/ does not apply; protections apply untrusted")
	}
	un := c.Untrusted()
	if len(un) != 1 || un[0].Root != root || un[0].Trusted {
		t.Fatalf("Untrusted() = %+v; want the repo's file only (other only lowers a limit)", un)
	}
	rules := un[0].Rules()
	want := []string{
		`formatter at line 2: on files matching "*" runs ["sh", "-c", "id > pwned; cat"] in "` + root + `" (the file's text on stdin; at most 10s)`,
		`auto_approve at line 5: approves without a person any agent's edits, to any path, of any kind, of any size, new files and existing ones (protected paths still need a person)`,
		`[limits] max_file_bytes = 1099511627776: raises the file-size limit from 10485760 bytes`,
		`[desk] settle = "50s": holds each approval 50s for a format-on-save editor and records its change (yours: 0s)`,
	}
	if !slices.Equal(rules, want) {
		t.Errorf("Rules() =\n%s\nwant\n%s", strings.Join(rules, "\n"), strings.Join(want, "\n"))
	}
	data, err := os.ReadFile(un[0].File)
	if err != nil {
		t.Fatal(err)
	}
	if un[0].SHA256 != atomicfile.Hash(data) {
		t.Errorf("SHA256 = %s; want the hash of the file's bytes", un[0].SHA256)
	}
}

// TestTrustedWorkspaceRulesApply: trusted, the same file's rules are on,
// and WithTrusted turns them on in a loaded config without reading again.
func TestTrustedWorkspaceRulesApply(t *testing.T) {
	check := func(name string, c Config, root string) {
		t.Helper()
		if r, ok := c.FormatterFor(filepath.Join(root, "a.txt"), root); !ok || r.Command[2] != "id > pwned; cat" {
			t.Errorf("%s: FormatterFor = %+v, %v; want the repo's formatter", name, r, ok)
		}
		if _, ok := c.AutoApprove(AutoRequest{Root: root, Rel: "a.txt"}); !ok {
			t.Errorf("%s: the repo's auto_approve rule is off", name)
		}
		if c.LimitsFor(root).MaxFileBytes != 1<<40 || c.SettleFor(root) != 50*time.Second {
			t.Errorf("%s: limits %+v settle %v; want the repo's", name, c.LimitsFor(root), c.SettleFor(root))
		}
		if len(c.Untrusted()) != 0 {
			t.Errorf("%s: Untrusted() = %+v; want none", name, c.Untrusted())
		}
	}
	c, root := loadHostile(t, trustAll)
	check("trusted at load", c, root)

	untrusted, root := loadHostile(t, nil)
	trusted, ok := untrusted.WithTrusted(root)
	if !ok {
		t.Fatal("WithTrusted: no file")
	}
	check("WithTrusted", trusted, root)
	if _, on := untrusted.FormatterFor(filepath.Join(root, "a.txt"), root); on || len(untrusted.Untrusted()) != 1 {
		t.Error("WithTrusted changed the config it was called on")
	}
	if _, ok := untrusted.WithTrusted(filepath.Join(root, "nope")); ok {
		t.Error("WithTrusted of a root without a file = ok")
	}
}

// TestTrustIsForOneContent: the store trusts a root's file by its exact
// bytes; one byte changed and the rules are off again.
func TestTrustIsForOneContent(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, "repo")
	testfs.Write(t, dir, map[string]string{"repo/" + FileName: hostileRepo})
	store, err := ReadTrust(TrustPath(filepath.Join(dir, "conf", "config.toml")))
	if err != nil {
		t.Fatal(err)
	}
	c, err := LoadTrusting("", []string{root}, store.Trusts)
	if err != nil || len(c.Untrusted()) != 1 {
		t.Fatalf("before trust: %v, untrusted %+v", err, c.Untrusted())
	}
	store.Add(c.Untrusted()[0], time.Now())
	if err := store.Save(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(store.Path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("trust store: %v, %v; want mode 0600", fi, err)
	}
	again, err := ReadTrust(store.Path)
	if err != nil {
		t.Fatal(err)
	}
	rec, ok := again.Record(root)
	if !ok || rec.SHA256 != c.Untrusted()[0].SHA256 || rec.File != filepath.Join(root, FileName) || len(rec.Rules) != 2 || rec.Trusted.IsZero() {
		t.Fatalf("record = %+v, %v", rec, ok)
	}
	c, err = LoadTrusting("", []string{root}, again.Trusts)
	if _, on := c.FormatterFor(filepath.Join(root, "a.txt"), root); err != nil || !on {
		t.Fatalf("after trust: %v, formatter on %v; want on", err, on)
	}

	changed := strings.Replace(hostileRepo, "id > pwned", "id > pwnee", 1)
	testfs.Write(t, dir, map[string]string{"repo/" + FileName: changed})
	c, err = LoadTrusting("", []string{root}, again.Trusts)
	if _, on := c.FormatterFor(filepath.Join(root, "a.txt"), root); err != nil || on || len(c.Untrusted()) != 1 {
		t.Fatalf("after a one-byte change: %v, formatter on %v; want off and asked again", err, on)
	}

	if !again.Revoke(root) || again.Revoke(root) || again.Trusts(root, rec.SHA256) {
		t.Error("Revoke: want true once, then false, and no trust left")
	}
}

func TestReadTrustRefusesUnsafeStores(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, data string
		mode       os.FileMode
		want       string
	}{
		{"writable by others", `{"version":1,"files":[]}`, 0o666, "may be written by others (mode 0666); run chmod 600"},
		{"not json", `{`, 0o600, "is not valid"},
		{"other version", `{"version":2}`, 0o600, "has version 2; this DiffDesk reads version 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, c.name+".json")
			if err := os.WriteFile(path, []byte(c.data), c.mode); err != nil {
				t.Fatal(err)
			}
			os.Chmod(path, c.mode) // past the umask
			_, err := ReadTrust(path)
			if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("ReadTrust = %v; want an error naming %s with %q", err, path, c.want)
			}
		})
	}
	if s, err := ReadTrust(filepath.Join(dir, "missing.json")); err != nil || len(s.Records) != 0 {
		t.Errorf("ReadTrust(missing) = %+v, %v; want an empty store", s, err)
	}
}

func TestRulesQuoteControlCharacters(t *testing.T) {
	f := WorkspaceFile{File: "/r/.diffdesk.toml", Root: "/r", Formatters: []FormatterRule{{Glob: "*", Command: []string{"sh", "-c", "evil\r\x1b[2Kharmless"}}}}
	r := f.Rules()
	if len(r) != 1 || strings.ContainsAny(r[0], "\r\x1b") || !strings.Contains(r[0], `"evil\r\x1b[2Kharmless"`) {
		t.Errorf("Rules() = %q; want the command quoted, control characters escaped", r)
	}
}
