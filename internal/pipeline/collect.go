package pipeline

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/embedeval/embedeval-go/internal/runner"
)

// Kinds of refusal, in the order a shard is checked.
const (
	KindMissing    = "missing"
	KindCorrupt    = "corrupt"
	KindOtherPlan  = "other-plan"
	KindOtherBuild = "other-version"
	KindMismatch   = "mismatch"
	KindDuplicate  = "duplicate"
)

// Refusal is one problem with the artifact set.
type Refusal struct {
	// Shard is the shard concerned, or 0 when a file names none.
	Shard   int
	Kind    string
	Message string
}

// RefusalError is merge's answer to a broken artifact set: every problem,
// ordered by shard, then message.
type RefusalError struct {
	Dir      string
	Shards   int
	Problems []Refusal
	// Partial says whether --allow-partial was given (then only duplicates
	// refuse, or a set with no usable shard).
	Partial bool
}

func (e *RefusalError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "refusing to merge the artifacts in %s (%d of %d shards affected):", e.Dir, affected(e.Problems), e.Shards)
	for _, p := range e.Problems {
		b.WriteString("\n  " + p.Message)
	}
	if !e.Partial {
		b.WriteString("\n(--allow-partial merges the complete shards and marks the reports partial; duplicated shards always refuse)")
	}
	return b.String()
}

func affected(ps []Refusal) int {
	seen := map[int]bool{}
	for _, p := range ps {
		seen[p.Shard] = true
	}
	return len(seen)
}

// Collection is the usable artifacts of a merge, by shard.
type Collection struct {
	// Artifacts are the usable artifacts in shard order; Paths their files.
	Artifacts []*Artifact
	Paths     []string
	// Missing lists the shards without a usable artifact (only with
	// --allow-partial); Dropped says why each was left out.
	Missing []int
	Dropped []Refusal
}

var shardFileName = regexp.MustCompile(`^shard-([0-9]+)\.json$`)

// decoded is one file's decoding.
type decoded struct {
	path string
	a    *Artifact
	err  error
}

// CollectLimited is Collect with maxArtifactBytes as the cap on one
// artifact file (zero or less: DefaultMaxArtifactBytes).
func CollectLimited(ctx context.Context, p *Plan, dir string, allowPartial bool, maxArtifactBytes int64) (*Collection, error) {
	var paths []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasPrefix(d.Name(), ".") && path != dir {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".json") {
			paths = append(paths, path)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read artifacts: %w", err)
	}
	slices.Sort(paths)
	files, err := decodeAll(ctx, paths, maxArtifactBytes)
	if err != nil {
		return nil, err
	}
	n := len(p.Jobs)
	of := func(s int) string { return fmt.Sprintf("shard %d of %d", s, n) }
	var problems []Refusal
	claimed := map[int][]decoded{}
	named := map[int]bool{} // shards with a file, usable or not
	for _, f := range files {
		rel := relPath(dir, f.path)
		if f.err != nil {
			if isPlanFile(f.err) {
				continue
			}
			s := 0
			if m := shardFileName.FindStringSubmatch(filepath.Base(f.path)); m != nil {
				s, _ = strconv.Atoi(m[1])
			}
			where := rel + ":" + strings.TrimPrefix(f.err.Error(), f.path+":")
			msg := "corrupt artifact " + where
			if isFileRefusal(f.err) {
				msg = "refused artifact " + where
			}
			if s >= 1 && s <= n {
				named[s] = true
				msg = of(s) + ": " + msg
			} else {
				s = 0
			}
			problems = append(problems, Refusal{Shard: s, Kind: KindCorrupt, Message: msg})
			continue
		}
		a := f.a
		switch {
		case a.PlanHash != p.Hash:
			s := a.Shard
			if s > n {
				s = 0
			}
			problems = append(problems, Refusal{Shard: s, Kind: KindOtherPlan,
				Message: fmt.Sprintf("%s (%s) was made for another plan (%s, this plan %s)", of(a.Shard), rel, short(a.PlanHash), short(p.Hash))})
			if s > 0 {
				named[s] = true
			}
		case a.Shard > n:
			problems = append(problems, Refusal{Kind: KindCorrupt, Message: fmt.Sprintf("%s claims shard %d, but the plan has %d shards", rel, a.Shard, n)})
		default:
			named[a.Shard] = true
			claimed[a.Shard] = append(claimed[a.Shard], decoded{path: rel, a: a})
		}
	}
	usable := map[int]decoded{}
	for s := 1; s <= n; s++ {
		ds := claimed[s]
		switch {
		case len(ds) > 1:
			var ps []string
			for _, d := range ds {
				ps = append(ps, d.path)
			}
			problems = append(problems, Refusal{Shard: s, Kind: KindDuplicate, Message: fmt.Sprintf("%s appears in %d artifacts: %s", of(s), len(ds), strings.Join(ps, ", "))})
		case len(ds) == 1:
			d := ds[0]
			if d.a.BinaryVersion != p.BinaryVersion {
				problems = append(problems, Refusal{Shard: s, Kind: KindOtherBuild,
					Message: fmt.Sprintf("%s (%s) was made by embedeval %s, the plan by %s", of(s), d.path, d.a.BinaryVersion, p.BinaryVersion)})
				continue
			}
			if why := validateFields(p, d.a); why != "" {
				problems = append(problems, Refusal{Shard: s, Kind: KindInvalid, Message: fmt.Sprintf("%s (%s) has an invalid field: %s", of(s), d.path, why)})
				continue
			}
			if why := mismatch(p, &p.Jobs[s-1], d.a); why != "" {
				problems = append(problems, Refusal{Shard: s, Kind: KindMismatch, Message: fmt.Sprintf("%s (%s) does not match its job: %s", of(s), d.path, why)})
				continue
			}
			usable[s] = d
		case !named[s]:
			problems = append(problems, Refusal{Shard: s, Kind: KindMissing, Message: fmt.Sprintf("%s is missing (expected artifact %s)", of(s), ArtifactName(s))})
		}
	}
	slices.SortStableFunc(problems, func(a, b Refusal) int {
		sa, sb := a.Shard, b.Shard
		if sa == 0 {
			sa = n + 1
		}
		if sb == 0 {
			sb = n + 1
		}
		return cmp.Or(cmp.Compare(sa, sb), strings.Compare(a.Message, b.Message))
	})
	refuse := len(problems) > 0 && !allowPartial
	for _, pr := range problems {
		if pr.Kind == KindDuplicate {
			refuse = true
		}
	}
	if len(usable) == 0 && n > 0 {
		refuse = true
	}
	if refuse {
		if len(problems) == 0 {
			problems = append(problems, Refusal{Kind: KindMissing, Message: "no shard artifact found"})
		}
		return nil, &RefusalError{Dir: dir, Shards: n, Problems: problems, Partial: allowPartial}
	}
	c := &Collection{Dropped: problems}
	for s := 1; s <= n; s++ {
		d, ok := usable[s]
		if !ok {
			c.Missing = append(c.Missing, s)
			continue
		}
		c.Artifacts = append(c.Artifacts, d.a)
		c.Paths = append(c.Paths, d.path)
	}
	return c, nil
}

