package config

import "testing"

// TestBuiltinProtectionsHaveReasons: every built-in pattern is listed once
// and carries its reason into the match the window and the agent show.
func TestBuiltinProtectionsHaveReasons(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range Default().Protected {
		if seen[p.Pattern] {
			t.Errorf("built-in pattern %q listed twice", p.Pattern)
		}
		seen[p.Pattern] = true
		if p.Reason == "" || p.Origin != "built-in" {
			t.Errorf("built-in %q: reason %q, origin %q; want a reason, built-in", p.Pattern, p.Reason, p.Origin)
		}
	}
	if len(seen) != len(DefaultProtected) {
		t.Errorf("Default has %d protected patterns; DefaultProtected lists %d", len(seen), len(DefaultProtected))
	}
}

func TestProtectionString(t *testing.T) {
	for _, tt := range []struct {
		p    Protection
		want string
	}{
		{Protection{}, ""},
		{Protection{Pattern: ".claude/", Origin: "built-in", Reason: "Claude Code's settings"}, `Claude Code's settings (rule ".claude/", built-in)`},
		{Protection{Pattern: "secrets/", Origin: "/u/config.toml line 3"}, `protected by rule "secrets/" at /u/config.toml line 3`},
	} {
		if got := tt.p.String(); got != tt.want {
			t.Errorf("%+v.String() = %q; want %q", tt.p, got, tt.want)
		}
	}
}
