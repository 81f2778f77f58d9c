// Package dtc is the L1 backend of the zephyr-devicetree-overlay target: it
// compiles a devicetree overlay answer on its own, as a devicetree plugin,
// with the C preprocessor and the Device Tree Compiler — no Zephyr tree
// needed.
//
// Conventions: the answer is staged as app.overlay (Zephyr's name) next to
// the case's build files. A wrapper, embedeval-overlay.dts, starts with
// "/dts-v1/;" and "/plugin/;" (only when the answer lacks /dts-v1/),
// includes the binding headers the board's own DTS includes — exactly those,
// per board (Boards: native_sim brings mem.h, adc, i2c and gpio; the nRF52840
// DK also pwm, the nRF pinctrl, SAADC and regulator helpers, freq.h and the
// input event codes), as the board DTS does when Zephyr preprocesses it with
// the overlay — and then the answer. An overlay using a macro of any other
// header must include it, as in Zephyr. A case for a board not in Boards is
// skipped (toolchain unavailable), never compiled with another board's
// headers. Then
//
//	cpp -nostdinc -undef -D__DTS__ -x assembler-with-cpp -I embedeval-include -I embedeval-include/zephyr -o embedeval-overlay.pre.dts embedeval-overlay.dts
//	dtc -@ -I dts -O dtb -W no-reg_format -W no-avoid_default_addr_size -W no-gpios_property -o out.dtbo embedeval-overlay.pre.dts
//
// Between the two, top-level "/delete-node/ &label;" statements are blanked
// (see BlankBoardDeletes): they edit the board tree, which a plugin lacks.
//
// cpp keeps its line markers (no -P), so dtc's messages name app.overlay
// and the answer's own line numbers. The binding headers are a small set
// written for this package (bindings/, embedded, written into the workspace
// under embedeval-include/ as both <zephyr/dt-bindings/...> and
// <dt-bindings/...>), holding only the common macros.
//
// What passing verifies: the overlay is valid devicetree source (syntax,
// semicolons, braces, cell lists, labels and references within the
// overlay), every macro it uses expands to a number (an unknown macro such
// as GPIO_ACTIVE_SIDEWAYS is left bare in a cell list and dtc rejects it),
// and dtc's semantic checks that make sense without the board tree pass
// (duplicate nodes or labels, malformed property values; the three checks
// switched off above need the parent bus's #address-cells or the target of a
// phandle, which a plugin does not have). References to labels the overlay
// does not define (&i2c0, &gpio0) are allowed: in a plugin they become
// fixups, resolved only against a real board tree.
//
// What it does not verify: that the nodes conform to their bindings
// (compatible strings, required properties, value ranges), that the
// referenced labels exist on the board, or that the result merges into the
// real board devicetree — that needs the Zephyr SDK image (the zephyr
// backend). A header outside the shipped subset is reported as an error of
// this backend, never as the answer's failure. There is no L2.
//
// The package owns nothing outside its workspaces and never writes to the
// case directory.
package dtc

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/eval"
	"github.com/embedeval/embedeval-go/internal/platform"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/sandbox"
	"github.com/embedeval/embedeval-go/internal/toolchain"
)

// Name is the backend's registry name.
const Name = "dtc"

// Workspace file names.
const (
	// CodePath is where the answer is staged.
	CodePath = "app.overlay"
	// wrapperPath is the file handed to cpp.
	wrapperPath = "embedeval-overlay.dts"
	// preprocessedPath is cpp's output, handed to dtc.
	preprocessedPath = "embedeval-overlay.pre.dts"
	// includeDir holds the binding headers.
	includeDir = "embedeval-include"
	// OutputPath is the compiled overlay.
	OutputPath = "out.dtbo"
)

//go:embed bindings
var bindings embed.FS

// pluginChecksOff are dtc checks that cannot hold for a plugin compiled
// without its board tree.
func pluginChecksOff() []string {
	return []string{"reg_format", "avoid_default_addr_size", "gpios_property"}
}

// Option configures a Backend.
type Option func(*Backend)

// Backend compiles devicetree overlays. It holds only configuration and is
// safe for concurrent use.
type Backend struct {
	path string
}

// New returns the backend.
func New(opts ...Option) *Backend {
	b := &Backend{}
	for _, o := range opts {
		o(b)
	}
	return b
}

var (
	_ toolchain.Backend   = (*Backend)(nil)
	_ toolchain.CaseAware = (*Backend)(nil)
)

// Name implements toolchain.Backend.
func (b *Backend) Name() string { return Name }

