package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/checks"
	"github.com/embedeval/embedeval-go/internal/platform"
	"github.com/embedeval/embedeval-go/internal/pycheck"
	"github.com/embedeval/embedeval-go/internal/sandbox"
	"github.com/embedeval/embedeval-go/internal/toolchain"
)

// Every flag several commands share is registered here, once, with one help
// text: a command calls the helper instead of declaring the flag itself.

// addModelFlag registers --model (repeatable).
func addModelFlag(fl *pflag.FlagSet, p *[]string) {
	fl.StringArrayVar(p, "model", []string{"reference"}, "model spec (repeatable): reference, mock, replay:<file>, claude-code://<model>, openai:<model>, anthropic:<model> (see docs/RUNNING.md)")
}

// addSamplesFlag registers --samples.
func addSamplesFlag(fl *pflag.FlagSet, p *int) {
	fl.IntVar(p, "samples", 1, "attempts per case (for pass@k)")
}

// addScenarioFlag registers --scenario.
func addScenarioFlag(fl *pflag.FlagSet, p *string) {
	fl.StringVar(p, "scenario", "generation", "generation (write the solution from the task) or bugfix (fix the reference with a seeded bug)")
}

// addFeedbackRoundsFlag registers --feedback-rounds.
func addFeedbackRoundsFlag(fl *pflag.FlagSet, p *int) {
	fl.IntVar(p, "feedback-rounds", 0, "compiler-feedback rounds after an L0 or L1 failure")
}

// addLayersFlag registers --layers.
func addLayersFlag(fl *pflag.FlagSet, p *string) {
	fl.StringVar(p, "layers", "all", "layers to run: all, or a list such as L0,L3,L4")
}

// addSamplingFlags registers --temperature and --max-tokens.
func addSamplingFlags(fl *pflag.FlagSet, temperature *float64, maxTokens *int) {
	fl.Float64Var(temperature, "temperature", 0, "sampling temperature passed to the model (0: the provider's default)")
	fl.IntVar(maxTokens, "max-tokens", 0, "largest reply in tokens (0: the provider's default)")
}

// addContextPackFlag registers --context-pack.
func addContextPackFlag(fl *pflag.FlagSet, p *string) {
	fl.StringVar(p, "context-pack", "", "a file whose text is prepended to every prompt (its sha256 is recorded with the run and the plan)")
}

// addCheckLimitFlags registers --check-steps and --check-timeout.
func addCheckLimitFlags(fl *pflag.FlagSet, l *checks.Limits) {
	fl.Uint64Var(&l.MaxSteps, "check-steps", checks.DefaultMaxSteps, "Starlark step limit of one check call")
	fl.DurationVar(&l.Timeout, "check-timeout", checks.DefaultTimeout, "wall-clock limit of one check call")
}

// addVerdictToolchainFlags registers the toolchain settings that change
// verdicts, which a plan records for every shard: --require-layers,
// --build-timeout and --run-timeout.
func addVerdictToolchainFlags(fl *pflag.FlagSet, requireLayers *string, buildTimeout, runTimeout *time.Duration) {
	fl.StringVar(requireLayers, "require-layers", "", "layers whose toolchain must be present (L1, L2 or L1,L2): absence is an error, not a skip")
	fl.DurationVar(buildTimeout, "build-timeout", toolchain.DefaultBuildTimeout, "time limit of one L1 build")
	fl.DurationVar(runTimeout, "run-timeout", toolchain.DefaultRunTimeout, "time after which an L2 run is stopped (normal for firmware)")
}

// addPlatformsFlag registers --platforms.
func addPlatformsFlag(fl *pflag.FlagSet, p *string) {
	fl.StringVar(p, "platforms", "", "platform registry to use instead of the shipped data/platforms.yaml")
}

// addGeneratedFlag registers --generated.
func addGeneratedFlag(fl *pflag.FlagSet, p *string) {
	fl.StringVar(p, "generated", "", "timestamp to record in the reports (RFC 3339); empty leaves it out, keeping outputs byte-identical")
}

// parseGenerated parses --generated ("" is the zero time).
func parseGenerated(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return t, usageError(fmt.Errorf("--generated: %w", err))
	}
	return t, nil
}

// CorpusOptions choose cases; every command that reads the corpus takes
// them, with the same flag names and meanings.
type CorpusOptions struct {
	CasesDir       string       `json:"cases_dir"`
	PrivateDir     string       `json:"private_cases_dir,omitempty"`
	IncludePrivate bool         `json:"include_private,omitempty"`
	Filter         cases.Filter `json:"filter"`
}

