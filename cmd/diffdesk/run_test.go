package main

import (
	"regexp"
	"strings"
	"testing"
)

func TestRunRejectsStrayArguments(t *testing.T) {
	var out, errb strings.Builder
	if code := run([]string{"somewhere"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "--workspace") {
		t.Errorf("run(somewhere) = %d, %q", code, errb.String())
	}
}

// TestRunHelp: --help lists every flag, the desk's and those of a window
// over desks elsewhere, and exits 0.
func TestRunHelp(t *testing.T) {
	var out, errb strings.Builder
	if code := run([]string{"--help"}, &out, &errb); code != 0 {
		t.Fatalf("run(--help) = %d", code)
	}
	for _, flag := range []string{"-workspace", "-socket", "-journal", "-config", "-connect", "-desks", "-hub", "-hub-creds", "-hub-name", "-hub-ca"} {
		if !regexp.MustCompile(`(?m)^  ` + flag + `( |$)`).MatchString(errb.String()) {
			t.Errorf("--help does not list %s:\n%s", flag, errb.String())
		}
	}
}

func TestElsewhereFlags(t *testing.T) {
	for name, want := range map[string]bool{"connect": true, "desks": true, "hub": true, "hub-creds": true, "hub-name": true, "hub-ca": true, "workspace": false, "socket": false, "journal": false, "config": false} {
		if elsewhereFlag(name) != want {
			t.Errorf("elsewhereFlag(%s) = %v; want %v", name, !want, want)
		}
	}
}
