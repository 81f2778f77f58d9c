#!/usr/bin/env bash
# Builds the one static binary that runs unchanged in every SDK container
# image: cgo (tree-sitter) linked statically, pure-Go DNS and user lookups.
# Usage: scripts/build.sh [output-dir] [command...]
#   (default: bin/, and every command: embedeval shard merge)
# CI builds them once (.ci/run, ci.yml) and cmd/embedeval's TestStaticBinary
# inspects those files (EMBEDEVAL_STATIC_BIN_DIR).
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
mkdir -p "$out"
version="$(git describe --always --dirty 2>/dev/null || echo dev)"
# One go build for every command: one action graph, links in parallel.
CGO_ENABLED=1 go build "${flags[@]}" \
	-ldflags "-s -w -linkmode external -extldflags -static -X github.com/embedeval/embedeval-go/internal/cli.version=${version}" \
	-o "$out/" "${pkgs[@]}"
echo "built ${cmds[*]} in $out ($version)"
