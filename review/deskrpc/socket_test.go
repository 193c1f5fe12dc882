package deskrpc

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// privateDir is a short temporary directory of this user's, mode 0700,
// removed when the test ends (socket paths must stay short).
func privateDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "dd")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		os.Chmod(dir, 0o700)
		os.RemoveAll(dir)
	})
	return dir
}

// listenPrivate listens on a socket in a new private directory.
func listenPrivate(t *testing.T) (string, *net.UnixListener) {
	t.Helper()
	path := filepath.Join(privateDir(t), "desk.sock")
	l, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, l
}

// TestListenLeavesASharedDirectoryAlone: --socket in a directory others can
// write (as /tmp is) is refused, and the directory keeps its mode.
func TestListenLeavesASharedDirectoryAlone(t *testing.T) {
	dir := privateDir(t)
	if err := os.Chmod(dir, 0o777|fs.ModeSticky); err != nil {
		t.Fatal(err)
	}
	l, err := Listen(filepath.Join(dir, "desk.sock"))
	if err == nil {
		l.Close()
	}
	if !errors.Is(err, ErrUnsafeSocket) || !strings.Contains(err.Error(), "writable by other users") {
		t.Errorf("Listen in a mode 1777 directory: %v; want ErrUnsafeSocket saying others can write it", err)
	}
	st, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Mode() & (fs.ModePerm | fs.ModeSticky); got != 0o777|fs.ModeSticky {
		t.Errorf("the directory's mode after Listen is %v; want it untouched (1777)", got)
	}
}

// TestListenCreatesItsOwnDirectoryInASharedOne: the way out the refusal
// suggests — a new directory inside the shared one — is created 0700.
func TestListenCreatesItsOwnDirectoryInASharedOne(t *testing.T) {
	shared := privateDir(t)
	if err := os.Chmod(shared, 0o777|fs.ModeSticky); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(shared, "mine", "desk.sock")
	l, err := Listen(path)
	if err != nil {
		t.Fatalf("Listen in a new directory: %v", err)
	}
	defer l.Close()
	if st, err := os.Stat(filepath.Dir(path)); err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("the new socket directory: %v, %v; want mode 0700", st.Mode(), err)
	}
}

// TestListenLeavesAFileAtThePathAlone: only a socket a dead desk left is
// replaced; a regular file at the path is an error and stays as it was.
func TestListenLeavesAFileAtThePathAlone(t *testing.T) {
	path := filepath.Join(privateDir(t), "desk.sock")
	reviewtest.WriteFile(t, path, "not a socket\n")
	l, err := Listen(path)
	if err == nil {
		l.Close()
	}
	if !errors.Is(err, ErrUnsafeSocket) || !strings.Contains(err.Error(), "not a socket") {
		t.Errorf("Listen over a regular file: %v; want ErrUnsafeSocket saying it is not a socket", err)
	}
	if got := reviewtest.ReadFile(t, path); got != "not a socket\n" {
		t.Errorf("the file at the socket path now holds %q; want it untouched", got)
	}
}

// TestOwnedPrivately: a socket or directory of another user's is refused
// (the desk's own and the client's check), as is one others can write.
// Tests cannot create another user's files, so the owner is injected.
func TestOwnedPrivately(t *testing.T) {
	const me = 1000
	for _, tt := range []struct {
		owner int
		mode  fs.FileMode
		want  string // in the error; "" for none
	}{
		{me, 0o700, ""},
		{me, 0o755, ""},
		{me, 0o600, ""},
		{me + 1, 0o700, "belongs to uid 1001, not to you (uid 1000)"},
		{0, 0o700, "belongs to uid 0"},
		{me, 0o770, "writable by other users"},
		{me, 0o777 | fs.ModeSticky, "writable by other users"},
		{me, 0o602, "writable by other users"},
	} {
		err := ownedPrivately("socket directory", "/tmp/diffdesk-1000", tt.owner, tt.mode, me)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("ownedPrivately(owner %d, mode %v) = %v; want nil", tt.owner, tt.mode, err)
		case tt.want != "" && (!errors.Is(err, ErrUnsafeSocket) || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("ownedPrivately(owner %d, mode %v) = %v; want ErrUnsafeSocket saying %q", tt.owner, tt.mode, err, tt.want)
		}
	}
}

// TestDialChecksTheSocketFirst: a client sends nothing to a desk socket in
// a directory others can write (where anyone could have put it).
func TestDialChecksTheSocketFirst(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path := serveTestDesk(t, d.Desk)
	dir := filepath.Dir(path)
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o700)
	cl, err := Dial(path)
	if err == nil {
		cl.Close()
	}
	if !errors.Is(err, ErrUnsafeSocket) {
		t.Errorf("Dial through a mode 0777 directory: %v; want ErrUnsafeSocket", err)
	}
}

// TestDialRefusesANonSocket: a regular file at the socket path is not
// mistaken for a missing desk.
func TestDialRefusesANonSocket(t *testing.T) {
	path := filepath.Join(privateDir(t), "desk.sock")
	reviewtest.WriteFile(t, path, "")
	if _, err := Dial(path); !errors.Is(err, ErrUnsafeSocket) || !strings.Contains(err.Error(), "not a socket") {
		t.Errorf("Dial to a regular file: %v; want ErrUnsafeSocket saying it is not a socket", err)
	}
}
