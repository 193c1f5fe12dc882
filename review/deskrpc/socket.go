package deskrpc

import (
	"errors"
	"fmt"
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

// Listen opens the desk's Unix socket at path: its directory is created
// 0700, the socket is 0600, and a socket left behind by a desk that died is
// replaced. A live desk on the same path is an error wrapping ErrDeskRunning.
func Listen(path string) (*net.UnixListener, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("creating socket directory %s: %w", dir, err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return nil, fmt.Errorf("securing socket directory %s: %w", dir, err)
	}
	if _, err := os.Lstat(path); err == nil {
		c, err := net.DialTimeout("unix", path, time.Second)
		if err == nil {
			c.Close()
			return nil, fmt.Errorf("%w at %s", ErrDeskRunning, path)
		}
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("removing stale socket %s: %w", path, err)
		}
	}
	// The 0700 directory guards the moment between bind and chmod; the
	// umask is process-wide and not ours to change.
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
