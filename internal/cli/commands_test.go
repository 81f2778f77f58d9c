package cli

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	gh "github.com/google/go-github/v83/github"
	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/checks"
	ghpub "github.com/embedeval/embedeval-go/internal/github"
	"github.com/embedeval/embedeval-go/internal/pipeline"
	"github.com/embedeval/embedeval-go/internal/runner"
	"github.com/embedeval/embedeval-go/internal/toolchain"
)

// casesFilter selects case ids.
func casesFilter(ids ...string) cases.Filter { return cases.Filter{IDs: ids} }

// evalDefaults are EvalOptions as the flags' defaults give them.
func evalDefaults(casesDir string, ids ...string) EvalOptions {
	o := EvalOptions{Layers: "all", Limits: checks.Limits{MaxSteps: checks.DefaultMaxSteps, Timeout: checks.DefaultTimeout}}
	o.Corpus.CasesDir, o.Corpus.Filter.IDs = casesDir, ids
	o.Toolchain = ToolchainConfig{BuildTimeout: toolchain.DefaultBuildTimeout, RunTimeout: toolchain.DefaultRunTimeout, BuildJobs: 1, Jail: "auto"}
	o.Model.NoCache = true
	return o
}

// readJSON decodes a JSON file into v.
func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, v))
}

// TestRunThroughTheFactory calls run's run function with a fake toolchain
// (L1 and L2 pass without a compiler or QEMU) and recording models: the
// results, run.json (with the context pack's hash), the reports and the
// summary come out; the pack reaches every prompt; resuming with another
// pack is refused; report keeps the run's temperature.
func TestRunThroughTheFactory(t *testing.T) {
	tf := newTestFactory(t)
	dir := t.TempDir()
	pack := filepath.Join(dir, "pack.md")
	require.NoError(t, os.WriteFile(pack, []byte("PACK: use the HAL\n"), 0o644))
	o := RunOptions{Eval: evalDefaults(badCorpus, "timer-001"), Models: []string{"reference"}, Samples: 2, Scenario: "generation", OutputDir: dir, RunID: "f1"}
	o.Eval.ContextPack, o.Eval.Temperature = pack, 0.5
	require.NoError(t, runRun(t.Context(), tf.Factory, o), tf.errOut.String())

	require.Equal(t, 2, tf.tc.builds, "L1 ran on the fake toolchain")
	require.Equal(t, 2, tf.tc.runs, "L2 ran on the fake toolchain")
	require.Contains(t, tf.out.String(), "reference: 2 results, 2 passed, 0 failed, 0 errors; pass rate 100.0% of 2 judged")
	require.Contains(t, tf.out.String(), "layers (passed/ran): L0 2/2, L1 2/2, L2 2/2, L3 2/2, L4 2/2")
	require.Contains(t, tf.errOut.String(), "jail: none (no jail configured)")
	results := readResults(t, filepath.Join(dir, "runs", "f1", "results.jsonl"))
	require.Len(t, results, 2)
	for _, r := range results {
		require.Equal(t, "passed", string(r.Status))
	}
	var man runner.Manifest
	readJSON(t, filepath.Join(dir, "runs", "f1", "run.json"), &man)
	require.Equal(t, runner.HashText("PACK: use the HAL\n"), man.Options.ContextPack)
	require.Equal(t, 0.5, man.Options.Temperature)
	require.Equal(t, time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC), man.StartedAt, "the factory's clock")
	require.FileExists(t, filepath.Join(dir, "runs", "f1", "summary.json"))
	require.FileExists(t, filepath.Join(dir, "LEADERBOARD.md"))
	require.Len(t, tf.prompts, 2)
	for _, p := range tf.prompts {
		require.Contains(t, p, "PACK: use the HAL", "the context pack is in every prompt")
	}
	require.True(t, tf.modelOpts[0].Getenv != nil && tf.modelOpts[0].CacheDir == "", "models get the factory's environment; --no-cache leaves the cache out")

	// Resuming with another context pack is refused like any other option.
	require.NoError(t, os.WriteFile(pack, []byte("PACK: another text\n"), 0o644))
	err := runRun(t.Context(), tf.Factory, o)
	require.Equal(t, ExitUsage, codeOf(err))
	require.Contains(t, err.Error(), "context_pack: run has ")

	// report regenerates with the run's recorded temperature, not 0.
	tf.out.Reset()
	require.NoError(t, runReport(t.Context(), tf.Factory, ReportOptions{Corpus: CorpusOptions{CasesDir: badCorpus}, Results: dir, RunID: "f1"}))
	require.Contains(t, tf.out.String(), "wrote "+filepath.Join(dir, "runs", "f1", "summary.json"))
	var summary struct {
		Temperature float64 `json:"temperature"`
	}
	readJSON(t, filepath.Join(dir, "runs", "f1", "summary.json"), &summary)
	require.Equal(t, 0.5, summary.Temperature)
}

