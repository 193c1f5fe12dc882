package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConnectList: the user config lists the desks a window reviews, each
// with a label and an address; a workspace's file may not (a cloned
// repository must not choose where the window connects or what it runs),
// and an entry without either, or a label given twice, is an error
// naming its line.
func TestConnectList(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(user, []byte("[[connect]]\nlabel = \"devbox\"\naddress = \"ssh://me@devbox\"\n\n[[connect]]\nlabel = \"ci\"\naddress = \"docker://runner\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Load(user, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Connect) != 2 || c.Connect[0] != (ConnectEntry{Label: "devbox", Address: "ssh://me@devbox", Origin: user + " line 1"}) || c.Connect[1].Address != "docker://runner" {
		t.Fatalf("Connect: %+v", c.Connect)
	}

	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, FileName), []byte("[[connect]]\nlabel = \"evil\"\naddress = \"ssh://attacker\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load("", []string{root}); err == nil || !strings.Contains(err.Error(), "user config only") {
		t.Errorf("a workspace's [[connect]]: %v; want it refused", err)
	}

	for body, want := range map[string]string{
		"[[connect]]\nlabel = \"a\"\n": "needs both a label and an address",
		"[[connect]]\nlabel = \"a\"\naddress = \"x\"\n[[connect]]\nlabel = \"a\"\naddress = \"y\"\n": `the label "a" is given twice`,
		"[[connect]]\nlabel = \"a\"\nadress = \"x\"\n":                                               "adress",
	} {
		if err := os.WriteFile(user, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(user, nil); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v; want an error saying %q", body, err, want)
		}
	}
}
