package dtc

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/diag"
	"github.com/embedeval/embedeval-go/internal/platform"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/sandbox"
	"github.com/embedeval/embedeval-go/internal/testenv"
	"github.com/embedeval/embedeval-go/internal/toolchain"
	"github.com/embedeval/embedeval-go/internal/toolchain/toolchaintest"
)

const overlayCase = "../../../cases/zephyr/device-tree-001"

func loadCase(t testing.TB, dir string) *cases.Case {
	t.Helper()
	abs, err := filepath.Abs(dir)
	require.NoError(t, err)
	c, problems := cases.Load(cases.Entry{Dir: abs, Name: filepath.Base(abs), Bucket: filepath.Base(filepath.Dir(abs)), Layout: cases.LayoutSDK})
	require.False(t, diag.HasErrors(problems), "%v", problems)
	return c
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(data)
}

func requireTools(t testing.TB) {
	t.Helper()
	testenv.Tool(t, "cpp", "cpp", "overlays are preprocessed like Zephyr's devicetree sources")
	testenv.Tool(t, "dtc", "device-tree-compiler", "overlays are compiled as devicetree plugins")
	toolchaintest.Jail(t)
}

func request(c *cases.Case, code string) toolchain.Request {
	return toolchain.Request{Case: c, Code: code, Board: "native_sim", BuildTimeout: time.Minute, RunTimeout: time.Second, Jail: sandbox.Detect(context.Background(), sandbox.JailConfig{})}
}

func TestAvailable(t *testing.T) {
	a := New(WithPath(t.TempDir())).Available(platform.Target{})
	require.False(t, a.Build)
	require.False(t, a.Run)
	require.Equal(t, "cpp is not installed (Debian package cpp); dtc is not installed (Debian package device-tree-compiler); no L2: a devicetree overlay is compiled, not run", a.Why)
	requireTools(t)
	a = New().Available(platform.Target{})
	require.True(t, a.Build, a.Why)
	require.False(t, a.Run)
}

func TestWrapper(t *testing.T) {
	sim, ok := LookupBoard("native_sim")
	require.True(t, ok)
	headers := "#include <mem.h>\n#include <zephyr/dt-bindings/adc/adc.h>\n#include <zephyr/dt-bindings/i2c/i2c.h>\n#include <zephyr/dt-bindings/gpio/gpio.h>\n#include \"app.overlay\"\n"
	require.Equal(t, "/dts-v1/;\n/plugin/;\n"+headers, Wrapper("&i2c0 { status = \"okay\"; };", sim))
	require.Equal(t, headers, Wrapper("/dts-v1/;\n/plugin/;\n&i2c0 { };", sim))
	nrf, ok := LookupBoard("nrf52840dk_nrf52840")
	require.True(t, ok, "the board's older name")
	require.Contains(t, Wrapper("", nrf), "#include <zephyr/dt-bindings/input/input-event-codes.h>\n")
	require.NotContains(t, Wrapper("", sim), "input-event-codes.h", "native_sim's DTS does not include it")
}

// TestBoardHeadersShipped: every header a board brings along is one this
// backend ships, so the wrapper always preprocesses.
func TestBoardHeadersShipped(t *testing.T) {
	shipped := shippedHeaders()
	for _, b := range Boards() {
		require.NotEmpty(t, b.Names)
		require.NotEmpty(t, b.Source)
		require.NotEmpty(t, b.Zephyr)
		for _, h := range b.Headers {
			require.Contains(t, shipped, h, b.Names[0])
		}
	}
}

