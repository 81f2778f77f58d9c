package checks

import (
	"fmt"
	"math"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/embedeval/embedeval-go/internal/result"
)

// checkDetailFieldNames lists the keys a check record may have: the contract's,
// in its order, then the additive inconclusive and requirement.
var checkDetailFieldNames = [...]string{"check_name", "passed", "expected", "actual", "check_type", "weight", "inconclusive", "requirement"}

// checkDetailBuiltin is CheckDetail(check_name, passed, expected=None,
// actual=None, check_type="constraint", weight=1.0, inconclusive=False,
// requirement=<absent>): it validates its arguments at the call site, so an
// author sees the error on the line that made it. An inconclusive record gets
// passed = True and an inconclusive = True field; other records have no
// inconclusive field. A record has a requirement field only when the call
// gave one. So a record that uses neither has the contract's repr.
func checkDetailBuiltin(constructor starlark.Value) *starlark.Builtin {
	return starlark.NewBuiltin("CheckDetail", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var name string
		var passed starlark.Value
		var expected, actual starlark.Value = starlark.None, starlark.None
		checkType := "constraint"
		var weight starlark.Value = starlark.Float(1)
		var inconclusive starlark.Value = starlark.False
		var requirement starlark.Value // nil: not given
		if err := starlark.UnpackArgs(b.Name(), args, kwargs,
			"check_name", &name, "passed", &passed, "expected?", &expected, "actual?", &actual,
			"check_type?", &checkType, "weight?", &weight, "inconclusive?", &inconclusive,
			"requirement?", &requirement); err != nil {
			return nil, err
		}
		return newCheckDetail(constructor, name, passed, expected, actual, checkType, weight, inconclusive, requirement)
	})
}

// checkBuiltin is check(check_name, requirement, passed, expected=None,
// actual=None, inconclusive=False, check_type="constraint", weight=1.0): the
// same record as CheckDetail, with the requirement it enforces second, so a
// record reads "name, the prompt's sentence, verdict, what was wanted, what
// was found" on a line or two (the per-case _rec wrappers it replaces).
func checkBuiltin(constructor starlark.Value) *starlark.Builtin {
	return starlark.NewBuiltin("check", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var name string
		var requirement, passed starlark.Value
		var expected, actual starlark.Value = starlark.None, starlark.None
		checkType := "constraint"
		var weight starlark.Value = starlark.Float(1)
		var inconclusive starlark.Value = starlark.False
		if err := starlark.UnpackArgs(b.Name(), args, kwargs,
			"check_name", &name, "requirement", &requirement, "passed", &passed, "expected?", &expected, "actual?", &actual,
			"inconclusive?", &inconclusive, "check_type?", &checkType, "weight?", &weight); err != nil {
			return nil, err
		}
		return newCheckDetail(constructor, name, passed, expected, actual, checkType, weight, inconclusive, requirement)
	})
}

// newCheckDetail builds and validates a record; requirement nil means the
// call gave none.
func newCheckDetail(constructor starlark.Value, name string, passed, expected, actual starlark.Value, checkType string, weight, inconclusive, requirement starlark.Value) (starlark.Value, error) {
	d := starlark.StringDict{
		"check_name": starlark.String(name), "passed": passed, "expected": expected,
		"actual": actual, "check_type": starlark.String(checkType), "weight": weight,
		"inconclusive": inconclusive,
	}
	if requirement != nil {
		d["requirement"] = requirement
	}
	rec, err := detailFromFields(func(k string) (starlark.Value, bool) { v, ok := d[k]; return v, ok }, nil)
	if err != nil {
		return nil, err
	}
	if rec.Inconclusive {
		d["passed"] = starlark.True
	} else {
		delete(d, "inconclusive")
	}
	return starlarkstruct.FromStringDict(constructor, d), nil
}

// toCheckDetails converts run_checks' return value.
func toCheckDetails(v starlark.Value) ([]result.CheckDetail, error) {
	list, ok := v.(*starlark.List)
	if !ok {
		if t, isTuple := v.(starlark.Tuple); isTuple {
			return convertItems(t.Len(), t.Index)
		}
		return nil, fmt.Errorf("%s, want a list of check records", v.Type())
	}
	return convertItems(list.Len(), list.Index)
}

