package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/eval"
	"github.com/embedeval/embedeval-go/internal/llm"
	"github.com/embedeval/embedeval-go/internal/platform"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/sandbox"
)

// fakeToolchain passes every L1 build and L2 run without a compiler or
// QEMU, counting them, so a test can tell its results from real ones.
type fakeToolchain struct {
	mu           sync.Mutex
	builds, runs int
	cfg          ToolchainConfig
}

func (t *fakeToolchain) Build(_ context.Context, _ *cases.Case, _ string) (result.LayerResult, eval.Artifact) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.builds++
	return result.LayerResult{Status: result.StatusPassed, Passed: true}, fakeArtifact{t}
}

func (t *fakeToolchain) Jail() *sandbox.Jail { return nil }

type fakeArtifact struct{ t *fakeToolchain }

func (a fakeArtifact) Run(context.Context) result.LayerResult {
	a.t.mu.Lock()
	defer a.t.mu.Unlock()
	a.t.runs++
	return result.LayerResult{Status: result.StatusPassed, Passed: true}
}

func (fakeArtifact) Close() error { return nil }

// recordingModel wraps an offline model and records its prompts.
type recordingModel struct {
	llm.Model
	f *testFactory
}

func (m recordingModel) Generate(ctx context.Context, req llm.Request) (llm.Reply, error) {
	m.f.mu.Lock()
	m.f.prompts = append(m.f.prompts, req.Prompt)
	m.f.mu.Unlock()
	return m.Model.Generate(ctx, req)
}

// testFactory is a Factory with fakes: buffers for the streams, a map for
// the environment, a fixed clock, fakeToolchain, offline models that record
// their prompts, and this test binary's own command tree for RunSelf.
type testFactory struct {
	*Factory
	out, errOut bytes.Buffer
	env         map[string]string
	tc          *fakeToolchain
	mu          sync.Mutex
	prompts     []string
	modelOpts   []llm.Options
	// children are the argv of every RunSelf.
	children [][]string
}

func newTestFactory(t *testing.T) *testFactory {
	t.Helper()
	tf := &testFactory{env: map[string]string{}, tc: &fakeToolchain{}}
	tf.Factory = &Factory{
		IO:     IOStreams{In: strings.NewReader(""), Out: &tf.out, ErrOut: &tf.errOut},
		Getenv: func(k string) string { return tf.env[k] },
		Now:    func() time.Time { return time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC) },
		OpenToolchain: func(_ context.Context, _ *platform.Registry, cfg ToolchainConfig) (Toolchain, error) {
			tf.tc.mu.Lock()
			tf.tc.cfg = cfg
			tf.tc.mu.Unlock()
			return tf.tc, nil
		},
		OpenModel: func(spec string, opts llm.Options) (llm.Model, error) {
			tf.mu.Lock()
			tf.modelOpts = append(tf.modelOpts, opts)
			tf.mu.Unlock()
			m, err := llm.Open(spec, opts)
			if err != nil {
				return nil, err
			}
			return recordingModel{m, tf}, nil
		},
		NewGitHubClient: nil, // set by the tests that publish
	}
	// A child process is this factory's command tree, run in this process:
	// the same code path as the real binary, with the same fakes.
	tf.RunSelf = func(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
		tf.mu.Lock()
		tf.children = append(tf.children, args)
		tf.mu.Unlock()
		child := *tf.Factory
		child.IO = IOStreams{In: strings.NewReader(""), Out: stdout, ErrOut: stderr}
		return Main(NewRootCommandWith(&child), args), nil
	}
	return tf
}

// codeOf is the exit code Main gives err.
func codeOf(err error) int {
	var ee *ExitError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &ee):
		return ee.Code
	}
	return ExitUsage
}