func (f *CorpusOptions) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.CasesDir, "cases", "cases", "corpus root (cases/<sdk>/<case-id>/ or flat cases/<case-id>/)")
	fl.StringVar(&f.PrivateDir, "private-cases", "", "an additional corpus root of private cases")
	fl.BoolVar(&f.IncludePrivate, "include-private", false, "select private cases (visibility: private, or under --private-cases)")
	fl.StringSliceVar(&f.Filter.Categories, "category", nil, "only these categories (repeatable or comma-separated)")
	fl.StringSliceVar(&f.Filter.Difficulties, "difficulty", nil, "only these difficulties: easy, medium, hard")
	fl.StringSliceVar(&f.Filter.Tiers, "tier", nil, "only these tiers: sanity, core, challenge")
	fl.StringSliceVar(&f.Filter.Platforms, "platform", nil, "only these platforms")
	fl.StringSliceVar(&f.Filter.SDKs, "sdk", nil, "only these sdks")
	fl.StringVar(&f.Filter.Visibility, "visibility", "", "only public or only private cases")
	fl.StringVar(&f.Filter.AfterDate, "after-date", "", "only cases created on or after this date (YYYY-MM-DD)")
	fl.StringSliceVar(&f.Filter.IDs, "case", nil, "only these case ids")
}

// resolved returns the filter with --include-private applied, validated.
func (f *CorpusOptions) resolved() (cases.Filter, error) {
	flt := f.Filter
	flt.IncludePrivate = f.IncludePrivate || flt.Visibility == "private"
	if err := flt.Validate(); err != nil {
		return flt, usageError(err)
	}
	return flt, nil
}

// PythonOptions enable the bridge to check modules in the Python
// implementation's format (checks/*.py), which run arbitrary code.
type PythonOptions struct {
	Allow  bool   `json:"allow"`
	Python string `json:"python"`
}

func (f *PythonOptions) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.BoolVar(&f.Allow, "allow-python-checks", false, "run cases whose check files are Python modules (checks/*.py) through the Python bridge; they execute arbitrary code, so only for trusted corpora")
	fl.StringVar(&f.Python, "python", pycheck.DefaultPython, "Python interpreter of the bridge (its PYTHONPATH must reach the Python implementation's embedeval package)")
}

// options returns the bridge options, or nil when Python checks are not
// allowed: the worker runs in jail (the toolchain dispatcher's) and reads
// the corpus roots (empty ones are left out).
func (f *PythonOptions) options(timeout time.Duration, jail *sandbox.Jail, roots ...string) *pycheck.Options {
	if !f.Allow {
		return nil
	}
	var readOnly []string
	for _, r := range roots {
		if r != "" {
			readOnly = append(readOnly, r)
		}
	}
	return &pycheck.Options{Python: f.Python, Timeout: timeout, Jail: jail, ReadOnly: readOnly}
}

