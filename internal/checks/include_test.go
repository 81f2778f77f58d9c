package checks

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHasInclude(t *testing.T) {
	code := "#include <zephyr/kernel.h>\n#  include \"app_config.h\"\n# include<zephyr/drivers/gpio.h>\n" +
		"// #include <stdio.h>\n/* #include <stdlib.h> */\nconst char *s = \"#include <string.h>\";\n" +
		"#if 0\n#include <zephyr/sys/printk.h>\n#endif\n"
	for header, want := range map[string]string{
		"zephyr/kernel.h":        "True",  // <...>
		"app_config.h":           "True",  // "..." and spaces after '#'
		"zephyr/drivers/gpio.h":  "True",  // no space before '<'
		"zephyr/sys/printk.h":    "True",  // directives in #if blocks count, as in c.includes
		"kernel.h":               "False", // no suffix match
		"zephyr":                 "False", // no prefix match
		"stdio.h":                "False", // line comment
		"stdlib.h":               "False", // block comment
		"string.h":               "False", // string literal
		"<zephyr/kernel.h>":      "False", // delimiters are not part of the path
		"zephyr/drivers/gpio.h ": "False",
	} {
		assert.Equal(t, want, evalExpr(t, `c.has_include(code, "`+header+`")`, code), header)
	}
	// The builtin agrees with c.includes on every header it lists.
	assert.Equal(t, "True", evalExpr(t, `all([c.has_include(code, i.path) for i in c.includes(code)])`, code))
	assert.Equal(t, "False", evalExpr(t, `c.has_include(code, "zephyr/kernel.h")`, ""))
	assert.Equal(t, "True", evalExpr(t, `c.has_include(code = code, header = "zephyr/kernel.h")`, code))
}

func TestHasIncludeBadArguments(t *testing.T) {
	rt := newRuntime(t, Limits{})
	for _, expr := range []string{
		`c.has_include(code, "")`,
		`c.has_include(code, None)`,
		`c.has_include(code, ["zephyr/kernel.h"])`,
		`c.has_include(code)`,
	} {
		_, err := run(t, rt, "def run_checks(code):\n    return [CheckDetail(check_name = \"x\", passed = "+expr+")]\n", "#include <zephyr/kernel.h>\n")
		require.Error(t, err, expr)
		assert.Contains(t, err.Error(), "c.has_include", expr)
	}
}
