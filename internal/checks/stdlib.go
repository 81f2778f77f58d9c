package checks

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"go.starlark.net/starlark"
)

// stdlibFiles is the check standard library (stdlib/*.star): functions many
// cases share, written in Starlark so that a contributor reads them like a
// check file. Each file is run on its own with the Go helpers predeclared.
//
//go:embed stdlib/*.star
var stdlibFiles embed.FS

// loadStdlib runs every file of the standard library, in name order, with
// pre as its predeclared names, and returns their public (not "_"-prefixed)
// globals, frozen so that every session may call them. A public name that
// shadows a predeclared one, or that two files define, is an error: a check
// file would otherwise not know which it gets.
func loadStdlib(pre starlark.StringDict) (starlark.StringDict, error) {
	return loadStdlibFrom(stdlibFiles, pre)
}

// loadStdlibFrom is loadStdlib on the files stdlib/*.star of fsys.
func loadStdlibFrom(fsys fs.FS, pre starlark.StringDict) (starlark.StringDict, error) {
	names, err := fs.Glob(fsys, "stdlib/*.star")
	if err != nil {
		return nil, fmt.Errorf("list the standard library: %w", err)
	}
	sort.Strings(names)
	out := starlark.StringDict{}
	from := map[string]string{}
	for _, file := range names {
		src, err := fs.ReadFile(fsys, file)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", file, err)
		}
		th := &starlark.Thread{
			Name: "stdlib",
			Load: func(*starlark.Thread, string) (starlark.StringDict, error) {
				return nil, errors.New("load() is not available in the standard library")
			},
		}
		path := "<stdlib>/" + strings.TrimPrefix(file, "stdlib/")
		globals, err := starlark.ExecFileOptions(fileOptions(), th, path, src, pre)
		if err != nil {
			return nil, fmt.Errorf("run %s: %w", path, err)
		}
		for name, v := range globals {
			switch {
			case strings.HasPrefix(name, "_"):
				continue
			case pre.Has(name):
				return nil, fmt.Errorf("%s: %s shadows a predeclared name", path, name)
			case from[name] != "":
				return nil, fmt.Errorf("%s: %s is also defined by %s", path, name, from[name])
			}
			from[name] = path
			out[name] = v
		}
	}
	out.Freeze()
	return out, nil
}
