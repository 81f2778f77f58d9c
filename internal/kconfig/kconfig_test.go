package kconfig

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

const prjConf = `# Zephyr application configuration
CONFIG_GPIO=y
CONFIG_SERIAL=n
CONFIG_SENSOR=m
CONFIG_MAIN_STACK_SIZE=1024
CONFIG_SRAM_BASE_ADDRESS=0x20000000
CONFIG_BT_DEVICE_NAME="Embed \"Eval\" \\ node"
# CONFIG_LOG is not set

CONFIG_OFFSET=-4
CONFIG_GPIO=n
`

func TestParseAssignments(t *testing.T) {
	f := Parse(prjConf)
	require.Empty(t, f.Problems)
	require.Equal(t, []Assignment{
		{Symbol: "CONFIG_GPIO", Value: "y", Kind: KindBool, Line: 2},
		{Symbol: "CONFIG_SERIAL", Value: "n", Kind: KindBool, Line: 3},
		{Symbol: "CONFIG_SENSOR", Value: "m", Kind: KindTristate, Line: 4},
		{Symbol: "CONFIG_MAIN_STACK_SIZE", Value: "1024", Kind: KindInt, Line: 5},
		{Symbol: "CONFIG_SRAM_BASE_ADDRESS", Value: "0x20000000", Kind: KindHex, Line: 6},
		{Symbol: "CONFIG_BT_DEVICE_NAME", Value: `Embed "Eval" \ node`, Kind: KindString, Line: 7},
		{Symbol: "CONFIG_LOG", Value: "n", Kind: KindBool, Line: 8},
		{Symbol: "CONFIG_OFFSET", Value: "-4", Kind: KindInt, Line: 10},
		{Symbol: "CONFIG_GPIO", Value: "n", Kind: KindBool, Line: 11},
	}, f.Assignments)
}

func TestLookups(t *testing.T) {
	f := Parse(prjConf)
	tests := []struct {
		symbol    string
		wantValue string
		wantFound bool
		wantOn    bool
	}{
		{"CONFIG_GPIO", "n", true, false}, // last assignment wins
		{"GPIO", "n", true, false},
		{"SENSOR", "m", true, true},
		{"CONFIG_LOG", "n", true, false},
		{"MAIN_STACK_SIZE", "1024", true, false},
		{"CONFIG_BT_DEVICE_NAME", `Embed "Eval" \ node`, true, false},
		{"CONFIG_MISSING", "", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.symbol, func(t *testing.T) {
			v, ok := f.Value(tt.symbol)
			require.Equal(t, tt.wantFound, ok)
			require.Equal(t, tt.wantValue, v)
			require.Equal(t, tt.wantOn, f.Enabled(tt.symbol))
		})
	}
	require.Equal(t, []string{"CONFIG_GPIO"}, f.Duplicates())
	require.True(t, Parse("CONFIG_A=y\n").Enabled("A"))
	require.Nil(t, Parse("CONFIG_A=y\nCONFIG_B=y\n").Duplicates())
}

// String renders the problem as "line N: message".
func (p Problem) String() string {
	return fmt.Sprintf("line %d: %s", p.Line, p.Message)
}

func TestProblems(t *testing.T) {
	tests := []struct {
		name     string
		text     string
		want     []string
		wantSyms []string
	}{
		{"not an assignment", "CONFIG_A=y\n\nenable gpio please\n", []string{`line 3: expected CONFIG_<NAME>=<value>, found "enable gpio please"`}, []string{"CONFIG_A"}},
		{"missing prefix", "GPIO=y\n", []string{`line 1: symbol "GPIO" does not start with CONFIG_`}, nil},
		{"empty value", "CONFIG_A=\n", []string{"line 1: empty value for CONFIG_A"}, nil},
		{"unterminated string", "CONFIG_NAME=\"abc\n", []string{`line 1: unterminated string for CONFIG_NAME: "abc`}, nil},
		{"escaped quote does not terminate", `CONFIG_NAME="abc\"`, []string{`line 1: unterminated string for CONFIG_NAME: "abc\"`}, nil},
		{"text after string", `CONFIG_NAME="a" b`, []string{`line 1: unexpected text "b" after the string value of CONFIG_NAME`}, nil},
		{"space around equals is read", "CONFIG_A = y\n", []string{`line 1: space around '=' in "CONFIG_A = y" (Kconfig expects CONFIG_<NAME>=<value>)`}, []string{"CONFIG_A"}},
		{"leading whitespace is read", "  CONFIG_A=y", []string{`line 1: leading whitespace before "CONFIG_A=y"`}, []string{"CONFIG_A"}},
		{"bad value", "CONFIG_A=yes\n", []string{`line 1: invalid value "yes" for CONFIG_A (expected y, n, m, a number, 0x<hex> or a quoted string)`}, nil},
		{"bad name", "CONFIG_A-B=y\n", []string{`line 1: invalid symbol name "CONFIG_A-B" (letters, digits and '_' only)`}, nil},
		{"no name", "=y\n", []string{`line 1: expected CONFIG_<NAME>=<value>, found "=y"`}, nil},
		{"crlf and comments are fine", "# comment\r\nCONFIG_A=y\r\n#CONFIG_B is not set\r\n", nil, []string{"CONFIG_A", "CONFIG_B"}},
		{"a comment that looks almost like not set", "# CONFIG_B is set\n", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Parse(tt.text)
			var got []string
			for _, p := range f.Problems {
				got = append(got, p.String())
			}
			require.Equal(t, tt.want, got)
			var syms []string
			for _, a := range f.Assignments {
				syms = append(syms, a.Symbol)
			}
			require.Equal(t, tt.wantSyms, syms)
		})
	}
}

func FuzzParse(f *testing.F) {
	f.Add(prjConf)
	f.Add("CONFIG_A=\"\\")
	f.Add("# CONFIG_ is not set\n=\n")
	f.Fuzz(func(t *testing.T, text string) {
		frag := Parse(text)
		for _, a := range frag.Assignments {
			if a.Line < 1 || a.Symbol == "" {
				t.Fatalf("bad assignment %+v", a)
			}
			if v, ok := frag.Value(a.Symbol); !ok || (v != a.Value && len(frag.Duplicates()) == 0) {
				t.Fatalf("Value(%q) = %q, %v; want %q", a.Symbol, v, ok, a.Value)
			}
		}
		for _, p := range frag.Problems {
			if p.Line < 1 || p.Message == "" {
				t.Fatalf("bad problem %+v", p)
			}
		}
	})
}
