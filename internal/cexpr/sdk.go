package cexpr

import (
	"fmt"
	"maps"
	"strings"
	"sync"

	"github.com/embedeval/embedeval-go/data"
	"github.com/embedeval/embedeval-go/internal/vocabyaml"
)

// SDKTables are the SDK constants, function-like macros and typedefs of
// data/sdk_macros.yaml, known to the evaluator without a definition in the
// code.
type SDKTables struct {
	Objects   map[string]string
	Functions map[string]FuncMacro
	Types     map[string]string
}

// LoadSDKTables decodes and validates sdk_macros.yaml. source names the
// file in errors, which read "source:line: message". The document has the
// lists objects {name, value, source}, functions {name, params, body,
// source} (params comma-separated identifiers) and types {name, type,
// source}; names are C identifiers, unique in their list.
func LoadSDKTables(b []byte, source string) (SDKTables, error) {
	t := SDKTables{Objects: map[string]string{}, Functions: map[string]FuncMacro{}, Types: map[string]string{}}
	d, err := vocabyaml.Parse(b, source, "objects", "functions", "types")
	if err != nil {
		return t, err
	}
	read := func(key string, fields []string, add func(vocabyaml.Entry, string) error) error {
		list, err := d.List(key, fields...)
		if err != nil {
			return err
		}
		seen := vocabyaml.Unique{}
		for _, e := range list {
			name, err := e.Identifier("name")
			if err != nil {
				return err
			}
			if err := seen.Add(e, "name", name); err != nil {
				return err
			}
			if err := add(e, name); err != nil {
				return err
			}
		}
		return nil
	}
	text := func(e vocabyaml.Entry, field string) (string, error) {
		s, err := e.String(field)
		if err == nil && strings.TrimSpace(s) == "" {
			err = e.Errorf("empty %s", field)
		}
		return s, err
	}
	if err := read("objects", []string{"name", "value", "source"}, func(e vocabyaml.Entry, name string) error {
		v, err := text(e, "value")
		t.Objects[name] = v
		return err
	}); err != nil {
		return t, err
	}
	if err := read("functions", []string{"name", "params", "body", "source"}, func(e vocabyaml.Entry, name string) error {
		ps, err := text(e, "params")
		if err != nil {
			return err
		}
		body, err := text(e, "body")
		if err != nil {
			return err
		}
		var params []string
		for _, p := range strings.Split(ps, ",") {
			p = strings.TrimSpace(p)
			if !vocabyaml.IsIdentifier(p) {
				return e.Errorf("parameter %q is not a C identifier", p)
			}
			params = append(params, p)
		}
		t.Functions[name] = FuncMacro{Params: params, Body: body}
		return nil
	}); err != nil {
		return t, err
	}
	if err := read("types", []string{"name", "type", "source"}, func(e vocabyaml.Entry, name string) error {
		ty, err := text(e, "type")
		t.Types[name] = ty
		return err
	}); err != nil {
		return t, err
	}
	return t, nil
}

// sdkTables loads the embedded tables once; they are never changed after,
// and every accessor hands out a copy.
var sdkTables = sync.OnceValues(func() (SDKTables, error) {
	t, err := LoadSDKTables(data.SDKMacrosYAML(), "data/sdk_macros.yaml")
	if err != nil {
		return t, fmt.Errorf("embedded SDK macro table: %w", err)
	}
	return t, nil
})

// embeddedSDK returns the embedded tables. The file is validated by this
// package's tests; a malformed one is a build defect, so it panics.
func embeddedSDK() SDKTables {
	t, err := sdkTables()
	if err != nil {
		panic(err)
	}
	return t
}

// withSDK returns a copy of c with the entries of sdk added (c wins).
func withSDK[V any](c, sdk map[string]V) map[string]V {
	out := maps.Clone(sdk)
	maps.Copy(out, c)
	return out
}
