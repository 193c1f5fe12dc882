package main

import (
	"encoding/json"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/tailscale/hujson"
)

// The agents deskctl setup connects through a hook or an MCP server. (The
// IDE doors of Claude Code and Gemini CLI need no settings file; the Cline
// door registers itself from its own file.)
func init() {
	registerSetupAgent(&setupAgent{
		name: "claude", title: "Claude Code",
		door: "the PreToolUse hook `deskctl hook claude` (and PostToolUse, PostToolUseFailure, Stop and SessionEnd, which tell the desk whether Claude Code wrote what was approved) in ~/.claude/settings.json ($CLAUDE_CONFIG_DIR); with --project in .claude/settings.local.json, the repository's settings for this machine (the hook names this machine's deskctl)",
		carries: "Every Edit, MultiEdit and Write, in every permission mode and in claude -p, waits for you before it is written; the model reads a rejection's reason, your comments, your edits and the final text. " +
			"Shell commands that write files (Bash) are not edits and are not shown: Claude Code asks about them itself. " +
			"The IDE diff door needs no settings: start claude with CLAUDE_CODE_SSE_PORT (deskctl status prints it) or type /ide.",
		targets: func(env setupEnv) ([]setupTarget, error) {
			path := filepath.Join(env.home, ".claude", "settings.json")
			if dir := os.Getenv("CLAUDE_CONFIG_DIR"); dir != "" {
				path = filepath.Join(dir, "settings.json")
			}
			if env.project != "" {
				path = filepath.Join(env.project, ".claude", "settings.local.json")
			}
			return []setupTarget{hookTarget(path, "claude", hookCommand(env, "claude"), []hookEvent{
				{name: "PreToolUse", matcher: "Edit|MultiEdit|Write", timeout: 600},
				// After the tool, or at the end of the turn if it never ran:
				// the desk learns whether the approved text was written
				// (hook_wrote.go).
				{name: "PostToolUse", matcher: "Edit|MultiEdit|Write"},
				{name: "PostToolUseFailure", matcher: "Edit|MultiEdit|Write", neverBlocks: true},
				{name: "Stop", neverBlocks: true},
				{name: "SessionEnd", neverBlocks: true},
			})}, nil
		},
	})
	registerSetupAgent(&setupAgent{
		name: "gemini", title: "Gemini CLI",
		door: "the BeforeTool and AfterTool hooks `deskctl hook gemini` (and AfterAgent and SessionEnd, which with AfterTool tell the desk whether Gemini CLI wrote what was approved) in ~/.gemini/settings.json; with --project in .gemini/settings.json",
		carries: "Every replace and write_file, YOLO and gemini -p included, waits for you before it is written; the model reads a rejection's reason and, through AfterTool, your comments, your edits and the final text. " +
			"Shell commands that write files are not edits and are not shown. " +
			`The IDE diff door needs {"ide":{"enabled":true}} (or /ide enable) instead; it cannot carry a reason.`,
		targets: func(env setupEnv) ([]setupTarget, error) {
			path := filepath.Join(env.home, ".gemini", "settings.json")
			if env.project != "" {
				path = filepath.Join(env.project, ".gemini", "settings.json")
			}
			cmd := hookCommand(env, "gemini")
			return []setupTarget{hookTarget(path, "gemini", cmd, []hookEvent{
				{name: "BeforeTool", matcher: "replace|write_file", timeout: 600000},
				{name: "AfterTool", matcher: "replace|write_file"},
				{name: "AfterAgent", neverBlocks: true},
				{name: "SessionEnd", neverBlocks: true},
			})}, nil
		},
	})
	registerSetupAgent(&setupAgent{
		name: "codex", title: "Codex CLI",
		door:    "the MCP server `deskctl mcp` as [mcp_servers.diffdesk] in ~/.codex/config.toml ($CODEX_HOME); with --project in .codex/config.toml (Codex reads it in a trusted project)",
		carries: "Edits the model makes with the diffdesk tools (apply_patch, edit, write_to_file, replace_in_file, multi_edit) wait for you; the model reads the outcome, your edits and the final text.",
		bypass:  "Codex's own apply_patch tool and its shell still write files without the desk.",
		bypassFix: `add sandbox_mode = "read-only" to config.toml (or run codex --sandbox read-only): Codex's own writes are then refused, while the desk, an MCP server Codex does not sandbox, still writes; ` +
			"and tell the model in AGENTS.md to edit files with the diffdesk tools",
		targets: func(env setupEnv) ([]setupTarget, error) {
			dir := filepath.Join(env.home, ".codex")
			if d := os.Getenv("CODEX_HOME"); d != "" {
				dir = d
			}
			if env.project != "" {
				dir = filepath.Join(env.project, ".codex")
			}
			return []setupTarget{codexTarget(filepath.Join(dir, "config.toml"), mcpArgs(env))}, nil
		},
	})
	registerSetupAgent(&setupAgent{
		name: "cursor", title: "Cursor",
		door:      "the MCP server `deskctl mcp` as mcpServers.diffdesk in ~/.cursor/mcp.json; with --project in .cursor/mcp.json",
		carries:   "Edits the agent makes with the diffdesk tools wait for you; the agent reads the outcome, your edits and the final text.",
		bypass:    "Cursor's own edit tools still write files without the desk, and Cursor has no setting that turns them off (its hooks run only after an edit).",
		bypassFix: "tell the agent in a rule (.cursor/rules) to edit files with the diffdesk tools only, and keep reviewing Cursor's own edits in Cursor",
		targets: func(env setupEnv) ([]setupTarget, error) {
			path := filepath.Join(env.home, ".cursor", "mcp.json")
			if env.project != "" {
				path = filepath.Join(env.project, ".cursor", "mcp.json")
			}
			return []setupTarget{mcpJSONTarget(path, mcpArgs(env))}, nil
		},
	})
	registerSetupAgent(&setupAgent{
		name: "windsurf", title: "Windsurf",
		door:      "the MCP server `deskctl mcp` as mcpServers.diffdesk in ~/.codeium/windsurf/mcp_config.json (Windsurf has no per-repository MCP settings)",
		carries:   "Edits Cascade makes with the diffdesk tools wait for you; it reads the outcome, your edits and the final text.",
		bypass:    "Cascade's own edit tools still write files without the desk.",
		bypassFix: "tell Cascade in a rule (.windsurf/rules) to edit files with the diffdesk tools only, and leave its auto-execution off so you see what it writes itself",
		targets: func(env setupEnv) ([]setupTarget, error) {
			if env.project != "" {
				return nil, errors.New("run setup without --project: Windsurf reads MCP servers only from the user's settings")
			}
			return []setupTarget{mcpJSONTarget(filepath.Join(env.home, ".codeium", "windsurf", "mcp_config.json"), mcpArgs(env))}, nil
		},
	})
}

