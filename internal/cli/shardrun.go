package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/pipeline"
)

// ShardRunOptions are the options of `run --plan FILE --shard N --artifact
// FILE`: what the plan does not set. pipeline --local hands them whole to
// each shard (to its process, as a JSON file, with --isolate).
type ShardRunOptions struct {
	Plan     string `json:"plan"`
	Shard    int    `json:"shard"`
	Artifact string `json:"artifact"`
	// Eval's corpus filter, layers, temperature, max tokens, check limits,
	// build and run timeouts and required layers come from the plan; an empty cases dir, private dir or context pack means the
	// plan's.
	Eval EvalOptions `json:"eval"`
}

// planOwnedFlags are run's flags whose values come from the plan with --plan.
func planOwnedFlags() []string {
	return []string{"model", "samples", "scenario", "feedback-rounds", "temperature", "max-tokens", "layers",
		"retest-only", "run-id", "output-dir", "category", "difficulty", "tier", "platform", "sdk", "visibility",
		"after-date", "case", "include-private", "check-steps", "check-timeout", "build-timeout", "run-timeout", "require-layers"}
}

// shardRunOptionsFromFlags checks run's --plan flags and takes the rest
// of its options for the shard.
func shardRunOptionsFromFlags(cmd *cobra.Command, o *RunOptions, so ShardRunOptions) (ShardRunOptions, error) {
	if so.Plan == "" || so.Shard < 1 {
		return so, usageError(errors.New("--plan FILE and --shard N (N >= 1) go together"))
	}
	for _, name := range planOwnedFlags() {
		if fl := cmd.Flags().Lookup(name); fl != nil && fl.Changed {
			return so, usageError(fmt.Errorf("--%s cannot be given with --plan: the plan sets it", name))
		}
	}
	if so.Artifact == "" {
		so.Artifact = pipeline.ArtifactName(so.Shard)
	}
	so.Eval = o.Eval
	if !cmd.Flags().Changed("cases") {
		so.Eval.Corpus.CasesDir = ""
	}
	if !cmd.Flags().Changed("private-cases") {
		so.Eval.Corpus.PrivateDir = ""
	}
	return so, nil
}

// onlyFlag refuses any flag but name (and the root's).
func onlyFlag(cmd *cobra.Command, name string) error {
	var other string
	inherited := cmd.InheritedFlags()
	cmd.Flags().Visit(func(fl *pflag.Flag) {
		if fl.Name != name && inherited.Lookup(fl.Name) == nil && other == "" {
			other = fl.Name
		}
	})
	if other != "" {
		return usageError(fmt.Errorf("--%s cannot be given with --%s: the file holds every option", other, name))
	}
	return nil
}

// writeShardOptions writes a shard's options for its process.
func writeShardOptions(path string, so ShardRunOptions) error {
	raw, err := json.MarshalIndent(so, "", "  ")
	if err != nil {
		return fmt.Errorf("encode shard options: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.WriteFile(path, append(raw, '\n'), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// readShardOptions reads the file writeShardOptions wrote; unknown fields
// are refused (a file of another version).
func readShardOptions(path string) (ShardRunOptions, error) {
	var so ShardRunOptions
	raw, err := os.ReadFile(path)
	if err != nil {
		return so, fmt.Errorf("--shard-options: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&so); err != nil {
		return so, fmt.Errorf("--shard-options %s: %w", path, err)
	}
	return so, nil
}

// runShardCommand runs one shard; error results make exit code 1.
func runShardCommand(ctx context.Context, f *Factory, so ShardRunOptions) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	errorsTotal, err := runShardRun(ctx, f, so)
	if err != nil {
		return err
	}
	if errorsTotal > 0 {
		return findings("%d results could not be evaluated (they are in the artifact)", errorsTotal)
	}
	return nil
}

// runShardRun runs one shard of a plan with the plan's options and writes
// the shard artifact. It returns the number of error results.
func runShardRun(ctx context.Context, f *Factory, so ShardRunOptions) (int, error) {
	p, err := pipeline.ReadPlan(so.Plan)
	if err != nil {
		return 0, usageError(err)
	}
	job, err := pipeline.CheckShard(p, so.Shard, Version(), so.Plan)
	if err != nil {
		return 0, usageError(err)
	}
	eo := so.Eval
	ids := make([]string, len(job.Cases))
	for i, c := range job.Cases {
		ids[i] = c.ID
	}
	eo.Corpus.Filter, eo.Corpus.IncludePrivate = cases.Filter{IDs: ids}, p.Inputs.IncludePrivate
	if eo.Corpus.CasesDir == "" {
		eo.Corpus.CasesDir = p.Inputs.CasesDir
	}
	if eo.Corpus.PrivateDir == "" {
		eo.Corpus.PrivateDir = p.Inputs.PrivateDir
	}
	if eo.ContextPack == "" {
		eo.ContextPack = p.Inputs.ContextPackFile
	}
	eo.Layers, eo.Temperature, eo.MaxTokens = p.Inputs.Layers, p.Inputs.Temperature, p.Inputs.MaxTokens
	applyPlanVerdictSettings(&eo, p.Inputs)
	prep, err := prepare(ctx, f, &eo, []string{job.Model})
	if err != nil {
		return 0, err
	}
	if h := packHash(prep.packText); h != p.Inputs.ContextPack {
		return 0, usageError(fmt.Errorf("--context-pack: %s has context pack %s, this shard's is %s (%s): plan again", so.Plan, orNone(p.Inputs.ContextPack), orNone(h), orNone(eo.ContextPack)))
	}
	o, err := pipeline.RunShard(ctx, pipeline.ShardRunOptions{
		Plan: p, Shard: so.Shard, Artifact: so.Artifact, Run: prep.opts, Version: Version(), Jail: prep.jail.Describe(),
		CasesDir: eo.Corpus.CasesDir, Out: f.IO.Out, Err: f.IO.ErrOut, Terminal: f.IO.OutIsTerminal, Now: f.Now,
	})
	var ie *pipeline.InputError
	if errors.As(err, &ie) {
		return 0, usageError(err)
	}
	if err != nil {
		return 0, err
	}
	return o.Errors, nil
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// applyPlanVerdictSettings gives a shard the verdict settings its plan
// recorded (check limits, L1/L2 time limits, required layers); a zero value
// (a plan written before they were recorded) keeps the shard's own.
func applyPlanVerdictSettings(eo *EvalOptions, in pipeline.Inputs) {
	if in.CheckSteps != 0 {
		eo.Limits.MaxSteps = in.CheckSteps
	}
	if in.CheckTimeout != 0 {
		eo.Limits.Timeout = in.CheckTimeout
	}
	if in.BuildTimeout != 0 {
		eo.Toolchain.BuildTimeout = in.BuildTimeout
	}
	if in.RunTimeout != 0 {
		eo.Toolchain.RunTimeout = in.RunTimeout
	}
	if in.RequireLayers != "" {
		eo.Toolchain.RequireLayers = in.RequireLayers
	}
}
