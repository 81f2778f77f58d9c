"""Check the Python bridge against direct, in-process execution of .py checks.

EmbedEval-Go runs the Python implementation's check modules (checks/static.py,
checks/behavior.py, checks/negatives.py) in a worker process. This script runs
the same modules in-process, with the seed methodology's L0/L3/L4 rules and
the `embedeval` package of the interpreter that runs it, so that a team can
confirm on its own corpus that the bridge changes no verdict:

    python3 scripts/pycheck_parity.py compare --cases CASES_ROOT RESULTS_JSONL
        re-evaluates the generated code of every result of a .py case in
        RESULTS_JSONL (from `embedeval run --allow-python-checks`) and reports
        every layer status, check record or negative verdict that differs;
        exit status 1 when anything differs.

    python3 scripts/pycheck_parity.py evaluate CASE_DIR CODE_FILE [--repeat N]
        prints the evaluation of one code as JSON (with --repeat, also the
        mean seconds per evaluation, for docs/BENCHMARKS.md).

Rules (docs/PYTHON-CHECKS.md): modules are imported with importlib for each
evaluation; L0 (static) then L3 (behavior), stopping at the first layer that
does not pass; then L4: each negative applied to the code, a mutant equal to
the code is "unchanged", otherwise both modules run on it and each must_fail /
should_fail label is caught when that check is reported and fails. Plain dict
records go through embedeval.models.CheckDetail, as in the implementation.
"""
import argparse
import importlib.util
import json
import os
import sys
import time

sys.dont_write_bytecode = True

from embedeval.models import CheckDetail  # noqa: E402 - after the bytecode switch


def _load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _records(module, code):
    return [(d if hasattr(d, "model_dump") else CheckDetail(**d)).model_dump() for d in module.run_checks(code)]


def _layer(number, module, code):
    try:
        details = _records(module, code)
    except Exception as exc:  # noqa: BLE001 - a raising check is a case error
        return {"layer": number, "status": "error", "error": "%s: %s" % (type(exc).__name__, exc), "details": []}
    status = "passed" if details else "skipped"
    if any(not d["passed"] for d in details):
        status = "failed"
    return {"layer": number, "status": status, "details": details}


def evaluate(case_dir, code):
    """L0, L3 and L4 of code against the case's .py modules."""
    checks = os.path.join(case_dir, "checks")
    static = _load(os.path.join(checks, "static.py"), "case_static")
    behavior = _load(os.path.join(checks, "behavior.py"), "case_behavior")
    negatives_path = os.path.join(checks, "negatives.py")
    layers = [_layer(0, static, code)]
    if layers[0]["status"] != "passed":
        return {"layers": layers}
    layers.append(_layer(3, behavior, code))
    if layers[1]["status"] != "passed":
        return {"layers": layers}
    l4 = {"layer": 4, "status": "skipped", "details": [], "mutations": []}
    layers.append(l4)
    if not os.path.exists(negatives_path):
        return {"layers": layers}
    applied = missed = 0
    for neg in _load(negatives_path, "case_negatives").NEGATIVES:
        mutation = {"name": neg["name"], "must_fail": [], "should_fail": []}
        l4["mutations"].append(mutation)
        try:
            mutant = neg["mutation"](code)
        except Exception as exc:  # noqa: BLE001
            mutation["outcome"] = "error"
            mutation["error"] = "%s: %s" % (type(exc).__name__, exc)
            continue
        if mutant == code:
            mutation["outcome"] = "unchanged"
            continue
        mutation["outcome"] = "applied"
        applied += 1
        verdicts = {}
        for module in (static, behavior):
            for d in _records(module, mutant):
                verdicts[d["check_name"]] = d["passed"]
        for kind in ("must_fail", "should_fail"):
            for name in neg.get(kind, []):
                found = name in verdicts
                caught = found and not verdicts[name]
                mutation[kind].append({"check_name": name, "caught": caught, "missing": not found})
                if kind == "must_fail":
                    missed += not caught
                    l4["details"].append({"check_name": "%s/%s" % (neg["name"], name), "passed": caught})
    l4["status"] = "failed" if missed else ("passed" if applied else "skipped")
    return {"layers": layers}


