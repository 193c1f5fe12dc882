//go:build unix

package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// keepOwner gives the temp file the owner and group of the file it
// replaces, so a desk running as root (say, in a container over a mounted
// workspace) does not leave files the user can no longer edit. Without the
// privilege to chown (the usual case: same user) it does nothing.
func keepOwner(tmp *os.File, old fs.FileInfo) error {
	st, ok := old.Sys().(*syscall.Stat_t)
	if !ok || (int(st.Uid) == os.Geteuid() && int(st.Gid) == os.Getegid()) {
		return nil
	}
	err := tmp.Chown(int(st.Uid), int(st.Gid))
	if errors.Is(err, fs.ErrPermission) {
		return nil
	}
	return err
}
