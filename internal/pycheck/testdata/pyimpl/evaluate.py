"""Stand-in for the Python implementation's evaluator, L0/L3/L4 only.

It evaluates code against a case's checks/static.py, checks/behavior.py and
checks/negatives.py the way the seed methodology describes: modules imported
with importlib for each evaluation, L0 then L3 (halting at the first failure),
then L4 applying each negative to the code, skipping mutations that leave it
unchanged, and recording each (negative, must_fail check) pair as caught or
missed. The bridge's parity tests compare EmbedEval-Go's records with this
script's; docs/PYTHON-CHECKS.md says how to compare with the real
implementation instead.

    python3 evaluate.py CASE_DIR CODE_FILE [--repeat N]

prints one JSON object (with --repeat, also the mean seconds per evaluation).
"""
import importlib.util
import json
import os
import sys
import time

from embedeval.models import CheckDetail


def _load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _records(module, code):
    # Plain dicts go through the model, as the implementation's evaluator does.
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


def main(argv):
    case_dir, code_file = argv[1], argv[2]
    repeat = int(argv[4]) if len(argv) > 4 and argv[3] == "--repeat" else 1
    with open(code_file, encoding="utf-8") as f:
        code = f.read()
    start = time.perf_counter()
    for _ in range(repeat):
        out = evaluate(case_dir, code)
    if repeat > 1:
        out["seconds_per_evaluation"] = (time.perf_counter() - start) / repeat
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv)
