package cases

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/embedeval/embedeval-go/internal/diag"
)

// MaxSourceBytes is the largest prompt, reference or check file a case may hold.
const MaxSourceBytes = 1 << 20

// Layout says how a case directory sits under its corpus root.
type Layout string

const (
	// LayoutSDK is cases/<sdk>/<case-id>/.
	LayoutSDK Layout = "sdk"
	// LayoutFlat is the legacy cases/<case-id>/.
	LayoutFlat Layout = "flat"
)

// Entry is a case directory found by discovery, before it is loaded.
type Entry struct {
	Dir     string // path of the case directory
	Name    string // directory name (must equal the case id)
	Bucket  string // sdk bucket directory name; empty for the flat layout
	Layout  Layout
	Private bool // found under a --private-cases root
}

// Case is a loaded case: metadata and the paths of its parts.
type Case struct {
	Entry
	Meta Metadata
	// PromptPath is prompt.md.
	PromptPath string
	// ReferencePath is reference/main.c, or the only file in reference/.
	ReferencePath string
	// StaticPath, BehaviorPath and NegativesPath are the check files; NegativesPath
	// is empty when the case has none.
	StaticPath, BehaviorPath, NegativesPath string
	// ExpectedOutputPath is checks/expected_output.txt, or empty.
	ExpectedOutputPath string
	// AcceptPaths are the accepted variant solutions under checks/accept/, sorted.
	AcceptPaths []string
	// RejectPaths are the rejected solutions under checks/reject/, sorted:
	// answers with one defect each, which named checks must catch.
	RejectPaths []string
	// Hash is the content hash of every file in the case directory.
	Hash string
	// SDKInferred is set when metadata.yaml has no sdk field and Meta.SDK was
	// taken from the platform (the flat layout only: SDKForPlatform).
	SDKInferred bool
	// Notes are remarks about how the case was read (the sdk taken from the
	// platform), copied into the notes of every result of the case.
	Notes []string
}

// LegacyRules reports whether the case is judged by the Python
// implementation's rules, as a case of its flat layout (cases/<id>/) is: sdk
// may be absent (taken from the platform), and this project's stricter
// rules — the id starts with its category, check names are unique across
// the static and behaviour modules, the scope audit of check files — are
// warnings, not errors. Cases in the SDK layout keep this project's rules.
func (e Entry) LegacyRules() bool { return e.Layout == LayoutFlat }

// ID returns the case id.
func (c *Case) ID() string { return c.Meta.ID }

// SDKBuckets are the directory names treated as SDK buckets by discovery.
func SDKBuckets() []string { return SDKs() }

// Discover walks a corpus root and returns its case directories in a stable
// order (bucket, then name). A directory directly under root whose name is an SDK
// bucket holds cases; any other directory holding metadata.yaml is a flat-layout
// case. Other directories are reported as warnings, so that a typo in a bucket
// name does not silently hide cases. The root itself may be a symbolic link;
// a linked bucket is an error, and a linked case directory is listed so that
// Load refuses it. Nothing is read through a link.
func Discover(root string, private bool) ([]Entry, []diag.Problem) {
	var entries []Entry
	var problems []diag.Problem
	top, err := os.ReadDir(root)
	if err != nil {
		return nil, []diag.Problem{diag.Errorf(root, 0, 0, "discover", "cannot read cases directory: %v", unwrapPathError(err))}
	}
	for _, d := range top {
		if strings.HasPrefix(d.Name(), ".") {
			continue
		}
		dir := filepath.Join(root, d.Name())
		if d.Type()&fs.ModeSymlink != 0 {
			switch {
			case contains(SDKBuckets(), d.Name()):
				problems = append(problems, diag.Errorf(dir, 0, 0, plainRule, "symbolic link (an sdk bucket must be a plain directory; only the corpus root may be a link)"))
			case fileExists(filepath.Join(dir, "metadata.yaml")):
				entries = append(entries, Entry{Dir: dir, Name: d.Name(), Layout: LayoutFlat, Private: private})
			}
			continue
		}
		if !d.IsDir() {
			continue
		}
		if contains(SDKBuckets(), d.Name()) {
			sub, err := os.ReadDir(dir)
			if err != nil {
				problems = append(problems, diag.Errorf(dir, 0, 0, "discover", "cannot read sdk bucket: %v", unwrapPathError(err)))
				continue
			}
			for _, c := range sub {
				linked := c.Type()&fs.ModeSymlink != 0 // listed for Load to refuse
				if !c.IsDir() && !linked || strings.HasPrefix(c.Name(), ".") {
					continue
				}
				entries = append(entries, Entry{Dir: filepath.Join(dir, c.Name()), Name: c.Name(), Bucket: d.Name(), Layout: LayoutSDK, Private: private})
			}
			continue
		}
		if fileExists(filepath.Join(dir, "metadata.yaml")) {
			entries = append(entries, Entry{Dir: dir, Name: d.Name(), Layout: LayoutFlat, Private: private})
			continue
		}
		problems = append(problems, diag.Warnf(dir, 0, 0, "discover", "directory is neither an sdk bucket (%s) nor a case (no metadata.yaml); ignored", strings.Join(SDKBuckets(), ", ")))
	}
	sort.Slice(entries, func(i, j int) bool {
		if entries[i].Bucket != entries[j].Bucket {
			return entries[i].Bucket < entries[j].Bucket
		}
		return entries[i].Name < entries[j].Name
	})
	return entries, problems
}