// errPlanFile marks a plan found among the artifacts (ignored).
var errPlanFile = errors.New("a shard plan, not an artifact")

func isPlanFile(err error) bool { return errors.Is(err, errPlanFile) }

// decodeAll decodes the files, each of at most limit bytes, on GOMAXPROCS
// goroutines, keeping their order.
func decodeAll(ctx context.Context, paths []string, limit int64) ([]decoded, error) {
	out := make([]decoded, len(paths))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(len(paths), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i] = decodeFile(paths[i], limit)
			}
		}()
	}
	var err error
feed:
	for i := range paths {
		select {
		case next <- i:
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(next)
	wg.Wait()
	return out, err
}

func decodeFile(path string, limit int64) decoded {
	raw, err := readArtifactFile(path, limit)
	if err != nil {
		return decoded{path: path, err: err}
	}
	if looksLikePlan(raw) {
		if _, err := DecodePlan(path, raw); err == nil {
			return decoded{path: path, err: errPlanFile}
		}
	}
	a, err := DecodeArtifact(path, raw)
	return decoded{path: path, a: a, err: err}
}

// looksLikePlan is a cheap test before a full plan decode.
func looksLikePlan(raw []byte) bool {
	head := raw[:min(len(raw), 64)]
	return strings.Contains(string(head), `"`+PlanFormat+`"`)
}

// mismatch says how an artifact disagrees with its job, or "".
func mismatch(p *Plan, j *Job, a *Artifact) string {
	if a.Model != j.Model {
		return fmt.Sprintf("model %q, the job's is %q", a.Model, j.Model)
	}
	want := map[string]string{}
	for _, c := range j.Cases {
		want[c.ID] = c.Hash
	}
	got := map[string]string{}
	for _, c := range a.Cases {
		got[c.ID] = c.Hash
	}
	for _, c := range j.Cases {
		h, ok := got[c.ID]
		switch {
		case !ok:
			return fmt.Sprintf("case %s was not evaluated", c.ID)
		case h != c.Hash:
			return fmt.Sprintf("case %s was evaluated at %s, the plan has %s", c.ID, short(h), short(c.Hash))
		}
	}
	for _, c := range a.Cases {
		if _, ok := want[c.ID]; !ok {
			return fmt.Sprintf("case %s is not in the job", c.ID)
		}
	}
	seen := map[runner.Key]bool{}
	covered := map[string]map[int]bool{}
	for _, r := range a.Results {
		k := runner.KeyOf(r)
		switch {
		case r.Model != j.Model:
			return fmt.Sprintf("result %s is for another model", k)
		case !hasCase(j, r.CaseID):
			return fmt.Sprintf("result %s is for a case not in the job", k)
		case r.Attempt < 1 || r.Attempt > j.Samples:
			return fmt.Sprintf("result %s has attempt %d outside 1..%d", k, r.Attempt, j.Samples)
		case seen[k]:
			return fmt.Sprintf("result %s appears twice", k)
		}
		seen[k] = true
		if covered[r.CaseID] == nil {
			covered[r.CaseID] = map[int]bool{}
		}
		covered[r.CaseID][r.Attempt] = true
	}
	if s, _ := runner.ParseScenario(p.Inputs.Scenario); s == runner.Generation {
		for _, c := range j.Cases {
			for at := 1; at <= j.Samples; at++ {
				if !covered[c.ID][at] {
					return fmt.Sprintf("no result for %s #%d", c.ID, at)
				}
			}
		}
	}
	return ""
}

func hasCase(j *Job, id string) bool {
	for _, c := range j.Cases {
		if c.ID == id {
			return true
		}
	}
	return false
}

// short abbreviates a "sha256:<hex>" hash for messages.
func short(h string) string {
	if len(h) > len("sha256:")+12 {
		return h[:len("sha256:")+12]
	}
	if h == "" {
		return "none"
	}
	return h
}

func relPath(dir, path string) string {
	if r, err := filepath.Rel(dir, path); err == nil {
		return filepath.ToSlash(r)
	}
	return path
}