// TestShardRunThroughTheFactory plans with a context pack and runs the
// shard with the fake toolchain: the plan records the pack's hash (another
// pack, another plan hash), the shard's prompts carry the pack, and a pack
// changed after planning is refused.
func TestShardRunThroughTheFactory(t *testing.T) {
	tf := newTestFactory(t)
	dir := t.TempDir()
	pack := filepath.Join(dir, "pack.md")
	require.NoError(t, os.WriteFile(pack, []byte("PACK one\n"), 0o644))
	so := ShardOptions{Corpus: CorpusOptions{CasesDir: badCorpus, Filter: casesFilter("timer-001")}, Models: []string{"reference"}, Samples: 1,
		Scenario: "generation", Layers: "all", ContextPack: pack, MaxJobs: 4, Plan: filepath.Join(dir, "plan.json"), Timings: filepath.Join(dir, "none.json")}
	require.NoError(t, runPlan(t.Context(), tf.Factory, so))
	require.Contains(t, tf.out.String(), "plan: "+so.Plan)
	p1, err := pipeline.ReadPlan(so.Plan)
	require.NoError(t, err)
	require.Equal(t, runner.HashText("PACK one\n"), p1.Inputs.ContextPack)
	require.Equal(t, pack, p1.Inputs.ContextPackFile)

	other := filepath.Join(dir, "other.md")
	require.NoError(t, os.WriteFile(other, []byte("PACK two\n"), 0o644))
	so2 := so
	so2.ContextPack, so2.Plan = other, filepath.Join(dir, "plan2.json")
	p2, err := makePlan(t.Context(), tf.Factory, so2)
	require.NoError(t, err)
	require.NotEqual(t, p1.Hash, p2.Hash, "the plan's hash covers the context pack")
	so3 := so
	so3.ContextPack, so3.Plan = "", filepath.Join(dir, "plan3.json")
	p3, err := makePlan(t.Context(), tf.Factory, so3)
	require.NoError(t, err)
	require.NotEqual(t, p1.Hash, p3.Hash)

	art := filepath.Join(dir, "artifacts", "shard-1.json")
	sro := ShardRunOptions{Plan: so.Plan, Shard: 1, Artifact: art, Eval: evalDefaults("")}
	n, err := runShardRun(t.Context(), tf.Factory, sro)
	require.NoError(t, err, tf.errOut.String())
	require.Equal(t, 0, n)
	a, err := pipeline.ReadArtifact(art)
	require.NoError(t, err)
	require.Len(t, a.Results, 1)
	require.Equal(t, "passed", string(a.Results[0].Status))
	require.Equal(t, 1, tf.tc.builds, "L1 on the fake toolchain")
	require.Contains(t, tf.out.String(), "artifact: "+art+" (1 results, 0 infrastructure errors)")
	require.Len(t, tf.prompts, 1)
	require.Contains(t, tf.prompts[0], "PACK one", "the shard reads the plan's context pack")

	// The pack changed after planning: refused, nothing written.
	require.NoError(t, os.WriteFile(pack, []byte("PACK edited\n"), 0o644))
	sro.Artifact = filepath.Join(dir, "artifacts", "again.json")
	_, err = runShardRun(t.Context(), tf.Factory, sro)
	require.Equal(t, ExitUsage, codeOf(err))
	require.Contains(t, err.Error(), "--context-pack: "+so.Plan+" has context pack "+p1.Inputs.ContextPack)
	require.NoFileExists(t, sro.Artifact)
	// Another file with the planned text is accepted.
	same := filepath.Join(dir, "same.md")
	require.NoError(t, os.WriteFile(same, []byte("PACK one\n"), 0o644))
	sro.Eval.ContextPack = same
	_, err = runShardRun(t.Context(), tf.Factory, sro)
	require.NoError(t, err)
	require.FileExists(t, sro.Artifact)
}