// TestBoardIncludes: an overlay may use the macros of exactly the headers
// its board's DTS includes, as in Zephyr, where app.overlay is preprocessed
// together with the board DTS.
func TestBoardIncludes(t *testing.T) {
	requireTools(t)
	c := loadCase(t, overlayCase)
	withoutInclude := readFile(t, "testdata/overlays/input_key_without_include.overlay")
	withInclude := "#include <zephyr/dt-bindings/input/input-event-codes.h>\n" + withoutInclude
	freq := "/ {\n\tn {\n\t\tclock-frequency = <DT_FREQ_M(8)>;\n\t};\n};\n"
	adc := "/ {\n\tn {\n\t\tt = <ADC_ACQ_TIME(ADC_ACQ_TIME_MICROSECONDS, 10)>;\n\t\tm = <BIT_MASK(3)>;\n\t};\n};\n"
	saadc := "/ {\n\tn {\n\t\tin = <NRF_SAADC_VDD>;\n\t\tmode = <NRF5X_REG_MODE_DCDC>;\n\t};\n};\n"
	tests := []struct {
		name, board, code string
		status            result.Status
		reason            string
	}{
		{name: "input code without its header on native_sim", board: "native_sim", code: withoutInclude, status: result.StatusFailed,
			reason: "undefined macro(s) left in cell lists: INPUT_KEY_ENTER"},
		{name: "input code with its header on native_sim", board: "native_sim", code: withInclude, status: result.StatusPassed},
		{name: "input code without its header on the nRF52840 DK", board: "nrf52840dk/nrf52840", code: withoutInclude, status: result.StatusPassed},
		{name: "DT_FREQ_M without freq.h on native_sim", board: "native_sim", code: freq, status: result.StatusFailed,
			reason: "undefined macro(s) left in cell lists: DT_FREQ_M"},
		{name: "DT_FREQ_M without freq.h on the nRF52840 DK", board: "nrf52840dk/nrf52840", code: freq, status: result.StatusPassed},
		{name: "adc.h and its dt-util.h on native_sim", board: "native_sim", code: adc, status: result.StatusPassed},
		{name: "SAADC and regulator helpers on native_sim", board: "native_sim", code: saadc, status: result.StatusFailed,
			reason: "undefined macro(s) left in cell lists: NRF_SAADC_VDD, NRF5X_REG_MODE_DCDC"},
		{name: "SAADC and regulator helpers on the nRF52840 DK", board: "nrf52840dk/nrf52840", code: saadc, status: result.StatusPassed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := request(c, tt.code)
			req.Board = tt.board
			lr, art := New().Build(context.Background(), req)
			require.Equal(t, tt.status, lr.Status, "%s %v", lr.Reason, lr.Error)
			if tt.status != result.StatusPassed {
				require.Nil(t, art)
				require.Contains(t, lr.Reason, tt.reason)
				return
			}
			require.NoError(t, art.Close())
		})
	}

	// A board whose includes are not known is skipped, never judged.
	unknown := "board qemu_x86: this backend does not know which binding headers the board's devicetree includes (known: native_sim, nrf52840dk/nrf52840); the overlay can only be compiled with the Zephyr SDK image"
	req := request(c, "&i2c0 { };")
	req.Board = "qemu_x86"
	lr, art := New().Build(context.Background(), req)
	require.Nil(t, art)
	require.Equal(t, result.StatusSkipped, lr.Status)
	require.Equal(t, "toolchain unavailable: "+unknown, lr.Reason)
	reg, err := platform.Default()
	require.NoError(t, err)
	x86 := *c
	x86.Meta.BuildBoard = "qemu_x86"
	lr, _ = toolchain.New(reg, toolchain.Options{Jail: sandbox.Unconfined()}, New()).Build(context.Background(), &x86, "&i2c0 { };")
	require.Equal(t, result.StatusSkipped, lr.Status)
	require.Equal(t, "toolchain unavailable: "+unknown+"; no L2: a devicetree overlay is compiled, not run", lr.Reason)
	lr, _ = toolchain.New(reg, toolchain.Options{RequireBuild: true, Jail: sandbox.Unconfined()}, New()).Build(context.Background(), &x86, "&i2c0 { };")
	require.Equal(t, result.StatusError, lr.Status)
	target, ok := reg.Resolve(c)
	require.True(t, ok)
	require.Equal(t, "zephyr-devicetree-overlay", target.Name)
	require.True(t, New().AvailableFor(target, c).Build, "device-tree-001's board is known")
}

