#!/usr/bin/env python3
"""Fingerprint every check verdict of the corpus, to diff before/after a change.

For each case it evaluates the reference and every file under checks/accept/
and checks/reject/ (blind and other answers) with `embedeval evaluate --json`
on the static layers, and prints one line per check record:

    <case> <solution> L<layer> <check_name> <pass|FAIL|n/a>

L4 lines carry "<negative>/<check>" names, so a negative that stops being
caught shows up too. Refactoring a check file or the engine must leave this
output unchanged except where a false failure disappears; list such lines in
the commit message.

Usage: scripts/verdicts.py [--bin PATH] [--jobs N] [CASE_ID ...] > before.txt
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def case_dirs(ids):
    out = []
    cases = os.path.join(ROOT, "cases")
    for sdk in sorted(os.listdir(cases)):
        sdk_dir = os.path.join(cases, sdk)
        if not os.path.isdir(sdk_dir):
            continue
        for cid in sorted(os.listdir(sdk_dir)):
            d = os.path.join(sdk_dir, cid)
            if os.path.isfile(os.path.join(d, "metadata.yaml")) and (not ids or cid in ids):
                out.append((cid, d))
    return out


def solutions(case_dir):
    yield "reference", None
    for sub in ("accept", "reject"):
        base = os.path.join(case_dir, "checks", sub)
        for dirpath, _, files in sorted(os.walk(base)):
            for name in sorted(files):
                path = os.path.join(dirpath, name)
                yield os.path.relpath(path, case_dir), path


def verdict(detail):
    if detail.get("inconclusive"):
        return "n/a"
    return "pass" if detail.get("passed") else "FAIL"


def evaluate(binary, cid, label, path):
    argv = [binary, "evaluate", "--case", cid, "--layers", "L0,L3,L4", "--json"]
    if path is not None:
        argv.append(path)
    proc = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True)
    try:
        record = json.loads(proc.stdout)
    except json.JSONDecodeError:
        return ["%s %s ERROR %s" % (cid, label, (proc.stderr.strip().splitlines() or ["?"])[-1])]
    lines = []
    for layer in record.get("layers") or []:
        if label != "reference" and layer.get("layer") == 4:
            continue
        if not layer.get("details"):
            lines.append("%s %s L%d - %s" % (cid, label, layer["layer"], layer.get("status")))
        for d in layer.get("details") or []:
            lines.append("%s %s L%d %s %s" % (cid, label, layer["layer"], d["check_name"], verdict(d)))
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(ROOT, "embedeval"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("ids", nargs="*")
    args = ap.parse_args()
    if not os.path.exists(args.bin):
        subprocess.run(["go", "build", "-o", args.bin, "./cmd/embedeval"], cwd=ROOT, check=True)
    work = [(cid, label, path) for cid, d in case_dirs(set(args.ids)) for label, path in solutions(d)]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = pool.map(lambda w: evaluate(args.bin, *w), work)
        for lines in results:
            for line in lines:
                print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