// Load reads and checks one case directory. It returns the case (possibly
// partially filled) and every problem found; the case is usable only when no
// error-severity problem is returned.
func Load(e Entry) (*Case, []diag.Problem) {
	c := &Case{Entry: e}
	// Nothing is read from a case holding a link, device, pipe or socket:
	// reading through it could reach any file on the machine.
	files, problems := plainProblems(e.Dir)
	if len(problems) > 0 {
		return c, problems
	}
	metaPath := filepath.Join(e.Dir, "metadata.yaml")
	data, err := ReadFile(metaPath)
	if err != nil {
		problems = append(problems, diag.Errorf(metaPath, 0, 0, metadataRule, "cannot read metadata: %v", unwrapPathError(err)))
	} else {
		var meta Metadata
		var ps []diag.Problem
		if e.LegacyRules() {
			meta, ps, c.SDKInferred = DecodeLegacyMetadata(metaPath, data)
		} else {
			meta, ps = DecodeMetadata(metaPath, data)
		}
		c.Meta = meta
		problems = append(problems, ps...)
		if c.SDKInferred {
			c.Notes = append(c.Notes, fmt.Sprintf("sdk %q inferred from platform %q (metadata.yaml has no sdk field)", meta.SDK, meta.Platform))
		}
		if meta.ID != "" && meta.ID != e.Name {
			problems = append(problems, diag.Errorf(metaPath, idLine(data), 0, metadataRule, "id %q does not match the directory name %q", meta.ID, e.Name))
		}
		if e.Layout == LayoutSDK && meta.SDK != "" && meta.SDK != e.Bucket {
			problems = append(problems, diag.Errorf(metaPath, fieldLine(data, "sdk"), 0, metadataRule, "sdk %q does not match the parent directory %q", meta.SDK, e.Bucket))
		}
	}
	required := func(rel, what string) string {
		p := filepath.Join(e.Dir, rel)
		if !fileExists(p) {
			problems = append(problems, diag.Errorf(p, 0, 0, "layout", "missing %s", what))
			return ""
		}
		return p
	}
	c.PromptPath = required("prompt.md", "prompt (prompt.md)")
	checkFile := func(stem, what string) string {
		if p := checkFilePath(e.Dir, stem); p != "" {
			return p
		}
		return required(filepath.Join("checks", stem+".star"), fmt.Sprintf("%s (checks/%s.star, or checks/%s.py for the Python bridge)", what, stem, stem))
	}
	c.StaticPath = checkFile("static", "L0 check file")
	c.BehaviorPath = checkFile("behavior", "L3 check file")
	c.NegativesPath = checkFilePath(e.Dir, "negatives")
	if p := filepath.Join(e.Dir, "checks", "expected_output.txt"); fileExists(p) {
		c.ExpectedOutputPath = p
	}
	ref, refProblem := findReference(e.Dir)
	if refProblem != nil {
		problems = append(problems, *refProblem)
	}
	c.ReferencePath = ref
	c.AcceptPaths = listFiles(filepath.Join(e.Dir, "checks", "accept"))
	c.RejectPaths = listFiles(filepath.Join(e.Dir, "checks", "reject"))
	for _, p := range []string{c.PromptPath, c.ReferencePath, c.StaticPath, c.BehaviorPath, c.NegativesPath} {
		if p == "" {
			continue
		}
		if pr := checkSourceFile(p); pr != nil {
			problems = append(problems, *pr)
		}
	}
	hash, err := hashFiles(e.Dir, files)
	if err != nil {
		problems = append(problems, diag.Errorf(e.Dir, 0, 0, "layout", "cannot hash case: %v", err))
	}
	c.Hash = hash
	return c, problems
}