func TestCompile(t *testing.T) {
	requireTools(t)
	c := loadCase(t, overlayCase)
	before := toolchaintest.TreeDigest(t, c.Dir)
	ref := readFile(t, c.ReferencePath)
	require.NotEmpty(t, c.AcceptPaths)
	missingSemicolon := strings.Replace(ref, "reg = <0x1a>;", "reg = <0x1a>", 1)
	sideways := strings.Replace(ref, "GPIO_ACTIVE_LOW", "GPIO_ACTIVE_SIDEWAYS", 1)
	require.NotEqual(t, ref, missingSemicolon)
	require.NotEqual(t, ref, sideways)
	tests := []struct {
		name   string
		code   string
		status result.Status
		reason string // the exact reason of a failure
		err    string // a substring of the error of an error
	}{
		{name: "reference", code: ref, status: result.StatusPassed},
		{name: "dt-bindings spelling, pwm and i2c macros", code: readFile(t, "testdata/overlays/dt_bindings_include.overlay"), status: result.StatusPassed},
		{name: "dt-util.h bit macros", code: readFile(t, "testdata/overlays/dt_util.overlay"), status: result.StatusPassed},
		{name: "full dts with its own header", code: "/dts-v1/;\n/ {\n\tmodel = \"x\";\n};\n", status: result.StatusPassed},
		{
			name: "missing semicolon", code: missingSemicolon, status: result.StatusFailed,
			reason: "dtc failed (exit 1):\nError: app.overlay:11.3-4 syntax error\nFATAL ERROR: Unable to parse input tree",
		},
		{
			name: "unknown macro", code: sideways, status: result.StatusFailed,
			reason: "dtc failed (exit 1):\nError: app.overlay:11.25-26 syntax error\nFATAL ERROR: Unable to parse input tree\nundefined macro(s) left in cell lists: GPIO_ACTIVE_SIDEWAYS",
		},
		{
			name: "duplicate label", code: readFile(t, "testdata/overlays/duplicate_label.overlay"), status: result.StatusFailed,
			reason: "dtc failed (exit 2):\napp.overlay:5.18-7.4: ERROR (duplicate_label): /fragment@0/__overlay__/temp@19: Duplicate label 'sensor' on /fragment@0/__overlay__/temp@19 and /fragment@0/__overlay__/temp@18\nERROR: Input tree has errors, aborting (use -f to force output)",
		},
		{
			name: "header outside the shipped subset", code: readFile(t, "testdata/overlays/unknown_header.overlay"), status: result.StatusError,
			err: "cpp: zephyr/dt-bindings/sensor/no-such-sensor.h is not among the binding headers this backend ships",
		},
	}
	for _, p := range c.AcceptPaths {
		tests = append(tests, struct {
			name   string
			code   string
			status result.Status
			reason string
			err    string
		}{name: "accepted variant " + filepath.Base(p), code: readFile(t, p), status: result.StatusPassed})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lr, art := New().Build(context.Background(), request(c, tt.code))
			require.Equal(t, tt.status, lr.Status, "%s %v", lr.Reason, lr.Error)
			if tt.status != result.StatusPassed {
				require.Nil(t, art)
				if tt.reason != "" {
					require.Equal(t, tt.reason, lr.Reason)
				}
				if tt.err != "" {
					require.Contains(t, *lr.Error, tt.err)
				}
				return
			}
			dir := art.(*toolchain.BuildOnly).Workspace.Dir
			out, err := os.ReadFile(filepath.Join(dir, OutputPath))
			require.NoError(t, err)
			require.Equal(t, []byte{0xd0, 0x0d, 0xfe, 0xed}, out[:4], "a flattened devicetree blob")
			require.Equal(t, result.StatusSkipped, art.Run(context.Background()).Status)
			require.NoError(t, art.Close())
			require.NoDirExists(t, dir)
		})
	}
	require.Equal(t, before, toolchaintest.TreeDigest(t, c.Dir), "the case directory was written to")
}

func TestFixupsForUnresolvedReferences(t *testing.T) {
	requireTools(t)
	c := loadCase(t, overlayCase)
	lr, art := New().Build(context.Background(), request(c, readFile(t, c.ReferencePath)))
	require.Equal(t, result.StatusPassed, lr.Status, lr.Reason)
	defer func() { require.NoError(t, art.Close()) }()
	out, err := os.ReadFile(filepath.Join(art.(*toolchain.BuildOnly).Workspace.Dir, OutputPath))
	require.NoError(t, err)
	// &i2c0 and &gpio0 are not defined by the overlay: dtc records them as
	// fixups (paths in the blob's __fixups__ node) instead of failing.
	require.Contains(t, string(out), "/fragment@0:target:0")
	require.Contains(t, string(out), "/fragment@0/__overlay__/temperature-sensor@1a:int-gpios:0")
}

