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

// workspaceLabels names each root for the queue, when the desk serves more
// than one (nil for one or none: the title names it): its base name, or
// the path (home as ~) where two roots share a base name.
func workspaceLabels(roots []string) map[string]string {
	if len(roots) < 2 {
		return nil
	}
	home, _ := os.UserHomeDir()
	count := map[string]int{}
	for _, r := range roots {
		count[filepath.Base(r)]++
	}
	out := make(map[string]string, len(roots))
	for _, r := range roots {
		name := filepath.Base(r)
		if count[name] > 1 || name == string(filepath.Separator) || name == "." {
			name = homeShort(r, home)
		}
		out[r] = name
	}
	return out
}

// labelWorkspaces sets each changeset heading's workspace: the labels of
// the roots its proposals' files lie in, in the order they first appear
// ("app", "app + lib"). Nothing when labels is nil.
func labelWorkspaces(rows []queueRow, labels map[string]string) {
	if labels == nil {
		return
	}
	head := -1
	var seen map[string]bool
	for i, r := range rows {
		if r.header != "" {
			head, seen = i, map[string]bool{}
			continue
		}
		if head < 0 {
			continue
		}
		for _, f := range r.p.Files {
			l, ok := labels[f.Root]
			if !ok || seen[l] {
				continue
			}
			seen[l] = true
			if rows[head].where != "" {
				rows[head].where += " + "
			}
			rows[head].where += l
		}
	}
}
