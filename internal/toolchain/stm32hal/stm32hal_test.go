package stm32hal

import (
	"context"
	tt "github.com/embedeval/embedeval-go/internal/toolchain/toolchaintest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/platform"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/sandbox"
	"github.com/embedeval/embedeval-go/internal/testenv"
	"github.com/embedeval/embedeval-go/internal/toolchain"
	"github.com/embedeval/embedeval-go/internal/toolchain/buildcache"
)

const caseDir = "../../../cases/stm32-hal/uart-001"

func loadCase(t testing.TB, dir string) *cases.Case {
	t.Helper()
	abs, err := filepath.Abs(dir)
	require.NoError(t, err)
	c, problems := cases.Load(cases.Entry{Dir: abs, Name: filepath.Base(abs), Bucket: filepath.Base(filepath.Dir(abs)), Layout: cases.LayoutSDK})
	for _, p := range problems {
		require.NotEqual(t, "error", string(p.Severity), "%v", p)
	}
	return c
}

func read(t testing.TB, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(data)
}

func request(t testing.TB, c *cases.Case, code string) toolchain.Request {
	t.Helper()
	reg, err := platform.Default()
	require.NoError(t, err)
	tgt, ok := reg.Resolve(c)
	require.True(t, ok)
	require.Equal(t, "stm32-hal", tgt.Backend)
	return toolchain.Request{Case: c, Code: code, Target: tgt, Board: tgt.Board(c), BuildTimeout: time.Minute, RunTimeout: time.Second, Jail: sandbox.Unconfined()}
}

// useStandInHAL points STM32_HAL_PATH at the stand-in tree (argv tests).
func useStandInHAL(t testing.TB) string {
	cube, err := filepath.Abs("testdata/cube")
	require.NoError(t, err)
	t.Setenv(HALPathEnv, cube)
	return cube
}

// useRealHAL requires the real STM32CubeF4 tree (../shared/sdk, which
// scripts/test.sh names in STM32_HAL_PATH) and the compiler.
func useRealHAL(t testing.TB) string {
	t.Helper()
	testenv.Tool(t, Compiler, "gcc-arm-none-eabi", "it builds the bundled STM32 cases")
	return testenv.SDK(t, HALPathEnv, "Drivers/STM32F4xx_HAL_Driver/Src/stm32f4xx_hal.c", "the real builds compile and link against the STM32CubeF4 HAL")
}

// realBackend is the backend with a private build cache.
func realBackend(t testing.TB) (*Backend, *buildcache.Cache) {
	t.Helper()
	cache, err := buildcache.Open(t.TempDir(), buildcache.Options{})
	require.NoError(t, err)
	return New(WithCache(cache)), cache
}

func realRequest(t testing.TB, c *cases.Case, code string) toolchain.Request {
	t.Helper()
	req := request(t, c, code)
	req.Jail = tt.Jail(t)
	return req
}

func build(t testing.TB, b *Backend, req toolchain.Request) result.LayerResult {
	t.Helper()
	lr, art := b.Build(context.Background(), req)
	if art != nil {
		require.Equal(t, result.StatusPassed, lr.Status)
		require.Equal(t, result.StatusSkipped, art.Run(context.Background()).Status, "STM32 builds are never run, never passed")
		require.NoError(t, art.Close())
	}
	return lr
}

func TestRealHALLinksReferenceAndEveryAcceptedVariant(t *testing.T) {
	useRealHAL(t)
	c := loadCase(t, caseDir)
	paths := append([]string{c.ReferencePath}, c.AcceptPaths...)
	require.Greater(t, len(paths), 3, "the case ships hand-written and blind accepted variants")
	b, cache := realBackend(t)
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			lr := build(t, b, realRequest(t, c, read(t, p)))
			require.Equal(t, result.StatusPassed, lr.Status, "%s %v", lr.Reason, lr.Error)
		})
	}
	st, err := cache.Stats()
	require.NoError(t, err)
	require.Equal(t, 1, st.Entries, "one HAL configuration, compiled once")
}

