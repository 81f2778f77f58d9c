package csyntax

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// checkStructuralHelpers runs the ISR, qualifier and cleanup helpers on
// code and fails when a reported position leaves the text.
func checkStructuralHelpers(t *testing.T, code string) {
	f, err := Parse(code)
	require.NoError(t, err)
	defer f.Close()
	v := isrVocab(t)
	lines := strings.Count(code, "\n") + 1
	for _, d := range f.ISRDefinitions(v) {
		require.True(t, d.Open >= 0 && d.Open < len(code) && d.Close < len(code), "definition %+v", d)
	}
	for _, x := range f.ISRForbiddenCalls(nil, v) {
		require.True(t, x.Line >= 1 && x.Line <= lines, "violation %+v", x)
	}
	for _, c := range f.LocatedCalls() {
		require.True(t, c.Start >= 0 && c.Start < len(code), "call %+v", c)
	}
	_ = f.QualifierOnVariable("x", "volatile")
	_, _ = f.ExplainCleanupOrder([][2]string{{"a", "b"}, {"c", "d"}})
}

func TestStructuralHelpersOnMalformedInput(t *testing.T) {
	random := make([]byte, 4096)
	for i := range random {
		random[i] = byte(i*7919 + i/3)
	}
	for _, code := range []string{"", "void x_isr(void) {\n\tif (x) {\n\t\tk_msleep(", string(random),
		"int \xff\xfe x = \"\xc3\x28\";\nvoid a_isr(void) { free(p); }", "}}}{{{)))(((", "void f(volatile int x", "struct { volatile int x : ; }"} {
		checkStructuralHelpers(t, code)
	}
	f := parse(t, "void x_isr(void) {\n\tk_msleep(1);\n\tfree_irq(1, d); clk_disable_unprepare(c);")
	require.Equal(t, []ISRViolation{{Function: "x_isr", API: "k_msleep", Line: 2}}, f.ISRForbiddenCalls(nil, isrVocab(t)), "an unterminated body runs to the end")
	require.True(t, f.CleanupReverseOrder(linuxPairs))
}

func FuzzStructuralHelpers(f *testing.F) {
	for _, s := range []string{"", readTestdata(f, "zephyr_button.c"), "ISR(", "void f(", "static void (*volatile cb)(int x);", "void a_isr(void) { k_sem_take(&s, (K_NO_WAIT)); return; free(p); }"} {
		f.Add(s)
	}
	f.Fuzz(checkStructuralHelpers)
}
