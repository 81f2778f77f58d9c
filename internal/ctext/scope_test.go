package ctext

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseScope(t *testing.T) {
	tests := []struct {
		in      string
		want    Scope
		wantErr string
	}{
		{"stripped", ScopeStripped, ""},
		{"code_only", ScopeCodeOnly, ""},
		{"raw", ScopeRaw, ""},
		{"", "", `unknown scope "" (want stripped, code_only or raw)`},
		{"Raw", "", `unknown scope "Raw" (want stripped, code_only or raw)`},
		{"x", "", `unknown scope "x" (want stripped, code_only or raw)`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseScope(tt.in)
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}
}

func TestScopedContains(t *testing.T) {
	code := "#include \"app_config.h\"\n/* uses k_sleep */\nint main(void) { printk(\"k_msleep\"); k_yield(); }\n"
	tests := []struct {
		needle string
		scope  Scope
		want   bool
	}{
		{"app_config.h", ScopeStripped, false},
		{"app_config.h", ScopeCodeOnly, true},
		{"app_config.h", ScopeRaw, true},
		{"k_sleep", ScopeStripped, false},
		{"k_sleep", ScopeCodeOnly, false},
		{"k_sleep", ScopeRaw, true},
		{"k_msleep", ScopeStripped, false},
		{"k_msleep", ScopeCodeOnly, true},
		{"k_yield()", ScopeStripped, true},
		{"k_yield()", "bogus", true},
		{"uses", "bogus", false},
		{"", ScopeStripped, true},
	}
	for _, tt := range tests {
		t.Run(string(tt.scope)+"/"+tt.needle, func(t *testing.T) {
			require.Equal(t, tt.want, NewSource(code).ScopedContains(tt.needle, tt.scope))
		})
	}
	src := NewSource(code)
	require.Equal(t, code, src.Scoped(ScopeRaw))
	require.Equal(t, StripComments(code), src.Scoped(ScopeCodeOnly))
	require.Equal(t, StripStringLiterals(StripComments(code)), src.Scoped(ScopeStripped))
	require.Equal(t, src.Scoped(ScopeStripped), src.Scoped("bogus"), "an unknown scope is the stripped one")
}