// hookCommand is the command line of agent's hook: deskctl by its absolute
// path, and "|| exit 2", so that a deskctl that cannot run (moved,
// deleted: the shell's 126 or 127, which the agents take as "carry on")
// blocks the edit as exit 2 does, rather than letting it through.
func hookCommand(env setupEnv, agent string) string {
	cmd := shellQuote(env.deskctl) + " hook " + agent
	if env.socket != "" {
		cmd += " --socket " + shellQuote(env.socket)
	}
	return cmd + " || exit 2"
}

// mcpArgs are the arguments of the MCP server's command.
func mcpArgs(env setupEnv) []string {
	args := []string{"mcp"}
	if env.socket != "" {
		args = append(args, "--socket", env.socket)
	}
	return append([]string{env.deskctl}, args...)
}

// shellQuote quotes s for sh where it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+@:,=") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// deskHookRE matches the command line of a DiffDesk hook: a program whose
// name holds "deskctl" (by any path, quoted or not), then "hook".
var deskHookRE = regexp.MustCompile(`(^|[/\s'"])[^\s'"/]*deskctl[^\s'"/]*['"]?\s+hook(\s|$)`)

// hookEvent is one hook event setup adds DiffDesk's hook to.
type hookEvent struct {
	name, matcher string
	timeout       int // in the agent's unit; 0 for none
	// neverBlocks: an event whose hook reviews nothing (a tool's failure,
	// a turn's or session's end), run with "|| exit 0" for hookCommand's
	// "|| exit 2": a block at Stop or AfterAgent makes the agent carry on,
	// again and again, where deskctl cannot run — and Gemini CLI 0.61
	// takes every exit but 0 and 1 that prints something as a block,
	// the shell's 127 included.
	neverBlocks bool
}

