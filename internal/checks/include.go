package checks

import (
	"fmt"

	"go.starlark.net/starlark"
)

// hasInclude is c.has_include(code, header): whether code has an #include
// directive naming header, with <...> or "..." delimiters. It reads the
// same directives as c.includes (commented-out ones and text in strings do
// not count, spaces around '#' and "include" are allowed) and compares the
// whole path: "kernel.h" does not match <zephyr/kernel.h>. Code that does
// not parse has no includes.
func hasInclude() builtinFunc {
	return func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var code, header string
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "code", &code, "header", &header); err != nil {
			return nil, err
		}
		if header == "" {
			return nil, fmt.Errorf("%s: header must be a non-empty string", b.Name())
		}
		st := stateOf(th)
		f, err := st.parsed(code)
		if err != nil {
			return nil, err
		}
		if f == nil {
			return starlark.False, nil
		}
		incs := f.Includes()
		if f.Interrupted() {
			return nil, st.timeLimit()
		}
		for _, in := range incs {
			if in.Path == header {
				return starlark.True, nil
			}
		}
		return starlark.False, nil
	}
}
