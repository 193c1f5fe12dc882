package engine

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The differential test against Gemini CLI's own code: its edit tool's
// replacement (calculateReplacement, without the model), applyReplacement
// and unescapeStringForGeminiBug, from the pinned @google/gemini-cli-core
// (scripts/oracle-install.sh), run by scripts/oracle/gemini.mjs. It runs when
// $DIFFDESK_GEMINI_CORE names the node_modules directory holding it
// (scripts/oracle-test sets it) and is skipped otherwise; the cases it ever
// found are kept with Gemini's answer in testdata/exactness/gemini.json,
// which TestExactnessCorpus checks without Node.
//
// Differences the comparison allows, each a divergence in doc.go:
//   - a BOM is not part of the text (Gemini reads it as a character of the
//     first line, which JavaScript's trim removes): Gemini is given the
//     file without it, and its answer gets it back;
//   - a file with mixed line endings keeps each line's (Gemini turns every
//     line CRLF): compared with "\n" endings;
//   - where Gemini finds no place, or only a fuzzy one, we may find one
//     with old and new unescaped (StrategyUnescaped, Loose), which comes
//     before fuzzy matching;
//   - an empty old_string fills an existing empty file.

// oracleCases is how many cases of each oracle kind TestGeminiOracle runs.
var oracleCases = envInt("DIFFDESK_ORACLE_CASES", 1500)

func envInt(name string, def int) int {
	var n int
	if _, err := fmt.Sscan(os.Getenv(name), &n); err != nil || n <= 0 {
		return def
	}
	return n
}

// geminiOracle is the Node driver, answering one case at a time.
type geminiOracle struct {
	cmd *exec.Cmd
	in  *bufio.Writer
	out *bufio.Scanner
}

func startGeminiOracle(t *testing.T) *geminiOracle {
	dir := os.Getenv("DIFFDESK_GEMINI_CORE")
	if dir == "" {
		t.Skip("DIFFDESK_GEMINI_CORE is not set: scripts/oracle-test installs @google/gemini-cli-core and runs this test")
	}
	cmd := exec.Command("node", filepath.Join("..", "scripts", "oracle", "gemini.mjs"), dir)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("node: %v", err)
	}
	o := &geminiOracle{cmd: cmd, in: bufio.NewWriter(stdin), out: bufio.NewScanner(stdout)}
	o.out.Buffer(nil, 64<<20)
	t.Cleanup(func() {
		stdin.Close()
		cmd.Wait()
	})
	return o
}

// ask returns Gemini's answer for c.
func (o *geminiOracle) ask(c exCase) (upstreamAnswer, error) {
	q := c.oracleQuery()
	b, _ := json.Marshal(q)
	o.in.Write(append(b, '\n'))
	if err := o.in.Flush(); err != nil {
		return upstreamAnswer{}, err
	}
	if !o.out.Scan() {
		return upstreamAnswer{}, fmt.Errorf("the oracle ended: %v", o.out.Err())
	}
	var a upstreamAnswer
	err := json.Unmarshal(o.out.Bytes(), &a)
	return a, err
}

// oracleQuery is the case as the driver takes it.
func (c exCase) oracleQuery() map[string]any {
	b := c.Blocks[0]
	q := map[string]any{"old": b.Old, "new": b.New}
	switch c.Kind {
	case "gemini-smart":
		q["op"], q["content"], q["allow_multiple"] = "smart", strings.TrimPrefix(c.File, "\uFEFF"), c.All
	case "gemini-literal":
		doc, _ := Decode(c.File)
		q["op"], q["content"] = "literal", doc.Text
	case "gemini-unescape":
		q["op"] = "unescape"
	}
	return q
}