func TestRealHALRejectsBrokenCode(t *testing.T) {
	useRealHAL(t)
	c := loadCase(t, caseDir)
	ref := read(t, c.ReferencePath)
	b, _ := realBackend(t)
	for _, tc := range []struct{ name, from, to, step, want string }{
		{"missing semicolon", "huart2.Init.BaudRate = 115200;", "huart2.Init.BaudRate = 115200", "arm-none-eabi-gcc src/main.c failed (exit 1)", "src/main.c:38:38: error: expected ';' before 'huart2'"},
		{"invented HAL function", "HAL_UART_Transmit(&huart2, &byte, 1, 100)", "HAL_UART_Send(&huart2, &byte, 1, 100)", "arm-none-eabi-gcc src/main.c failed (exit 1)", "error: implicit declaration of function 'HAL_UART_Send'"},
		{"undeclared identifier", "GPIO_AF7_USART2", "GPIO_AF7_USART9", "arm-none-eabi-gcc src/main.c failed (exit 1)", "error: 'GPIO_AF7_USART9' undeclared"},
		// Declared by the answer itself, defined nowhere: only the link sees it.
		{"invented HAL function with its own prototype", "HAL_UART_Transmit(&huart2, &byte, 1, 100)", "HAL_UART_Send(&huart2, &byte, 1, 100)", "arm-none-eabi-gcc (link) failed (exit 1)", "undefined reference to `HAL_UART_Send'"},
		// The case's configuration enables no timer module: its functions
		// are not built, whatever the answer declares.
		{"HAL module the configuration does not enable", "HAL_UART_Transmit(&huart2, &byte, 1, 100)", "HAL_TIM_Base_Start(0)", "arm-none-eabi-gcc (link) failed (exit 1)", "undefined reference to `HAL_TIM_Base_Start'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code := strings.Replace(ref, tc.from, tc.to, 1)
			require.NotEqual(t, ref, code)
			if strings.Contains(tc.step, "link") {
				code = "#include <stdint.h>\nstruct __UART_HandleTypeDef;\nint HAL_UART_Send(void *, uint8_t *, uint16_t, uint32_t);\nint HAL_TIM_Base_Start(void *);\n" + code
			}
			lr := build(t, b, realRequest(t, c, code))
			require.Equal(t, result.StatusFailed, lr.Status, "%v", lr.Error)
			require.Contains(t, lr.Reason, tc.step)
			require.Contains(t, lr.Reason, tc.want)
		})
	}
}

func TestRealHALBuildsForEveryBoard(t *testing.T) {
	useRealHAL(t)
	c := loadCase(t, caseDir)
	b, cache := realBackend(t)
	for _, board := range boardNames() {
		t.Run(board, func(t *testing.T) {
			req := realRequest(t, c, read(t, c.ReferencePath))
			req.Board = board
			lr := build(t, b, req)
			require.Equal(t, result.StatusPassed, lr.Status, "%s %v", lr.Reason, lr.Error)
		})
	}
	st, err := cache.Stats()
	require.NoError(t, err)
	devices := map[string]bool{}
	for _, bd := range Boards() {
		devices[bd.Device] = true
	}
	require.Equal(t, len(devices), st.Entries, "one HAL build per device")
}