def _case_dirs(root):
    """case id -> directory, for cases whose checks are .py modules."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        if "metadata.yaml" in filenames and os.path.exists(os.path.join(dirpath, "checks", "static.py")):
            out[os.path.basename(dirpath)] = dirpath
    return out


_RECORD_FIELDS = ("check_name", "passed", "expected", "actual", "check_type", "weight")


def _differences(want, got):
    """Differences between this script's evaluation and one result of the bridge."""
    by_layer = {layer["layer"]: layer for layer in got.get("layers", [])}
    diffs = []
    for layer in want["layers"]:
        n = layer["layer"]
        other = by_layer.get(n)
        if other is None:
            diffs.append("L%d missing from the result" % n)
            continue
        if other.get("status") != layer["status"] and not (layer["status"] == "error" and other.get("status") == "error"):
            diffs.append("L%d status: python %s, bridge %s" % (n, layer["status"], other.get("status")))
        if n != 4:
            mine = [{k: d.get(k) for k in _RECORD_FIELDS} for d in layer["details"]]
            theirs = [{k: d.get(k) for k in _RECORD_FIELDS} for d in other.get("details") or []]
            if mine != theirs:
                diffs.append("L%d check records differ: python %s, bridge %s" % (n, json.dumps(mine), json.dumps(theirs)))
            continue
        theirs = {m["name"]: m for m in other.get("mutations") or []}
        for m in layer["mutations"]:
            o = theirs.get(m["name"])
            if o is None or o.get("outcome") != m["outcome"]:
                diffs.append("negative %s: python %s, bridge %s" % (m["name"], m["outcome"], o and o.get("outcome")))
                continue
            for kind in ("must_fail", "should_fail"):
                mine = [(v["check_name"], v["caught"], v["missing"]) for v in m[kind]]
                bridge = [(v["check_name"], v.get("caught", False), v.get("missing", False)) for v in o.get(kind) or []]
                if mine != bridge:
                    diffs.append("negative %s %s: python %s, bridge %s" % (m["name"], kind, mine, bridge))
    return diffs


def compare(cases_root, results_path, out):
    dirs = _case_dirs(cases_root)
    checked = differing = 0
    with open(results_path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip():
                continue
            result = json.loads(line)
            case_dir = dirs.get(result.get("case_id"))
            if case_dir is None or result.get("status") == "error" and result.get("infra_error"):
                continue
            checked += 1
            diffs = _differences(evaluate(case_dir, result.get("generated_code", "")), result)
            if diffs:
                differing += 1
                for d in diffs:
                    out.write("%s:%d: %s #%s: %s\n" % (results_path, lineno, result["case_id"], result.get("attempt"), d))
    out.write("%d results of .py cases compared, %d differ\n" % (checked, differing))
    return 1 if differing else 0


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    ev = sub.add_parser("evaluate", help="evaluate one code file against a case")
    ev.add_argument("case_dir")
    ev.add_argument("code_file")
    ev.add_argument("--repeat", type=int, default=1)
    cmp = sub.add_parser("compare", help="compare a results.jsonl of the bridge with in-process evaluation")
    cmp.add_argument("--cases", required=True)
    cmp.add_argument("results")
    args = parser.parse_args(argv)
    if args.command == "compare":
        return compare(args.cases, args.results, sys.stdout)
    with open(args.code_file, encoding="utf-8") as f:
        code = f.read()
    start = time.perf_counter()
    for _ in range(max(args.repeat, 1)):
        result = evaluate(args.case_dir, code)
    if args.repeat > 1:
        result["seconds_per_evaluation"] = (time.perf_counter() - start) / args.repeat
    json.dump(result, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
