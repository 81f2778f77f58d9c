package csyntax

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// describe renders a statement tree one statement a line: kind, lines,
// condition, and the ops (kind:name operator value, "?" when conditional).
func describe(s *Stmt, depth int, b *strings.Builder) {
	if s == nil {
		fmt.Fprintf(b, "%s-\n", strings.Repeat(" ", depth))
		return
	}
	fmt.Fprintf(b, "%s%d %d-%d %q", strings.Repeat(" ", depth), s.Kind, s.Line, s.EndLine, s.Cond)
	if s.Forever {
		b.WriteString(" forever")
	}
	for _, part := range []struct {
		name string
		ops  []Op
	}{{"init", s.Init}, {"ops", s.Ops}, {"post", s.Post}} {
		if len(part.ops) == 0 {
			continue
		}
		fmt.Fprintf(b, " %s[", part.name)
		for i, o := range part.ops {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(b, "%d:%s", o.Kind, o.Name)
			if o.Operator != "" || o.Value != "" {
				fmt.Fprintf(b, " %s %s", o.Operator, o.Value)
			}
			if o.Conditional {
				b.WriteString("?")
			}
		}
		b.WriteString("]")
	}
	b.WriteString("\n")
	for _, k := range s.Kids {
		describe(k, depth+1, b)
	}
}

func TestBody(t *testing.T) {
	f := parse(t, `int g;
int f(int n) {
	int a, *p = &g;
	for (int i = 0; i < n; i++) {
		a += i; // sum
	}
	if (n > 2 && (a = 3))
		a = 4;
	else
		a = n ? (a = 1) : 2;
	do { a--; } while (1);
	switch (n) {
	case 1: a = 5;
	default: break;
	}
#if X
	a = 6;
#endif
	init(&a);
	return a /* done */ + 1;
}
`)
	var b strings.Builder
	describe(f.Body("f"), 0, &b)
	want := fmt.Sprintf(`%[1]d 2-21 ""
 %[2]d 3-3 "" ops[%[12]d:a, %[11]d:g, %[15]d:g, %[10]d:p = &g]
 %[3]d 4-6 "i < n" init[%[10]d:i = 0] post[%[10]d:i ++ ]
  %[1]d 4-6 ""
   %[2]d 5-5 "" ops[%[10]d:a += i]
 %[4]d 7-10 "n > 2 && (a = 3)" ops[%[10]d:a = 3?]
  %[2]d 8-8 "" ops[%[10]d:a = 4]
  %[2]d 10-10 "" ops[%[10]d:a = 1?, %[10]d:a = n ? (a = 1) : 2]
 %[5]d 11-11 "1" forever post[]
  %[1]d 11-11 ""
   %[2]d 11-11 "" ops[%[10]d:a -- ]
 %[6]d 12-15 "n" forever
  %[7]d 13-13 ""
   %[2]d 13-13 "" ops[%[10]d:a = 5]
  %[7]d 14-14 ""
   %[8]d 14-14 ""
 %[9]d 16-18 ""
  %[1]d 16-17 ""
   %[2]d 17-17 "" ops[%[10]d:a = 6]
 %[2]d 19-19 "" ops[%[11]d:a, %[13]d:init]
 %[14]d 20-20 "a + 1"
`, StmtSeq, StmtEffect, StmtLoop, StmtIf, StmtDo, StmtSwitch, StmtCase, StmtBreak, StmtAlt,
		OpStore, OpAddress, OpDeclare, OpCall, StmtReturn, OpUse)
	got := strings.ReplaceAll(b.String(), " post[]", "")
	want = strings.ReplaceAll(want, " post[]", "")
	require.Equal(t, want, got)
	require.Nil(t, f.Body("missing"))
	require.Same(t, f.Body("f"), f.Body("f"))
}
