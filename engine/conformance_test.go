package engine

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The conformance test runs every vector in ../shared/fixtures/upstream (see
// its README.md) through the engine. Each fixture format has a runner,
// registered from the test file of the code that implements it. A vector
// whose id is listed in divergences must NOT reproduce upstream: those are
// deliberate differences, documented in doc.go and tested on their own.

// fixtureCase is one upstream vector.
type fixtureCase struct {
	ID         string          `json:"id"`
	Provenance string          `json:"provenance"`
	Format     string          `json:"format"`
	Input      json.RawMessage `json:"input"`
	Expect     json.RawMessage `json:"expect"`
	Notes      string          `json:"notes"`
}

// runner checks one vector and returns nil when the engine reproduces the
// upstream result, or an error describing the difference.
type runner func(c fixtureCase) error

// conformanceRunners maps a fixture "format" to its runner.
var conformanceRunners = map[string]runner{}

// divergences maps vector ids to why DiffDesk deliberately differs.
var divergences = map[string]string{}

func registerRunner(format string, r runner) { conformanceRunners[format] = r }

func registerDivergences(m map[string]string) {
	for id, why := range m {
		divergences[id] = why
	}
}

func fixturesDir(t testing.TB) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		p := filepath.Join(dir, "..", "shared", "fixtures", "upstream")
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return p
		}
		if filepath.Dir(dir) == dir {
			t.Skip("../shared/fixtures/upstream not found; conformance vectors skipped")
		}
	}
}

func loadFixtures(t testing.TB, file string) []fixtureCase {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixturesDir(t), file))
	if err != nil {
		t.Fatal(err)
	}
	var cases []fixtureCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return cases
}

func TestConformance(t *testing.T) {
	dir := fixturesDir(t)
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures in %s: %v", dir, err)
	}
	docText, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	var summary []string
	seen := map[string]bool{}
	for _, path := range files {
		file := filepath.Base(path)
		cases := loadFixtures(t, file)
		var pass, diverged, unrun int
		t.Run(strings.TrimSuffix(file, ".json"), func(t *testing.T) {
			for _, c := range cases {
				seen[c.ID] = true
				run, ok := conformanceRunners[c.Format]
				if !ok {
					unrun++
					continue
				}
				err := run(c)
				why, divergent := divergences[c.ID]
				switch {
				case divergent && err == nil:
					t.Errorf("%s: listed as a divergence (%s) but reproduces upstream; drop it from the list", c.ID, why)
				case divergent:
					diverged++
					if !strings.Contains(string(docText), c.ID) {
						t.Errorf("%s: divergence not documented in doc.go", c.ID)
					}
				case err != nil:
					t.Errorf("%s [%s]: %v", c.ID, c.Provenance, err)
				default:
					pass++
				}
			}
		})
		line := fmt.Sprintf("%-34s %4d vectors: %4d pass, %3d documented divergences", file, len(cases), pass, diverged)
		if unrun > 0 {
			line += fmt.Sprintf(", %d with no runner", unrun)
			t.Errorf("%s: %d vectors have no runner", file, unrun)
		}
		summary = append(summary, line)
	}
	for id := range divergences {
		if !seen[id] {
			t.Errorf("divergence %q names no vector", id)
		}
	}
	sort.Strings(summary)
	t.Log("conformance:\n" + strings.Join(summary, "\n"))
	if testing.Verbose() || os.Getenv("CONFORMANCE_SUMMARY") != "" {
		fmt.Println("conformance:\n" + strings.Join(summary, "\n"))
	}
}

// expectContent is the common {content} / {error, errorContains} expectation.
type expectContent struct {
	Content       *string `json:"content"`
	Error         bool    `json:"error"`
	ErrorContains string  `json:"errorContains"`
	ErrorType     string  `json:"errorType"`
}

// checkContent compares an engine result with an expectation of that shape.
func checkContent(want expectContent, got string, err error) error {
	switch {
	case want.Error && err == nil:
		return fmt.Errorf("got content %q; want an error (%s)", got, want.ErrorContains)
	case !want.Error && err != nil:
		return fmt.Errorf("got error %v; want content %q", err, deref(want.Content))
	case !want.Error && want.Content != nil && got != *want.Content:
		return fmt.Errorf("got\n%q\nwant\n%q", got, *want.Content)
	}
	return nil
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}
