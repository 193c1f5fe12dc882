package present

import (
	"path/filepath"
	"strconv"
	"strings"
)

// WorkspaceTitle names the workspaces a desk serves, home as ~: " · ~/proj",
// " · ~/a, ~/b", " · ~/a and 2 more"; "" for none.
func WorkspaceTitle(roots []string, home string) string {
	if len(roots) == 0 {
		return ""
	}
	names := make([]string, 0, 2)
	for _, r := range roots[:min(len(roots), 2)] {
		names = append(names, HomeShort(r, home))
	}
	s := " · " + strings.Join(names, ", ")
	if len(roots) > 2 {
		s = " · " + names[0] + " and " + strconv.Itoa(len(roots)-1) + " more"
	}
	return s
}

// HomeShort writes path under home as ~/….
func HomeShort(path, home string) string {
	if home != "" && home != "/" {
		if path == home {
			return "~"
		}
		if rel, err := filepath.Rel(home, path); err == nil && !strings.HasPrefix(rel, "..") {
			return "~" + string(filepath.Separator) + rel
		}
	}
	return path
}

// WorkspaceLabels names each root for the queue, when the desk serves more
// than one (nil for one or none: the title names it): its base name, or
// the path (home as ~) where two roots share a base name.
func WorkspaceLabels(roots []string, home string) map[string]string {
	if len(roots) < 2 {
		return nil
	}
	count := map[string]int{}
	for _, r := range roots {
		count[filepath.Base(r)]++
	}
	out := make(map[string]string, len(roots))
	for _, r := range roots {
		name := filepath.Base(r)
		if count[name] > 1 || name == string(filepath.Separator) || name == "." {
			name = HomeShort(r, home)
		}
		out[r] = name
	}
	return out
}

// FleetTitle is the title's note of the desks: one desk's label, or how
// many, and how many cannot be reached now.
func FleetTitle(labels []string, down map[string]error) string {
	n := 0
	for _, l := range labels {
		if down[l] != nil {
			n++
		}
	}
	s := strings.Join(labels, ", ")
	if len(labels) > 2 {
		s = strconv.Itoa(len(labels)) + " desks"
	}
	switch {
	case n == 0:
		return s
	case len(labels) == 1:
		return s + " (unreachable, reconnecting)"
	}
	return s + " (" + strconv.Itoa(n) + " unreachable, reconnecting)"
}
