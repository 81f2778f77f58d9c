// Package prompt builds the text sent to a model for a case: the generation
// prompt (prompt.md, the case's context files, the target board and SDK
// version, after an optional context pack), the bugfix prompt (the reference
// with a seeded bug), the feedback message of a compiler-feedback round or an
// agent turn, and the deterministic prompt variants of the sensitivity
// analysis. It reads case files but never calls a model or evaluates code.
package prompt

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/platform"
	"github.com/embedeval/embedeval-go/internal/result"
)

// MaxContextBytes bounds the total size of a case's context/ files placed in a
// prompt; a larger context is refused, since it would only burn tokens.
const MaxContextBytes = 256 << 10

// Target is what a prompt says about where the code runs.
type Target struct {
	// Board is the build board (from metadata, or the platform's default).
	Board string
}

// Options shape every prompt of a run.
type Options struct {
	// ContextPack, when not empty, is text prepended to every prompt (for
	// example API notes for the SDK).
	ContextPack string
	// Variant rewrites the task text (prompt.md) before it is assembled; the
	// zero value leaves it unchanged.
	Variant Variant
}

// Generation builds the generation prompt of a case: the context pack, the
// task (prompt.md, rewritten by the variant), each file under context/ fenced
// under its name, then "Target board: <board>" and "SDK version: <sdk>
// <version>".
func Generation(c *cases.Case, t Target, opts Options) (string, error) {
	task, err := readTask(c)
	if err != nil {
		return "", err
	}
	task = opts.Variant.Apply(task)
	files, err := ContextFiles(c)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	writePack(&b, opts.ContextPack)
	b.WriteString(strings.TrimRight(task, "\n"))
	b.WriteString("\n")
	if len(files) > 0 {
		b.WriteString("\n## Context files\n")
		for _, f := range files {
			fmt.Fprintf(&b, "\n### %s\n\n", f.Name)
			writeFenced(&b, fenceLanguage(f.Name), f.Text)
		}
	}
	b.WriteString("\n")
	writeTarget(&b, c, t)
	return b.String(), nil
}

// Bugfix builds the bugfix prompt of a case: the task, the given buggy code
// (the reference with one must_fail negative applied), and the request to
// find and fix the bug and output the complete fixed file.
func Bugfix(c *cases.Case, t Target, buggy string, opts Options) (string, error) {
	task, err := readTask(c)
	if err != nil {
		return "", err
	}
	task = opts.Variant.Apply(task)
	name := filepath.Base(c.ReferencePath)
	kind := platform.OutputKind(c)
	var b strings.Builder
	writePack(&b, opts.ContextPack)
	fmt.Fprintf(&b, "The %s below was written for the task that follows, but it contains a bug.\n", describeKind(kind, name))
	b.WriteString("Find the bug and fix it. Keep everything that is correct as it is.\n\n")
	b.WriteString("## Original task\n\n")
	b.WriteString(strings.TrimRight(task, "\n"))
	b.WriteString("\n\n")
	fmt.Fprintf(&b, "## Buggy code (%s)\n\n", name)
	writeFenced(&b, fenceLanguage(name), buggy)
	b.WriteString("\n")
	writeTarget(&b, c, t)
	fmt.Fprintf(&b, "\nOutput the complete fixed %s in one fenced code block.\n", name)
	return b.String(), nil
}

// Feedback returns the follow-up user message after an evaluation that
// failed: which layer failed and its details (failed checks with expected and
// actual values, the compiler's or runtime's error lines), and the request to
// fix the code. It returns "" when the result did not fail at any layer.
func Feedback(r result.EvalResult) string {
	if r.FailedAtLayer == nil {
		return ""
	}
	lr, ok := r.Layer(*r.FailedAtLayer)
	if !ok {
		return ""
	}
	var b strings.Builder
	switch lr.Layer {
	case result.LayerStatic:
		b.WriteString("Your code failed the static checks (L0).\n")
	case result.LayerCompile:
		b.WriteString("Your code failed to compile (L1).\n")
	case result.LayerRuntime:
		b.WriteString("Your code built but failed at runtime (L2).\n")
	case result.LayerHeuristic:
		b.WriteString("Your code failed the behavioural checks (L3).\n")
	default:
		fmt.Fprintf(&b, "Your code failed layer L%d (%s).\n", lr.Layer, result.LayerShortName(lr.Layer))
	}
	var failed []result.CheckDetail
	for _, d := range lr.Details {
		if !d.Passed {
			failed = append(failed, d)
		}
	}
	if len(failed) > 0 {
		b.WriteString("\nFailed checks:\n")
		for _, d := range failed {
			fmt.Fprintf(&b, "- %s: expected %s, actual %s\n", d.CheckName, orNone(d.Expected), orNone(d.Actual))
		}
	}
	if reason := strings.TrimSpace(lr.Reason); reason != "" {
		b.WriteString("\nDetails:\n\n")
		writeFenced(&b, "text", reason+"\n")
	}
	b.WriteString("\nFix the code and output the complete corrected file in one fenced code block.\n")
	return b.String()
}

