package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestCompletionAndManFromTable: each script and the man page name every
// command and every flag of the table, so a new one cannot be left out.
func TestCompletionAndManFromTable(t *testing.T) {
	outs := map[string]string{}
	for _, sh := range []string{"bash", "zsh", "fish"} {
		out, errOut, code := deskctl(t, "", "completion", sh)
		if code != 0 {
			t.Fatalf("completion %s = exit %d, %s", sh, code, errOut)
		}
		outs[sh] = out
	}
	man, _, code := deskctl(t, "", "man")
	if code != 0 || !strings.HasPrefix(man, ".TH DESKCTL 1") {
		t.Fatalf("man = exit %d, %.100q", code, man)
	}
	walkCommands(deskctlCmd, nil, func(path []string, c *command) {
		if len(path) == 0 {
			return
		}
		for sh, out := range outs {
			if !strings.Contains(out, c.name) {
				t.Errorf("the %s completion has no command %q", sh, strings.Join(path, " "))
			}
		}
		if c.subs != nil {
			return
		}
		if !strings.Contains(man, ".SS \"deskctl "+strings.Join(path, " ")) {
			t.Errorf("the man page has no section for deskctl %s", strings.Join(path, " "))
		}
		for _, f := range leafFlags(c) {
			for sh, out := range outs {
				if !strings.Contains(out, f.Name) {
					t.Errorf("the %s completion has no flag --%s of %s", sh, f.Name, strings.Join(path, " "))
				}
			}
			if !strings.Contains(man, ".B \\-\\-"+strings.ReplaceAll(f.Name, "-", "\\-")) && !strings.Contains(man, ".B \\-"+f.Name) {
				t.Errorf("the man page has no flag --%s of %s", f.Name, strings.Join(path, " "))
			}
		}
	})
	if _, errOut, code := deskctl(t, "", "completion", "tcsh"); code != 2 || !strings.Contains(errOut, "bash, zsh or fish") {
		t.Errorf("completion tcsh = exit %d, %q", code, errOut)
	}
	// bash reads it, and completes as the table says.
	if _, err := exec.LookPath("bash"); err == nil {
		script := outs["bash"] + `
COMP_WORDS=(deskctl hist); COMP_CWORD=1; _deskctl; echo "1:${COMPREPLY[*]}"
COMP_WORDS=(deskctl history res); COMP_CWORD=2; _deskctl; echo "2:${COMPREPLY[*]}"
COMP_WORDS=(deskctl setup --un); COMP_CWORD=2; _deskctl; echo "3:${COMPREPLY[*]}"
COMP_WORDS=(deskctl hook gem); COMP_CWORD=2; _deskctl; echo "4:${COMPREPLY[*]}"
`
		out, err := exec.Command("bash", "-c", script).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "1:history\n2:restore\n3:--undo\n4:gemini\n") {
			t.Errorf("bash completing = %v:\n%s", err, out)
		}
	}
}
