package pipeline

import "context"

// Reached only from tests (issue 17: test-only code stays out of the binaries).

// Collect reads every *.json file under dir (recursively; files starting
// with "." are temporary and skipped, and a copy of the plan is ignored),
// decodes them in parallel and checks them against the plan: each shard
// must have exactly one artifact, decodable, made for this plan (hash) by
// the plan's binary version, for the shard's model and cases at their
// hashes, holding only results of that shard, each once, and in the
// generation scenario every case × sample; the names its results carry
// into the reports must pass validateFields (KindInvalid). Without
// allowPartial any problem refuses; with it, shards with problems are left
// out and listed, but duplicates still refuse.
//
// Each file is read as readArtifactFile does: a symbolic link, anything but
// a regular file, and a file over DefaultMaxArtifactBytes are refused (as a
// corrupt artifact is) without being read.
func Collect(ctx context.Context, p *Plan, dir string, allowPartial bool) (*Collection, error) {
	return CollectLimited(ctx, p, dir, allowPartial, DefaultMaxArtifactBytes)
}