// TestShardModelsAlias: shard's --model is repeatable like run's; the old
// --models comma list still works (hidden, deprecated) and plans the same.
func TestShardModelsAlias(t *testing.T) {
	dir := t.TempDir()
	plan := func(name string, args ...string) (*pipeline.Plan, string) {
		tf := newTestFactory(t)
		args = append([]string{"--cases", badCorpus, "--case", "timer-001", "--plan", filepath.Join(dir, name), "--timings", filepath.Join(dir, "none.json")}, args...)
		code := Main(newShardCommand(tf.Factory), args)
		require.Equal(t, ExitOK, code, tf.errOut.String())
		p, err := pipeline.ReadPlan(filepath.Join(dir, name))
		require.NoError(t, err)
		return p, tf.errOut.String()
	}
	a, _ := plan("a.json", "--model", "reference", "--model", "mock")
	b, warn := plan("b.json", "--models", "reference,mock")
	c, _ := plan("c.json", "--model", "reference", "--models", "mock")
	require.Equal(t, []string{"reference", "mock"}, a.Inputs.Models)
	require.Equal(t, a.Hash, b.Hash)
	require.Equal(t, a.Hash, c.Hash)
	require.Contains(t, warn, "warning: --models is deprecated: use --model (repeatable)")
	d, _ := plan("d.json")
	require.Equal(t, []string{"reference"}, d.Inputs.Models)

	var help strings.Builder
	cmd := newShardCommand(newTestFactory(t).Factory)
	cmd.SetOut(&help)
	cmd.SetArgs([]string{"--help"})
	require.NoError(t, cmd.Execute())
	require.Contains(t, help.String(), "--model stringArray")
	require.NotContains(t, help.String(), "--models")
}