func TestBareIdentifiers(t *testing.T) {
	pre := "# 1 \"app.overlay\"\n\tint-gpios = <&gpio0 5 GPIO_ACTIVE_SIDEWAYS>;\n\treg = <0x1a 1u (1 << 2)>;\n\tx = <A B &c>, <D>;\n"
	require.Equal(t, []string{"GPIO_ACTIVE_SIDEWAYS", "A", "B", "D"}, bareIdentifiers(pre))
	require.Empty(t, bareIdentifiers("reg = <0x1a>;\n"))
}

func TestInfrastructureErrors(t *testing.T) {
	c := loadCase(t, overlayCase)
	lr, art := New(WithPath(t.TempDir())).Build(context.Background(), request(c, "&i2c0 { };"))
	require.Nil(t, art)
	require.Equal(t, result.StatusError, lr.Status)
	require.Contains(t, *lr.Error, "cpp: sandbox: cpp: command not found")

	requireTools(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	lr, art = New().Build(ctx, request(c, "&i2c0 { };"))
	require.Nil(t, art)
	require.Equal(t, result.StatusError, lr.Status)
	require.Equal(t, "cpp: cancelled", *lr.Error)
}

// BenchmarkDeviceTree001 reports the time of one overlay compile of the
// bundled reference (stage, cpp, dtc, remove).
func BenchmarkDeviceTree001(b *testing.B) {
	requireTools(b)
	c := loadCase(b, overlayCase)
	req := request(c, readFile(b, c.ReferencePath))
	b.Run("build", func(b *testing.B) {
		for b.Loop() {
			lr, art := New().Build(context.Background(), req)
			if lr.Status != result.StatusPassed {
				b.Fatal(lr.Reason)
			}
			_ = art.Close()
		}
	})
}

func TestBlankBoardDeletes(t *testing.T) {
	pre := "# 1 \"app.overlay\" 1\n/delete-node/ &storage_partition;\n&spi2 {\n\t#address-cells = <1>;\n\tlabel = \"/delete-node/ &x;\";\n};\n" +
		"/delete-node/ &{/soc/flash-controller@4001e000/flash@0/partitions/partition@f8000};\n&gpio0 { /delete-node/ &y; };\n"
	want := "# 1 \"app.overlay\" 1\n                                 \n&spi2 {\n\t#address-cells = <1>;\n\tlabel = \"/delete-node/ &x;\";\n};\n" +
		strings.Repeat(" ", len("/delete-node/ &{/soc/flash-controller@4001e000/flash@0/partitions/partition@f8000};")) + "\n&gpio0 { /delete-node/ &y; };\n"
	require.Equal(t, want, BlankBoardDeletes(pre))
	require.Equal(t, "&i2c0 { };", BlankBoardDeletes("&i2c0 { };"))
}

func TestNordicPinctrlAndBoardDeletes(t *testing.T) {
	requireTools(t)
	c := loadCase(t, overlayCase)
	nrf := func(code string) toolchain.Request {
		r := request(c, code)
		r.Board = "nrf52840dk/nrf52840" // whose DTS brings NRF_PSEL, DT_FREQ_M and DT_SIZE_M
		return r
	}
	code := "/delete-node/ &storage_partition;\n\n&pinctrl {\n\tspi2_alt: spi2_alt {\n\t\tgroup1 {\n" +
		"\t\t\tpsels = <NRF_PSEL(SPIM_SCK, 1, 5)>, <NRF_PSEL_DISCONNECTED(SPIM_MISO)>;\n\t\t\tnordic,drive-mode = <NRF_DRIVE_H0H1>;\n\t\t};\n\t};\n};\n\n" +
		"&spi2 {\n\tstatus = \"okay\";\n\tpinctrl-0 = <&spi2_alt>;\n\tflash@0 {\n\t\treg = <0>;\n\t\tspi-max-frequency = <DT_FREQ_M(8)>;\n\t\tsize = <DT_SIZE_M(32)>;\n\t};\n};\n"
	lr, art := New().Build(context.Background(), nrf(code))
	require.Equal(t, result.StatusPassed, lr.Status, lr.Reason)
	require.NoError(t, art.Close())
	// Only top-level statements are blanked: one inside a node body is still dtc's to reject.
	lr, art = New().Build(context.Background(), nrf("/delete-node/ &storage_partition;\n&spi2 { x = <NRF_PSEL(SPIM_SCK, 1, 5)>; };\n&gpio0 { /delete-node/ &y; };\n"))
	require.Nil(t, art)
	require.Equal(t, result.StatusFailed, lr.Status)
}
