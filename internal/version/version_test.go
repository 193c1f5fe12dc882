package version

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/diffdesk/diffdesk", Version: "(devel)"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "1a2b3c4d5e6f7a8b9c0d"}, {Key: "vcs.time", Value: "2026-11-28T19:50:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	if got, want := fromBuildInfo(bi).String(), "(devel), commit 1a2b3c4d5e6f (2026-11-28T19:50:00Z, with changes not committed), go1.26.8"; got != want {
		t.Errorf("String() = %q; want %q", got, want)
	}
	bi = &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.3.0"}}
	if got, want := fromBuildInfo(bi).String(), "v0.3.0, go1.26.8"; got != want {
		t.Errorf("String() = %q; want %q", got, want)
	}
	bi = &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}}
	if got := fromBuildInfo(bi).String(); !strings.Contains(got, "no commit recorded") {
		t.Errorf("String() = %q; want it to say no commit was recorded", got)
	}
}
