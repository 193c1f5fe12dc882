package config

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/review/internal/testfs"
)

// A placeholder inside a shell's -c text (or another interpreter's inline
// program) is refused at load, with the fix in the message: a new file's
// name, the agent's choice ("$(touch X).md"), would run as code. The same
// name passed as an argument of its own is fine.
func TestInlinePlaceholdersAreRefused(t *testing.T) {
	cases := []struct {
		name, toml, want string
	}{
		{"sh -c {file}", "[[checker]]\nglob = \"*.md\"\ncommand = [\"sh\", \"-c\", \"wc -l {file}\"]\n", `e.g. ["sh", "-c", "wc -l \"$1\"", "sh", "{file}"]`},
		{"bash -lc {path}", "[[formatter]]\nglob = \"*.js\"\ncommand = [\"bash\", \"-lc\", \"prettier --stdin-filepath {path}\"]\n", "{path} inside the program text of bash -lc"},
		{"env sh -ec", "[[checker]]\nglob = \"*.md\"\ncommand = [\"/usr/bin/env\", \"LANG=C\", \"sh\", \"-e\", \"-c\", \"cat {file} | wc -l\"]\n", "{file} inside the program text of sh -c"},
		{"python3 -c", "[[checker]]\nglob = \"*.md\"\ncommand = [\"python3\", \"-c\", \"open('{file}')\"]\n", "{file} inside the program text of python3 -c"},
		{"node --eval", "[[checker]]\nglob = \"*.js\"\ncommand = [\"node\", \"--eval\", \"require('{file}')\"]\n", "{file} inside the program text of node --eval"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			testfs.Write(t, dir, map[string]string{"user.toml": c.toml})
			_, err := Load(filepath.Join(dir, "user.toml"), nil)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "argument of its own") {
				t.Errorf("Load(%s) = %v; want refused, saying %q and the fix", c.name, err, c.want)
			}
		})
	}
	for _, ok := range []string{
		"[[checker]]\nglob = \"*.md\"\ncommand = [\"sh\", \"-c\", \"wc -l \\\"$1\\\"\", \"sh\", \"{file}\"]\n",
		"[[checker]]\nglob = \"*.sh\"\ncommand = [\"shellcheck\", \"--format=gcc\", \"{file}\"]\n",
		"[[checker]]\nglob = \"*.sh\"\ncommand = [\"bash\", \"-n\", \"{file}\"]\n",
		"[[formatter]]\nglob = \"*.js\"\ncommand = [\"prettier\", \"--stdin-filepath\", \"{path}\"]\n",
	} {
		dir := t.TempDir()
		testfs.Write(t, dir, map[string]string{"user.toml": ok})
		if _, err := Load(filepath.Join(dir, "user.toml"), nil); err != nil {
			t.Errorf("Load(%q) = %v; want it loaded (the name is an argument of its own)", ok, err)
		}
	}
}
