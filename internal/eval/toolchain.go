package eval

import (
	"context"
	"fmt"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/result"
)

// Toolchain runs the layers that need a real SDK: L1 compile and L2 runtime.
// Implementations return a LayerResult with Layer and Name set by the caller.
type Toolchain interface {
	// Compile builds code for the case (L1).
	Compile(ctx context.Context, c *cases.Case, code string) result.LayerResult
	// Run executes what Compile built and matches its output (L2).
	Run(ctx context.Context, c *cases.Case, code string) result.LayerResult
}

// NoToolchain is the toolchain of a build without L1/L2 backends: both layers
// are skipped with the reason, never passed.
type NoToolchain struct{}

// Compile implements Toolchain.
func (NoToolchain) Compile(_ context.Context, c *cases.Case, _ string) result.LayerResult {
	return result.LayerResult{Status: result.StatusSkipped, Reason: fmt.Sprintf("toolchain unavailable: no compile backend for platform %s in this build", c.Meta.Platform)}
}

// Run implements Toolchain.
func (NoToolchain) Run(_ context.Context, c *cases.Case, _ string) result.LayerResult {
	return result.LayerResult{Status: result.StatusSkipped, Reason: fmt.Sprintf("toolchain unavailable: no runtime backend for platform %s in this build", c.Meta.Platform)}
}
