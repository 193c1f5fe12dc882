package main

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// codexTable is the header of DiffDesk's MCP server in Codex's config.toml.
const codexTable = "[mcp_servers.diffdesk]"

// codexHeaderRE matches a table header line; codexOursRE ours, however
// spaced or quoted.
var (
	codexHeaderRE = regexp.MustCompile(`^\s*\[`)
	codexOursRE   = regexp.MustCompile(`^\s*\[\s*(mcp_servers|"mcp_servers")\s*\.\s*(diffdesk|"diffdesk")\s*\]\s*(#.*)?$`)
)

// codexTarget is Codex's config.toml with `deskctl mcp` as the MCP server
// diffdesk. TOML is edited as lines: the table is appended, replaced or
// taken out whole, and the rest of the file stays byte for byte; the
// result is parsed again before it is written.
func codexTarget(path string, argv []string) setupTarget {
	block := codexTable + "\ncommand = " + tomlString(argv[0]) + "\nargs = ["
	for i, a := range argv[1:] {
		if i > 0 {
			block += ", "
		}
		block += tomlString(a)
	}
	block += "]\n"
	return setupTarget{
		path: path, mode: 0o600,
		add: func(old []byte) ([]byte, error) {
			server, err := codexServer(path, old)
			if err != nil {
				return nil, err
			}
			if server != nil && server.Command == argv[0] && reflect.DeepEqual(server.Args, argv[1:]) {
				return old, nil
			}
			text, tail := string(old), block
			switch {
			case server != nil:
				var ok bool
				if text, ok = replaceCodexTable(text, block); !ok {
					return nil, fmt.Errorf("%s defines mcp_servers.diffdesk other than as a %s table; replace it by hand with:\n%s", path, codexTable, block)
				}
				tail = ""
			case strings.TrimSpace(text) == "":
				text = ""
			case !strings.HasSuffix(text, "\n"):
				text += "\n\n"
			case !strings.HasSuffix(text, "\n\n"):
				text += "\n"
			}
			text += tail
			if got, err := codexServer(path, []byte(text)); err != nil || got == nil || got.Command != argv[0] {
				return nil, fmt.Errorf("%s: adding %s would not give a valid config (%v); add it by hand:\n%s", path, codexTable, err, block)
			}
			return []byte(text), nil
		},
		remove: func(old []byte) ([]byte, error) {
			server, err := codexServer(path, old)
			if err != nil || server == nil {
				return old, err
			}
			text, ok := cutCodexTable(string(old))
			if !ok {
				return nil, fmt.Errorf("%s defines mcp_servers.diffdesk other than as a %s table; take it out by hand", path, codexTable)
			}
			return []byte(text), nil
		},
		commands: func(old []byte) []string {
			server, err := codexServer(path, old)
			if err != nil || server == nil || server.Command == "" {
				return nil
			}
			return []string{strings.Join(append([]string{shellQuote(server.Command)}, server.Args...), " ")}
		},
	}
}

// codexMCPServer is an [mcp_servers.NAME] table of Codex's config.
type codexMCPServer struct {
	Command string   `toml:"command"`
	Args    []string `toml:"args"`
}

// codexServer parses a config.toml and returns its diffdesk server, or nil.
func codexServer(path string, data []byte) (*codexMCPServer, error) {
	var cfg struct {
		MCPServers map[string]codexMCPServer `toml:"mcp_servers"`
	}
	if err := toml.Unmarshal(data, &cfg); err != nil {
		return nil, fmt.Errorf("%s is not TOML DiffDesk can edit (%v); fix it and run setup again", path, err)
	}
	if s, ok := cfg.MCPServers["diffdesk"]; ok {
		return &s, nil
	}
	return nil, nil
}

// codexTableLines finds the [mcp_servers.diffdesk] table in lines: its
// header's index and the index after its last line (blank lines before the
// next table are not its own). False if there is no such header.
func codexTableLines(lines []string) (start, end int, ok bool) {
	start = -1
	for i, l := range lines {
		if codexOursRE.MatchString(strings.TrimRight(l, "\r\n")) {
			start = i
			break
		}
	}
	if start < 0 {
		return 0, 0, false
	}
	end = start + 1
	for end < len(lines) && !codexHeaderRE.MatchString(lines[end]) {
		end++
	}
	for end > start+1 && strings.TrimSpace(lines[end-1]) == "" {
		end--
	}
	return start, end, true
}

// replaceCodexTable puts block in the place of the [mcp_servers.diffdesk]
// table of text. False if text has no such table.
func replaceCodexTable(text, block string) (string, bool) {
	lines := strings.SplitAfter(text, "\n")
	start, end, ok := codexTableLines(lines)
	if !ok {
		return text, false
	}
	return strings.Join(lines[:start], "") + block + strings.Join(lines[end:], ""), true
}

// cutCodexTable takes the [mcp_servers.diffdesk] table out of text, and
// the blank line before it (setup puts one there). False if text has no
// such table.
func cutCodexTable(text string) (string, bool) {
	lines := strings.SplitAfter(text, "\n")
	start, end, ok := codexTableLines(lines)
	if !ok {
		return text, false
	}
	if start > 0 && strings.TrimSpace(lines[start-1]) == "" {
		start--
	}
	if end == len(lines) || (end == len(lines)-1 && lines[end] == "") {
		// The table ended the file: so does what came before it.
		end = len(lines)
	}
	return strings.Join(lines[:start], "") + strings.Join(lines[end:], ""), true
}

// tomlString is s as a TOML string: a literal string where it can be.
func tomlString(s string) string {
	if !strings.ContainsAny(s, "'\n\r") {
		return "'" + s + "'"
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\r", `\r`, "\t", `\t`)
	return `"` + r.Replace(s) + `"`
}

// codexSandbox is the sandbox_mode a Codex config.toml sets, or "".
func codexSandbox(data []byte) string {
	var cfg struct {
		SandboxMode string `toml:"sandbox_mode"`
	}
	toml.Unmarshal(data, &cfg)
	return cfg.SandboxMode
}