func convertItems(n int, at func(int) starlark.Value) ([]result.CheckDetail, error) {
	return CollectDetails(n, func(i int) (result.CheckDetail, error) {
		item := at(i)
		var get func(string) (starlark.Value, bool)
		var keys []string
		switch x := item.(type) {
		case *starlark.Dict:
			for _, kv := range x.Items() {
				k, ok := starlark.AsString(kv[0])
				if !ok {
					return result.CheckDetail{}, fmt.Errorf("has a non-string key %s", shortRepr(kv[0]))
				}
				keys = append(keys, k)
			}
			get = func(k string) (starlark.Value, bool) {
				v, found, _ := x.Get(starlark.String(k))
				return v, found
			}
		case *starlarkstruct.Struct:
			keys = x.AttrNames()
			get = func(k string) (starlark.Value, bool) {
				v, err := x.Attr(k)
				return v, err == nil && v != nil
			}
		default:
			return result.CheckDetail{}, fmt.Errorf("is a %s, want a dict or CheckDetail(...)", item.Type())
		}
		d, err := detailFromFields(get, keys)
		if err != nil {
			return d, fmt.Errorf("is wrong: %w", err)
		}
		return d, nil
	})
}

// CollectDetails converts the n items of run_checks' result with convert and
// enforces what holds for every check language: check names are unique in
// a case. Errors read "a list whose item <i> ...".
func CollectDetails(n int, convert func(i int) (result.CheckDetail, error)) ([]result.CheckDetail, error) {
	out := make([]result.CheckDetail, 0, n)
	seen := map[string]int{}
	for i := 0; i < n; i++ {
		d, err := convert(i)
		if err != nil {
			return nil, fmt.Errorf("a list whose item %d %w", i, err)
		}
		if first, dup := seen[d.CheckName]; dup {
			return nil, fmt.Errorf("check_name %q twice (items %d and %d); check names must be unique in a case", d.CheckName, first, i)
		}
		seen[d.CheckName] = i
		out = append(out, d)
	}
	return out, nil
}

// detailFromFields validates one record. keys, when not nil, are checked
// against the allowed field names. A record with inconclusive = True is
// returned with Passed set, whatever passed said.
func detailFromFields(get func(string) (starlark.Value, bool), keys []string) (result.CheckDetail, error) {
	var d result.CheckDetail
	for _, k := range keys {
		known := false
		for _, f := range checkDetailFieldNames {
			known = known || f == k
		}
		if !known {
			return d, fmt.Errorf("unknown field %q (allowed: check_name, passed, expected, actual, check_type, weight, inconclusive, requirement)", k)
		}
	}
	v, ok := get("check_name")
	if !ok {
		return d, fmt.Errorf("missing check_name")
	}
	name, ok := starlark.AsString(v)
	if !ok {
		return d, fmt.Errorf("check_name must be a string, got %s", v.Type())
	}
	if name == "" {
		return d, fmt.Errorf("check_name must not be empty")
	}
	d.CheckName = name
	v, ok = get("passed")
	if !ok {
		return d, fmt.Errorf("check %q: missing passed", name)
	}
	b, ok := v.(starlark.Bool)
	if !ok {
		return d, fmt.Errorf("check %q: passed must be True or False, got %s", name, v.Type())
	}
	d.Passed = bool(b)
	for _, f := range []struct {
		key string
		dst **string
	}{{"expected", &d.Expected}, {"actual", &d.Actual}} {
		v, ok := get(f.key)
		if !ok || v == starlark.None {
			continue
		}
		s, ok := starlark.AsString(v)
		if !ok {
			return d, fmt.Errorf("check %q: %s must be a string or None, got %s", name, f.key, v.Type())
		}
		*f.dst = result.Ptr(s)
	}
	d.CheckType = "constraint"
	if v, ok := get("check_type"); ok {
		s, ok := starlark.AsString(v)
		if !ok || s == "" {
			return d, fmt.Errorf("check %q: check_type must be a non-empty string, got %s", name, v.Type())
		}
		d.CheckType = s
	}
	if d.CheckType == result.CheckTypeMutation {
		return d, fmt.Errorf("check %q: check_type \"mutation\" is reserved for L4 records", name)
	}
	d.Weight = 1
	if v, ok := get("weight"); ok {
		f, ok := starlark.AsFloat(v)
		if !ok || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
			return d, fmt.Errorf("check %q: weight must be a number >= 0, got %s", name, shortRepr(v))
		}
		d.Weight = f
	}
	if v, ok := get("inconclusive"); ok {
		b, ok := v.(starlark.Bool)
		if !ok {
			return d, fmt.Errorf("check %q: inconclusive must be True or False, got %s", name, v.Type())
		}
		// An inconclusive record never fails: passed is normalised to true,
		// whatever the check gave.
		d.Inconclusive = bool(b)
		d.Passed = d.Passed || d.Inconclusive
	}
	if v, ok := get("requirement"); ok {
		s, ok := starlark.AsString(v)
		if !ok {
			return d, fmt.Errorf("check %q: requirement must be a string, got %s", name, v.Type())
		}
		d.Requirement = result.Ptr(s)
	}
	return d, nil
}
