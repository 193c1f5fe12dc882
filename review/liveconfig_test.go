package review_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/config"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestSetConfigWhileDeciding replaces the desk's rules while proposals are
// proposed and decided on other goroutines (the race detector watches), and
// the new rule decides what is proposed next.
func TestSetConfigWhileDeciding(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	var wg sync.WaitGroup
	for g := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20 {
				p, err := d.Propose(context.Background(), review.Request{Agent: "a", Format: engine.FormatWrite,
					Path: fmt.Sprintf("f%d-%d.txt", g, i), Payload: "x\n"})
				if err != nil {
					t.Error(err)
					return
				}
				if p.AutoRule == "" {
					d.Decide(context.Background(), p.ID, review.Decision{Verdict: decision.Approved})
				}
			}
		}()
	}
	rule := config.Default()
	rule.AutoApproveRules = []config.AutoApproveRule{{Path: "docs/**", Origin: "test line 1"}}
	rule.Formatters = []config.FormatterRule{{Glob: "*.txt", Command: []string{"cat"}}}
	for range 20 {
		d.SetConfig(config.Default())
		d.SetConfig(rule)
	}
	wg.Wait()
	p := d.MustPropose(t, engine.FormatWrite, filepath.Join("docs", "x.md"), "x\n")
	if p.AutoRule != "auto_approve rule at test line 1" {
		t.Fatalf("after SetConfig: rule %q; want the new rule to approve", p.AutoRule)
	}
	if o := reviewtest.WaitOutcome(t, d.Desk, p.ID); o.Status != decision.Approved {
		t.Errorf("outcome %+v; want approved by the rule", o)
	}
}
