package eval

import (
	"context"
	"fmt"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/result"
)

// Toolchain runs the layers that need a real SDK: L1 compile and L2 runtime.
// Build stages a fresh workspace from the case plus the code and compiles it;
// when L1 passes it returns an Artifact that runs L2 on what was built, sharing
// the build directory as the seeds describe. Layer and Name of the returned
// LayerResults are set by the caller.
type Toolchain interface {
	Build(ctx context.Context, c *cases.Case, code string) (result.LayerResult, Artifact)
}

// Artifact is a finished build: Run executes it (L2), Close removes its
// workspace. A nil Artifact means there is nothing to run.
type Artifact interface {
	Run(ctx context.Context) result.LayerResult
	Close() error
}

// NoToolchain is the toolchain of a build without L1/L2 backends: both layers
// are skipped with the reason, never passed.
type NoToolchain struct{}

// Build implements Toolchain.
func (NoToolchain) Build(_ context.Context, c *cases.Case, _ string) (result.LayerResult, Artifact) {
	return result.LayerResult{Status: result.StatusSkipped, Reason: fmt.Sprintf("toolchain unavailable: no compile backend for platform %s in this build", c.Meta.Platform)}, nil
}
