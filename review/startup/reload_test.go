package startup

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/config"
	"github.com/diffdesk/diffdesk/review/reviewtest"
	"github.com/diffdesk/diffdesk/review/workspace"
)

// A reload puts an edited user config in force in the running desk:
// protected paths and limits, for what is proposed from then on, while a
// proposal already waiting keeps waiting; what only a start reads is named.
func TestReloadPutsTheEditedConfigInForce(t *testing.T) {
	c := testConfig(t, "0s")
	b, err := Start(c)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Stop()
	waiting := proposeWrite(t, b.Desk, "notes/a.md", "a\n")
	if p := proposeWrite(t, b.Desk, "notes/b.md", "b\n"); !p.Files[0].Protected.IsZero() {
		t.Fatalf("before the reload notes/ is protected: %+v", p.Files[0].Protected)
	}

	reviewtest.WriteFile(t, c.Config, "protected = [\"notes/\"]\n[limits]\nmax_file_bytes = 100\n[doors]\ngemini = false\n")
	r, err := b.Reload()
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Files) != 1 || r.Files[0] != c.Config || len(r.Later) != 1 || !strings.Contains(r.String(), "which doors are open ([doors]) change at the next start") {
		t.Errorf("Reload() = %+v (%s); want the user file read, the doors named for the next start", r, r)
	}
	p := proposeWrite(t, b.Desk, "notes/c.md", "c\n")
	if got := p.Files[0].Protected; got.Pattern != "notes/" || !strings.HasPrefix(got.Origin, c.Config) {
		t.Errorf("after the reload notes/c.md is protected by %+v; want notes/ from %s", got, c.Config)
	}
	_, err = b.Desk.Propose(context.Background(), review.Request{Agent: "claude", Format: engine.FormatWrite, Path: "big.txt", Payload: strings.Repeat("x", 200)})
	var refusal *workspace.RefusalError
	if !errors.As(err, &refusal) || refusal.Rule != workspace.RuleTooLarge {
		t.Errorf("200 bytes after max_file_bytes = 100: %v; want refused as too large", err)
	}
	if got, _ := b.Desk.Get(waiting.ID); got.State != review.StatePending {
		t.Errorf("the proposal waiting before the reload is %s; want it still waiting", got.State)
	}
}

// A config file that does not load leaves the config in force as it was,
// and the error names the file and line.
func TestReloadOfABadFileKeepsTheConfigInForce(t *testing.T) {
	c := testConfig(t, "0s")
	reviewtest.WriteFile(t, c.Config, "protected = [\"notes/\"]\n")
	b, err := Start(c)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Stop()
	reviewtest.WriteFile(t, c.Config, "protected = [\"notes/\"\n")
	if _, err := b.Reload(); err == nil || !strings.Contains(err.Error(), c.Config) || !strings.Contains(err.Error(), "line") {
		t.Fatalf("Reload of a broken file: %v; want an error naming %s and the line", err, c.Config)
	}
	if p := proposeWrite(t, b.Desk, "notes/a.md", "a\n"); p.Files[0].Protected.Pattern != "notes/" {
		t.Errorf("after a failed reload notes/ is not protected (%+v); want the config in force kept", p.Files[0].Protected)
	}
}

// WatchConfig reloads when the user file is saved, also by an editor that
// writes a new file and renames it over the old one, and reports it; a save
// of the same bytes reloads nothing.
func TestWatchConfigReloadsOnSave(t *testing.T) {
	c := testConfig(t, "0s")
	b, err := Start(c)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Stop()
	reports := make(chan string, 10)
	stop, err := b.WatchConfig(func(r Reloaded, err error) {
		if err != nil {
			reports <- "error: " + err.Error()
			return
		}
		reports <- r.String()
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	next := func(what string) string {
		t.Helper()
		select {
		case s := <-reports:
			return s
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: no reload reported in 10s", what)
			return ""
		}
	}

	tmp := c.Config + ".new"
	reviewtest.WriteFile(t, tmp, "protected = [\"notes/\"]\n")
	if err := os.Rename(tmp, c.Config); err != nil {
		t.Fatal(err)
	}
	if s := next("rename over"); !strings.HasPrefix(s, "config read again and in force: "+c.Config) {
		t.Fatalf("after a save by rename: %q", s)
	}
	if p := proposeWrite(t, b.Desk, "notes/a.md", "a\n"); p.Files[0].Protected.Pattern != "notes/" {
		t.Errorf("after the reload notes/a.md is protected by %+v; want notes/", p.Files[0].Protected)
	}

	// The same bytes again, then a broken file: only the broken one is
	// reported.
	reviewtest.WriteFile(t, c.Config, "protected = [\"notes/\"]\n")
	reviewtest.WriteFile(t, c.Config, "protected = [\n")
	if s := next("broken file"); !strings.HasPrefix(s, "error: ") || !strings.Contains(s, c.Config) {
		t.Errorf("after a broken save: %q; want an error naming the file", s)
	}
	select {
	case s := <-reports:
		t.Errorf("a further report: %q", s)
	default:
	}
}

// A .diffdesk.toml that changes after the person was shown it is not
// trusted by their answer: Trust refuses content it was not shown, and the
// reload says there is something new to ask about.
func TestTrustRefusesContentChangedSinceShown(t *testing.T) {
	c := testConfig(t, "0s")
	file := filepath.Join(c.Roots[0], config.FileName)
	reviewtest.WriteFile(t, file, hostileRepo)
	b, _ := startRepo(t, c)
	shown := b.Untrusted()
	if len(shown) != 1 {
		t.Fatalf("untrusted %+v; want the repository's file", shown)
	}
	reviewtest.WriteFile(t, file, strings.Replace(hostileRepo, "id > pwned", "id > pwned2", 1))
	r, err := b.Reload()
	if err != nil || !r.Untrusted {
		t.Fatalf("Reload() = %+v, %v; want new untrusted content named", r, err)
	}
	if err := b.Trust(shown[0]); err == nil || !strings.Contains(err.Error(), "changed since it was shown") {
		t.Fatalf("Trust of the content shown before the change: %v; want refused", err)
	}
	store, err := config.ReadTrust(config.TrustPath(c.Config))
	if err != nil {
		t.Fatal(err)
	}
	if store.Trusts(file, b.Untrusted()[0].SHA256) || store.Trusts(file, shown[0].SHA256) {
		t.Error("the trust store holds the file after a refused Trust")
	}
	if err := b.Trust(b.Untrusted()[0]); err != nil {
		t.Errorf("Trust of the content now shown: %v", err)
	}
}
