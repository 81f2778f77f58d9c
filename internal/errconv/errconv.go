// Package errconv loads the vocabulary of SDK error conventions
// (data/error_conventions.yaml): checking macros, calls that never return,
// constants that denote failure, error tests and branch hints. It owns the
// file's schema and validation; judging error handling is csyntax's
// (File.ErrorSites).
package errconv

import (
	"fmt"

	"github.com/embedeval/embedeval-go/data"
	"github.com/embedeval/embedeval-go/internal/vocabyaml"
)

// Conventions is a loaded error_conventions.yaml. Its zero value, and a nil
// *Conventions, know no names. It is not changed after Load and is safe for
// concurrent use.
type Conventions struct {
	checkMacros   map[string]bool
	noticeMacros  map[string]bool
	noReturn      map[string]bool
	failureValues map[string]bool
	successValues map[string]bool
	errorTests    map[string]bool
	hints         map[string]bool
}

// CheckMacro reports whether a macro around a call or its result checks it
// and leaves (or aborts) on failure.
func (c *Conventions) CheckMacro(name string) bool { return c != nil && c.checkMacros[name] }

// NoticeMacro reports whether a macro around a call notices a failure
// (logs it) and goes on: a test of the result, not a handling that leaves.
func (c *Conventions) NoticeMacro(name string) bool { return c != nil && c.noticeMacros[name] }

// NoReturn reports whether calling name leaves the failure branch for good.
func (c *Conventions) NoReturn(name string) bool { return c != nil && c.noReturn[name] }

// FailureValue reports whether an SDK constant compared with == denotes
// failure.
func (c *Conventions) FailureValue(name string) bool { return c != nil && c.failureValues[name] }

// SuccessValue reports whether an SDK constant is the value a call returns
// on success (ESP_OK, HAL_OK, pdTRUE, PSA_SUCCESS).
func (c *Conventions) SuccessValue(name string) bool { return c != nil && c.successValues[name] }

// ErrorTest reports whether name(x) is true when x is an error.
func (c *Conventions) ErrorTest(name string) bool { return c != nil && c.errorTests[name] }

// Hint reports whether name(x) is a branch-prediction hint around the test x.
func (c *Conventions) Hint(name string) bool { return c != nil && c.hints[name] }

// Load decodes and validates error_conventions.yaml. source names the file
// in errors, which read "source:line: message". The document is a mapping
// with the keys check_macros, notice_macros, no_return_calls,
// failure_values, success_values, error_tests and hints, all required, each a list of {name, source} mappings: name a C
// identifier unique in its list, source non-empty.
func Load(b []byte, source string) (*Conventions, error) {
	keys := []string{"check_macros", "notice_macros", "no_return_calls", "failure_values", "success_values", "error_tests", "hints"}
	d, err := vocabyaml.Parse(b, source, keys...)
	if err != nil {
		return nil, err
	}
	c := &Conventions{}
	dst := []*map[string]bool{&c.checkMacros, &c.noticeMacros, &c.noReturn, &c.failureValues, &c.successValues, &c.errorTests, &c.hints}
	for i, key := range keys {
		names, err := d.Names(key)
		if err != nil {
			return nil, err
		}
		*dst[i] = make(map[string]bool, len(names))
		for _, n := range names {
			(*dst[i])[n] = true
		}
	}
	return c, nil
}

// Default loads the vocabulary embedded in the binary.
func Default() (*Conventions, error) {
	c, err := Load(data.ErrorConventionsYAML(), "data/error_conventions.yaml")
	if err != nil {
		return nil, fmt.Errorf("embedded error convention table: %w", err)
	}
	return c, nil
}
