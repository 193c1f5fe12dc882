package ide

import (
	"context"
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/checker"
)

// maxDiagnosed is how many of the files it reviewed a door answers
// getDiagnostics {} for, newest first.
const maxDiagnosed = 32

// diagnosed are the files a door reviewed, newest last: the desk's
// answer to "the diagnostics of all files", as an IDE gives those of its
// open files.
type diagnosed struct {
	mu    sync.Mutex
	paths []string
}

// add records path as reviewed.
func (d *diagnosed) add(path string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.paths = slices.DeleteFunc(d.paths, func(p string) bool { return p == path })
	d.paths = append(d.paths, path)
	if len(d.paths) > maxDiagnosed {
		d.paths = d.paths[len(d.paths)-maxDiagnosed:]
	}
}

// list returns the paths reviewed, newest last.
func (d *diagnosed) list() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.paths)
}

// Claude Code's diagnostics, as VS Code's extension sends them
// (docs/agent-protocols.md §1.3): positions 0-based.
type (
	claudeFileDiagnostics struct {
		URI         string             `json:"uri"`
		Diagnostics []claudeDiagnostic `json:"diagnostics"`
	}
	claudeDiagnostic struct {
		Message  string      `json:"message"`
		Severity string      `json:"severity"` // "Error", "Warning", "Information"
		Range    claudeRange `json:"range"`
		Source   string      `json:"source,omitempty"`
		Code     string      `json:"code,omitempty"`
	}
	claudeRange struct {
		Start claudePosition `json:"start"`
		End   claudePosition `json:"end"`
	}
	claudePosition struct {
		Line      int `json:"line"`
		Character int `json:"character"`
	}
)

// diagnostics answers getDiagnostics: the problems the project's
// checkers find in the file uri names as it is on disk now, or with no
// uri in every file the door reviewed, as JSON text. A file the desk
// does not review, and a checker that fails, add nothing: they are not
// problems of the code.
func diagnostics(ctx context.Context, desk *review.Desk, uri string, reviewed []string) string {
	paths := reviewed
	if uri != "" {
		paths = []string{uriPath(uri)}
	}
	byFile := map[string][]claudeDiagnostic{}
	var order []string
	put := func(path string, ds ...claudeDiagnostic) {
		if _, ok := byFile[path]; !ok {
			order = append(order, path)
		}
		byFile[path] = append(byFile[path], ds...)
	}
	for _, p := range paths {
		reports, err := desk.Diagnose(ctx, p)
		if err != nil {
			continue
		}
		put(p)
		for _, r := range reports {
			for _, pr := range r.Problems {
				in := p
				if pr.Path != "" {
					in = pr.Path
				}
				put(in, claudeDiagnosticOf(pr))
			}
		}
	}
	out := []claudeFileDiagnostics{}
	for _, p := range order {
		u := fileURI(p)
		if uri != "" && p == paths[0] {
			u = uri // the file asked about, named as asked
		}
		if ds := byFile[p]; len(ds) > 0 || uri != "" {
			out = append(out, claudeFileDiagnostics{URI: u, Diagnostics: append([]claudeDiagnostic{}, ds...)})
		}
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// claudeDiagnosticOf is p as VS Code's diagnostic: a position, since the
// tools name no range.
func claudeDiagnosticOf(p checker.Problem) claudeDiagnostic {
	sev := "Error"
	switch p.Severity {
	case checker.SeverityWarning:
		sev = "Warning"
	case checker.SeverityInfo:
		sev = "Information"
	}
	at := claudePosition{Line: max(p.Line-1, 0), Character: max(p.Col-1, 0)}
	return claudeDiagnostic{Message: p.Message, Severity: sev, Range: claudeRange{Start: at, End: at}, Source: p.Source, Code: p.Code}
}

// uriPath is the path of a file: URI, or uri itself when it is a path.
func uriPath(uri string) string {
	if !strings.HasPrefix(uri, "file:") {
		return uri
	}
	u, err := url.Parse(uri)
	if err != nil {
		return uri
	}
	return u.Path
}

// fileURI is path's file: URI.
func fileURI(path string) string { return (&url.URL{Scheme: "file", Path: path}).String() }
