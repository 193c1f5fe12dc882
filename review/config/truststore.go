package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"github.com/diffdesk/diffdesk/review/atomicfile"
	"github.com/gofrs/flock"
)

// TrustFileName is the trust store's name, beside the user config file:
// whoever may write there may already set formatters in config.toml, so
// the store grants nothing new to anyone.
const TrustFileName = "trusted.json"

// maxTrustFileBytes bounds the trust store (4 MiB).
const maxTrustFileBytes = 4 << 20

// TrustPath returns the trust store of the user config file userFile.
func TrustPath(userFile string) string {
	return filepath.Join(filepath.Dir(userFile), TrustFileName)
}

// TrustRecord is the person's trust in one root's .diffdesk.toml.
type TrustRecord struct {
	Root    string    `json:"root"`    // the workspace root, absolute and symlink-resolved
	File    string    `json:"file"`    // its .diffdesk.toml
	SHA256  string    `json:"sha256"`  // the trusted content's hash; any other content is untrusted
	Trusted time.Time `json:"trusted"` // when
	Rules   []string  `json:"rules"`   // what the file turned on, as the person was shown it (WorkspaceFile.Rules)
}

// TrustStore is the person's record of trusted workspace config files:
// one record per root, for one exact content. It is a JSON file, mode
// 0600, saved atomically; both diffdesk and deskctl read it. Changes go
// through UpdateTrust, which holds a file lock from the read to the save,
// so two changes at the same instant (a --revoke and a --yes) both last.
type TrustStore struct {
	Path    string
	Records []TrustRecord // by root
}

// trustFile is the store's JSON.
type trustFile struct {
	Version int           `json:"version"`
	Files   []TrustRecord `json:"files"`
}

// ReadTrust reads the trust store at path; a missing file is an empty
// store. A store that another user owns, or that others may write, is an
// error: its records could trust a repository's commands for you.
func ReadTrust(path string) (*TrustStore, error) {
	s := &TrustStore{Path: path}
	// Without blocking: a FIFO in the store's place is refused below,
	// not waited on (start-up once hung there with no message).
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the trust store: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("reading the trust store: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("trust store %s is not a regular file (%s); remove it, and trust your repositories again", path, fi.Mode().Type())
	}
	if err := checkTrustOwner(path, fi); err != nil {
		return nil, err
	}
	if fi.Size() > maxTrustFileBytes {
		return nil, fmt.Errorf("trust store %s is %d bytes, more than the %d a store may hold; remove it and trust your repositories again", path, fi.Size(), maxTrustFileBytes)
	}
	var tf trustFile
	if err := json.NewDecoder(f).Decode(&tf); err != nil {
		return nil, fmt.Errorf("trust store %s is not valid: %v; remove it and trust your repositories again", path, err)
	}
	if tf.Version != 1 {
		return nil, fmt.Errorf("trust store %s has version %d; this DiffDesk reads version 1", path, tf.Version)
	}
	s.Records = tf.Files
	return s, nil
}

// Trusts reports whether the store trusts root's config file with the
// content hash sha256; it is a Trust.
func (s *TrustStore) Trusts(root, sha256 string) bool {
	i := s.find(root)
	return i >= 0 && s.Records[i].SHA256 == sha256
}

// Record returns root's record, if any.
func (s *TrustStore) Record(root string) (TrustRecord, bool) {
	if i := s.find(root); i >= 0 {
		return s.Records[i], true
	}
	return TrustRecord{}, false
}

func (s *TrustStore) find(root string) int {
	return slices.IndexFunc(s.Records, func(r TrustRecord) bool { return r.Root == root })
}

// Add trusts f's content for its root from now, replacing any earlier
// record for the root. Save keeps it.
func (s *TrustStore) Add(f WorkspaceFile, now time.Time) {
	r := TrustRecord{Root: f.Root, File: f.File, SHA256: f.SHA256, Trusted: now.UTC().Truncate(time.Second), Rules: f.Rules()}
	if i := s.find(f.Root); i >= 0 {
		s.Records[i] = r
		return
	}
	s.Records = append(s.Records, r)
}

// Revoke drops root's record; false if it had none. Save keeps it.
func (s *TrustStore) Revoke(root string) bool {
	i := s.find(root)
	if i < 0 {
		return false
	}
	s.Records = slices.Delete(s.Records, i, i+1)
	return true
}

// UpdateTrust changes the trust store at path under an exclusive lock on
// path.lock (gofrs/flock: flock(2)), held from reading the store to saving
// it: change is given the store as it is now, and what it leaves is saved
// unless it returns an error. Without the lock a revoke and a trust at the
// same moment each read the old store, and the later save undid the other
// (28 of 60 runs undid a --revoke that had printed success).
func UpdateTrust(path string, change func(*TrustStore) error) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("locking the trust store: %w", err)
	}
	lock := flock.New(path+".lock", flock.SetPermissions(0o600))
	if err := lock.Lock(); err != nil {
		return fmt.Errorf("locking the trust store %s: %w", path, err)
	}
	defer lock.Unlock()
	s, err := ReadTrust(path)
	if err != nil {
		return err
	}
	if err := change(s); err != nil {
		return err
	}
	return s.Save()
}

// Save writes the store atomically, mode 0600, creating its directory
// (0700) if needed.
func (s *TrustStore) Save() error {
	if err := os.MkdirAll(filepath.Dir(s.Path), 0o700); err != nil {
		return fmt.Errorf("saving the trust store: %w", err)
	}
	data, err := json.MarshalIndent(trustFile{Version: 1, Files: s.Records}, "", "  ")
	if err != nil {
		return err
	}
	if _, err := atomicfile.Save(s.Path, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("saving the trust store: %w", err)
	}
	return nil
}
