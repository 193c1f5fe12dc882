package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestFleetProcesses is the small version of scripts/fleet-bench: desks
// as deskctl serve processes on a hub of three deskctl hub serve
// processes, agents over the desks' sockets and racing reviewers; a hub
// node killed, a desk partitioned, every desk restarted at once with
// proposals pending (each desk's agents proposed again what it withdrew,
// and each proposal pending then has its outcome on the hub). Every
// approved file is written exactly once, every rejected one never, one
// winner per round, one outcome per proposal, nothing left open on the
// hub; and the memory figures are taken.
func TestFleetProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("runs processes for about half a minute")
	}
	deskctl := filepath.Join(t.TempDir(), "deskctl")
	build := exec.Command("go", "build", "-o", deskctl, "github.com/diffdesk/diffdesk/cmd/deskctl")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building deskctl: %v\n%s", err, out)
	}
	var log strings.Builder
	r, err := Run(Config{Deskctl: deskctl, Dir: t.TempDir(), Desks: 3, Agents: 3, Per: 2, Reviewers: 3, Faults: true, KillLeader: true, Memory: 100, Log: &log})
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	t.Log("\n" + r.Text())
	for _, p := range r.Problems {
		t.Error(p)
	}
	if r.Proposals != 18 || r.Approved+r.Rejected != 18 || len(r.Faults) != 3 || r.Rounds < 18 {
		t.Errorf("report: %+v; want 18 proposals decided through 3 faults", r)
	}
	if r.Withdrawn < 3 {
		t.Errorf("the restarted desks withdrew %d proposals; want at least one each of 3", r.Withdrawn)
	}
	if len(r.Phases) == 0 || r.Phases[0].Phase != "steady" {
		t.Errorf("latency not split by phase: %+v", r.Phases)
	}
	if r.DeskMBPer1000 <= 0 || r.HubWindowMBPer1000 <= 0 || r.ConnectWindowMBPer1000 <= 0 {
		t.Errorf("memory figures not taken: %+v", r)
	}
}