// Available implements toolchain.Backend: the build needs cpp and dtc. Run
// is always false: an overlay is compiled, not run.
func (b *Backend) Available(platform.Target) toolchain.Availability {
	var why []string
	build := true
	for _, tool := range [][2]string{{"cpp", "cpp"}, {"dtc", "device-tree-compiler"}} {
		if _, err := b.lookPath(tool[0]); err != nil {
			build = false
			why = append(why, fmt.Sprintf("%s is not installed (Debian package %s)", tool[0], tool[1]))
		}
	}
	why = append(why, "no L2: a devicetree overlay is compiled, not run")
	return toolchain.Availability{Build: build, Why: strings.Join(why, "; ")}
}

// AvailableFor implements toolchain.CaseAware: as Available, and the case's
// board must be one whose devicetree includes are known (Boards); another
// board is skipped with the reason, never compiled with the wrong headers.
func (b *Backend) AvailableFor(t platform.Target, c *cases.Case) toolchain.Availability {
	a := b.Available(t)
	if board := t.Board(c); a.Build {
		if _, ok := LookupBoard(board); !ok {
			a.Build = false
			a.Why = unknownBoard(board) + "; " + a.Why
		}
	}
	return a
}

// unknownBoard says why an overlay for board cannot be compiled here.
func unknownBoard(board string) string {
	return fmt.Sprintf("board %s: this backend does not know which binding headers the board's devicetree includes (known: %s); the overlay can only be compiled with the Zephyr SDK image",
		board, strings.Join(boardNames(), ", "))
}

// lookPath resolves a command in the configured PATH.
func (b *Backend) lookPath(name string) (string, error) {
	return toolchain.ToolPath(b.path).Look(name)
}

// Build implements toolchain.Backend: stage, write the headers and the
// wrapper, preprocess, compile.
func (b *Backend) Build(ctx context.Context, req toolchain.Request) (result.LayerResult, eval.Artifact) {
	ws, err := toolchain.Stage(req, "dtc", CodePath)
	if err != nil {
		return toolchain.ErrorLayer(fmt.Sprintf("stage workspace: %v", err)), nil
	}
	lr := b.compile(ctx, ws, req)
	if lr.Status != result.StatusPassed {
		_ = ws.Close()
		return lr, nil
	}
	return lr, &toolchain.BuildOnly{Workspace: ws, Why: "a devicetree overlay is compiled, not run"}
}

func (b *Backend) compile(ctx context.Context, ws *sandbox.Workspace, req toolchain.Request) result.LayerResult {
	board, ok := LookupBoard(req.Board)
	if !ok {
		return result.LayerResult{Status: result.StatusSkipped, Reason: "toolchain unavailable: " + unknownBoard(req.Board)}
	}
	if err := writeBindings(ws); err != nil {
		return toolchain.ErrorLayer(err.Error())
	}
	if err := ws.WriteFile(wrapperPath, []byte(Wrapper(req.Code, board))); err != nil {
		return toolchain.ErrorLayer(err.Error())
	}
	var set []string
	if b.path != "" {
		set = append(set, "PATH="+b.path)
	}
	env := sandbox.Env(ws.Dir, nil, set...)
	cpp := []string{"cpp", "-nostdinc", "-undef", "-D__DTS__", "-x", "assembler-with-cpp",
		"-I", includeDir, "-I", includeDir + "/zephyr", "-o", preprocessedPath, wrapperPath}
	res, err := req.Jail.Run(ctx, sandbox.Spec{Args: cpp, Dir: ws.Dir, Env: env, Timeout: req.BuildTimeout})
	if err != nil {
		return toolchain.StartError("cpp", err)
	}
	lr := toolchain.BuildOutcome("cpp", res, req.BuildTimeout)
	if lr.Status == result.StatusFailed {
		if h := missingBindingHeader(string(res.Output)); h != "" {
			return toolchain.ErrorLayer(fmt.Sprintf("cpp: %s is not among the binding headers this backend ships (%s); the answer can only be compiled with the Zephyr SDK image",
				h, strings.Join(shippedHeaders(), ", ")))
		}
	}
	if lr.Status != result.StatusPassed {
		return lr
	}
	if err := blankBoardDeletes(ws); err != nil {
		return toolchain.ErrorLayer(err.Error())
	}
	dtc := []string{"dtc", "-@", "-I", "dts", "-O", "dtb"}
	for _, c := range pluginChecksOff() {
		dtc = append(dtc, "-W", "no-"+c)
	}
	dtc = append(dtc, "-o", OutputPath, preprocessedPath)
	res, err = req.Jail.Run(ctx, sandbox.Spec{Args: dtc, Dir: ws.Dir, Env: env, Timeout: req.BuildTimeout})
	if err != nil {
		return toolchain.StartError("dtc", err)
	}
	lr = toolchain.BuildOutcome("dtc", res, req.BuildTimeout)
	if lr.Status == result.StatusFailed {
		if pre, err := os.ReadFile(filepath.Join(ws.Dir, preprocessedPath)); err == nil {
			if names := bareIdentifiers(string(pre)); len(names) > 0 {
				lr.Reason += "\nundefined macro(s) left in cell lists: " + strings.Join(names, ", ")
			}
		}
	}
	return lr
}

