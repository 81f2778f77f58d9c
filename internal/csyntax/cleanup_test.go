package csyntax

import (
	"testing"

	"github.com/stretchr/testify/require"
)

var linuxPairs = [][2]string{
	{"clk_prepare_enable", "clk_disable_unprepare"},
	{"request_irq", "free_irq"},
	{"misc_register", "misc_deregister"},
}

func TestCleanupReverseOrder(t *testing.T) {
	tests := []struct {
		name    string
		code    string
		pairs   [][2]string
		want    bool
		explain string
	}{
		{
			name: "remove in reverse order",
			code: "static void demo_remove(struct platform_device *pdev)\n{\n\tmisc_deregister(&md);\n\tfree_irq(irq, d);\n\tclk_disable_unprepare(clk);\n}\n",
			want: true, explain: "releases run in reverse acquisition order in demo_remove",
		},
		{
			name: "remove in acquisition order",
			code: "static void demo_remove(struct platform_device *pdev)\n{\n\tclk_disable_unprepare(clk);\n\tfree_irq(irq, d);\n\tmisc_deregister(&md);\n}\n",
			want: false, explain: "demo_remove (line 1): free_irq at line 4 runs after clk_disable_unprepare at line 3, but request_irq was acquired after clk_prepare_enable, so it must be released first",
		},
		{
			name: "goto unwind ladder and inline error paths",
			code: `static int demo_probe(struct platform_device *pdev)
{
	int ret = clk_prepare_enable(clk);
	if (ret)
		return ret;
	ret = request_irq(irq, h, 0, "d", d);
	if (ret) {
		clk_disable_unprepare(clk);
		return ret;
	}
	ret = misc_register(&md);
	if (ret)
		goto err_irq;
	return 0;
err_irq:
	free_irq(irq, d);
	/* clk_disable_unprepare before free_irq would be wrong */
	clk_disable_unprepare(clk);
	return ret;
}
`,
			want: true, explain: "releases run in reverse acquisition order in demo_probe",
		},
		{
			name: "ladder in wrong order",
			code: "static int demo_probe(void)\n{\n\treturn 0;\nerr:\n\tclk_disable_unprepare(clk);\n\tfree_irq(irq, d);\n\treturn -1;\n}\n",
			want: false, explain: "demo_probe (line 1): free_irq at line 6 runs after clk_disable_unprepare at line 5, but request_irq was acquired after clk_prepare_enable, so it must be released first",
		},
		{
			name: "one release each in separate functions",
			code: "void a(void) { free_irq(1, d); }\nvoid b(void) { clk_disable_unprepare(c); }\n",
			want: true, explain: "found 2 release calls; no cleanup path releases two different resources",
		},
		{
			name: "only one release",
			code: "void a(void) { free_irq(1, d); }\n",
			want: false, explain: "found 1 release call(s) of clk_disable_unprepare, free_irq, misc_deregister; at least 2 are needed to confirm the cleanup order",
		},
		{
			name: "releases only in comments and strings",
			code: "void a(void) {\n\t/* free_irq(); clk_disable_unprepare(); */\n\tputs(\"misc_deregister(x) free_irq(y)\");\n}\n",
			want: false, explain: "found 0 release call(s) of clk_disable_unprepare, free_irq, misc_deregister; at least 2 are needed to confirm the cleanup order",
		},
		{
			name:  "repeated release of the same kind",
			code:  "void r(void)\n{\n\tfree_irq(1, d);\n\tfree_irq(2, d);\n\tclk_disable_unprepare(c);\n}\n",
			pairs: linuxPairs, want: true, explain: "releases run in reverse acquisition order in r",
		},
		{
			name:  "empty release names ignored",
			code:  "void r(void)\n{\n\tb_off();\n\ta_off();\n}\n",
			pairs: [][2]string{{"a_on", "a_off"}, {"x", ""}, {"b_on", "b_off"}},
			want:  true, explain: "releases run in reverse acquisition order in r",
		},
		{
			name: "return and release on one line",
			code: "void r(int e)\n{\n\tif (e) { clk_disable_unprepare(c); return; } free_irq(1, d);\n}\n",
			want: true, explain: "found 2 release calls; no cleanup path releases two different resources",
		},
		{
			name:  "member and dotted release calls",
			code:  "void r(void)\n{\n\tSerial.end();\n\tdev->ops->gpio_off(p);\n}\n",
			pairs: [][2]string{{"gpio_on", "gpio_off"}, {"Serial.begin", "Serial.end("}},
			want:  true, explain: "releases run in reverse acquisition order in r",
		},
		{
			name: "release inside a macro argument",
			code: "void r(void)\n{\n\tWARN_ON(clk_disable_unprepare(c));\n\tfree_irq(1, d);\n}\n",
			want: false, explain: "r (line 1): free_irq at line 4 runs after clk_disable_unprepare at line 3, but request_irq was acquired after clk_prepare_enable, so it must be released first",
		},
		{
			name: "recursive teardown",
			code: "void down(int n)\n{\n\tif (n)\n\t\tdown(n - 1);\n\tfree_irq(n, d);\n\tclk_disable_unprepare(c);\n}\n",
			want: true, explain: "releases run in reverse acquisition order in down",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pairs := tt.pairs
			if pairs == nil {
				pairs = linuxPairs
			}
			f := parse(t, tt.code)
			ok, why := f.ExplainCleanupOrder(pairs)
			require.Equal(t, tt.want, ok, why)
			require.Equal(t, tt.explain, why)
			require.Equal(t, tt.want, f.CleanupReverseOrder(pairs))
		})
	}
}

func TestLocatedCalls(t *testing.T) {
	code := "void f(void)\n{\n\ta(b(1));\n\tdev->x();\n}\n"
	f := parse(t, code)
	calls := f.LocatedCalls()
	require.Len(t, calls, 3)
	for i, c := range calls {
		require.Equal(t, f.Calls("")[i], c.Call)
	}
	require.Equal(t, []string{"a", "b", "dev"}, []string{code[calls[0].Start : calls[0].Start+1], code[calls[1].Start : calls[1].Start+1], code[calls[2].Start : calls[2].Start+3]})
	require.Nil(t, parse(t, "int x;").LocatedCalls())
}
