package ctext

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestQualifierOnVariable(t *testing.T) {
	tests := []struct {
		name, code, variable, qualifier string
		want                            bool
	}{
		{"static volatile with init", "static volatile uint32_t x = 0;", "x", "volatile", true},
		{"static volatile storage", "static volatile uint32_t x = 0;", "x", "static", true},
		{"qualifier after type", "uint32_t volatile x;", "x", "volatile", true},
		{"second declarator", "volatile bool a, b;", "b", "volatile", true},
		{"after initialized declarator", "volatile int a = (1 + 2) * 3, b;", "b", "volatile", true},
		{"array", "static volatile uint8_t buf[16];", "buf", "volatile", true},
		{"volatile pointer", "int *volatile p;", "p", "volatile", true},
		{"pointer to volatile", "volatile int *p;", "p", "volatile", true},
		{"atomic", "static _Atomic int counter;", "counter", "_Atomic", true},
		{"const", "static const int table[] = {1, 2, 3};", "table", "const", true},
		{"trailing attribute", "static uint8_t buf[64] __aligned(4);", "buf", "__aligned(4)", true},
		{"attribute token spacing", "static uint8_t buf[64] __aligned( 4 );", "buf", "__aligned(4)", true},
		{"wrong alignment", "static uint8_t buf[64] __aligned(8);", "buf", "__aligned(4)", false},
		{"local", "void f(void)\n{\n\tvolatile int done = 0;\n\twhile (!done) {}\n}\n", "done", "volatile", true},
		{"parameter", "void f(int a, volatile uint32_t *reg) { *reg = a; }", "reg", "volatile", true},
		{"for init", "void f(void) { for (volatile int i = 0; i < 3; i++) {} }", "i", "volatile", true},
		{"struct member", "struct s { volatile int flag; int other; };", "flag", "volatile", true},
		{"struct typed variable", "static volatile struct { int a; } state;", "state", "volatile", true},
		{"function pointer", "static void (*volatile cb)(void);", "cb", "volatile", true},
		{"missing", "static uint32_t x = 0;", "x", "volatile", false},
		{"in comment", "static uint32_t x; /* volatile */", "x", "volatile", false},
		{"in string", "static const char *x = \"volatile\";", "x", "volatile", false},
		{"other variable", "volatile int y; int x;", "x", "volatile", false},
		{"use not declaration", "int x;\nvoid f(void) { volatile_write(x); y = (volatile int)x; }", "x", "volatile", false},
		{"initializer use", "int x; volatile int y = x;", "x", "volatile", false},
		{"function not variable", "volatile int x(void);", "x", "volatile", false},
		{"call argument", "void f(void) { g(volatile_flag, x); }", "x", "volatile", false},
		{"macro line", "#define DECL volatile int x\nint x;", "x", "volatile", false},
		{"prefix name", "volatile int xy; int x;", "x", "volatile", false},
		{"return statement", "int f(void) { return volatile_x + x; }", "x", "volatile", false},
		{"empty qualifier", "volatile int x;", "x", "", false},
		{"after previous function", "void f(void) { }\nvolatile int x;", "x", "volatile", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, QualifierOnVariable(tt.code, tt.variable, tt.qualifier))
		})
	}
}