func orNone(s *string) string {
	if s == nil || *s == "" {
		return "(none)"
	}
	return fmt.Sprintf("%q", *s)
}

func readTask(c *cases.Case) (string, error) {
	data, err := cases.ReadFile(c.PromptPath)
	if err != nil {
		return "", fmt.Errorf("prompt of %s: %w", c.Meta.ID, err)
	}
	return strings.ReplaceAll(string(data), "\r\n", "\n"), nil
}

// ContextFile is one file of a case's context/ directory.
type ContextFile struct {
	// Name is the slash path relative to context/; Text the content with
	// CRLF line ends made LF.
	Name, Text string
}

// ContextFiles reads every regular file under the case's context/ directory,
// in sorted order of their slash paths relative to it, skipping hidden files.
// No link is followed: any entry that is not a plain file or directory
// (context/ itself included) is an error.
func ContextFiles(c *cases.Case) ([]ContextFile, error) {
	root := filepath.Join(c.Dir, "context")
	if st, err := os.Lstat(root); errors.Is(err, fs.ErrNotExist) || err == nil && st.Mode().IsRegular() {
		return nil, nil
	}
	var out []ContextFile
	total := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || d.Type().IsRegular() && strings.HasPrefix(d.Name(), ".") {
			return nil
		}
		data, err := cases.ReadFile(p) // refuses links, devices, pipes and sockets
		if err != nil {
			return err
		}
		total += len(data)
		if total > MaxContextBytes {
			return fmt.Errorf("context files exceed %d bytes", MaxContextBytes)
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		out = append(out, ContextFile{Name: filepath.ToSlash(rel), Text: strings.ReplaceAll(string(data), "\r\n", "\n")})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("context of %s: %w", c.Meta.ID, err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

func writePack(b *strings.Builder, pack string) {
	pack = strings.TrimSpace(strings.ReplaceAll(pack, "\r\n", "\n"))
	if pack == "" {
		return
	}
	b.WriteString(pack)
	b.WriteString("\n\n---\n\n")
}

func writeTarget(b *strings.Builder, c *cases.Case, t Target) {
	board := t.Board
	if board == "" {
		board = c.Meta.Board()
	}
	fmt.Fprintf(b, "Target board: %s\n", board)
	sdk := strings.TrimSpace(c.Meta.SDK + " " + c.Meta.SDKVersion)
	if sdk != "" {
		fmt.Fprintf(b, "SDK version: %s\n", sdk)
	}
}

// writeFenced writes text in a backtick fence long enough that no run of
// backticks inside the text closes it.
func writeFenced(b *strings.Builder, lang, text string) {
	longest, run := 0, 0
	for _, r := range text {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", max(3, longest+1))
	b.WriteString(fence + lang + "\n")
	b.WriteString(text)
	if !strings.HasSuffix(text, "\n") {
		b.WriteString("\n")
	}
	b.WriteString(fence + "\n")
}

// fenceLanguage names the info string of a file's fence from its name.
func fenceLanguage(name string) string {
	base := filepath.Base(name)
	switch ext := strings.ToLower(filepath.Ext(base)); {
	case ext == ".c" || ext == ".h":
		return "c"
	case ext == ".cpp" || ext == ".hpp" || ext == ".cc":
		return "cpp"
	case ext == ".conf" || strings.HasPrefix(base, "Kconfig"):
		return "kconfig"
	case ext == ".overlay" || ext == ".dts" || ext == ".dtsi":
		return "dts"
	case ext == ".rules":
		return "udev"
	case ext == ".bb" || ext == ".bbappend" || ext == ".bbclass":
		return "bitbake"
	case ext == ".yaml" || ext == ".yml":
		return "yaml"
	case ext == ".txt" || base == "CMakeLists.txt":
		return "text"
	}
	return ""
}

// describeKind names what a file of an output kind is, for the bugfix prompt.
func describeKind(kind, name string) string {
	switch kind {
	case "c":
		return fmt.Sprintf("C source file `%s`", name)
	case "kconfig":
		return fmt.Sprintf("Kconfig fragment `%s`", name)
	case "devicetree":
		return fmt.Sprintf("devicetree overlay `%s`", name)
	case "udev":
		return fmt.Sprintf("udev rules file `%s`", name)
	case "bitbake":
		return fmt.Sprintf("BitBake recipe `%s`", name)
	}
	return fmt.Sprintf("file `%s`", name)
}
