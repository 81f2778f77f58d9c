#!/usr/bin/env python3
"""Blind-solution figures of the corpus, from `embedeval validate --json`.

Reads a validate report (a file, or stdin) and prints a Markdown table per
case and the corpus totals: blind accepts that pass every layer, blind
rejects caught by a check they name, caught only by another check or layer,
and missed. docs/BLIND.md is this script's output on the bundled corpus:

    go run ./cmd/embedeval validate --json > /tmp/v.json
    python3 scripts/blind_rates.py /tmp/v.json > docs/BLIND.md
"""
import json
import sys


def main():
    src = open(sys.argv[1]) if len(sys.argv) > 1 else sys.stdin
    report = json.load(src)
    rows, tot = [], dict(a=0, ap=0, r=0, rc=0, rw=0, rm=0)
    for c in report["cases"]:
        b = c.get("blind") or {}
        if not b.get("accepts") and not b.get("rejects"):
            continue
        missed = b["rejects_missed"] + b["rejects_without_valid_must_fail"]
        rows.append("| %s | %d / %d | %d / %d | %d | %d |" % (
            c["id"], b["accepts_passed"], b["accepts"], b["rejects_caught"], b["rejects"],
            b["rejects_caught_for_another_reason"], missed))
        tot["a"] += b["accepts"]; tot["ap"] += b["accepts_passed"]; tot["r"] += b["rejects"]
        tot["rc"] += b["rejects_caught"]; tot["rw"] += b["rejects_caught_for_another_reason"]; tot["rm"] += missed
    pct = lambda n, d: "%.0f%%" % (100.0 * n / d) if d else "n/a"
    print("| case | blind accepts passing | blind rejects caught by a named check | caught by another check or layer | missed |")
    print("| --- | --- | --- | --- | --- |")
    print("\n".join(rows))
    print("| **all %d cases** | %d / %d (%s) | %d / %d (%s) | %d | %d |" % (
        len(rows), tot["ap"], tot["a"], pct(tot["ap"], tot["a"]), tot["rc"], tot["r"], pct(tot["rc"], tot["r"]), tot["rw"], tot["rm"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
