package udev

import (
	"testing"

	"github.com/stretchr/testify/require"
)

const sampleRules = `# USB serial adapter
SUBSYSTEM=="tty", ATTRS{idVendor}=="0403", ATTRS{idProduct}=="6001", \
    SYMLINK+="ttyFTDI", MODE="0660", GROUP="dialout"

ACTION=="add", KERNEL=="sd[a-z]*", ENV{ID_FS_TYPE}!="", RUN+="/usr/bin/mount-helper %k"
SUBSYSTEM="gpio", KERNEL=="gpiochip*", TAG+="uaccess"
ENV{LABEL}="say \"hi\"", PROGRAM=="/bin/x", RESULT=="ok*"
`

func TestParse(t *testing.T) {
	rules, errs := Parse(sampleRules)
	require.Equal(t, []ParseError{{Line: 6, Msg: "key SUBSYSTEM can only be compared (== or !=), found ="}}, errs)
	require.Len(t, rules, 4)
	require.Equal(t, 2, rules[0].Line)
	require.Equal(t, []Pair{
		{Key: "SUBSYSTEM", Op: "==", Value: "tty"},
		{Key: "ATTRS", Attr: "idVendor", Op: "==", Value: "0403"},
		{Key: "ATTRS", Attr: "idProduct", Op: "==", Value: "6001"},
		{Key: "SYMLINK", Op: "+=", Value: "ttyFTDI"},
		{Key: "MODE", Op: "=", Value: "0660"},
		{Key: "GROUP", Op: "=", Value: "dialout"},
	}, rules[0].Pairs)
	require.Equal(t, 5, rules[1].Line)
	require.Equal(t, Pair{Key: "ENV", Attr: "ID_FS_TYPE", Op: "!=", Value: ""}, rules[1].Pairs[2])
	require.Equal(t, Pair{Key: "ENV", Attr: "LABEL", Op: "=", Value: `say "hi"`}, rules[3].Pairs[0])
	require.Equal(t, "ENV{LABEL}", rules[3].Pairs[0].KeyString())
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, text string
		wantErrs   []ParseError
		wantPairs  int
	}{
		{"unquoted value", `SUBSYSTEM==tty, MODE="0666"`, []ParseError{{1, "value of SUBSYSTEM is not quoted"}}, 2},
		{"missing operator", `SUBSYSTEM "tty"`, []ParseError{{1, `expected an operator after SUBSYSTEM, found "\"tty\""`}}, 0},
		{"unterminated quote", `KERNEL=="ttyUSB*`, []ParseError{{1, "unterminated quoted value of KERNEL"}}, 1},
		{"unknown key", `BUS=="usb"`, []ParseError{{1, `unknown key "BUS"`}}, 1},
		{"lower-case key", `subsystem=="usb"`, []ParseError{{1, `expected a key at "subsystem==\"usb\""`}}, 0},
		{"attribute needed", `ATTRS=="x"`, []ParseError{{1, "key ATTRS needs an attribute, as in ATTRS{name}"}}, 1},
		{"attribute not allowed", `KERNEL{x}=="y"`, []ParseError{{1, "key KERNEL takes no attribute, found KERNEL{x}"}}, 1},
		{"unterminated attribute", `ATTRS{idVendor=="x"`, []ParseError{{1, "unterminated attribute after ATTRS{"}}, 0},
		{"assign-only compared", `MODE=="0666"`, []ParseError{{1, "key MODE cannot be compared with =="}}, 1},
		{"escaped value", `ENV{X}=e"a\tb"`, nil, 1},
		{"comment and blank only", "# x\n\n   # y\n", nil, 0},
		{"continuation at eof", "KERNEL==\"a\", \\", nil, 1},
		{"crlf", "KERNEL==\"a\",\r\nMODE=\"1\"\r\n", nil, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rules, errs := Parse(tt.text)
			require.Equal(t, tt.wantErrs, errs)
			n := 0
			for _, r := range rules {
				n += len(r.Pairs)
			}
			require.Equal(t, tt.wantPairs, n)
		})
	}
	rules, _ := Parse(`ENV{X}=e"a\tb\"c"`)
	require.Equal(t, "a\tb\"c", rules[0].Pairs[0].Value)
	require.Equal(t, "line 3: boom", ParseError{Line: 3, Msg: "boom"}.Error())
}

