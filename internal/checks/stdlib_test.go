package checks

import (
	"os"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.starlark.net/starlark"
)

func TestStdlibRefusesShadowing(t *testing.T) {
	pre := predeclared()
	pre["includes_check"] = starlark.None
	_, err := loadStdlib(pre)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "includes_check shadows a predeclared name")
}

func TestStdlibFilesAreSeparate(t *testing.T) {
	two := fstest.MapFS{
		"stdlib/a.star": {Data: []byte("def helper(x):\n    return x\n")},
		"stdlib/b.star": {Data: []byte("def helper(x):\n    return x + 1\n")},
	}
	_, err := loadStdlibFrom(two, predeclared())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "<stdlib>/b.star: helper is also defined by <stdlib>/a.star")

	private := fstest.MapFS{
		"stdlib/a.star": {Data: []byte("def _inner(x):\n    return x * 2\n\ndef twice(x):\n    return _inner(x)\n")},
		"stdlib/b.star": {Data: []byte("def thrice(x):\n    return twice(x)\n")},
	}
	_, err = loadStdlibFrom(private, predeclared())
	require.Error(t, err, "a file must not see another file's functions")
	assert.Contains(t, err.Error(), "undefined: twice")

	ok := fstest.MapFS{"stdlib/a.star": {Data: []byte("def _inner(x):\n    return x * 2\n\ndef twice(x):\n    return _inner(x)\n")}}
	lib, err := loadStdlibFrom(ok, predeclared())
	require.NoError(t, err)
	assert.True(t, lib.Has("twice"))
	assert.False(t, lib.Has("_inner"), "private names stay private")
}

func TestStdlibNamesAreDocumented(t *testing.T) {
	names, err := StdlibNames()
	require.NoError(t, err)
	require.NotEmpty(t, names)
	doc, err := os.ReadFile(docPath)
	require.NoError(t, err)
	for _, n := range names {
		assert.True(t, strings.Contains(string(doc), "#### "+n+"\n"), "%s has no section in %s", n, docPath)
	}
}

func TestStdlibRecords(t *testing.T) {
	code := "#include <zephyr/kernel.h>\nint main(void) { HAL_Delay(1); return 0; }\n"
	tests := []struct {
		expr, want string
	}{
		{`includes_check("h", "Write the src/main.c of a Zephyr application.", code, ["zephyr/kernel.h"]).passed`, "True"},
		{`includes_check("h", "Write the src/main.c of a Zephyr application.", code, ["zephyr/kernel.h", "kernel.h"]).actual`, `"missing kernel.h"`},
		{`includes_check("h", "Write the src/main.c of a Zephyr application.", code, ["x.h"], check_type = "constraint").check_type`, `"constraint"`},
		{`foreign_apis_check("f", "Write the src/main.c of a Zephyr application.", code, "Zephyr only").actual`, `"STM32_HAL:HAL_Delay (line 2)"`},
		{`foreign_apis_check("f", "Write the src/main.c of a Zephyr application.", code, "Zephyr only", skip_platforms = ["STM32_HAL"]).passed`, "True"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, evalExpr(t, tt.expr, code), tt.expr)
	}
}

// StdlibNames lists the public functions of the standard library, sorted:
// for documentation tests.
func StdlibNames() ([]string, error) {
	lib, err := loadStdlib(predeclared())
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(lib))
	for n := range lib {
		names = append(names, n)
	}
	sort.Strings(names)
	return names, nil
}
