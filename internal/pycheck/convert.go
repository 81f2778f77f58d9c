package pycheck

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/embedeval/embedeval-go/internal/checks"
	"github.com/embedeval/embedeval-go/internal/result"
)

// toDetails converts the field maps of the CheckDetail objects run_checks
// returned (model_dump() of the Python implementation's pydantic model, or a
// plain dict) into check records, with the rules of the Starlark runtime:
// check_name a non-empty unique string, passed a bool, expected/actual a
// string or None, check_type a non-empty string other than "mutation"
// ("constraint" when absent), weight a number >= 0 (1 when absent), and the
// additive inconclusive (a bool; True forces passed) and requirement (a
// string) as the Starlark CheckDetail takes them. Other fields are ignored:
// the Python model may carry more.
func toDetails(items []map[string]json.RawMessage) ([]result.CheckDetail, error) {
	return checks.CollectDetails(len(items), func(i int) (result.CheckDetail, error) {
		d, err := toDetail(items[i])
		if err != nil {
			return d, fmt.Errorf("is wrong: %w", err)
		}
		return d, nil
	})
}

func toDetail(fields map[string]json.RawMessage) (result.CheckDetail, error) {
	var d result.CheckDetail
	get := func(key string, dst any) (bool, error) {
		raw, ok := fields[key]
		if !ok || string(raw) == "null" {
			return false, nil
		}
		return true, json.Unmarshal(raw, dst)
	}
	if ok, err := get("check_name", &d.CheckName); !ok || err != nil || d.CheckName == "" {
		return d, fmt.Errorf("check_name must be a non-empty string, got %s", shown(fields["check_name"]))
	}
	name := d.CheckName
	if ok, err := get("passed", &d.Passed); !ok || err != nil {
		return d, fmt.Errorf("check %q: passed must be True or False, got %s", name, shown(fields["passed"]))
	}
	for _, f := range []struct {
		key string
		dst **string
	}{{"expected", &d.Expected}, {"actual", &d.Actual}} {
		var s string
		ok, err := get(f.key, &s)
		if err != nil {
			return d, fmt.Errorf("check %q: %s must be a string or None, got %s", name, f.key, shown(fields[f.key]))
		}
		if ok {
			*f.dst = result.Ptr(s)
		}
	}
	d.CheckType = "constraint"
	if ok, err := get("check_type", &d.CheckType); err != nil || (ok && d.CheckType == "") {
		return d, fmt.Errorf("check %q: check_type must be a non-empty string, got %s", name, shown(fields["check_type"]))
	}
	if d.CheckType == result.CheckTypeMutation {
		return d, fmt.Errorf("check %q: check_type \"mutation\" is reserved for L4 records", name)
	}
	d.Weight = 1
	if ok, err := get("weight", &d.Weight); err != nil || (ok && (math.IsNaN(d.Weight) || d.Weight < 0)) {
		return d, fmt.Errorf("check %q: weight must be a number >= 0, got %s", name, shown(fields["weight"]))
	}
	if _, err := get("inconclusive", &d.Inconclusive); err != nil {
		return d, fmt.Errorf("check %q: inconclusive must be True or False, got %s", name, shown(fields["inconclusive"]))
	}
	if d.Inconclusive {
		// As in Starlark: an undecided check never fails the solution.
		d.Passed = true
	}
	var req string
	if ok, err := get("requirement", &req); err != nil {
		return d, fmt.Errorf("check %q: requirement must be a string, got %s", name, shown(fields["requirement"]))
	} else if ok {
		d.Requirement = result.Ptr(req)
	}
	return d, nil
}

func shown(raw json.RawMessage) string {
	if raw == nil {
		return "nothing (missing)"
	}
	return string(raw)
}