func TestRuleMatches(t *testing.T) {
	tests := []struct {
		key, value string
		want       bool
	}{
		{"SUBSYSTEM", "", true},
		{"SUBSYSTEM", "tty", true},
		{"SUBSYSTEM", "gpio", false}, // written with =, not ==
		{"subsystem", "tty", true},
		{"ATTRS{idVendor}", "0403", true},
		{"ATTRS{idVendor}", "0404", false},
		{"ATTRS{idvendor}", "0403", false},
		{"ATTRS", "", false},
		{"KERNEL", "sd[a-z]*", true},
		{"KERNEL", "sda", false},
		{"ENV{ID_FS_TYPE}", "", false}, // != is not a match
		{"MODE", "", false},
		{"DRIVER", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.key+"="+tt.value, func(t *testing.T) {
			require.Equal(t, tt.want, RuleMatches(sampleRules, tt.key, tt.value))
		})
	}
}

func TestRuleAssigns(t *testing.T) {
	tests := []struct {
		key, value string
		want       bool
	}{
		{"MODE", "0660", true},
		{"MODE", "0666", false},
		{"GROUP", "", true},
		{"SYMLINK", "ttyFTDI", true},
		{"RUN", "/usr/bin/mount-helper %k", true},
		{"ENV{LABEL}", `say "hi"`, true},
		{"SUBSYSTEM", "gpio", true},
		{"SUBSYSTEM", "tty", false},
		{"OWNER", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.key+"="+tt.value, func(t *testing.T) {
			require.Equal(t, tt.want, RuleAssigns(sampleRules, tt.key, tt.value))
		})
	}
	require.False(t, RuleAssigns(`ENV{X}-="a"`, "ENV{X}", ""))
	require.True(t, RuleAssigns(`ENV{X}:="a"`, "ENV{X}", "a"))
}

func TestMatchKeysUsedAsAssign(t *testing.T) {
	text := "SUBSYSTEM=\"tty\", KERNEL==\"ttyUSB0\"\n# ACTION=\"add\"\nACTION=\"add\", ATTRS{idVendor}:=\"0403\", DRIVERS+=\"ftdi\", NAME=\"x\", ENV{A}=\"1\"\n"
	require.Equal(t, []KeyMisuse{
		{Line: 1, Pair: Pair{Key: "SUBSYSTEM", Op: "=", Value: "tty"}},
		{Line: 3, Pair: Pair{Key: "ACTION", Op: "=", Value: "add"}},
		{Line: 3, Pair: Pair{Key: "ATTRS", Attr: "idVendor", Op: ":=", Value: "0403"}},
		{Line: 3, Pair: Pair{Key: "DRIVERS", Op: "+=", Value: "ftdi"}},
	}, MatchKeysUsedAsAssign(text))
	require.Empty(t, MatchKeysUsedAsAssign(`SUBSYSTEM=="tty", MODE="0666"`))
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{sampleRules, `A=="`, `ATTRS{`, "\\\n\\", `ENV{X}=e"\`, "K\x00==\"\xff\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		rules, errs := Parse(text)
		lines := 1
		for i := 0; i < len(text); i++ {
			if text[i] == '\n' {
				lines++
			}
		}
		for _, r := range rules {
			if r.Line < 1 || r.Line > lines || len(r.Pairs) == 0 {
				t.Fatalf("bad rule %+v", r)
			}
			for _, p := range r.Pairs {
				if p.Key == "" || (!IsMatchOp(p.Op) && !IsAssignOp(p.Op)) {
					t.Fatalf("bad pair %+v", p)
				}
			}
		}
		for _, e := range errs {
			if e.Line < 1 || e.Line > lines || e.Msg == "" {
				t.Fatalf("bad error %+v", e)
			}
		}
		_ = MatchKeysUsedAsAssign(text)
	})
}