// oracleApplies reports whether c is a case the oracle comparison covers.
func (c exCase) oracleApplies() bool {
	if len(c.Blocks) == 0 {
		return false
	}
	b := c.Blocks[0]
	switch c.Kind {
	case "gemini-smart":
		_, err := Decode(c.File)
		return err == nil && checkText("edit", b.Old) == nil && checkText("edit", b.New) == nil
	case "gemini-literal":
		doc, err := Decode(c.File)
		return err == nil && b.Old != "" && b.Old != b.New && strings.Contains(doc.Text, b.Old) &&
			checkText("edit", b.Old) == nil && checkText("edit", b.New) == nil && !strings.Contains(b.Old+b.New, "\r")
	case "gemini-unescape":
		return true
	}
	return false
}

// oracleCheck compares the engine's answer for c with Gemini's, up; "" when
// they agree or differ only as doc.go says.
func (c exCase) oracleCheck(up upstreamAnswer) string {
	if !c.oracleApplies() {
		return ""
	}
	b := c.Blocks[0]
	switch c.Kind {
	case "gemini-unescape":
		if got := unescapeGemini(b.Old); got != up.Content {
			return fmt.Sprintf("unescape: ours %q, Gemini's %q", got, up.Content)
		}
		return ""
	case "gemini-literal":
		got := c.run()
		doc, _ := Decode(got.res.Content)
		if got.err != nil || doc.Text != up.Content {
			return fmt.Sprintf("literal replace: ours %q (%v), Gemini's %q", doc.Text, got.err, up.Content)
		}
		return ""
	}
	got := c.run()
	if doc, _ := Decode(c.File); up.Error == "attempt_to_create_existing_file" && doc.Text == "" && got.err == nil {
		return "" // an empty old_string fills an existing empty file (doc.go)
	}
	if got.err == nil && up.Strategy == "fuzzy" && allUnescaped(got.res.Matches) {
		return "" // unescaping comes before fuzzy matching (doc.go)
	}
	if up.Error != "" {
		if got.err == nil {
			for _, m := range got.res.Matches {
				if m.Strategy != StrategyUnescaped {
					return fmt.Sprintf("Gemini fails (%s), ours succeeds by %s: %q", up.Error, m.How(), got.res.Content)
				}
			}
			if up.Error != "edit_no_occurrence_found" {
				return fmt.Sprintf("Gemini fails (%s), ours succeeds unescaped: %q", up.Error, got.res.Content)
			}
			return ""
		}
		me, ok := got.err.(*MatchError)
		kinds := append(geminiErrorKinds[up.Error], map[string][]Failure{"omission_placeholder": {FailPlaceholder}}[up.Error]...)
		if up.Error == "edit_no_occurrence_found" {
			// Unescaped, old may be found, and then fail its count or
			// equal new (doc.go): both refuse.
			kinds = append(kinds, FailCount, FailAmbiguous, FailNoChange)
		}
		if !ok || !failureIn(me.Kind, kinds) {
			return fmt.Sprintf("Gemini fails with %s, ours with %v", up.Error, got.err)
		}
		return ""
	}
	if got.err != nil {
		return fmt.Sprintf("Gemini gives %q (%s), ours fails: %v", up.Content, up.Strategy, got.err)
	}
	want, ours := up.Content, got.res.Content
	if strings.HasPrefix(c.File, "\uFEFF") {
		want = "\uFEFF" + want
	}
	if doc, _ := Decode(c.File); doc.eols != nil {
		want, ours = toLF(want), toLF(ours)
	}
	if ours != want {
		return fmt.Sprintf("content: ours %q, Gemini's %q (%s)", ours, want, up.Strategy)
	}
	if up.Strategy != "exact" {
		for _, m := range got.res.Matches {
			if !m.Loose() {
				return fmt.Sprintf("Gemini needed %s, ours says exact", up.Strategy)
			}
		}
	}
	return ""
}

func allUnescaped(ms []Match) bool {
	for _, m := range ms {
		if m.Strategy != StrategyUnescaped {
			return false
		}
	}
	return len(ms) > 0
}

