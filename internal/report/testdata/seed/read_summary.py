"""Reads a summary.json the way a consumer of the seed's models does.

Usage: read_summary.py SUMMARY_JSON. Prints a JSON object: "missing" lists
the seed's fields the file lacks (BenchmarkReport, every ModelScore, and the
run archive fields generate_run_archive adds), "bad_layers" the
layer_pass_rates keys outside the seed's LAYER_ORDER; it exits non-zero when
pydantic refuses the file.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from seed_models import BenchmarkReport, ModelScore  # noqa: E402

# reporter.LAYER_ORDER of the seed.
LAYER_ORDER = [
    "static_analysis",
    "compile_gate",
    "runtime_execution",
    "static_heuristic",
    "test_quality_proof",
]

# reporter.generate_run_archive adds these to the BenchmarkReport dump.
RUN_FIELDS = {
    "run_timestamp": str,
    "model": str,
    "scenario": str,
    "total_results": int,
    "passed": int,
    "failed": int,
    "run_id": str,
}

with open(sys.argv[1], encoding="utf-8") as f:
    data = json.load(f)
report = BenchmarkReport.model_validate(data)
missing = [name for name in BenchmarkReport.model_fields if name not in data]
for i, m in enumerate(data["models"]):
    missing += [f"models[{i}].{name}" for name in ModelScore.model_fields if name not in m]
for name, typ in RUN_FIELDS.items():
    if not isinstance(data.get(name), typ) or isinstance(data.get(name), bool):
        missing.append(name)
bad = sorted({k for m in report.models for k in m.layer_pass_rates if k not in LAYER_ORDER})
print(json.dumps({"missing": missing, "bad_layers": bad, "models": len(report.models)}))