// Wrapper is the source handed to cpp for an answer on a board: the plugin
// header when the answer has no /dts-v1/ of its own, the binding headers the
// board's DTS includes (Board.Headers, no others) and the answer itself (by
// #include, so line numbers stay the answer's).
func Wrapper(code string, board Board) string {
	var b strings.Builder
	if !strings.Contains(code, "/dts-v1/") {
		b.WriteString("/dts-v1/;\n/plugin/;\n")
	}
	for _, h := range board.Headers {
		fmt.Fprintf(&b, "#include <%s>\n", h)
	}
	fmt.Fprintf(&b, "#include %q\n", CodePath)
	return b.String()
}

// writeBindings copies the embedded headers into the workspace, under both
// include roots' layout (embedeval-include/zephyr/dt-bindings/...; the
// second -I makes <dt-bindings/...> resolve to the same files).
func writeBindings(ws *sandbox.Workspace) error {
	return fs.WalkDir(bindings, "bindings", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := bindings.ReadFile(p)
		if err != nil {
			return fmt.Errorf("read embedded %s: %w", p, err)
		}
		return ws.WriteFile(path.Join(includeDir, strings.TrimPrefix(p, "bindings/")), data)
	})
}

// shippedHeaders lists the embedded headers as an overlay would include them.
func shippedHeaders() []string {
	var out []string
	_ = fs.WalkDir(bindings, "bindings", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, strings.TrimPrefix(p, "bindings/"))
		}
		return nil
	})
	slices.Sort(out)
	return out
}

// missingHeader matches cpp's message for an include it cannot find.
var missingHeader = regexp.MustCompile(`fatal error: ((?:zephyr/)?dt-bindings/[^:]+): No such file or directory`)

// missingBindingHeader returns the binding header cpp could not find, if
// that is why it failed.
func missingBindingHeader(log string) string {
	if m := missingHeader.FindStringSubmatch(log); m != nil {
		return m[1]
	}
	return ""
}

// cellList matches the contents of a <...> cell list.
var cellList = regexp.MustCompile(`<([^<>]*)>`)

// identifier matches a C identifier not preceded by & (a reference) or a
// digit (a hex literal or a suffix).
var identifier = regexp.MustCompile(`(^|[^&0-9A-Za-z_])([A-Za-z_][A-Za-z0-9_]*)`)

// bareIdentifiers returns the identifiers left in cell lists after
// preprocessing: in devicetree source a cell holds numbers, expressions and
// &references, so a bare name is a macro nobody defined.
func bareIdentifiers(pre string) []string {
	var out []string
	for _, line := range strings.Split(pre, "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		for _, cl := range cellList.FindAllStringSubmatch(line, -1) {
			for _, m := range identifier.FindAllStringSubmatch(cl[1], -1) {
				if !slices.Contains(out, m[2]) {
					out = append(out, m[2])
				}
			}
		}
	}
	return out
}

// boardDelete matches a top-level "/delete-node/ &label;" or
// "/delete-node/ &{/path};" statement.
var boardDelete = regexp.MustCompile(`^/delete-node/\s*&(?:\{[^}]*\}|[A-Za-z_][A-Za-z0-9_]*)\s*;`)

// BlankBoardDeletes replaces every top-level /delete-node/ of a reference
// with spaces (newlines kept, so dtc's line numbers stay the answer's). Such a
// statement edits the board tree the overlay is merged into; a plugin has no
// board tree, so dtc can only report "Label or path ... not found" for it (and
// rejects it outright as the first statement of a plugin). Statements inside
// node bodies, and everything else, are left for dtc to judge.
func BlankBoardDeletes(pre string) string {
	b := []byte(pre)
	depth := 0
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '#' && (i == 0 || b[i-1] == '\n') && i+2 < len(b) && b[i+1] == ' ' && b[i+2] >= '0' && b[i+2] <= '9':
			// a cpp line marker (# 12 "app.overlay"): skip the line
			for i < len(b) && b[i] != '\n' {
				i++
			}
		case c == '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
		case c == '{':
			depth++
		case c == '}':
			depth--
		case c == '/' && depth == 0:
			if m := boardDelete.FindIndex(b[i:]); m != nil {
				for j := i; j < i+m[1]; j++ {
					if b[j] != '\n' {
						b[j] = ' '
					}
				}
				i += m[1] - 1
			}
		}
	}
	return string(b)
}

// blankBoardDeletes rewrites the preprocessed source with BlankBoardDeletes.
func blankBoardDeletes(ws *sandbox.Workspace) error {
	path := filepath.Join(ws.Dir, preprocessedPath)
	pre, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read %s: %w", preprocessedPath, err)
	}
	out := BlankBoardDeletes(string(pre))
	if out == string(pre) {
		return nil
	}
	return ws.WriteFile(preprocessedPath, []byte(out))
}
