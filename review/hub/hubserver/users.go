package hubserver

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/diffdesk/diffdesk/review/hub"
	"github.com/nats-io/nkeys"
)

// Roles a hub user may have.
const (
	RoleDesk     = "desk"     // publishes its own proposals and outcomes, reads the decisions on them
	RoleReviewer = "reviewer" // reads every desk's queue, creates decisions
)

// User is one user of the hub: a name (one subject token), a role, and
// the public NKey it proves itself with.
type User struct {
	Name string `json:"name"`
	Role string `json:"role"`
	NKey string `json:"nkey"`
}

// Users is the hub's users file (users.json in its directory).
type Users struct {
	Users []User `json:"users"`
	// RouteSecret is the password the servers of a cluster give each
	// other; every server of one cluster has the same.
	RouteSecret string `json:"routeSecret"`
}

// The hub directory's files.
const (
	usersFile = "users.json"
	credsDir  = "creds"
)

// Init makes a hub directory (0700): an empty users file with a fresh
// route secret. An existing one is left as it is.
func Init(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if err := checkPrivate(dir); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(dir, usersFile)); err == nil {
		return nil
	}
	var b [24]byte
	rand.Read(b[:])
	return writeUsers(dir, Users{Users: []User{}, RouteSecret: hex.EncodeToString(b[:])})
}

// LoadUsers reads the hub directory's users file.
func LoadUsers(dir string) (Users, error) {
	if err := checkPrivate(dir); err != nil {
		return Users{}, err
	}
	data, err := os.ReadFile(filepath.Join(dir, usersFile))
	if errors.Is(err, fs.ErrNotExist) {
		return Users{}, fmt.Errorf("hubserver: %s has no %s; run `deskctl hub init --dir %s` first", dir, usersFile, dir)
	}
	if err != nil {
		return Users{}, err
	}
	var u Users
	if err := json.Unmarshal(data, &u); err != nil {
		return Users{}, fmt.Errorf("hubserver: %s: %w", filepath.Join(dir, usersFile), err)
	}
	for i, x := range u.Users {
		if err := hub.CheckName(x.Name); err != nil {
			return Users{}, fmt.Errorf("hubserver: %s, user %d: %w", usersFile, i+1, err)
		}
		if x.Role != RoleDesk && x.Role != RoleReviewer {
			return Users{}, fmt.Errorf("hubserver: %s, user %q: role %q is neither %q nor %q", usersFile, x.Name, x.Role, RoleDesk, RoleReviewer)
		}
		if !nkeys.IsValidPublicUserKey(x.NKey) {
			return Users{}, fmt.Errorf("hubserver: %s, user %q: %q is not a public user NKey", usersFile, x.Name, x.NKey)
		}
	}
	if u.RouteSecret == "" {
		return Users{}, fmt.Errorf("hubserver: %s has no routeSecret", usersFile)
	}
	return u, nil
}

// AddUser issues a new user of the hub: a fresh NKey pair, whose public
// key goes in the users file and whose seed is written (0600) to
// creds/NAME.nk in the hub directory, and returned: hand it to that desk
// or reviewer and to no one else. A name already used is an error.
func AddUser(dir, name, role string) (seedFile string, err error) {
	if err := hub.CheckName(name); err != nil {
		return "", err
	}
	if role != RoleDesk && role != RoleReviewer {
		return "", fmt.Errorf("hubserver: role %q: a user is a %q or a %q", role, RoleDesk, RoleReviewer)
	}
	u, err := LoadUsers(dir)
	if err != nil {
		return "", err
	}
	for _, x := range u.Users {
		if x.Name == name {
			return "", fmt.Errorf("hubserver: %q is already a %s of this hub; pick another name", name, x.Role)
		}
	}
	kp, err := nkeys.CreateUser()
	if err != nil {
		return "", err
	}
	seed, _ := kp.Seed()
	pub, _ := kp.PublicKey()
	if err := os.MkdirAll(filepath.Join(dir, credsDir), 0o700); err != nil {
		return "", err
	}
	seedFile = filepath.Join(dir, credsDir, name+".nk")
	if err := os.WriteFile(seedFile, append(seed, '\n'), 0o600); err != nil {
		return "", err
	}
	u.Users = append(u.Users, User{Name: name, Role: role, NKey: pub})
	return seedFile, writeUsers(dir, u)
}

func writeUsers(dir string, u Users) error {
	data, _ := json.MarshalIndent(u, "", "  ")
	tmp := filepath.Join(dir, usersFile+".tmp")
	if err := os.WriteFile(tmp, append(data, '\n'), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, usersFile))
}

// checkPrivate refuses a hub directory others can read or write: it
// holds the users' seeds.
func checkPrivate(dir string) error {
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("hubserver: the hub directory: %w", err)
	}
	if !st.IsDir() {
		return fmt.Errorf("hubserver: %s is not a directory", dir)
	}
	if st.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("hubserver: the hub directory %s is mode %o and holds the users' seeds: chmod 700 %s", dir, st.Mode().Perm(), dir)
	}
	return nil
}