// TestIsolatedShardKeepsEveryFlag: `pipeline --local --isolate` runs each
// shard in a process of its own, handing it its options as a JSON file;
// the child must evaluate as the in-process shard does, so every option
// given to pipeline reaches it: the options each child decodes equal the
// parent's, field for field (the whole EvalOptions), and the child opens
// its toolchain and model with them.
func TestIsolatedShardKeepsEveryFlag(t *testing.T) {
	tf := newTestFactory(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	pack := filepath.Join(dir, "pack.md")
	require.NoError(t, os.WriteFile(pack, []byte("PACK\n"), 0o644))
	code := Main(NewRootCommandWith(tf.Factory), []string{"pipeline", "--local", "--isolate", "--model", "reference",
		"--cases", bundledCorpus, "--case", "timer-001,uart-001", "--layers", "L0,L1,L2", "--temperature", "0.25", "--max-tokens", "900",
		"--require-layers", "L1,L2", "--build-timeout", "2m", "--run-timeout", "3s", "--build-jobs", "3", "--jail", "none", "--allow-unjailed",
		"--check-timeout", "7s", "--check-steps", "12345", "--jobs", "2", "--python", "python3.99",
		"--base-url", "http://127.0.0.1:9/v1", "--claude-path", "/opt/claude", "--max-retries", "5", "--model-concurrency", "6",
		"--call-timeout", "90s", "--max-reply-bytes", "4096", "--cache-dir", filepath.Join(dir, "cache"), "--no-cache",
		"--context-pack", pack, "--output-dir", out})
	require.Equal(t, ExitOK, code, tf.out.String()+tf.errOut.String())

	want := EvalOptions{
		Corpus:    CorpusOptions{CasesDir: bundledCorpus, Filter: casesFilter("timer-001", "uart-001")},
		Toolchain: ToolchainConfig{RequireLayers: "L1,L2", BuildTimeout: 2 * time.Minute, RunTimeout: 3 * time.Second, BuildJobs: 3, Jail: "none", AllowUnjailed: true},
		Python:    PythonOptions{Python: "python3.99"},
		Model: ModelOptions{NoCache: true, CacheDir: filepath.Join(dir, "cache"), BaseURL: "http://127.0.0.1:9/v1", ClaudePath: "/opt/claude",
			MaxRetries: 5, Concurrency: 6, CallTimeout: 90 * time.Second, MaxReplyBytes: 4096},
		Layers: "L0,L1,L2", Jobs: 2, Temperature: 0.25, MaxTokens: 900, ContextPack: pack,
		Limits: checks.Limits{MaxSteps: 12345, Timeout: 7 * time.Second},
	}
	p, err := pipeline.ReadPlan(filepath.Join(out, "plan.json"))
	require.NoError(t, err)
	require.Len(t, tf.children, len(p.Jobs))
	for i, args := range tf.children {
		require.Equal(t, []string{"run", "--shard-options", filepath.Join(out, "shard-options", pipeline.ArtifactName(i+1))}, args)
		got, err := readShardOptions(args[2])
		require.NoError(t, err)
		require.Equal(t, ShardRunOptions{Plan: filepath.Join(out, "plan.json"), Shard: i + 1, Artifact: filepath.Join(out, "artifacts", pipeline.ArtifactName(i+1)), Eval: want}, got)
	}
	// The child opened its toolchain and models with those options.
	require.Equal(t, want.Toolchain, tf.tc.cfg)
	mo := tf.modelOpts[len(tf.modelOpts)-1]
	require.Equal(t, "http://127.0.0.1:9/v1", mo.BaseURL)
	require.Equal(t, 4096, int(mo.MaxReplyBytes))
	require.Equal(t, 90*time.Second, mo.Timeout)
	require.Equal(t, 2, tf.tc.builds, "one build per case, on the fake toolchain\n"+tf.out.String())
	for _, pr := range tf.prompts {
		require.Contains(t, pr, "PACK")
	}
	require.FileExists(t, filepath.Join(out, "pr_body.md"))
	require.Contains(t, tf.out.String(), "results: "+filepath.Join(out, "results"))

	// run --shard-options takes no other flag.
	code = Main(NewRootCommandWith(tf.Factory), []string{"run", "--shard-options", tf.children[0][2], "--layers", "L0"})
	require.Equal(t, ExitUsage, code)
	require.Contains(t, tf.errOut.String(), "--layers cannot be given with --shard-options: the file holds every option")
}

// TestShardRunOptionsRoundTrip: every field of the options a shard gets
// survives the file the parent writes and the child reads (no field is
// unexported or left out of the JSON), whatever its value.
func TestShardRunOptionsRoundTrip(t *testing.T) {
	var so ShardRunOptions
	fillNonZero(t, reflect.ValueOf(&so).Elem(), "ShardRunOptions")
	path := filepath.Join(t.TempDir(), "o.json")
	require.NoError(t, writeShardOptions(path, so))
	got, err := readShardOptions(path)
	require.NoError(t, err)
	require.Equal(t, so, got)
}

// fillNonZero sets every field under v to a non-zero value, failing on a
// field it cannot set (unexported) or a kind it does not know.
func fillNonZero(t *testing.T, v reflect.Value, path string) {
	t.Helper()
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			if !v.Field(i).CanSet() {
				t.Fatalf("%s.%s is unexported: it would not reach an isolated shard", path, f.Name)
			}
			if tag := f.Tag.Get("json"); tag == "-" {
				t.Fatalf("%s.%s is left out of the JSON", path, f.Name)
			}
			fillNonZero(t, v.Field(i), path+"."+f.Name)
		}
	case reflect.String:
		v.SetString(path)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(int64(7 + len(path)))
	case reflect.Uint, reflect.Uint64, reflect.Uint32:
		v.SetUint(uint64(9 + len(path)))
	case reflect.Float64:
		v.SetFloat(0.5)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := 0; i < 2; i++ {
			fillNonZero(t, s.Index(i), path+"[]")
		}
		v.Set(s)
	default:
		t.Fatalf("%s: kind %s not handled", path, v.Kind())
	}
}