// checkFilePath returns checks/<stem>.star, or checks/<stem>.py when the case
// has no Starlark counterpart (a case of the Python implementation's format,
// run through the Python bridge), or "" when neither exists.
func checkFilePath(dir, stem string) string {
	for _, ext := range []string{".star", ".py"} {
		if p := filepath.Join(dir, "checks", stem+ext); fileExists(p) {
			return p
		}
	}
	return ""
}

// Check backends a case can use, as CheckBackend reports them.
const (
	BackendStarlark = "starlark"
	BackendPython   = "python"
	BackendMixed    = "mixed"
)

// CheckBackend says how the case's check files run: "starlark", "python"
// (every check file is a .py module) or "mixed" (some of each, as during a
// file-by-file migration).
func (c *Case) CheckBackend() string {
	py, star := 0, 0
	for _, p := range []string{c.StaticPath, c.BehaviorPath, c.NegativesPath} {
		switch filepath.Ext(p) {
		case ".py":
			py++
		case ".star":
			star++
		}
	}
	switch {
	case py == 0:
		return BackendStarlark
	case star == 0:
		return BackendPython
	default:
		return BackendMixed
	}
}

// UsesPython reports whether any check file of the case is a Python module.
func (c *Case) UsesPython() bool { return c.CheckBackend() != BackendStarlark }

// findReference picks reference/main.c, or the only regular file in reference/.
func findReference(dir string) (string, *diag.Problem) {
	refDir := filepath.Join(dir, "reference")
	main := filepath.Join(refDir, "main.c")
	if fileExists(main) {
		return main, nil
	}
	files := listFiles(refDir)
	switch len(files) {
	case 1:
		return files[0], nil
	case 0:
		p := diag.Errorf(main, 0, 0, "layout", "missing reference solution (reference/main.c, or a single file in reference/)")
		return "", &p
	default:
		p := diag.Errorf(refDir, 0, 0, "layout", "reference/ holds %d files and no main.c; cannot tell which one is the solution", len(files))
		return "", &p
	}
}

// checkSourceFile rejects files that are too large or not UTF-8.
func checkSourceFile(path string) *diag.Problem {
	st, err := os.Lstat(path)
	if err != nil {
		p := diag.Errorf(path, 0, 0, "layout", "cannot read: %v", unwrapPathError(err))
		return &p
	}
	if st.Size() > MaxSourceBytes {
		p := diag.Errorf(path, 0, 0, "layout", "file is %d bytes; the limit is %d bytes", st.Size(), MaxSourceBytes)
		return &p
	}
	data, err := ReadFile(path)
	if err != nil {
		p := diag.Errorf(path, 0, 0, "layout", "cannot read: %v", unwrapPathError(err))
		return &p
	}
	if !utf8.Valid(data) {
		line, col := firstInvalidUTF8(data)
		p := diag.Errorf(path, line, col, "layout", "file is not valid UTF-8")
		return &p
	}
	return nil
}

// firstInvalidUTF8 returns the 1-based line and byte column of the first invalid
// UTF-8 sequence.
func firstInvalidUTF8(data []byte) (int, int) {
	line, col := 1, 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return line, col
		}
		if data[i] == '\n' {
			line, col = line+1, 1
		} else {
			col += size
		}
		i += size
	}
	return line, col
}

// hashFiles hashes the listed files (sorted relative slash paths) of dir,
// reading each with ReadFile: each path with its size and bytes. The result
// is "sha256:<hex>" and does not depend on where the corpus is checked out.
func hashFiles(dir string, rels []string) (string, error) {
	h := sha256.New()
	for _, rel := range rels {
		data, err := ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			return "", fmt.Errorf("hash %s: %w", rel, err)
		}
		fmt.Fprintf(h, "%s\x00%d\x00", rel, len(data))
		h.Write(data)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

func listFiles(dir string) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if e.Type().IsRegular() && !strings.HasPrefix(e.Name(), ".") {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(out)
	return out
}

// fileExists reports whether p is a regular file, not following a link at p.
func fileExists(p string) bool {
	st, err := os.Lstat(p)
	return err == nil && st.Mode().IsRegular()
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func idLine(data []byte) int { return fieldLine(data, "id") }

// fieldLine finds the line of a top-level "name:" key; 0 when absent.
func fieldLine(data []byte, name string) int {
	for i, line := range bytes.Split(data, []byte("\n")) {
		if bytes.HasPrefix(line, []byte(name+":")) {
			return i + 1
		}
	}
	return 0
}
