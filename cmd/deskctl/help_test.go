package main

import (
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// leaf is a command of the table that runs, with its arguments after
// "deskctl" ("history", "restore").
type leaf struct {
	names []string
	cmd   *command
}

// leaves walks the command table.
func leaves(c *command, names []string) []leaf {
	if c.subs == nil {
		return []leaf{{names, c}}
	}
	var out []leaf
	for _, s := range c.subs {
		out = append(out, leaves(s, append(slices.Clip(names), s.name))...)
	}
	return out
}

// flagLine matches the line of help that lists flag name.
func flagLine(name string) *regexp.Regexp {
	dashes := "--"
	if len(name) == 1 {
		dashes = "-"
	}
	return regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(dashes+name) + `( |$)`)
}

func TestHelpListsEveryFlag(t *testing.T) {
	for _, l := range leaves(deskctlCmd, nil) {
		t.Run(strings.Join(l.names, " "), func(t *testing.T) {
			fl := flag.NewFlagSet("test", flag.ContinueOnError)
			if l.cmd.flags == nil || l.cmd.flags(fl) == nil {
				t.Fatalf("%v defines no run", l.names)
			}
			out, errOut, code := deskctl(t, "", append([]string{"help"}, l.names...)...)
			if code != 0 || errOut != "" {
				t.Fatalf("deskctl help %v = exit %d, stderr %q; want exit 0", l.names, code, errOut)
			}
			n := 0
			fl.VisitAll(func(f *flag.Flag) {
				n++
				if !flagLine(f.Name).MatchString(out) {
					t.Errorf("deskctl help %v does not list flag %s:\n%s", l.names, f.Name, out)
				}
			})
			if got := len(regexp.MustCompile(`(?m)^  -`).FindAllString(out, -1)); got != n {
				t.Errorf("deskctl help %v lists %d flags; want the %d its flag set defines", l.names, got, n)
			}
			parent, _, _ := deskctl(t, "", append([]string{"help"}, l.names[:len(l.names)-1]...)...)
			if !strings.Contains(parent, "  "+l.cmd.name+" ") || !strings.Contains(parent, l.cmd.short) {
				t.Errorf("the help of %v's group does not list it:\n%s", l.names, parent)
			}
			viaFlag, _, code := deskctl(t, "", append(slices.Clip(l.names), "--help")...)
			if code != 0 || viaFlag != out {
				t.Errorf("deskctl %v --help = exit %d, %q; want exit 0 and deskctl help's text", l.names, code, viaFlag)
			}
		})
	}
}

// TestEveryCommandIsInTheTable guards against a command written but not
// registered: every &command{…} in the package is reachable from deskctlCmd.
func TestEveryCommandIsInTheTable(t *testing.T) {
	var declared []string
	fset := token.NewFileSet()
	files, _ := filepath.Glob("*.go")
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			if id, ok := lit.Type.(*ast.Ident); !ok || id.Name != "command" {
				return true
			}
			for _, e := range lit.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok && kv.Key.(*ast.Ident).Name == "name" {
					s, _ := strconv.Unquote(kv.Value.(*ast.BasicLit).Value)
					declared = append(declared, s)
				}
			}
			return true
		})
	}
	var reachable []string
	var walk func(c *command)
	walk = func(c *command) {
		reachable = append(reachable, c.name)
		for _, s := range c.subs {
			walk(s)
		}
	}
	walk(deskctlCmd)
	slices.Sort(declared)
	slices.Sort(reachable)
	if !slices.Equal(declared, reachable) {
		t.Errorf("commands declared %v; reachable from deskctlCmd %v", declared, reachable)
	}
	if len(reachable) < 15 {
		t.Errorf("only %d commands in the table: %v", len(reachable), reachable)
	}
}

