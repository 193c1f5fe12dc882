// Package version says which build of DiffDesk a binary is: the module's
// version and the commit it was built from, as the Go toolchain records
// them in the binary (runtime/debug). It imports the standard library
// only, so deskdiff links it without slowing its start.
package version

import (
	"runtime/debug"
	"strings"
)

// Info is what the build recorded.
type Info struct {
	Version  string `json:"version"`            // the module's: "v0.3.0" from go install …@v0.3.0, "(devel)" from a checkout
	Commit   string `json:"commit,omitempty"`   // vcs.revision, when built in a git checkout
	Time     string `json:"time,omitempty"`     // vcs.time: the commit's time, RFC 3339
	Modified bool   `json:"modified,omitempty"` // the checkout had changes not committed
	Go       string `json:"go"`                 // the toolchain
}

// Read returns this binary's build information.
func Read() Info {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Info{Version: "(unknown)"}
	}
	return fromBuildInfo(bi)
}

func fromBuildInfo(bi *debug.BuildInfo) Info {
	in := Info{Version: bi.Main.Version, Go: bi.GoVersion}
	if in.Version == "" {
		in.Version = "(unknown)"
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			in.Commit = s.Value
		case "vcs.time":
			in.Time = s.Value
		case "vcs.modified":
			in.Modified = s.Value == "true"
		}
	}
	return in
}

// String is the information on one line: "v0.3.0, commit 1a2b3c4d5e6f
// (2026-11-28T19:50:00Z, with changes not committed), go1.26.8".
func (in Info) String() string {
	parts := []string{in.Version}
	if in.Commit != "" {
		c := "commit " + short(in.Commit)
		var notes []string
		if in.Time != "" {
			notes = append(notes, in.Time)
		}
		if in.Modified {
			notes = append(notes, "with changes not committed")
		}
		if len(notes) > 0 {
			c += " (" + strings.Join(notes, ", ") + ")"
		}
		parts = append(parts, c)
	} else if in.Version == "(devel)" {
		parts = append(parts, "no commit recorded (built outside a git checkout, or with -buildvcs=false)")
	}
	if in.Go != "" {
		parts = append(parts, in.Go)
	}
	return strings.Join(parts, ", ")
}

// Line is what --version prints: the program's name and String.
func Line(program string) string { return program + " " + Read().String() }

func short(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}