// hookTarget is a JSON settings file with DiffDesk's command as the hook
// of each event (Claude Code's and Gemini CLI's format: hooks.EVENT is a
// list of {matcher, hooks: [{type: command, command, timeout}]}). Setup
// takes out every other DiffDesk hook first: one the README once showed
// (deskctl by name), or one for another event, would review twice.
func hookTarget(path, agent, command string, events []hookEvent) setupTarget {
	want := map[string]any{}
	quiet := map[string]bool{} // the events whose hook never blocks
	for _, ev := range events {
		quiet[ev.name] = ev.neverBlocks
		h := map[string]any{"type": "command", "command": command}
		if ev.neverBlocks {
			h["command"] = strings.TrimSuffix(command, " || exit 2") + " || exit 0"
		}
		if ev.timeout > 0 {
			h["timeout"] = ev.timeout
		}
		want[ev.name] = map[string]any{"matcher": ev.matcher, "hooks": []any{h}}
	}
	return setupTarget{
		path: path, mode: 0o600,
		add: func(old []byte) ([]byte, error) {
			s, err := parseJSONSettings(path, old)
			if err != nil {
				return nil, err
			}
			if hooksSetUp(s, want) {
				return old, nil
			}
			if err := removeDeskHooks(s); err != nil {
				return nil, err
			}
			hooks, indent, err := s.object("hooks")
			if err != nil {
				return nil, err
			}
			for _, ev := range events {
				arr, aindent, err := s.array(hooks, indent, ev.name)
				if err != nil {
					return nil, err
				}
				s.appendElement(arr, aindent, orderedGroup(want[ev.name].(map[string]any)))
			}
			return s.bytes(), nil
		},
		remove: func(old []byte) ([]byte, error) {
			s, err := parseJSONSettings(path, old)
			if err != nil {
				return nil, err
			}
			if err := removeDeskHooks(s); err != nil {
				return nil, err
			}
			return s.bytes(), nil
		},
		commands: func(old []byte) []string {
			s, err := parseJSONSettings(path, old)
			if err != nil {
				return nil
			}
			var hooks map[string][]struct {
				Hooks []struct {
					Command string `json:"command"`
				} `json:"hooks"`
			}
			s.value("/hooks", &hooks)
			// Each command once (setup puts the same one before and after
			// the tool), in the same order every time.
			var cmds []string
			seen := map[string]bool{}
			for _, event := range slices.Sorted(maps.Keys(hooks)) {
				if quiet[event] {
					continue // "|| exit 0", never a block: doctor checks the reviewing hooks
				}
				for _, g := range hooks[event] {
					for _, h := range g.Hooks {
						if deskHookRE.MatchString(h.Command) && !seen[h.Command] {
							seen[h.Command] = true
							cmds = append(cmds, h.Command)
						}
					}
				}
			}
			return cmds
		},
	}
}

// orderedGroup is a hook group with its keys in the order the agents'
// documentation writes them.
func orderedGroup(g map[string]any) any {
	h := g["hooks"].([]any)[0].(map[string]any)
	type hook struct {
		Type    string `json:"type"`
		Command string `json:"command"`
		Timeout int    `json:"timeout,omitempty"`
	}
	t, _ := h["timeout"].(int)
	return struct {
		Matcher string `json:"matcher"`
		Hooks   []hook `json:"hooks"`
	}{g["matcher"].(string), []hook{{h["type"].(string), h["command"].(string), t}}}
}

// hooksSetUp says whether s has exactly the hook groups want (event →
// group) and no other DiffDesk hook.
func hooksSetUp(s *jsonSettings, want map[string]any) bool {
	var hooks map[string]any
	if !s.value("/hooks", &hooks) {
		return false
	}
	wantJSON, _ := json.Marshal(want)
	var w map[string]any
	json.Unmarshal(wantJSON, &w)
	found := 0
	for event, v := range hooks {
		groups, _ := v.([]any)
		for _, g := range groups {
			if !groupHasDeskHook(g) {
				continue
			}
			if !reflect.DeepEqual(g, w[event]) {
				return false
			}
			found++
		}
	}
	return found == len(want)
}

