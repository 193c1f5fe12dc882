package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/diffdesk/diffdesk/ui"
)

func TestCompareArgs(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		old, new string
		ok       bool
	}{
		{[]string{"a.go", "b.go"}, "a.go", "b.go", true},
		{[]string{"--", "-a", "b"}, "-a", "b", true},
		{[]string{"--path", "sub/a.go", "/tmp/x/a.go", "sub/a.go"}, "/tmp/x/a.go", "sub/a.go", true},
		{[]string{"--path=sub/a.go", "--", "-x", "y"}, "-x", "y", true},
		{[]string{"--path", "p", "a"}, "", "", false},
		{[]string{"--path="}, "", "", false},
		{[]string{"--workspace", "dir"}, "", "", false}, // a flag and its value: the desk
		{[]string{"a.go"}, "", "", false},
		{[]string{"a", "b", "c"}, "", "", false},
		{nil, "", "", false},
	} {
		old, new, _, ok := compareArgs(tc.args)
		if old != tc.old || new != tc.new || ok != tc.ok {
			t.Errorf("compareArgs(%q) = %q, %q, %v; want %q, %q, %v", tc.args, old, new, ok, tc.old, tc.new, tc.ok)
		}
	}
}

// shown is what compare handed the window, if it opened one.
type shown struct {
	old, new ui.CompareSide
	note     string
	opened   bool
}

func runCompare(t *testing.T, a, b string) (code int, out, errOut string, s shown) {
	t.Helper()
	var o, e bytes.Buffer
	code = compare(a, b, gitLabel{}, &o, &e, func(x, y ui.CompareSide, note string) int {
		s = shown{x, y, note, true}
		return 0
	})
	return code, o.String(), e.String(), s
}

func write(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestCompareArguments: what `diffdesk OLD NEW` does with each kind of
// argument git difftool (or a person) gives it.
func TestCompareArguments(t *testing.T) {
	dir := t.TempDir()
	a := write(t, dir, "a.go", "package a\n")
	b := write(t, dir, "b.go", "package b\n")
	latin := write(t, dir, "latin.txt", "caf\xe9\n")
	bin1 := write(t, dir, "x.bin", "\x00\x01\x02")
	bin2 := write(t, dir, "y.bin", "\x00\x01\x03")
	bin3 := write(t, dir, "z.bin", "\x00\x01\x02")

	t.Run("two text files", func(t *testing.T) {
		code, _, _, s := runCompare(t, a, b)
		if code != 0 || !s.opened || s.old.Text != "package a\n" || s.new.Text != "package b\n" || s.note != "" {
			t.Errorf("code %d, shown %+v", code, s)
		}
	})
	t.Run("added and deleted: /dev/null", func(t *testing.T) {
		_, _, _, s := runCompare(t, os.DevNull, b)
		if !s.opened || !s.old.Missing || s.new.Missing || s.new.Text != "package b\n" {
			t.Errorf("added: shown %+v", s)
		}
		_, _, _, s = runCompare(t, a, os.DevNull)
		if !s.opened || s.old.Missing || !s.new.Missing {
			t.Errorf("deleted: shown %+v", s)
		}
		code, _, errOut, s := runCompare(t, os.DevNull, os.DevNull)
		if code != 2 || s.opened || !strings.Contains(errOut, "nothing to compare") {
			t.Errorf("both /dev/null: code %d, %q, opened %v", code, errOut, s.opened)
		}
	})
	t.Run("binary", func(t *testing.T) {
		code, out, _, s := runCompare(t, bin1, bin2)
		if code != 1 || s.opened || !strings.Contains(out, "Binary files "+bin1+" and "+bin2+" differ") {
			t.Errorf("binary files that differ: code %d, %q, opened %v", code, out, s.opened)
		}
		code, out, _, s = runCompare(t, bin1, bin3)
		if code != 0 || s.opened || !strings.Contains(out, "are the same") {
			t.Errorf("binary files that are the same: code %d, %q, opened %v", code, out, s.opened)
		}
		code, out, _, s = runCompare(t, os.DevNull, bin1)
		if code != 1 || s.opened || !strings.Contains(out, "differ") {
			t.Errorf("an added binary file: code %d, %q, opened %v", code, out, s.opened)
		}
	})
	t.Run("not UTF-8", func(t *testing.T) {
		_, _, _, s := runCompare(t, a, latin)
		if !s.opened || s.new.Text != "caf\uFFFD\n" || !strings.Contains(s.note, "latin.txt is not all UTF-8") {
			t.Errorf("shown %+v", s)
		}
	})
	t.Run("a pipe, and a device that never ends", func(t *testing.T) {
		fifo := filepath.Join(dir, "fifo")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skip(err)
		}
		go func() { os.WriteFile(fifo, []byte("package p\n"), 0o600) }()
		if _, _, _, s := runCompare(t, a, fifo); !s.opened || s.new.Text != "package p\n" {
			t.Errorf("a pipe (diffdesk <(…) <(…)): shown %+v", s)
		}
		if _, err := os.Stat("/dev/zero"); err != nil {
			return
		}
		code, out, _, s := runCompare(t, a, "/dev/zero")
		if code != 2 && code != 1 || s.opened || !strings.Contains(out, "Binary files") {
			t.Errorf("/dev/zero: code %d, %q, opened %v; want it said binary, at once", code, out, s.opened)
		}
	})
	t.Run("missing file", func(t *testing.T) {
		code, _, errOut, s := runCompare(t, a, filepath.Join(dir, "nope.go"))
		if code != 2 || s.opened || !strings.Contains(errOut, "nope.go") {
			t.Errorf("code %d, %q, opened %v", code, errOut, s.opened)
		}
	})
	t.Run("directories: git difftool -d", func(t *testing.T) {
		l, r := filepath.Join(dir, "left"), filepath.Join(dir, "right")
		write(t, l, "same.go", "x\n")
		write(t, r, "same.go", "x\n")
		write(t, l, "sub/changed.go", "1\n")
		write(t, r, "sub/changed.go", "2\n")
		write(t, l, "gone.go", "x\n")
		write(t, r, "new.go", "x\n")
		code, _, errOut, s := runCompare(t, l, r)
		want := "3 files differ:\n  deleted  gone.go\n  added    new.go\n  changed  sub/changed.go\nRun git difftool without -d"
		if code != 2 || s.opened || !strings.Contains(errOut, want) || !strings.Contains(errOut, "are directories") {
			t.Errorf("code %d, opened %v, stderr:\n%s\nwant:\n%s", code, s.opened, errOut, want)
		}
		code, _, errOut, _ = runCompare(t, l, a)
		if code != 2 || !strings.Contains(errOut, l+" is a directory and "+a+" is not") {
			t.Errorf("a directory and a file: code %d, %q", code, errOut)
		}
	})
}
