package review_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
	"pgregory.net/rapid"
)

// TestWithdrawalsSayWhatHappened: for any reason a proposal is withdrawn
// (every review.WithdrawReason, any door, tab or file name, the agent's
// own words, a stream cut short or a whole proposal), what is said of it
// is true and the same everywhere: the file is untouched and the agent's
// text says nothing was written; the history's feedback, the outcome's
// feedback on the wire and the window's reason are one text; that text
// carries no control character the agent or a tool gave (a tab name or
// reason with an escape sequence is escaped).
func TestWithdrawalsSayWhatHappened(t *testing.T) {
	ctx := context.Background()
	d := reviewtest.NewDesk(t, "", "")
	path := filepath.Join(d.Root, "a.txt")
	reviewtest.WriteFile(t, path, "one\ntwo\n")
	words := rapid.StringOf(rapid.SampledFrom([]rune("ab ✻⧉.\x1b[2J\x07/")))
	rapid.Check(t, func(rt *rapid.T) {
		why := rapid.SampledFrom(review.WithdrawReasons).Draw(rt, "why")
		f := review.Withdrawal(why, rapid.SampledFrom([]string{"", "Claude Code", "Gemini CLI"}).Draw(rt, "door"), words.Draw(rt, "path"))
		switch why {
		case review.WithdrawCancelled:
			f = review.Cancelled(words.Draw(rt, "reason"))
		case review.WithdrawBudget:
			f.Budget = &review.BudgetError{Scope: "this connection", Count: 3, Bytes: 10, MaxCount: 3, MaxBytes: 1 << 20, StreamPath: path}
		}
		stream := rapid.Bool().Draw(rt, "stream")
		req := review.Request{Agent: "a", Session: "s", Format: engine.FormatWrite, Path: "a.txt", Payload: "ONE\n"}
		if stream {
			req.Payload, req.Stream = "", true
		}
		p, err := d.Propose(ctx, req)
		if err != nil {
			rt.Fatal(err)
		}
		if stream {
			if err := d.Feed(p.ID, "ON"); err != nil {
				rt.Fatal(err)
			}
		}
		if err := d.WithdrawBecause(ctx, p.ID, f); err != nil {
			rt.Fatal(err)
		}
		o := reviewtest.WaitOutcome(t, d.Desk, p.ID)
		if got := reviewtest.ReadFile(t, path); got != "one\ntwo\n" {
			rt.Fatalf("a.txt holds %q after a withdrawal", got)
		}
		text, reason, wire := agenttext.Outcome(o), agenttext.Reason(o), agenttext.ForWire(o).Feedback
		if o.Status != decision.Withdrawn || o.Unfinished != stream || !strings.Contains(text, "nothing was written") {
			rt.Fatalf("outcome %s (unfinished %v): %q; want withdrawn, saying nothing was written", o.Status, o.Unfinished, text)
		}
		if _, history := historyVerdict(t, d, p.ID); reason == "" || history != reason || wire != reason {
			rt.Fatalf("the window's reason %q, the wire's feedback %q, the history's %q; want one text", reason, wire, history)
		}
		if strings.ContainsAny(reason, "\x1b\x07") {
			rt.Fatalf("the reason %q carries a control character", reason)
		}
	})
}