// TestMergeThroughTheFactory merges a dry run's artifacts again through
// merge's run function: the job summary goes to the file the factory's
// environment names, the PR body to --pr-body.
func TestMergeThroughTheFactory(t *testing.T) {
	tf := newTestFactory(t)
	dir := t.TempDir()
	require.NoError(t, runPipeline(t.Context(), tf.Factory, PipelineOptions{Eval: evalDefaults(badCorpus, "timer-001", "timer-019"), Local: true,
		Models: []string{"reference"}, Samples: 1, Scenario: "generation", MaxJobs: 8, OutputDir: dir}), tf.errOut.String())
	require.Equal(t, 2, tf.tc.builds)

	tf.env["GITHUB_STEP_SUMMARY"] = filepath.Join(dir, "step-summary.md")
	tf.out.Reset()
	res := filepath.Join(dir, "again")
	m, err := runMerge(t.Context(), tf.Factory, MergeOptions{Plan: filepath.Join(dir, "plan.json"), Artifacts: filepath.Join(dir, "artifacts"),
		Results: res, PRBody: filepath.Join(dir, "body.md"), Generated: "2025-03-01T12:00:00Z"})
	require.NoError(t, err)
	require.Equal(t, 2, m.Record.Results)
	summary, err := os.ReadFile(tf.env["GITHUB_STEP_SUMMARY"])
	require.NoError(t, err)
	require.Contains(t, string(summary), "shards merged, 2 results (0 errors")
	require.Contains(t, tf.out.String(), "pull request body: "+filepath.Join(dir, "body.md"))
	require.FileExists(t, filepath.Join(res, "runs", m.Record.RunID, "summary.json"))

	_, err = runMerge(t.Context(), tf.Factory, MergeOptions{Plan: filepath.Join(dir, "plan.json"), Artifacts: filepath.Join(dir, "artifacts"), Results: res, Generated: "yesterday"})
	require.Equal(t, ExitUsage, codeOf(err))
}

// TestPublishThroughTheFactory: --body-out writes the body and sends
// nothing; publishing takes the token from the factory's environment (none:
// usage error) and makes its client through the factory.
func TestPublishThroughTheFactory(t *testing.T) {
	tf := newTestFactory(t)
	dir := t.TempDir()
	require.NoError(t, runRun(t.Context(), tf.Factory, RunOptions{Eval: evalDefaults(badCorpus, "timer-001"), Models: []string{"reference"},
		Samples: 1, Scenario: "generation", OutputDir: dir, RunID: "p1"}))
	tf.env["GITHUB_REPOSITORY"], tf.env["GITHUB_RUN_ID"], tf.env["GITHUB_SERVER_URL"] = "acme/bench", "42", "https://ghe.example"
	body := filepath.Join(dir, "body.md")
	o := PublishOptions{RunID: "p1", Results: dir, Base: "main", PathInRepo: "results", BodyOut: body}
	tf.out.Reset()
	require.NoError(t, runPublish(t.Context(), tf.Factory, o))
	require.Contains(t, tf.out.String(), "wrote the pull request body to "+body+" (nothing published)")
	raw, err := os.ReadFile(body)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(raw), ghpub.ResultsMarker), string(raw))
	require.Contains(t, string(raw), "https://ghe.example/acme/bench/actions/runs/42", "the run link comes from the factory's environment")

	o.BodyOut, o.Repo, o.APIURL = "", "acme/bench", "http://127.0.0.1:9/api/"
	err = runPublish(t.Context(), tf.Factory, o)
	require.Equal(t, ExitUsage, codeOf(err))
	require.Contains(t, err.Error(), "GITHUB_TOKEN is not set")

	tf.env["GITHUB_TOKEN"] = "t0ken"
	var gotToken, gotURL string
	tf.NewGitHubClient = func(token string, opts ghpub.ClientOptions) (*gh.Client, error) {
		gotToken, gotURL = token, opts.BaseURL
		return nil, errors.New("offline")
	}
	err = runPublish(t.Context(), tf.Factory, o)
	require.Equal(t, ExitUsage, codeOf(err))
	require.EqualError(t, err, "offline")
	require.Equal(t, "t0ken", gotToken)
	require.Equal(t, "http://127.0.0.1:9/api/", gotURL)

	err = runPublish(t.Context(), tf.Factory, PublishOptions{RunID: "../x", Results: dir})
	require.Equal(t, ExitUsage, codeOf(err))
}

