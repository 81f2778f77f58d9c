#!/usr/bin/env python3
"""Blind-solution figures of the corpus, from `embedeval validate --json`.

Reads a validate report (a file, or stdin) and prints two Markdown tables,
per case and for the corpus: the first round as checks/blind.yaml records it
(before any fix), and the state now — blind accepts that pass every layer,
blind rejects caught by a check they name, caught only by another check or
layer, missed, and decisions still pending. docs/BLIND.md is this script's output on the bundled corpus:

    go run ./cmd/embedeval validate --json > /tmp/v.json
    python3 scripts/blind_rates.py /tmp/v.json > docs/BLIND.md
"""
import json
import sys


def main():
    src = open(sys.argv[1]) if len(sys.argv) > 1 else sys.stdin
    report = json.load(src)
    first, now = [], []
    f_tot = dict(a=0, ap=0, r=0, rc=0, rw=0, rm=0)
    n_tot = dict(a=0, ap=0, r=0, rc=0, rw=0, rm=0, pend=0)
    for c in report["cases"]:
        b = c.get("blind") or {}
        if not b.get("accepts") and not b.get("rejects"):
            continue
        fr = b.get("first_round") or {}
        fa, fap = fr.get("passed", 0) + fr.get("failed", 0), fr.get("passed", 0)
        fr_r = fr.get("caught", 0) + fr.get("wrong-reason", 0) + fr.get("missed", 0) + fr.get("no-must-fail", 0)
        first.append("| %s | %d / %d | %d / %d | %d | %d |" % (
            c["id"], fap, fa, fr.get("caught", 0), fr_r, fr.get("wrong-reason", 0), fr.get("missed", 0) + fr.get("no-must-fail", 0)))
        for k, v in (("a", fa), ("ap", fap), ("r", fr_r), ("rc", fr.get("caught", 0)), ("rw", fr.get("wrong-reason", 0)),
                     ("rm", fr.get("missed", 0) + fr.get("no-must-fail", 0))):
            f_tot[k] += v
        missed = b["rejects_missed"] + b["rejects_without_valid_must_fail"]
        now.append("| %s | %d / %d | %d / %d | %d | %d | %d |" % (
            c["id"], b["accepts_passed"], b["accepts"], b["rejects_caught"], b["rejects"],
            b["rejects_caught_for_another_reason"], missed, b.get("pending", 0)))
        for k, v in (("a", b["accepts"]), ("ap", b["accepts_passed"]), ("r", b["rejects"]), ("rc", b["rejects_caught"]),
                     ("rw", b["rejects_caught_for_another_reason"]), ("rm", missed), ("pend", b.get("pending", 0))):
            n_tot[k] += v
    pct = lambda n, d: "%.0f%%" % (100.0 * n / d) if d else "n/a"
    print("### First round (checks/blind.yaml first_round: before any fix)\n")
    print("| case | blind accepts passing | blind rejects caught by a named check | caught by another check or layer | missed |")
    print("| --- | --- | --- | --- | --- |")
    print("\n".join(first))
    print("| **all %d cases** | %d / %d (%s) | %d / %d (%s) | %d | %d |" % (
        len(first), f_tot["ap"], f_tot["a"], pct(f_tot["ap"], f_tot["a"]), f_tot["rc"], f_tot["r"], pct(f_tot["rc"], f_tot["r"]), f_tot["rw"], f_tot["rm"]))
    print("\n### Now (after adjudication)\n")
    print("| case | blind accepts passing | blind rejects caught by a named check | caught by another check or layer | missed | pending decisions |")
    print("| --- | --- | --- | --- | --- | --- |")
    print("\n".join(now))
    print("| **all %d cases** | %d / %d (%s) | %d / %d (%s) | %d | %d | %d |" % (
        len(now), n_tot["ap"], n_tot["a"], pct(n_tot["ap"], n_tot["a"]), n_tot["rc"], n_tot["r"], pct(n_tot["rc"], n_tot["r"]), n_tot["rw"], n_tot["rm"], n_tot["pend"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