func TestHelpNamesFlags(t *testing.T) {
	tests := []struct {
		command string
		flags   []string
	}{
		{"serve", []string{"journal", "config", "socket", "workspace", "decide"}},
		{"diff", []string{"U", "json"}},
		{"propose", []string{"session", "socket", "stream", "edit"}},
		{"history list", []string{"journal", "since", "decision"}},
	}
	for _, tt := range tests {
		args := append([]string{"help"}, strings.Fields(tt.command)...)
		out, _, code := deskctl(t, "", args...)
		for _, f := range tt.flags {
			if code != 0 || !flagLine(f).MatchString(out) {
				t.Errorf("deskctl help %s = exit %d, %q; want flag %s listed", tt.command, code, out, f)
			}
		}
	}
}

func TestHelpUsageLinesNameRealFlags(t *testing.T) {
	for _, l := range leaves(deskctlCmd, nil) {
		fl := flag.NewFlagSet("test", flag.ContinueOnError)
		l.cmd.flags(fl)
		for _, m := range regexp.MustCompile(`--([a-z-]+)`).FindAllStringSubmatch(l.cmd.usage, -1) {
			if fl.Lookup(m[1]) == nil {
				t.Errorf("usage of %v names --%s, which it does not define", l.names, m[1])
			}
		}
	}
}

func TestHelpFitsIn100Columns(t *testing.T) {
	t.Setenv("DIFFDESK_SOCKET", "/run/user/1000/diffdesk/desk.sock")
	check := func(args ...string) {
		out, _, _ := deskctl(t, "", args...)
		for _, line := range strings.Split(out, "\n") {
			if n := utf8.RuneCountInString(line); n > helpWidth {
				t.Errorf("deskctl %v: a line of %d columns: %q", args, n, line)
			}
		}
	}
	check("help")
	check("help", "history")
	for _, l := range leaves(deskctlCmd, nil) {
		check(append([]string{"help"}, l.names...)...)
	}
}

func TestHelpAndUsageErrors(t *testing.T) {
	tests := []struct {
		args       []string
		code       int
		out, err   string // in stdout, in stderr
		stdoutNone bool
	}{
		{[]string{"help"}, 0, "Commands:\n  apply ", "", false},
		{[]string{"--help"}, 0, "usage: deskctl COMMAND", "", false},
		{[]string{}, 2, "", "usage: deskctl COMMAND", true},
		{[]string{"nosuch"}, 2, "", "deskctl: unknown command \"nosuch\"\n\nusage: deskctl COMMAND", true},
		{[]string{"help", "nosuch"}, 2, "", "unknown command \"nosuch\"", true},
		{[]string{"serve", "--help"}, 0, "usage: deskctl serve [flags]", "", false},
		{[]string{"serve", "-h"}, 0, "\n  --journal FILE ", "", false},
		{[]string{"serve", "--nope"}, 2, "", "deskctl serve: flag provided but not defined: -nope\n\nusage: deskctl serve", true},
		{[]string{"history"}, 2, "", "usage: deskctl history COMMAND", true},
		{[]string{"history", "help"}, 0, "  restore  ", "", false},
		{[]string{"history", "help", "restore"}, 0, "usage: deskctl history restore ID [flags]", "", false},
		{[]string{"help", "history", "restore"}, 0, "\n  --to before|after ", "", false},
		{[]string{"history", "nosuch"}, 2, "", "deskctl history: unknown command \"nosuch\"", true},
		{[]string{"history", "show"}, 2, "", "want one ID\nusage: deskctl history show ID [flags]", true},
		{[]string{"hook", "codex"}, 2, "", "deskctl hook: say which agent", true},
	}
	for _, tt := range tests {
		out, errOut, code := deskctl(t, "", tt.args...)
		if code != tt.code || !strings.Contains(out, tt.out) || !strings.Contains(errOut, tt.err) || tt.stdoutNone && out != "" {
			t.Errorf("deskctl %q = exit %d, stdout %q, stderr %q; want exit %d, stdout with %q, stderr with %q",
				tt.args, code, out, errOut, tt.code, tt.out, tt.err)
		}
	}
}
