package ui

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// placeTitle is the title's note of where the desk is: the workspaces it
// serves, and the machine of a desk elsewhere.
func (w *Window) placeTitle() string {
	return workspaceTitle(w.desk.Roots()) + remoteTitle(w.opts.Remote)
}

// workspaceTitle names the workspaces a desk serves, home as ~: " · ~/proj",
// " · ~/a, ~/b", " · ~/a and 2 more"; "" for none.
func workspaceTitle(roots []string) string {
	if len(roots) == 0 {
		return ""
	}
	home, _ := os.UserHomeDir()
	names := make([]string, 0, 2)
	for _, r := range roots[:min(len(roots), 2)] {
		names = append(names, homeShort(r, home))
	}
	s := " · " + strings.Join(names, ", ")
	if len(roots) > 2 {
		s = " · " + names[0] + " and " + strconv.Itoa(len(roots)-1) + " more"
	}
	return s
}

// homeShort writes path under home as ~/….
func homeShort(path, home string) string {
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
