#!/usr/bin/env python3
"""Record a first round of blind solutions in checks/blind.yaml.

After blind answers are added to a case (checks/accept/blind-*,
checks/reject/blind-* with their must_fail headers) and before any check is
changed, run validate and record every blind file that has no entry yet,
with its verdict as first_round:

    go run ./cmd/embedeval validate --json --case <ids> > /tmp/v.json
    python3 scripts/blind_record.py /tmp/v.json AUTHORS MAPPER

AUTHORS is a file of "<case-id> <author-id>" lines (who wrote the case's new
blind answers); MAPPER is the id of the person who named the must_fail
checks. An accept that passed and a reject caught by a check it names are
recorded "kept"; every other answer "pending", for an adjudicator. Entries
already in a record are left as they are.
"""
import json
import os
import sys

HEADER = """# Blind solutions of this case: written from prompt.md, context/ and metadata.yaml
# alone by an author who never saw the reference or the checks (author id);
# the checks a reject must fail on were named by a second person (%s).
# first_round is the verdict before any fix; decision "pending" means the
# adjudication is not done yet (docs/CASE-FORMAT.md, "Blind solutions").
solutions:
"""


def first_round(kind, item):
    if kind == "accept":
        return "passed" if item["passed"] else "failed"
    names = [n for n in item.get("must_fail") or [] if n != "none"]
    if not names:
        return "no-must-fail"
    if item["caught"]:
        return "caught"
    return "wrong-reason" if item.get("failed_other") else "missed"


def main():
    report = json.load(open(sys.argv[1]))
    authors = dict(line.split()[:2] for line in open(sys.argv[2]) if line.strip())
    mapper = sys.argv[3]
    for case in report["cases"]:
        author = authors.get(case["id"])
        if author is None:
            continue
        path = os.path.join(case["dir"], "checks", "blind.yaml")
        existing = open(path).read() if os.path.exists(path) else ""
        lines = []
        items = [("accept", v) for v in case.get("accepted_variants") or []] + \
                [("reject", r) for r in case.get("rejected_solutions") or []]
        for kind, item in items:
            rel = kind + "/" + os.path.basename(item["file"])
            if not os.path.basename(rel).startswith("blind-") or ("file: " + rel + "\n") in existing:
                continue
            fr = first_round(kind, item)
            decision = "kept" if fr in ("passed", "caught") else "pending"
            lines.append("  - file: %s\n    author: %s\n    first_round: %s\n    decision: %s\n" % (rel, author, fr, decision))
        if not lines:
            continue
        text = (existing if existing else HEADER % mapper) + "".join(lines)
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, path)
        print("%s: %d entries" % (case["id"], len(lines)))


if __name__ == "__main__":
    main()
