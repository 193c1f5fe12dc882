package review_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/config"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// heldDesk is a desk with a person at it and a.txt holding "one two
// three", and a held failure: an edit whose old_string matches nowhere.
func heldDesk(t *testing.T) (*reviewtest.Desk, review.Proposal) {
	t.Helper()
	d := reviewtest.NewDesk(t, "", "")
	d.PersonAtDesk(t)
	reviewtest.WriteFile(t, filepath.Join(d.Root, "a.txt"), "one\ntwo\nthree\n")
	p := d.MustPropose(t, engine.FormatEdit, "a.txt", `{"old_string":"tow","new_string":"2"}`)
	if p.State != review.StateHeld || p.Mismatch == nil {
		t.Fatalf("proposal %s mismatch %+v; want a held failure", p.State, p.Mismatch)
	}
	if o, ok := d.Outcome(p.ID); ok {
		t.Fatalf("a held failure's outcome was sent at once: %+v", o)
	}
	return d, p
}

// Dismiss sends the held failure: the agent reads the text it would have
// read at once, and the file is untouched.
func TestHeldFailureDismiss(t *testing.T) {
	d, p := heldDesk(t)
	if l := d.List(); len(l) != 1 || l[0].ID != p.ID {
		t.Errorf("List() = %d proposals; want the held failure", len(l))
	}
	d.Forget(p.ID)
	if _, ok := d.Get(p.ID); !ok {
		t.Fatal("Forget dropped a held failure its agent still waits on")
	}
	if _, err := d.Decide(context.Background(), p.ID, review.Decision{Verdict: decision.Approved}); err == nil || !strings.Contains(err.Error(), "place its block") {
		t.Errorf("Decide on a held failure: %v; want a refusal saying to place or dismiss it", err)
	}
	if err := d.Dismiss(context.Background(), p.ID); err != nil {
		t.Fatal(err)
	}
	o := reviewtest.WaitOutcome(t, d.Desk, p.ID)
	if o.Status != decision.Failed || agenttext.Outcome(o) != agenttext.Failure(p.Failure) || !strings.Contains(agenttext.Outcome(o), "tow") {
		t.Errorf("outcome %s %q; want failed with the failure text %q", o.Status, agenttext.Outcome(o), agenttext.Failure(p.Failure))
	}
	if q, _ := d.Get(p.ID); q.State == review.StateHeld {
		t.Error("still held after Dismiss")
	}
	if got := reviewtest.ReadFile(t, filepath.Join(d.Root, "a.txt")); got != "one\ntwo\nthree\n" {
		t.Errorf("file = %q; want it untouched", got)
	}
	if err := d.Dismiss(context.Background(), p.ID); err != nil {
		t.Errorf("Dismiss again: %v; want nothing to do", err)
	}
	if _, err := d.Place(context.Background(), p.ID, "", 1, engine.Region{StartLine: 2, EndLine: 2}); err == nil || !strings.Contains(err.Error(), "the agent was told") {
		t.Errorf("Place after Dismiss: %v; want a refusal: the agent was told it failed", err)
	}
}

// A pick makes the held failure pending; the approval writes the block
// there, and the one outcome the agent gets says which lines the person
// chose.
func TestHeldFailurePlaced(t *testing.T) {
	d, p := heldDesk(t)
	q, err := d.Place(context.Background(), p.ID, "", 1, engine.Region{StartLine: 2, EndLine: 2})
	if err != nil {
		t.Fatal(err)
	}
	if q.State != review.StatePending {
		t.Fatalf("placed: %s; want pending, no longer held", q.State)
	}
	if err := d.Dismiss(context.Background(), p.ID); err == nil {
		t.Error("Dismiss on a pending proposal: no error; want one saying to decide it")
	}
	d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Approved})
	o := reviewtest.WaitOutcome(t, d.Desk, p.ID)
	if o.Status != decision.Approved || !strings.Contains(agenttext.Outcome(o), "the person chose line 2 of") {
		t.Errorf("outcome %s:\n%s\nwant approved, saying the person chose line 2", o.Status, agenttext.Outcome(o))
	}
	if got := reviewtest.ReadFile(t, filepath.Join(d.Root, "a.txt")); got != "one\n2\nthree\n" {
		t.Errorf("file = %q; want line 2 replaced", got)
	}
}

// Withdrawal (the agent cancelled or disconnected) ends a held failure as
// it ends a pending proposal.
func TestHeldFailureWithdrawn(t *testing.T) {
	d, p := heldDesk(t)
	if err := d.Withdraw(context.Background(), p.ID, "the agent disconnected"); err != nil {
		t.Fatal(err)
	}
	if o := reviewtest.WaitOutcome(t, d.Desk, p.ID); o.Status != decision.Withdrawn {
		t.Errorf("outcome %s; want withdrawn", o.Status)
	}
	if q, _ := d.Get(p.ID); q.State != review.StateWithdrawn {
		t.Errorf("after Withdraw: %s; want withdrawn", q.State)
	}
}

