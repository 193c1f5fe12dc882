package startup

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/diffdesk/diffdesk/review/config"
)

// Config returns the config in force: as loaded at start, with the rules
// of files trusted since (Trust).
func (b *Backend) Config() config.Config {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.cfg
}

// Untrusted returns the workspace config files whose rules are off
// because the person has not trusted them (config.Config.Untrusted).
func (b *Backend) Untrusted() []config.WorkspaceFile {
	return b.Config().Untrusted()
}

// Trust records the person's trust in f, a .diffdesk.toml that Untrusted
// listed and the person was shown, in the trust store, and turns its rules
// on in the running desk. What is trusted is exactly the content shown: the
// file is not read again, and if a reload (Reload) has read other content
// since, nothing is trusted — the person is asked about the new content.
func (b *Backend) Trust(f config.WorkspaceFile) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	un := b.cfg.Untrusted()
	i := slices.IndexFunc(un, func(u config.WorkspaceFile) bool { return u.Root == f.Root })
	if i < 0 {
		return fmt.Errorf("workspace %s has no untrusted config file to trust", f.Root)
	}
	if un[i].SHA256 != f.SHA256 {
		return fmt.Errorf("%s changed since it was shown to you, so it is not trusted; look at it again", f.File)
	}
	if err := config.UpdateTrust(config.TrustPath(b.userFile), func(s *config.TrustStore) error {
		s.Add(un[i], time.Now())
		return nil
	}); err != nil {
		return err
	}
	b.cfg, _ = b.cfg.WithTrusted(f.Root)
	b.Desk.SetConfig(b.cfg)
	return nil
}

// TrustCommand is the deskctl command that trusts root's .diffdesk.toml
// for this desk: with --config when its user config is not the default.
func (b *Backend) TrustCommand(root string) string {
	return trustCommand(b.userFile, root)
}

func trustCommand(userFile, root string) string {
	if def, err := config.DefaultPath(); err != nil || def != userFile {
		return "deskctl trust --config " + userFile + " " + root
	}
	return "deskctl trust " + root
}

// trustText says which repository rules are off, and the deskctl command
// that turns them on for the user config userFile.
func trustText(c config.Config, userFile string) string {
	var s strings.Builder
	for _, f := range c.Untrusted() {
		fmt.Fprintf(&s, "repository rules off: %s is not trusted (a repository's config may run programs and approve edits, so its rules wait for you):\n", f.File)
		for _, r := range f.Rules() {
			fmt.Fprintf(&s, "  %s\n", r)
		}
		fmt.Fprintf(&s, "  to trust this exact content: %s\n", trustCommand(userFile, f.Root))
	}
	return s.String()
}

// ruleOrigins lists where the auto_approve rules in force are written.
func ruleOrigins(rules []config.AutoApproveRule) string {
	at := make([]string, len(rules))
	for i, r := range rules {
		at[i] = r.Origin
	}
	return strings.Join(at, "; ")
}
