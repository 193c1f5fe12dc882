//go:build unix

package config

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// checkTrustOwner refuses a trust store another user owns or others may
// write.
func checkTrustOwner(path string, fi fs.FileInfo) error {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return fmt.Errorf("trust store %s belongs to user %d, not you (%d); remove it: DiffDesk trusts no repository rules from a file someone else controls", path, st.Uid, os.Getuid())
	}
	if perm := fi.Mode().Perm(); perm&0o022 != 0 {
		return fmt.Errorf("trust store %s may be written by others (mode %04o); run chmod 600 %s, or remove it and trust your repositories again", path, perm, path)
	}
	return nil
}