// TestRealHALCacheIsOutOfTheAnswersReach builds an answer that names a
// cached object by its path: the jail does not show the cache (builds get
// copies in their own workspace), the cache is unchanged, and the next build
// still links.
func TestRealHALCacheIsOutOfTheAnswersReach(t *testing.T) {
	useRealHAL(t)
	c := loadCase(t, caseDir)
	b, cache := realBackend(t)
	ref := read(t, c.ReferencePath)
	require.Equal(t, result.StatusPassed, build(t, b, realRequest(t, c, ref)).Status)
	before := tt.TreeDigest(t, cache.Dir())
	objs, err := filepath.Glob(filepath.Join(cache.Dir(), "*", "stm32f4xx_hal.o"))
	require.NoError(t, err)
	require.Len(t, objs, 1)
	hostile := "__asm__(\".section .rodata\\n.incbin \\\"" + objs[0] + "\\\"\");\n" + ref
	lr := build(t, b, realRequest(t, c, hostile))
	require.Equal(t, result.StatusFailed, lr.Status, "the cache is not visible in the jail")
	require.Contains(t, lr.Reason, "file not found")
	require.Equal(t, before, tt.TreeDigest(t, cache.Dir()))
	require.Equal(t, result.StatusPassed, build(t, b, realRequest(t, c, ref)).Status)
}

func TestEnabledModulesAndSources(t *testing.T) {
	cube := useStandInHAL(t)
	require.Equal(t, []string{"", "cortex", "dma", "flash", "gpio", "pwr", "rcc", "uart"}, EnabledModules([]byte(read(t, filepath.Join(caseDir, ConfHeader)))))
	require.Equal(t, []string{"", "tim"}, EnabledModules([]byte("#define HAL_MODULE_ENABLED\n  #  define HAL_TIM_MODULE_ENABLED\n/* #define HAL_ADC_MODULE_ENABLED */\n")))
	conf := filepath.Join(t.TempDir(), ConfHeader)
	tt.Write(t, conf, "#define HAL_MODULE_ENABLED\n#define HAL_RCC_MODULE_ENABLED\n#define HAL_UART_MODULE_ENABLED\n")
	srcs, err := HALSources(Boards()["nucleo-f401re"], cube, conf)
	require.NoError(t, err)
	src := cube + "/Drivers/STM32F4xx_HAL_Driver/Src/"
	tpl := cube + "/Drivers/CMSIS/Device/ST/STM32F4xx/Source/Templates/"
	require.Equal(t, []string{src + "stm32f4xx_hal.c", src + "stm32f4xx_hal_rcc.c", src + "stm32f4xx_hal_rcc_ex.c", src + "stm32f4xx_hal_uart.c",
		tpl + "system_stm32f4xx.c", tpl + "gcc/startup_stm32f401xe.s"}, srcs, "no template, no module left disabled")
}

func TestLinkerScriptOfTheDevice(t *testing.T) {
	ld := LinkerScriptText(Boards()["stm32f4-discovery"])
	require.Contains(t, ld, "FLASH (rx)  : ORIGIN = 0x08000000, LENGTH = 1024K")
	require.Contains(t, ld, "RAM   (rwx) : ORIGIN = 0x20000000, LENGTH = 128K")
	for _, sym := range []string{"_sidata = LOADADDR(.data)", "_sdata = .", "_edata = .", "_sbss = .", "_ebss = .", "_estack = ORIGIN(RAM) + LENGTH(RAM)", "PROVIDE(end = .)", "KEEP(*(.isr_vector))"} {
		require.Contains(t, ld, sym, "what the CMSIS startup code and newlib need")
	}
	require.Contains(t, LinkerScriptText(Boards()["nucleo-f401re"]), "LENGTH = 96K")
}

// standIn makes a private bin directory holding the stand-in under each name.
func standIn(t testing.TB, names ...string) string {
	t.Helper()
	bin := t.TempDir()
	script := tt.Script()
	for _, n := range names {
		require.NoError(t, os.WriteFile(filepath.Join(bin, n), []byte(script), 0o755))
	}
	return bin
}

type call struct {
	argv []string
	cwd  string
	env  map[string]string
}

