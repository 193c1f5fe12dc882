package review

import (
	"sync/atomic"
	"time"

	"github.com/diffdesk/diffdesk/review/checker"
	"github.com/diffdesk/diffdesk/review/config"
)

// liveConfig is the config a desk decides by, replaced whole by SetConfig
// while proposals are decided (trusting a workspace's file turns its
// rules on without a restart). Each lookup reads one consistent config.
type liveConfig struct {
	p atomic.Pointer[config.Config]
}

func (l *liveConfig) store(c config.Config) { l.p.Store(&c) }

func (l *liveConfig) load() *config.Config { return l.p.Load() }

// LimitsFor is config.Config.LimitsFor on the config in force.
func (l *liveConfig) LimitsFor(root string) config.Limits { return l.load().LimitsFor(root) }

// SettleFor is config.Config.SettleFor on the config in force.
func (l *liveConfig) SettleFor(root string) time.Duration { return l.load().SettleFor(root) }

// FormatterFor is config.Config.FormatterFor on the config in force.
func (l *liveConfig) FormatterFor(absPath, root string) (*config.FormatterRule, bool) {
	return l.load().FormatterFor(absPath, root)
}

// CheckersFor is config.Config.CheckersFor on the config in force.
func (l *liveConfig) CheckersFor(absPath, root string) []checker.Checker {
	return l.load().CheckersFor(absPath, root)
}

// AutoApprove is config.Config.AutoApprove on the config in force.
func (l *liveConfig) AutoApprove(req config.AutoRequest) (string, bool) {
	return l.load().AutoApprove(req)
}

// SetConfig replaces the formatters, checkers, auto-approve rules, settle
// windows, protected paths and limits the desk decides by, for what it
// proposes and decides from now on: proposals already queued keep waiting
// for a person (a path protected when proposed stays so), and are checked
// again by the checkers now in force. Trust and a reload of the config
// files call it (startup.Backend). Which doors are open and how much
// history is kept are read at start only. It is safe to call while the
// desk works.
func (d *Desk) SetConfig(c config.Config) {
	d.ws.SetConfig(c)
	d.cfg.store(c)
	d.restartChecks()
}
