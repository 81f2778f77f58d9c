#!/usr/bin/env bash
# Regenerates results/, the committed sanity baseline: the reference model
# (every case's reference solution) run through the local pipeline (plan,
# shards in separate processes, merge), so that the first results pull
# request has a leaderboard to diff against. Only what results pull requests
# commit is kept (runs/*/verdicts.jsonl, not results.jsonl or details/; see
# results/README.md). Run it after adding, renaming or removing a case
# (internal/publish's TestCommittedBaseline says when), on a machine with the
# toolchains scripts/test.sh installs; layers whose toolchain is missing are
# recorded as skipped, never as passed.
# Usage: scripts/baseline.sh
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/sdk-env.sh
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
go run ./cmd/embedeval pipeline --local --isolate --model reference \
	--run-id baseline-reference --output-dir "$work" >"$work/log" 2>&1 || {
	cat "$work/log" >&2
	exit 1
}
# README.md is written by hand; everything else is the merge's output.
find results -mindepth 1 -maxdepth 1 ! -name README.md -exec rm -rf {} +
mkdir -p results
(cd "$work/results" && find . -type f ! -path './runs/*/results.jsonl' ! -path './runs/*/details/*' -print0) |
	while IFS= read -r -d '' f; do
		mkdir -p "results/$(dirname "$f")"
		cp "$work/results/$f" "results/$f"
	done
tail -n 8 "$work/log"
echo "results/ regenerated from run baseline-reference"