func calls(t testing.TB, bin string) []call {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(bin, "calls"))
	if os.IsNotExist(err) {
		return nil
	}
	require.NoError(t, err)
	sort.Slice(entries, func(i, j int) bool {
		return len(entries[i].Name()) < len(entries[j].Name()) || entries[i].Name() < entries[j].Name()
	})
	var out []call
	for _, e := range entries {
		d := filepath.Join(bin, "calls", e.Name())
		c := call{argv: strings.Split(strings.TrimSuffix(read(t, filepath.Join(d, "argv")), "\n"), "\n"), cwd: strings.TrimSpace(read(t, filepath.Join(d, "cwd"))), env: map[string]string{}}
		for _, kv := range strings.Split(strings.TrimSuffix(read(t, filepath.Join(d, "env")), "\n"), "\n") {
			k, v, _ := strings.Cut(kv, "=")
			switch k {
			case "PWD", "SHLVL", "_", "OLDPWD":
			default:
				require.False(t, sandbox.IsSecretName(k), "%s reached the tool", k)
				require.NotContains(t, v, "leak", "a secret value reached the tool as %s", k)
				c.env[k] = v
			}
		}
		out = append(out, c)
	}
	return out
}

// sandboxEnv is the environment sandbox.Env gives a tool in ws, with the
// backend's extra variables over it.
func sandboxEnv(ws string, extra map[string]string) map[string]string {
	env := map[string]string{}
	for _, kv := range sandbox.Env(ws, nil) {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	for k, v := range extra {
		env[k] = v
	}
	return env
}

func TestStandInCommandLineCwdAndEnvironment(t *testing.T) {
	cube := useStandInHAL(t)
	t.Setenv("GITHUB_TOKEN", "ghs_must_not_leak")
	t.Setenv("OPENAI_API_KEY", "sk-must-not-leak")
	// A case with a second C file and a header directory, like a CubeMX
	// project (Core/Inc, Core/Src).
	dir := filepath.Join(t.TempDir(), "stm32-hal", "uart-001")
	require.NoError(t, os.CopyFS(dir, os.DirFS(caseDir)))
	for _, f := range []string{"Core/Inc/board.h", "Core/Src/stm32f4xx_it.c"} {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, filepath.Dir(f)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), []byte("/* */\n"), 0o644))
	}
	c := loadCase(t, filepath.Join(dir))
	before := listing(t, dir)
	bin := standIn(t, Compiler)
	path := bin + ":/usr/bin:/bin"
	lr := build(t, New(WithPath(path)), request(t, c, "int main(void) { return 0; }\n"))
	require.Equal(t, result.StatusPassed, lr.Status, "%v", lr.Error)
	require.Equal(t, before, listing(t, dir), "the case directory is only read")

	got := calls(t, bin)
	require.Len(t, got, 4, "the HAL, the two C files, the link")
	ws := got[1].cwd
	require.True(t, strings.HasPrefix(filepath.Base(ws), "embedeval-stm32hal-"), ws)
	target := []string{"-mcpu=cortex-m4", "-mthumb", "-mfpu=fpv4-sp-d16", "-mfloat-abi=hard"}
	defs := append(append([]string{}, target...), "-DSTM32F401xE", "-DUSE_HAL_DRIVER")
	halInc := []string{"-I" + cube + "/Drivers/STM32F4xx_HAL_Driver/Inc",
		"-I" + cube + "/Drivers/CMSIS/Device/ST/STM32F4xx/Include",
		"-I" + cube + "/Drivers/CMSIS/Include"}
	flags := []string{"-std=c11", "-Os", "-Wall", "-Wextra", "-Werror=implicit-function-declaration", "-ffunction-sections", "-fdata-sections"}
	cat := func(parts ...[]string) []string {
		var out []string
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	src := cube + "/Drivers/STM32F4xx_HAL_Driver/Src/"
	tpl := cube + "/Drivers/CMSIS/Device/ST/STM32F4xx/Source/Templates/"
	want := [][]string{
		cat([]string{Compiler}, defs, []string{"-I" + ws, "-I" + ws + "/Core/Inc"}, halInc, flags,
			[]string{"-c", src + "stm32f4xx_hal.c", src + "stm32f4xx_hal_rcc.c", src + "stm32f4xx_hal_rcc_ex.c", src + "stm32f4xx_hal_uart.c", tpl + "system_stm32f4xx.c", tpl + "gcc/startup_stm32f401xe.s"}),
		cat([]string{Compiler}, defs, []string{"-I.", "-ICore/Inc"}, halInc, flags, []string{"-c", "src/main.c", "-o", "build/src_main.o"}),
		cat([]string{Compiler}, defs, []string{"-I.", "-ICore/Inc"}, halInc, flags, []string{"-c", "Core/Src/stm32f4xx_it.c", "-o", "build/Core_Src_stm32f4xx_it.o"}),
		cat([]string{Compiler}, target, []string{"-Tbuild/device.ld", "-Wl,--gc-sections", "--specs=nano.specs", "--specs=nosys.specs", "-o", "build/app.elf",
			"build/src_main.o", "build/Core_Src_stm32f4xx_it.o",
			"build/hal/stm32f4xx_hal.o", "build/hal/stm32f4xx_hal_rcc.o", "build/hal/stm32f4xx_hal_rcc_ex.o", "build/hal/stm32f4xx_hal_uart.o", "build/hal/system_stm32f4xx.o", "build/hal/startup_stm32f401xe.o"}),
	}
	for i, cl := range got {
		require.Equal(t, want[i], cl.argv)
		wantDir := ws
		if i == 0 {
			wantDir = ws + "/build/hal"
		}
		require.Equal(t, wantDir, cl.cwd)
		require.Equal(t, sandboxEnv(ws, map[string]string{"PATH": path}), cl.env, "only the allowlist reaches the compiler")
	}
	_, err := os.Stat(ws)
	require.True(t, os.IsNotExist(err), "Close removed the workspace")
}

