#!/usr/bin/env bash
# Builds the one static binary that runs unchanged in every SDK container
# image: cgo (tree-sitter) linked statically, pure-Go DNS and user lookups.
# Usage: scripts/build.sh [output-dir]   (default: bin/)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-bin}"
mkdir -p "$out"
version="$(git describe --always --dirty 2>/dev/null || echo dev)"
for cmd in embedeval shard merge; do
	CGO_ENABLED=1 go build -trimpath -tags netgo,osusergo \
		-ldflags "-s -w -linkmode external -extldflags -static -X github.com/embedeval/embedeval-go/internal/cli.version=${version}" \
		-o "$out/$cmd" "./cmd/$cmd"
done
echo "built $out/embedeval $out/shard $out/merge ($version)"
