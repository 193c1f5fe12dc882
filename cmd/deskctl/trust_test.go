package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/review/config"
)

// trustRepo is a workspace whose .diffdesk.toml runs a command and
// approves every edit, with a user config beside it; it returns the root
// (symlinks resolved) and the user config's path.
func trustRepo(t *testing.T) (root, userConfig string) {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root = filepath.Join(dir, "repo")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	toml := "[[formatter]]\nglob = \"*\"\ncommand = [\"sh\", \"-c\", \"id > pwned; cat\"]\n[[auto_approve]]\n"
	if err := os.WriteFile(filepath.Join(root, config.FileName), []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, filepath.Join(dir, "conf", "config.toml")
}

// rulesOn loads root's config through the trust store beside userConfig
// and reports whether its formatter is on.
func rulesOn(t *testing.T, root, userConfig string) bool {
	t.Helper()
	store, err := config.ReadTrust(config.TrustPath(userConfig))
	if err != nil {
		t.Fatal(err)
	}
	c, err := config.LoadTrusting(userConfig, []string{root}, store.Trusts)
	if err != nil {
		t.Fatal(err)
	}
	_, on := c.FormatterFor(filepath.Join(root, "a.txt"), root)
	return on
}

// TestTrustCommand: deskctl trust shows the exact command and rule and,
// with --yes, records the trust so the rules apply; --list shows it;
// a one-byte change makes the file untrusted; --revoke forgets it.
func TestTrustCommand(t *testing.T) {
	root, userConfig := trustRepo(t)
	file := filepath.Join(root, config.FileName)
	if rulesOn(t, root, userConfig) {
		t.Fatal("the repo's rules are on before any trust")
	}

	// Not on a terminal and without --yes: shown, not trusted.
	out, errOut, code := deskctl(t, "y\n", "trust", "--config", userConfig, root)
	if code != 1 || !strings.Contains(errOut, "pass --yes") || rulesOn(t, root, userConfig) {
		t.Fatalf("trust without --yes off a terminal = exit %d, %q, %q; want exit 1, nothing trusted", code, out, errOut)
	}
	for _, want := range []string{
		file + " (sha256 ",
		`  formatter at line 1: on files matching "*" runs ["sh", "-c", "id > pwned; cat"] in "` + root + `"`,
		"  auto_approve at line 4: approves without a person any agent's edits, to any path",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("trust output lacks %q:\n%s", want, out)
		}
	}

	out, errOut, code = deskctl(t, "", "trust", "--yes", "--config", userConfig, file)
	if code != 0 || !strings.Contains(out, "Trusted "+file) {
		t.Fatalf("trust --yes = exit %d, %q, %q", code, out, errOut)
	}
	if !rulesOn(t, root, userConfig) {
		t.Fatal("after deskctl trust the repo's rules are off")
	}
	if fi, err := os.Stat(config.TrustPath(userConfig)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("trust store: %v, %v; want mode 0600", fi, err)
	}
	out, _, code = deskctl(t, "", "trust", "--config", userConfig, root)
	if code != 0 || !strings.Contains(out, file+" is trusted, in this content") {
		t.Errorf("trust of a trusted file = exit %d, %q", code, out)
	}
	out, _, code = deskctl(t, "", "trust", "--list", "--config", userConfig)
	if code != 0 || !strings.Contains(out, file+" (sha256 ") || !strings.Contains(out, "the file has this content") || !strings.Contains(out, `"id > pwned; cat"`) {
		t.Errorf("trust --list = exit %d, %q", code, out)
	}

	data, _ := os.ReadFile(file)
	os.WriteFile(file, append(data, '\n'), 0o644)
	if rulesOn(t, root, userConfig) {
		t.Error("after a one-byte change the rules are still on")
	}
	out, _, _ = deskctl(t, "", "trust", "--list", "--config", userConfig)
	if !strings.Contains(out, "the file has changed since: untrusted") {
		t.Errorf("trust --list after a change = %q", out)
	}
	out, _, code = deskctl(t, "", "trust", "--list", "--json", "--config", userConfig)
	var list []struct{ Root, File, SHA256, State string }
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil || len(list) != 1 || list[0].File != file || list[0].State != "changed" || len(list[0].SHA256) != 64 {
		t.Errorf("trust --list --json after a change = exit %d, %s", code, out)
	}

	out, errOut, code = deskctl(t, "", "trust", "--revoke", "--config", userConfig, root)
	if code != 0 || !strings.Contains(out, "Revoked the trust in "+file) {
		t.Fatalf("trust --revoke = exit %d, %q, %q", code, out, errOut)
	}
	out, _, _ = deskctl(t, "", "trust", "--list", "--config", userConfig)
	if !strings.Contains(out, "No repository config is trusted") {
		t.Errorf("trust --list after revoking = %q", out)
	}
	if _, errOut, code = deskctl(t, "", "trust", "--revoke", "--config", userConfig, root); code != 1 || !strings.Contains(errOut, "no trust is recorded for "+root) {
		t.Errorf("revoking again = exit %d, %q", code, errOut)
	}
}

// TestTrustCommandAsksOnATerminal: on a terminal, trust records only
// after "y".
func TestTrustCommandAsksOnATerminal(t *testing.T) {
	old := isTerminal
	isTerminal = func(io.Reader) bool { return true }
	t.Cleanup(func() { isTerminal = old })
	root, userConfig := trustRepo(t)
	out, _, code := deskctl(t, "n\n", "trust", "--config", userConfig, root)
	if code != 1 || !strings.Contains(out, "Trust this exact content? [y/N] Not trusted") || rulesOn(t, root, userConfig) {
		t.Fatalf("answering n = exit %d, %q; want not trusted", code, out)
	}
	out, _, code = deskctl(t, "y\n", "trust", "--config", userConfig, root)
	if code != 0 || !rulesOn(t, root, userConfig) {
		t.Fatalf("answering y = exit %d, %q; want trusted", code, out)
	}
}

func TestTrustCommandErrors(t *testing.T) {
	root, userConfig := trustRepo(t)
	empty := t.TempDir()
	os.WriteFile(filepath.Join(empty, config.FileName), []byte("protected = [\"x/\"]\n"), 0o644)
	bad := t.TempDir()
	os.WriteFile(filepath.Join(bad, config.FileName), []byte("[desk]\nsettle = \"1000h\"\n"), 0o644)
	for _, c := range []struct {
		args     []string
		code     int
		out, err string
	}{
		{[]string{"--list", root}, 2, "", "--list takes no PATH"},
		{[]string{"--revoke"}, 2, "", "--revoke wants the PATH of one workspace"},
		{[]string{root, root}, 2, "", "want one PATH, got 2"},
		{[]string{t.TempDir()}, 1, "", "has no .diffdesk.toml: nothing to trust"},
		{[]string{filepath.Join(root, "nope")}, 1, "", "does not exist"},
		{[]string{empty}, 0, "holds only protections", ""},
		{[]string{"--yes", bad}, 1, "", `key desk.settle: "1000h" is too long`},
	} {
		out, errOut, code := deskctl(t, "", append([]string{"trust", "--config", userConfig}, c.args...)...)
		if code != c.code || !strings.Contains(out, c.out) || !strings.Contains(errOut, c.err) {
			t.Errorf("deskctl trust %q = exit %d, %q, %q; want exit %d, stdout with %q, stderr with %q", c.args, code, out, errOut, c.code, c.out, c.err)
		}
	}
}