func listing(t testing.TB, dir string) []string {
	var out []string
	require.NoError(t, filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		require.NoError(t, err)
		out = append(out, p+" "+info.ModTime().String())
		return nil
	}))
	return out
}

// TestBuildLogDigestKeepsCompilerErrors replays a log arm-none-eabi-gcc 12.2
// printed here for the reference with an invented HAL call and a missing
// semicolon.
func TestBuildLogDigestKeepsCompilerErrors(t *testing.T) {
	useStandInHAL(t)
	bin := standIn(t, Compiler)
	log := read(t, "testdata/logs/arm-none-eabi-gcc.log")
	require.NoError(t, os.WriteFile(filepath.Join(bin, Compiler+".log"), []byte(log), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(bin, Compiler+".exit"), []byte("1"), 0o644))
	// Only the answer's compile replays the log; the HAL compile succeeds.
	require.NoError(t, os.WriteFile(filepath.Join(bin, Compiler+".post"), []byte(`case " $* " in *" src/main.c "*) ;; *) exit 0 ;; esac`+"\n"), 0o644))
	c := loadCase(t, caseDir)
	lr := build(t, New(WithPath(bin+":/usr/bin:/bin")), request(t, c, read(t, c.ReferencePath)))
	require.Equal(t, result.StatusFailed, lr.Status)
	for _, l := range []string{
		"arm-none-eabi-gcc src/main.c failed (exit 1):",
		"src/main.c:29:21: error: implicit declaration of function 'HAL_UART_Send'; did you mean 'HAL_UART_Init'? [-Werror=implicit-function-declaration]",
		"   29 |                 if (HAL_UART_Send(&huart2, &byte, 1, 100) != HAL_OK) {",
		"src/main.c:38:38: error: expected ';' before 'huart2'",
		"cc1: some warnings being treated as errors",
	} {
		require.Contains(t, lr.Reason, l)
	}
}

