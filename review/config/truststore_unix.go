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

// checkUserConfigOwner refuses a user config file someone else controls,
// as the trust store is refused: its formatters and checkers run and its
// rules approve, so a file another user owns or may write could run
// their commands as you.
func checkUserConfigOwner(path string, fi fs.FileInfo) error {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return &Error{File: path, Msg: fmt.Sprintf("belongs to user %d, not you (%d): its commands would run as you; DiffDesk reads no user config someone else controls: take it over (cp it, then use the copy) or remove it", st.Uid, os.Getuid())}
	}
	if perm := fi.Mode().Perm(); perm&0o022 != 0 {
		return &Error{File: path, Msg: fmt.Sprintf("may be written by others (mode %04o): they could put commands in it that run as you; run chmod go-w %s", perm, path)}
	}
	return nil
}
