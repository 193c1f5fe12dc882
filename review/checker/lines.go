package checker

import (
	"regexp"
	"strconv"
	"strings"
)

// finding is one problem as a tool's output names it, before its path is
// resolved (see names.resolve) and the checker's name and default
// severity are added.
type finding struct {
	path      string // as printed; "" for the checked file without a location
	line, col int    // 1-based; 0 when not given
	severity  Severity
	message   string
	code      string
}

var (
	// locationLine is "path:line[:col]: message" or "path(line[,col]): message".
	locationLine = regexp.MustCompile(`^(?:(.+?):(\d+)(?::(\d+))?|(.+?)\((\d+)(?:,(\d+))?\)):[ \t]*(.*)$`)
	// severityPrefix is "error:", "warning:", "note:", "[error]", …,
	// and tsc's "error TS2322:".
	severityPrefix = regexp.MustCompile(`(?i)^(?:(fatal error|error|warning|warn|note|info|information|hint|style)(?:[ \t]+([A-Z]+[0-9]+))?[ \t]*:|\[(error|warning|warn|note|info|hint|style)\])[ \t]*`)
	// codePrefix is a rule code before the message: ruff's and flake8's
	// "F401 ", with ruff's fixable mark "[*] ".
	codePrefix = regexp.MustCompile(`^([A-Z]{1,5}[0-9]{1,5})[ \t]+(?:\[\*\][ \t]+)?`)
	// codeSuffix is a rule code after the message: " [SC2086]",
	// " [-Wunused-variable]", ESLint unix's " [Error/no-undef]".
	codeSuffix = regexp.MustCompile(`[ \t]+\[(-?[A-Za-z][\w.:/=+-]*)\]$`)
)

// parseLines reads FormatLines output: one finding per line that starts
// with a location and has a message. Other lines (headers such as "#
// pkg", source excerpts, summaries) are skipped.
func parseLines(out string) []finding {
	var found []finding
	for _, l := range strings.Split(out, "\n") {
		if f, ok := parseLine(strings.TrimRight(l, " \t\r")); ok {
			found = append(found, f)
		}
	}
	return found
}

func parseLine(l string) (finding, bool) {
	m := locationLine.FindStringSubmatch(l)
	if m == nil {
		return finding{}, false
	}
	path, line, col := m[1], m[2], m[3]
	if path == "" {
		path, line, col = m[4], m[5], m[6]
	}
	// A tool's own prefix before the path: go vet's "vet: ./x.go:3:1: …".
	if i := strings.LastIndex(path, ": "); i >= 0 {
		path = path[i+2:]
	}
	f := finding{path: path, message: m[7]}
	f.line, _ = strconv.Atoi(line)
	f.col, _ = strconv.Atoi(col)
	if s := severityPrefix.FindStringSubmatch(f.message); s != nil {
		f.severity = severityNamed(s[1] + s[3])
		f.code = s[2]
		f.message = f.message[len(s[0]):]
	}
	if f.code == "" {
		if c := codePrefix.FindStringSubmatch(f.message); c != nil {
			f.code, f.message = c[1], f.message[len(c[0]):]
		}
	}
	if c := codeSuffix.FindStringSubmatchIndex(f.message); c != nil && f.code == "" {
		f.code, f.message = f.message[c[2]:c[3]], f.message[:c[0]]
		if sev, rule, ok := strings.Cut(f.code, "/"); ok && severityNamed(sev) != "" && f.severity == "" {
			f.severity, f.code = severityNamed(sev), rule
		}
	}
	if f.message = strings.TrimSpace(f.message); f.message == "" || path == "" {
		return finding{}, false
	}
	return f, true
}

// severityNamed maps a tool's severity word to a Severity; "" when the
// word is none.
func severityNamed(word string) Severity {
	switch strings.ToLower(word) {
	case "fatal error", "fatal", "error":
		return SeverityError
	case "warning", "warn":
		return SeverityWarning
	case "note", "info", "information", "hint", "style":
		return SeverityInfo
	}
	return ""
}