// TestPlanRecordsVerdictSettings: the check limits, the L1/L2 time limits
// and the required layers change verdicts, so shard records them in the
// plan (and its hash), every shard takes them from there, and run --plan
// refuses its own.
func TestPlanRecordsVerdictSettings(t *testing.T) {
	dir := t.TempDir()
	plan := func(name string, args ...string) *pipeline.Plan {
		tf := newTestFactory(t)
		args = append([]string{"--cases", badCorpus, "--case", "timer-001", "--model", "reference", "--plan", filepath.Join(dir, name), "--timings", filepath.Join(dir, "none.json")}, args...)
		require.Equal(t, ExitOK, Main(newShardCommand(tf.Factory), args), tf.errOut.String())
		p, err := pipeline.ReadPlan(filepath.Join(dir, name))
		require.NoError(t, err)
		return p
	}
	defaults := plan("defaults.json")
	require.Equal(t, uint64(checks.DefaultMaxSteps), defaults.Inputs.CheckSteps)
	require.Equal(t, toolchain.DefaultRunTimeout, defaults.Inputs.RunTimeout)
	set := plan("set.json", "--check-steps", "1234", "--check-timeout", "9s", "--build-timeout", "2m", "--run-timeout", "3s", "--require-layers", "L1")
	require.Equal(t, uint64(1234), set.Inputs.CheckSteps)
	require.Equal(t, 9*time.Second, set.Inputs.CheckTimeout)
	require.Equal(t, 2*time.Minute, set.Inputs.BuildTimeout)
	require.Equal(t, 3*time.Second, set.Inputs.RunTimeout)
	require.Equal(t, "L1", set.Inputs.RequireLayers)
	require.NotEqual(t, defaults.Hash, set.Hash, "the plan's hash covers the verdict settings")

	eo := evalDefaults("")
	applyPlanVerdictSettings(&eo, set.Inputs)
	require.Equal(t, uint64(1234), eo.Limits.MaxSteps)
	require.Equal(t, 9*time.Second, eo.Limits.Timeout)
	require.Equal(t, 2*time.Minute, eo.Toolchain.BuildTimeout)
	require.Equal(t, 3*time.Second, eo.Toolchain.RunTimeout)
	require.Equal(t, "L1", eo.Toolchain.RequireLayers)
	old := evalDefaults("")
	applyPlanVerdictSettings(&old, pipeline.Inputs{})
	require.Equal(t, evalDefaults(""), old, "a plan without them leaves the shard's defaults")

	tf := newTestFactory(t)
	code := Main(NewRootCommandWith(tf.Factory), []string{"run", "--plan", filepath.Join(dir, "set.json"), "--shard", "1", "--run-timeout", "1s"})
	require.Equal(t, ExitUsage, code)
	require.Contains(t, tf.errOut.String(), "--run-timeout cannot be given with --plan: the plan sets it")
}
