package deskrpc

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// DefaultSocketPath returns where the desk listens unless told otherwise:
// $DIFFDESK_SOCKET, else $XDG_RUNTIME_DIR/diffdesk/desk.sock, else
// /tmp/diffdesk-<uid>/desk.sock.
func DefaultSocketPath() string {
	if p := os.Getenv("DIFFDESK_SOCKET"); p != "" {
		return p
	}
	if dir := os.Getenv("XDG_RUNTIME_DIR"); dir != "" {
		return filepath.Join(dir, "diffdesk", "desk.sock")
	}
	return filepath.Join(os.TempDir(), fmt.Sprintf("diffdesk-%d", os.Getuid()), "desk.sock")
}

// ErrDeskRunning is returned by Listen when another desk answers on the socket.
var ErrDeskRunning = errors.New("a desk is already running")

// ErrUnsafeSocket is wrapped by the errors of Listen and Dial when the
// socket or its directory could let another local user in: owned by
// someone else, or writable by others.
var ErrUnsafeSocket = errors.New("unsafe desk socket")

// Listen opens the desk's Unix socket at path. A missing directory is
// created 0700; an existing one must be this user's and writable by no one
// else — it is checked, never changed. The socket is 0600. A socket left
// behind by a desk that died (a socket file of this user's that refuses
// connections) is replaced; anything else at path is left alone and is an
// error. A live desk on the same path is an error wrapping ErrDeskRunning.
func Listen(path string) (*net.UnixListener, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("creating socket directory %s: %w", dir, err)
	}
	if err := checkDir(dir); err != nil {
		return nil, err
	}
	if err := removeStale(path); err != nil {
		return nil, err
	}
	// The directory, writable by this user alone, guards the moment
	// between bind and chmod; the umask is process-wide and not ours to
	// change.
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("listening on %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		l.Close()
		return nil, fmt.Errorf("securing socket %s: %w", path, err)
	}
	return l, nil
}

// removeStale removes a socket a dead desk left at path. A live desk there
// is ErrDeskRunning; anything that is not this user's socket, or a socket
// that does not plainly refuse connections, is left alone and is an error.
func removeStale(path string) error {
	st, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("checking socket %s: %w", path, err)
	}
	if err := checkSocketFile(path, st); err != nil {
		return fmt.Errorf("%w; the desk replaces only a socket it left behind: move it away or choose another --socket", err)
	}
	c, err := net.DialTimeout("unix", path, time.Second)
	if err == nil {
		c.Close()
		return fmt.Errorf("%w at %s", ErrDeskRunning, path)
	}
	if !errors.Is(err, syscall.ECONNREFUSED) {
		return fmt.Errorf("socket %s is there but neither answers nor refuses (%v); remove it if no desk runs", path, err)
	}
	if err := os.Remove(path); err != nil {
		return fmt.Errorf("removing stale socket %s: %w", path, err)
	}
	return nil
}

// checkDir refuses a socket directory another user could use to take the
// agents' connections: one that is not a directory, belongs to someone
// else, or is writable by group or others.
func checkDir(dir string) error {
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("checking socket directory %s: %w", dir, err)
	}
	if !st.IsDir() {
		return fmt.Errorf("%w: %s is not a directory", ErrUnsafeSocket, dir)
	}
	return ownedPrivately("socket directory", dir, ownerOf(st), st.Mode(), os.Getuid())
}

// checkSocketFile refuses what stands at a socket path (st, from Lstat)
// unless it is a socket of this user's.
func checkSocketFile(path string, st fs.FileInfo) error {
	if st.Mode().Type() != fs.ModeSocket {
		return fmt.Errorf("%w: %s is not a socket (%s)", ErrUnsafeSocket, path, st.Mode().Type())
	}
	return ownedPrivately("socket", path, ownerOf(st), st.Mode(), os.Getuid())
}

// ownedPrivately checks a socket or its directory (what, at path): owned by
// uid (owner), and writable by no one else (mode).
func ownedPrivately(what, path string, owner int, mode fs.FileMode, uid int) error {
	if owner != uid {
		return fmt.Errorf("%w: %s %s belongs to uid %d, not to you (uid %d): another user could read your agents' edits there; "+
			"remove it, or choose another place (--socket, $XDG_RUNTIME_DIR)", ErrUnsafeSocket, what, path, owner, uid)
	}
	if mode.Perm()&0o022 != 0 {
		return fmt.Errorf("%w: %s %s is writable by other users (mode %v): a desk's socket needs a directory only you can write, "+
			"such as a new one inside it (it is created 0700: --socket %s)", ErrUnsafeSocket, what, path, mode.Perm(),
			filepath.Join(path, fmt.Sprintf("diffdesk-%d", uid), "desk.sock"))
	}
	return nil
}

// ownerOf returns the uid owning the file st describes; -1 if unknown.
func ownerOf(st fs.FileInfo) int {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return int(s.Uid)
	}
	return -1
}

// checkSocket is what a client checks before it connects to path: a
// socket of this user's in a directory of this user's that no one else
// can write. A missing socket is fs.ErrNotExist.
func checkSocket(path string) error {
	st, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if err := checkDir(filepath.Dir(path)); err != nil {
		return err
	}
	return checkSocketFile(path, st)
}

// peerIsUs reports whether the process at the other end of c runs as this
// process's user.
func peerIsUs(c *net.UnixConn) bool {
	raw, err := c.SyscallConn()
	if err != nil {
		return false
	}
	var cred *syscall.Ucred
	var credErr error
	err = raw.Control(func(fd uintptr) {
		cred, credErr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	})
	if err != nil || credErr != nil {
		return false
	}
	return int(cred.Uid) == os.Getuid()
}