// groupHasDeskHook says whether a decoded hook group holds a DiffDesk hook.
func groupHasDeskHook(g any) bool {
	m, _ := g.(map[string]any)
	hs, _ := m["hooks"].([]any)
	for _, h := range hs {
		hm, _ := h.(map[string]any)
		if c, _ := hm["command"].(string); deskHookRE.MatchString(c) {
			return true
		}
	}
	return false
}

// removeDeskHooks takes every DiffDesk hook out of s's hooks, then the
// groups, events and hooks object that are left empty by it.
func removeDeskHooks(s *jsonSettings) error {
	hv := s.root.Find("/hooks")
	if hv == nil {
		return nil
	}
	hooks, ok := hv.Value.(*hujson.Object)
	if !ok {
		return errors.New(`"hooks" is not a JSON object; fix it by hand`)
	}
	var emptied []string
	for i := range hooks.Members {
		groups, ok := hooks.Members[i].Value.Value.(*hujson.Array)
		if !ok {
			continue
		}
		n := removeElements(groups, func(g *hujson.Value) bool {
			gm, ok := g.Value.(*hujson.Object)
			if !ok {
				return false
			}
			hs := memberValue(gm, "hooks")
			if hs == nil {
				return false
			}
			arr, ok := hs.Value.(*hujson.Array)
			if !ok {
				return false
			}
			removed := removeElements(arr, func(h *hujson.Value) bool {
				var e struct {
					Command string `json:"command"`
				}
				return decodeValue(h, &e) == nil && deskHookRE.MatchString(e.Command)
			})
			return removed > 0 && len(arr.Elements) == 0
		})
		if n > 0 && len(groups.Elements) == 0 {
			emptied = append(emptied, hooks.Members[i].Name.Value.(hujson.Literal).String())
		}
	}
	for _, name := range emptied {
		removeMember(hooks, name)
	}
	if len(hooks.Members) == 0 && len(emptied) > 0 {
		removeMember(s.root.Value.(*hujson.Object), "hooks")
	}
	return nil
}

// mcpJSONTarget is a JSON settings file with `deskctl mcp` as the MCP
// server mcpServers.diffdesk (Cursor's and Windsurf's format).
func mcpJSONTarget(path string, argv []string) setupTarget {
	want := map[string]any{"command": argv[0], "args": argv[1:]}
	server := struct {
		Command string   `json:"command"`
		Args    []string `json:"args"`
	}{argv[0], argv[1:]}
	return setupTarget{
		path: path, mode: 0o600,
		add: func(old []byte) ([]byte, error) {
			s, err := parseJSONSettings(path, old)
			if err != nil {
				return nil, err
			}
			var got map[string]any
			if s.value("/mcpServers/diffdesk", &got) {
				var w map[string]any
				b, _ := json.Marshal(want)
				json.Unmarshal(b, &w)
				if reflect.DeepEqual(got, w) {
					return old, nil
				}
			}
			servers, indent, err := s.object("mcpServers")
			if err != nil {
				return nil, err
			}
			removeMember(servers, "diffdesk")
			s.appendMember(servers, indent, "diffdesk", server)
			return s.bytes(), nil
		},
		remove: func(old []byte) ([]byte, error) {
			s, err := parseJSONSettings(path, old)
			if err != nil {
				return nil, err
			}
			if v := s.root.Find("/mcpServers"); v != nil {
				if o, ok := v.Value.(*hujson.Object); ok {
					removeMember(o, "diffdesk")
					if len(o.Members) == 0 {
						removeMember(s.root.Value.(*hujson.Object), "mcpServers")
					}
				}
			}
			return s.bytes(), nil
		},
		commands: func(old []byte) []string {
			s, err := parseJSONSettings(path, old)
			if err != nil {
				return nil
			}
			var got struct {
				Command string   `json:"command"`
				Args    []string `json:"args"`
			}
			if !s.value("/mcpServers/diffdesk", &got) || got.Command == "" {
				return nil
			}
			return []string{strings.Join(append([]string{shellQuote(got.Command)}, got.Args...), " ")}
		},
	}
}