func failureIn(k Failure, list []Failure) bool {
	for _, x := range list {
		if x == k {
			return true
		}
	}
	return false
}

// genOracleCase makes a case of an oracle kind from a seed: old drawn from
// the file with its whitespace changed at times (for Gemini's flexible,
// token and fuzzy strategies), or over-escaped. One case in eight is on a
// big file (genBigFile: thousands of repeated lines, where the finder of an
// exact old_string skips ahead), with old up to 40 lines of it as they are
// (Gemini's looser strategies take seconds on such a file).
func genOracleCase(kind string, seed uint64) exCase {
	r := rand.New(rand.NewPCG(seed, 0x6e))
	c := exCase{Kind: kind, File: genFile(r)}
	if big := rand.New(rand.NewPCG(seed, 0xb16)); kind != "gemini-unescape" && big.IntN(8) == 0 {
		c.File = genBigFile(big)
		doc, err := Decode(c.File)
		if err != nil {
			return c
		}
		old := genBigOld(big, doc.Text, false)
		c.Blocks = []exBlock{{Old: old, New: genNew(big, old, false)}}
		c.All = big.IntN(5) == 0
		return c
	}
	doc, err := Decode(c.File)
	if err != nil {
		return c
	}
	if kind == "gemini-unescape" {
		pieces := []string{`\n`, `\t`, `\\`, `\"`, `\'`, "\\`", `\\n`, "a", " ", "\n", `\r`, `\x`, `\`, "ü", `\\\n`, `\$`}
		var s strings.Builder
		for i := r.IntN(8); i >= 0; i-- {
			s.WriteString(pieces[r.IntN(len(pieces))])
		}
		c.Blocks = []exBlock{{Old: s.String()}}
		return c
	}
	old := genOld(r, doc.Text, false)
	switch r.IntN(6) {
	case 0: // indentation lost
		old = strings.TrimLeft(strings.ReplaceAll(old, "\n    ", "\n"), " \t")
	case 1: // whitespace changed inside
		old = strings.ReplaceAll(old, " ", "  ")
	case 2: // over-escaped
		old = strings.ReplaceAll(old, "\n", `\n`)
	case 3: // a typo
		if len(old) > 12 {
			i := runeAligned(old, r.IntN(len(old)))
			old = old[:i] + "~" + old[i:]
		}
	}
	c.Blocks = []exBlock{{Old: old, New: genNew(r, old, false)}}
	c.All = r.IntN(5) == 0
	return c
}

// TestGeminiOracle runs DIFFDESK_ORACLE_CASES generated cases of each kind
// through Gemini CLI's own code and the engine.
func TestGeminiOracle(t *testing.T) {
	o := startGeminiOracle(t)
	for _, kind := range []string{"gemini-smart", "gemini-literal", "gemini-unescape"} {
		t.Run(kind, func(t *testing.T) {
			failures, ran := 0, 0
			check := func(c exCase) string {
				if !c.oracleApplies() {
					return ""
				}
				up, err := o.ask(c)
				if err != nil {
					t.Fatal(err)
				}
				if strings.HasPrefix(up.Error, "threw") {
					t.Fatalf("the oracle %s", up.Error)
				}
				return c.oracleCheck(up)
			}
			for i := 0; i < oracleCases && failures < 3; i++ {
				c := genOracleCase(kind, *exSeed+uint64(i))
				if !c.oracleApplies() {
					continue
				}
				ran++
				if p := check(c); p != "" {
					failures++
					small := shrinkBig(c, func(d exCase) bool { return check(d) != "" }, 600)
					up, _ := o.ask(small)
					small.Upstream = &up
					t.Errorf("seed %d: %s\nminimal case (%s): %s", *exSeed+uint64(i), p, small.oracleCheck(up), saveFailure(t, "gemini.json", small))
				}
			}
			t.Logf("%d cases", ran)
		})
	}
}