func TestHangingCompilerIsKilledAtTheBuildTimeout(t *testing.T) {
	useStandInHAL(t)
	bin := standIn(t, Compiler)
	require.NoError(t, os.WriteFile(filepath.Join(bin, Compiler+".hang"), nil, 0o644))
	c := loadCase(t, caseDir)
	req := request(t, c, "int main(void){return 0;}")
	req.BuildTimeout = 300 * time.Millisecond
	start := time.Now()
	lr := build(t, New(WithPath(bin+":/usr/bin:/bin")), req)
	require.Less(t, time.Since(start), 5*time.Second)
	require.Equal(t, result.StatusError, lr.Status, "our timeout is not the model's failure")
	require.Contains(t, *lr.Error, "timed out after 300ms")
	requireGone(t, filepath.Join(bin, Compiler+".pid"))
}

func requireGone(t *testing.T, pidFile string) {
	t.Helper()
	pid := strings.TrimSpace(read(t, pidFile))
	require.Eventually(t, func() bool {
		_, err := os.Stat("/proc/" + pid)
		return os.IsNotExist(err)
	}, 3*time.Second, 20*time.Millisecond, "the child %s that ignored SIGTERM is gone", pid)
}

func TestErrorsThatAreNotTheModels(t *testing.T) {
	c := loadCase(t, caseDir)
	useStandInHAL(t)
	req := request(t, c, "int main(void){return 0;}")

	req.Board = "nucleo-l476rg"
	lr := build(t, New(), req)
	require.Equal(t, result.StatusError, lr.Status)
	require.Contains(t, *lr.Error, `board "nucleo-l476rg" is not in the board table`)

	req.Board = "nucleo-f401re"
	lr = build(t, New(WithPath(t.TempDir())), req)
	require.Equal(t, result.StatusError, lr.Status, "a compiler that cannot start is an error")
	require.Contains(t, *lr.Error, "command not found")

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	bin := standIn(t, Compiler)
	lr, art := New(WithPath(bin)).Build(ctx, req)
	require.Nil(t, art)
	require.Equal(t, result.StatusError, lr.Status)
}

func TestAvailable(t *testing.T) {
	reg, err := platform.Default()
	require.NoError(t, err)
	c := loadCase(t, caseDir)
	tgt, _ := reg.Resolve(c)
	bin := standIn(t, Compiler)

	useStandInHAL(t)
	a := New(WithPath(bin)).Available(tgt)
	require.True(t, a.Build)
	require.False(t, a.Run)

	a = New(WithPath(t.TempDir())).Available(tgt)
	require.False(t, a.Build)
	require.Equal(t, "arm-none-eabi-gcc is not installed (Debian package gcc-arm-none-eabi)", a.Why)

	t.Setenv(HALPathEnv, "")
	a = New(WithPath(bin)).Available(tgt)
	require.False(t, a.Build)
	require.Equal(t, "STM32_HAL_PATH is not set (the STM32Cube package checkout; the stm32-hal image sets it)", a.Why)

	empty := t.TempDir()
	t.Setenv(HALPathEnv, empty)
	a = New(WithPath(bin)).Available(tgt)
	require.False(t, a.Build)
	require.Equal(t, "STM32_HAL_PATH="+empty+" holds no STM32CubeF4 HAL ("+empty+"/Drivers/STM32F4xx_HAL_Driver/Inc/stm32f4xx_hal.h is missing)", a.Why)
}

func BenchmarkBuildReference(b *testing.B) {
	testenv.Tool(b, Compiler, "gcc-arm-none-eabi", "it compiles the bundled STM32 case")
	useStandInHAL(b)
	c := loadCase(b, caseDir)
	req := request(b, c, read(b, c.ReferencePath))
	be := New()
	for b.Loop() {
		lr, art := be.Build(context.Background(), req)
		if lr.Status != result.StatusPassed {
			b.Fatalf("build: %s", lr.Reason)
		}
		_ = art.Close()
	}
}
