#!/usr/bin/env bash
# Builds the one static binary that runs unchanged in every SDK container
# image: cgo (tree-sitter) linked statically, pure-Go DNS and user lookups.
# Usage: scripts/build.sh [output-dir] [command...]
#   (default: bin/, and every command: embedeval shard merge)
# EMBEDEVAL_BUILD_FOR_TEST=1 (cmd/embedeval's TestStaticBinary) links the same
# way but leaves out -trimpath and the netgo,osusergo tags, so that every
# package comes from what the test suite has already compiled and only the
# links run: those flags change every package (-trimpath) or everything that
# imports net (the tags), which is minutes of compiling on a fresh machine.
# Such binaries link glibc's resolver statically: they are not for release.
# The test checks apart (go list) that the tags leave no cgo but tree-sitter.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-bin}"
shift || true
cmds=("$@")
if [ "${#cmds[@]}" -eq 0 ]; then
	cmds=(embedeval shard merge)
fi
pkgs=()
for cmd in "${cmds[@]}"; do
	pkgs+=("./cmd/$cmd")
done
flags=(-trimpath -tags "netgo,osusergo")
if [ "${EMBEDEVAL_BUILD_FOR_TEST:-0}" = 1 ]; then
	flags=()
fi
mkdir -p "$out"
version="$(git describe --always --dirty 2>/dev/null || echo dev)"
# One go build for every command: one action graph, links in parallel.
CGO_ENABLED=1 go build ${flags[@]+"${flags[@]}"} \
	-ldflags "-s -w -linkmode external -extldflags -static -X github.com/embedeval/embedeval-go/internal/cli.version=${version}" \
	-o "$out/" "${pkgs[@]}"
echo "built ${cmds[*]} in $out ($version)"