// When the last reviewer leaves, every held failure is sent: no agent waits
// for a person who is gone.
func TestHeldFailureSentWhenNobodyAttends(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	reviewtest.WriteFile(t, filepath.Join(d.Root, "a.txt"), "one\ntwo\n")
	first, second := d.Attend(), d.Attend()
	p := d.MustPropose(t, engine.FormatEdit, "a.txt", `{"old_string":"tow","new_string":"2"}`)
	first()
	first() // a second call does nothing
	if _, ok := d.Outcome(p.ID); ok || !d.Attended() {
		t.Fatalf("outcome sent %v, attended %v while a reviewer still attends; want held", ok, d.Attended())
	}
	second()
	if o := reviewtest.WaitOutcome(t, d.Desk, p.ID); o.Status != decision.Failed || agenttext.Outcome(o) != agenttext.Failure(p.Failure) {
		t.Errorf("outcome %s %q; want the failure", o.Status, agenttext.Outcome(o))
	}
}

// Nobody at the desk (deskctl serve alone), an unattended policy, or
// [review] hold_failed = false: the failure is answered at once, and it can
// no longer be placed.
func TestFailureAnsweredAtOnce(t *testing.T) {
	for _, tc := range []struct {
		name       string
		unattended decision.Verdict
		attend     bool
		user       string
	}{
		{"nobody at the desk", "", false, ""},
		{"unattended policy", decision.Approved, true, ""},
		{"hold_failed off", "", true, "[review]\nhold_failed = false\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := reviewtest.NewDesk(t, tc.unattended, "")
			if tc.user != "" {
				cfg := mustUserConfig(t, tc.user, d.Root)
				d.SetConfig(cfg)
			}
			if tc.attend {
				d.PersonAtDesk(t)
			}
			reviewtest.WriteFile(t, filepath.Join(d.Root, "a.txt"), "one\ntwo\n")
			p := d.MustPropose(t, engine.FormatEdit, "a.txt", `{"old_string":"tow","new_string":"2"}`)
			if p.State == review.StateHeld {
				t.Fatal("held; want the failure answered at once")
			}
			if o, ok := d.Outcome(p.ID); !ok || o.Status != decision.Failed {
				t.Fatalf("outcome %+v, %v; want failed at once", o, ok)
			}
			if _, err := d.Place(context.Background(), p.ID, "", 1, engine.Region{StartLine: 2, EndLine: 2}); err == nil || !strings.Contains(err.Error(), "believes the file untouched") {
				t.Errorf("Place after the failure was sent: %v; want a refusal", err)
			}
		})
	}
}

// Only a failure a person could place is held: a whole-file write that
// fails, a patch, a new file's edit are answered at once even with a
// person at the desk.
func TestOnlyPlaceableFailuresHeld(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	d.PersonAtDesk(t)
	reviewtest.WriteFile(t, filepath.Join(d.Root, "a.txt"), "one\ntwo\n")
	for _, tc := range []struct {
		name          string
		format        engine.Format
		path, payload string
	}{
		{"patch", engine.FormatPatch, "", "*** Begin Patch\n*** Update File: a.txt\n@@\n-zzz\n+y\n*** End Patch\n"},
		{"new file", engine.FormatEdit, "new.txt", `{"old_string":"x","new_string":"y"}`},
		{"bad payload", engine.FormatEdit, "a.txt", `{"old_string":`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := d.Propose(context.Background(), review.Request{Agent: "t", Format: tc.format, Path: tc.path, Payload: tc.payload})
			if err != nil {
				t.Fatal(err)
			}
			if p.State != review.StateFailed {
				t.Fatalf("%s; want failed, not held", p.State)
			}
			if _, ok := d.Outcome(p.ID); !ok {
				t.Error("no outcome; want the failure answered at once")
			}
		})
	}
}

// A streamed edit whose block fails when the stream finishes is held too.
func TestStreamedFailureHeld(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	d.PersonAtDesk(t)
	reviewtest.WriteFile(t, filepath.Join(d.Root, "a.txt"), "one\ntwo\n")
	ctx := context.Background()
	p, err := d.Propose(ctx, review.Request{Agent: "t", Format: engine.FormatSearchReplace, Path: "a.txt", Stream: true})
	if err != nil {
		t.Fatal(err)
	}
	d.Feed(p.ID, reviewtest.SR("tow\n", "2\n")) // the stream may say at once that the block does not match
	q, err := d.Finish(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if q.State != review.StateHeld {
		t.Fatalf("finished: %s; want a held failure", q.State)
	}
	if _, ok := d.Outcome(p.ID); ok {
		t.Error("outcome sent; want the failure held")
	}
}

// mustUserConfig is the config of a user file holding toml, over root.
func mustUserConfig(t *testing.T, toml, root string) config.Config {
	t.Helper()
	file := filepath.Join(t.TempDir(), "config.toml")
	reviewtest.WriteFile(t, file, toml)
	c, err := config.Load(file, []string{root})
	if err != nil {
		t.Fatal(err)
	}
	return c
}