// refuse returns a usage error naming the selected cases that need the Python
// bridge when it is not enabled.
func (f *PythonOptions) refuse(selected []*cases.Case) error {
	if f.Allow {
		return nil
	}
	var ids []string
	for _, c := range selected {
		if c.UsesPython() {
			ids = append(ids, c.Meta.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	return usageError(fmt.Errorf("%d selected case(s) have Python check modules (checks/*.py), which execute arbitrary code: %s; pass --allow-python-checks to run them (trusted corpora only)", len(ids), strings.Join(ids, ", ")))
}

// ToolchainConfig chooses how L1 and L2 run; validate, run, pipeline and
// doctor share its flags.
type ToolchainConfig struct {
	PlatformsFile string        `json:"platforms_file,omitempty"`
	RequireLayers string        `json:"require_layers,omitempty"`
	BuildTimeout  time.Duration `json:"build_timeout"`
	RunTimeout    time.Duration `json:"run_timeout"`
	BuildJobs     int           `json:"build_jobs"`
	Jail          string        `json:"jail"`
	AllowUnjailed bool          `json:"allow_unjailed,omitempty"`
}

func (f *ToolchainConfig) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	addPlatformsFlag(fl, &f.PlatformsFile)
	addVerdictToolchainFlags(fl, &f.RequireLayers, &f.BuildTimeout, &f.RunTimeout)
	fl.IntVar(&f.BuildJobs, "build-jobs", 1, "compiler processes per build (make/ninja -j); the worker pool already runs one build per core")
	fl.StringVar(&f.Jail, "jail", "auto", "how builds and runs of untrusted code are confined: auto, bubblewrap, uid or none (docs/TOOLCHAINS.md)")
	fl.BoolVar(&f.AllowUnjailed, "allow-unjailed", false, "run untrusted code (compilers on model answers, programs, QEMU) even when no jail works here: UNSAFE outside a throwaway machine")
}

// jail detects the jail the flags ask for.
func (f *ToolchainConfig) jail(ctx context.Context) (*sandbox.Jail, error) {
	switch strings.ToLower(f.Jail) {
	case "", "auto", "bubblewrap", "uid", "none":
	default:
		return nil, usageError(fmt.Errorf("--jail: %q is not auto, bubblewrap, uid or none", f.Jail))
	}
	return sandbox.Detect(ctx, sandbox.JailConfig{Mode: f.Jail, AllowUnjailed: f.AllowUnjailed}), nil
}

// required parses --require-layers.
func (f *ToolchainConfig) required() (build, run bool, err error) {
	for _, part := range strings.Split(f.RequireLayers, ",") {
		switch strings.ToUpper(strings.TrimSpace(part)) {
		case "":
		case "L1":
			build = true
		case "L2":
			run = true
		default:
			return false, false, usageError(fmt.Errorf("--require-layers: %q is not L1 or L2", part))
		}
	}
	return build, run, nil
}

// dispatcher builds the real L1/L2 toolchain from the flags (validate,
// evaluate, doctor and catalog, which need the concrete dispatcher).
func (f *ToolchainConfig) dispatcher(ctx context.Context) (*toolchain.Dispatcher, error) {
	reg, err := f.registry()
	if err != nil {
		return nil, err
	}
	return newDispatcher(ctx, reg, *f)
}

// registry loads --platforms, or the shipped registry.
func (f *ToolchainConfig) registry() (*platform.Registry, error) {
	return loadRegistry(f.PlatformsFile)
}

// loadRegistry loads a platform registry file, or the shipped one for "".
func loadRegistry(path string) (*platform.Registry, error) {
	if path == "" {
		reg, err := platform.Default()
		if err != nil {
			return nil, fmt.Errorf("shipped platform registry: %w", err)
		}
		return reg, nil
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, usageError(fmt.Errorf("--platforms: %w", err))
	}
	reg, err := platform.Load(raw, path)
	if err != nil {
		return nil, usageError(err)
	}
	return reg, nil
}

// ModelOptions are how models are opened and called.
type ModelOptions struct {
	NoCache     bool          `json:"no_cache,omitempty"`
	CacheDir    string        `json:"cache_dir"`
	BaseURL     string        `json:"base_url,omitempty"`
	ClaudePath  string        `json:"claude_path,omitempty"`
	MaxRetries  int           `json:"max_retries,omitempty"`
	Concurrency int           `json:"concurrency,omitempty"`
	CallTimeout time.Duration `json:"call_timeout,omitempty"`
	// MaxReplyBytes caps what is read of one model reply (0: the default).
	MaxReplyBytes int64 `json:"max_reply_bytes,omitempty"`
}

func (f *ModelOptions) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.BoolVar(&f.NoCache, "no-cache", false, "do not answer from the response cache (always call the model)")
	fl.StringVar(&f.CacheDir, "cache-dir", filepath.Join(".cache", "embedeval", "responses"), "response cache of networked models (keyed by provider, model, prompt, sample, temperature, max tokens)")
	fl.StringVar(&f.BaseURL, "base-url", "", "API base URL for openai: and anthropic: models (default: OPENAI_BASE_URL / ANTHROPIC_BASE_URL, else the provider's)")
	fl.StringVar(&f.ClaudePath, "claude-path", "", "the claude CLI for claude-code:// models (default: claude on PATH)")
	fl.IntVar(&f.MaxRetries, "max-retries", 0, "retries of a failed model call on 429, 5xx and network errors (0: 3; negative: none)")
	fl.IntVar(&f.Concurrency, "model-concurrency", 0, "calls in flight per model (0: 4)")
	fl.DurationVar(&f.CallTimeout, "call-timeout", 0, "time limit of one model call, reading the reply included (0: 10m)")
	fl.Int64Var(&f.MaxReplyBytes, "max-reply-bytes", 0, "largest model reply read, in bytes (HTTP body or CLI output); a larger one is an error (0: 4 MiB)")
}

// EvalOptions are the generation and evaluation options shared by run,
// agent, sensitivity and pipeline; a pipeline shard gets them whole
// (serialised to its process with --isolate).
type EvalOptions struct {
	Corpus      CorpusOptions   `json:"corpus"`
	Toolchain   ToolchainConfig `json:"toolchain"`
	Python      PythonOptions   `json:"python"`
	Model       ModelOptions    `json:"model"`
	Layers      string          `json:"layers"`
	Jobs        int             `json:"jobs"`
	Temperature float64         `json:"temperature"`
	MaxTokens   int             `json:"max_tokens"`
	// ContextPack is the context pack's path, or empty.
	ContextPack string        `json:"context_pack,omitempty"`
	Limits      checks.Limits `json:"limits"`
}

func (f *EvalOptions) register(cmd *cobra.Command) {
	f.Corpus.register(cmd)
	f.Toolchain.register(cmd)
	f.Python.register(cmd)
	f.Model.register(cmd)
	fl := cmd.Flags()
	addLayersFlag(fl, &f.Layers)
	fl.IntVarP(&f.Jobs, "jobs", "j", 0, "evaluations in parallel (0: one per CPU)")
	addSamplingFlags(fl, &f.Temperature, &f.MaxTokens)
	addContextPackFlag(fl, &f.ContextPack)
	addCheckLimitFlags(fl, &f.Limits)
}
