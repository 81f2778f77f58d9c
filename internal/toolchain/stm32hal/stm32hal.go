// Package stm32hal is the L1 backend of STM32 HAL cases (registry backend
// "stm32-hal"): it builds the answer (src/main.c) and the case's other C
// files with arm-none-eabi-gcc against an STM32Cube package (STM32_HAL_PATH)
// as a real project does, and links the firmware: the HAL sources of the
// modules the case's stm32f4xx_hal_conf.h enables (HAL_<X>_MODULE_ENABLED:
// stm32f4xx_hal_<x>.c and its _ex/_ramfunc companions), the CMSIS device's
// system_stm32f4xx.c and GCC startup file of the board's device
// (Source/Templates/gcc/startup_<device>.s), with a linker script of ours for
// the device's flash and RAM, newlib-nano and nosys stubs. A call to a HAL
// function that does not exist, or one the configuration does not enable,
// fails L1 at the compile (implicit declarations are errors) or at the link.
//
// The HAL objects depend only on the board, the configuration header and the
// Cube tree, not on the answer: with a build cache they are compiled once
// per configuration in a jailed workspace without the answer, kept in the
// cache and copied into each answer's workspace (docs/TOOLCHAINS.md). There
// is no L2: QEMU's only STM32F4 machine (netduinoplus2) has no RCC, so the
// HAL clock setup of these cases cannot complete there (docs/TOOLCHAINS.md).
package stm32hal

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/embedeval/embedeval-go/internal/eval"
	"github.com/embedeval/embedeval-go/internal/platform"
	"github.com/embedeval/embedeval-go/internal/result"
	"github.com/embedeval/embedeval-go/internal/sandbox"
	"github.com/embedeval/embedeval-go/internal/toolchain"
	"github.com/embedeval/embedeval-go/internal/toolchain/buildcache"
)

// HALPathEnv names the variable holding the STM32Cube package checkout
// (e.g. /opt/STM32CubeF4, the root holding Drivers/).
const HALPathEnv = "STM32_HAL_PATH"

// CodePath is where the answer is staged in the workspace.
const CodePath = "src/main.c"

// Compiler is the cross compiler's name.
const Compiler = "arm-none-eabi-gcc"

// ConfHeader is the case's HAL configuration header, at the case's root.
const ConfHeader = "stm32f4xx_hal_conf.h"

// Workspace paths of the build's outputs.
const (
	// HALDir holds the HAL, system and startup objects.
	HALDir = "build/hal"
	// LinkerScript is the linker script written for the board's device.
	LinkerScript = "build/device.ld"
	// Firmware is the linked image.
	Firmware = "build/app.elf"
)

// Board is what the compiler needs to know about a board.
type Board struct {
	// Device is the CMSIS device define, e.g. STM32F401xE.
	Device string
	// CPU, FPU and FloatABI are the -mcpu, -mfpu and -mfloat-abi values.
	CPU, FPU, FloatABI string
	// Family is the STM32Cube family, e.g. F4 (Drivers/STM32F4xx_HAL_Driver).
	Family string
	// FlashKB and RAMKB are the device's flash and main SRAM (contiguous
	// from 0x20000000) in KiB, for the linker script.
	FlashKB, RAMKB int
}

// Flags are the target flags of the board.
func (b Board) Flags() []string {
	return append(b.MCUFlags(), "-D"+b.Device, "-DUSE_HAL_DRIVER")
}

// MCUFlags are the CPU and floating-point flags (the link needs them to pick
// the matching libraries).
func (b Board) MCUFlags() []string {
	f := []string{"-mcpu=" + b.CPU, "-mthumb"}
	if b.FPU != "" {
		f = append(f, "-mfpu="+b.FPU)
	}
	return append(f, "-mfloat-abi="+b.FloatABI)
}

func (b Board) family() string { return "STM32" + b.Family + "xx" }

// IncludeDirs are the HAL's include directories under the Cube root.
func (b Board) IncludeDirs(cube string) []string {
	return []string{
		filepath.Join(cube, "Drivers", b.family()+"_HAL_Driver", "Inc"),
		filepath.Join(cube, "Drivers", "CMSIS", "Device", "ST", b.family(), "Include"),
		filepath.Join(cube, "Drivers", "CMSIS", "Include"),
	}
}

// HALSrcDir is the HAL driver's source directory under the Cube root.
func (b Board) HALSrcDir(cube string) string {
	return filepath.Join(cube, "Drivers", b.family()+"_HAL_Driver", "Src")
}

// SystemSource is the CMSIS device's system file (SystemInit, the clock
// variables).
func (b Board) SystemSource(cube string) string {
	return filepath.Join(cube, "Drivers", "CMSIS", "Device", "ST", b.family(), "Source", "Templates", "system_"+strings.ToLower(b.family())+".c")
}

// Startup is the CMSIS device's GCC startup file of the board's device.
func (b Board) Startup(cube string) string {
	return filepath.Join(cube, "Drivers", "CMSIS", "Device", "ST", b.family(), "Source", "Templates", "gcc", "startup_"+strings.ToLower(b.Device)+".s")
}

// Boards is the board table: the boards whose family's Cube package the
// stm32-hal image holds (STM32CubeF4).
func Boards() map[string]Board {
	m4 := func(device string, flash, ram int) Board {
		return Board{Device: device, CPU: "cortex-m4", FPU: "fpv4-sp-d16", FloatABI: "hard", Family: "F4", FlashKB: flash, RAMKB: ram}
	}
	return map[string]Board{
		"nucleo-f401re":     m4("STM32F401xE", 512, 96),
		"nucleo-f411re":     m4("STM32F411xE", 512, 128),
		"nucleo-f446re":     m4("STM32F446xx", 512, 128),
		"stm32f4-discovery": m4("STM32F407xx", 1024, 128),
		"black-pill-f411ce": m4("STM32F411xE", 512, 128),
		"netduinoplus2":     m4("STM32F405xx", 1024, 128),
	}
}

// commonFlags are the language and warning flags, as in the bundled case's
// Makefile, plus implicit declarations as errors: a call to a function no
// header declares is refused at once, with the compiler's message, before
// the link would report it as an undefined reference.
func commonFlags() []string {
	return []string{"-std=c11", "-Os", "-Wall", "-Wextra", "-Werror=implicit-function-declaration",
		"-ffunction-sections", "-fdata-sections"}
}

// linkFlags follow the flags after the board's MCU flags on the link line.
func linkFlags() []string {
	return []string{"-T" + LinkerScript, "-Wl,--gc-sections", "--specs=nano.specs", "--specs=nosys.specs"}
}

// Backend builds STM32 HAL cases.
type Backend struct {
	path  string
	cache *buildcache.Cache
	log   *slog.Logger
}

// Option configures a Backend.
type Option func(*Backend)

// WithCache keeps the HAL objects of each board and configuration in c
// (nil: no cache, every build compiles the HAL).
func WithCache(c *buildcache.Cache) Option { return func(b *Backend) { b.cache = c } }

// New returns the backend.
func New(opts ...Option) *Backend {
	b := &Backend{log: slog.Default()}
	for _, o := range opts {
		o(b)
	}
	return b
}

var _ toolchain.Backend = (*Backend)(nil)

// Name implements toolchain.Backend.
func (b *Backend) Name() string { return "stm32-hal" }

func (b *Backend) env(ws string) []string { return toolchain.ToolPath(b.path).Env(ws, nil) }

// Available implements toolchain.Backend: the compiler on PATH and the HAL
// headers of the target's default board's family under STM32_HAL_PATH. Run
// is never available.
func (b *Backend) Available(t platform.Target) toolchain.Availability {
	var why []string
	if _, err := toolchain.ToolPath(b.path).Look(Compiler); err != nil {
		why = append(why, Compiler+" is not installed (Debian package gcc-arm-none-eabi)")
	}
	if why2 := halMissing(t.DefaultBoard); why2 != "" {
		why = append(why, why2)
	}
	a := toolchain.Availability{Build: len(why) == 0}
	if a.Build {
		a.Why = "stm32-hal has no L2: QEMU emulates no STM32F4 RCC, so HAL clock setup cannot run (docs/TOOLCHAINS.md)"
	} else {
		a.Why = strings.Join(why, "; ")
	}
	return a
}

func halMissing(board string) string {
	cube := os.Getenv(HALPathEnv)
	if cube == "" {
		return HALPathEnv + " is not set (the STM32Cube package checkout; the stm32-hal image sets it)"
	}
	bd, ok := Boards()[board]
	if !ok {
		return fmt.Sprintf("board %q is not in the stm32-hal board table", board)
	}
	for _, f := range []string{
		filepath.Join(bd.IncludeDirs(cube)[0], "stm32"+strings.ToLower(bd.Family)+"xx_hal.h"),
		filepath.Join(bd.HALSrcDir(cube), "stm32"+strings.ToLower(bd.Family)+"xx_hal.c"),
		bd.SystemSource(cube),
		bd.Startup(cube),
	} {
		if _, err := os.Stat(f); err != nil {
			return fmt.Sprintf("%s=%s holds no STM32Cube%s HAL (%s is missing)", HALPathEnv, cube, bd.Family, f)
		}
	}
	return ""
}

// Build implements toolchain.Backend: the HAL objects (from the cache, or
// compiled in the workspace), one `arm-none-eabi-gcc -c` per C file of the
// workspace (the answer first, objects under build/), then the link.
func (b *Backend) Build(ctx context.Context, req toolchain.Request) (result.LayerResult, eval.Artifact) {
	bd, ok := Boards()[req.Board]
	if !ok {
		return toolchain.ErrorLayer(fmt.Sprintf("stm32-hal: board %q is not in the board table (known: %s)", req.Board, strings.Join(boardNames(), ", "))), nil
	}
	cube := os.Getenv(HALPathEnv)
	if cube == "" {
		return toolchain.ErrorLayer("stm32-hal: " + HALPathEnv + " is not set"), nil
	}
	ws, err := toolchain.Stage(req, "stm32hal", CodePath)
	if err != nil {
		return toolchain.StartError("stage workspace", err), nil
	}
	lr := b.build(ctx, req, ws, bd, cube)
	if lr.Status != result.StatusPassed {
		ws.Close()
		return lr, nil
	}
	return lr, &toolchain.BuildOnly{Workspace: ws, Why: "stm32-hal builds are not run (QEMU has no STM32F4 RCC: docs/TOOLCHAINS.md)"}
}

// spec is a jailed compiler run in the workspace: the Cube tree is visible
// read-only.
func (b *Backend) spec(ws, dir, cube string, args []string, timeout time.Duration) sandbox.Spec {
	return sandbox.Spec{Args: args, Dir: dir, Workspace: ws, Env: b.env(ws), ReadOnly: []string{cube}, Timeout: timeout}
}

func (b *Backend) build(ctx context.Context, req toolchain.Request, ws *sandbox.Workspace, bd Board, cube string) result.LayerResult {
	sources, incDirs, err := scan(ws.Dir)
	if err != nil {
		return toolchain.StartError("scan workspace", err)
	}
	if err := os.MkdirAll(filepath.Join(ws.Dir, HALDir), 0o755); err != nil {
		return toolchain.StartError("create build directory", err)
	}
	deadline := time.Now().Add(req.BuildTimeout)
	left := func() time.Duration { return time.Until(deadline) }
	halObjs, lr := b.halObjects(ctx, req, ws, bd, cube, incDirs, left)
	if lr.Status != result.StatusPassed {
		return lr
	}
	var objs []string
	for _, src := range sources {
		args := CompileArgs(bd, cube, incDirs, src)
		if left() <= 0 {
			return toolchain.ErrorLayer(fmt.Sprintf("%s %s: timed out after %s", Compiler, src, req.BuildTimeout))
		}
		res, err := req.Jail.Run(ctx, b.spec(ws.Dir, ws.Dir, cube, args, left()))
		if err != nil {
			return toolchain.StartError(Compiler, err)
		}
		if lr := toolchain.BuildOutcome(Compiler+" "+src, res, req.BuildTimeout); lr.Status != result.StatusPassed {
			return lr
		}
		objs = append(objs, args[len(args)-1])
	}
	if err := ws.WriteFile(LinkerScript, []byte(LinkerScriptText(bd))); err != nil {
		return toolchain.StartError("write linker script", err)
	}
	if left() <= 0 {
		return toolchain.ErrorLayer(fmt.Sprintf("%s (link): timed out after %s", Compiler, req.BuildTimeout))
	}
	args := LinkArgs(bd, append(objs, halObjs...))
	res, err := req.Jail.Run(ctx, b.spec(ws.Dir, ws.Dir, cube, args, left()))
	if err != nil {
		return toolchain.StartError(Compiler, err)
	}
	return toolchain.BuildOutcome(Compiler+" (link)", res, req.BuildTimeout)
}

// halObjects puts the HAL, system and startup objects under HALDir and
// returns their workspace paths: copied from the cache (filled first when
// absent), or compiled in the workspace when there is no cache or it cannot
// give them.
func (b *Backend) halObjects(ctx context.Context, req toolchain.Request, ws *sandbox.Workspace, bd Board, cube string, incDirs []string, left func() time.Duration) ([]string, result.LayerResult) {
	srcs, err := HALSources(bd, cube, filepath.Join(ws.Dir, ConfHeader))
	if err != nil {
		return nil, toolchain.ErrorLayer("stm32-hal: " + err.Error())
	}
	var objs []string
	for _, s := range srcs {
		objs = append(objs, HALDir+"/"+objectName(s))
	}
	if b.cache != nil {
		err := b.cachedHAL(ctx, req, ws, bd, cube, srcs, incDirs)
		if err == nil {
			return objs, result.LayerResult{Status: result.StatusPassed}
		}
		b.log.Warn("stm32-hal: no cached HAL objects; compiling them with the answer", "case", req.Case.Dir, "err", err)
	}
	res, err := req.Jail.Run(ctx, b.spec(ws.Dir, filepath.Join(ws.Dir, HALDir), cube, HALCompileArgs(bd, cube, ws.Dir, incDirs, srcs), left()))
	if err != nil {
		return nil, toolchain.StartError(Compiler, err)
	}
	return objs, toolchain.BuildOutcome(Compiler+" (HAL)", res, req.BuildTimeout)
}

// cachedHAL copies the HAL objects of the configuration into the
// workspace's HALDir, filling the cache first when they are not there.
func (b *Backend) cachedHAL(ctx context.Context, req toolchain.Request, ws *sandbox.Workspace, bd Board, cube string, srcs, incDirs []string) error {
	k := b.cache.NewKey("stm32-hal/1")
	k.Add("board", strings.Join(bd.Flags(), " "))
	k.Add("flags", strings.Join(commonFlags(), " "))
	k.Add("include", strings.Join(incDirs, " "))
	k.Add("sources", strings.Join(srcs, " "))
	gcc, err := toolchain.ToolPath(b.path).Look(Compiler)
	if err != nil {
		return err
	}
	k.Tool(gcc)
	files, err := toolchain.BuildFiles(req.Case)
	if err != nil {
		return err
	}
	for _, f := range files {
		if strings.HasSuffix(f[0], ".h") {
			k.File("case/"+f[0], f[1])
		}
	}
	k.Tree("cube", filepath.Join(cube, "Drivers"), func(rel string) bool {
		return strings.HasSuffix(rel, ".h") || strings.HasSuffix(rel, ".c") || strings.HasSuffix(rel, ".s")
	})
	key, err := k.Sum()
	if err != nil {
		return err
	}
	entry, err := b.cache.Get(ctx, key, func(ctx context.Context, dir string) error {
		return b.fillHAL(ctx, req, bd, cube, srcs, dir)
	})
	if err != nil {
		return err
	}
	return b.cache.CopyInto(entry, filepath.Join(ws.Dir, HALDir))
}

// fillHAL compiles the HAL objects in a jailed workspace that holds the
// case's build files and no answer, and collects them into dir.
func (b *Backend) fillHAL(ctx context.Context, req toolchain.Request, bd Board, cube string, srcs []string, dir string) error {
	blank := req
	blank.Code = ""
	ws, err := toolchain.Stage(blank, "stm32hal-hal", CodePath)
	if err != nil {
		return fmt.Errorf("stage the HAL build of %s: %w", req.Case.Dir, err)
	}
	defer ws.Close()
	_, incDirs, err := scan(ws.Dir)
	if err != nil {
		return err
	}
	out := filepath.Join(ws.Dir, HALDir)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("stage the HAL build of %s: %w", req.Case.Dir, err)
	}
	res, err := req.Jail.Run(ctx, b.spec(ws.Dir, out, cube, HALCompileArgs(bd, cube, ws.Dir, incDirs, srcs), req.BuildTimeout))
	if err != nil {
		return fmt.Errorf("compile the HAL of %s: %w", req.Case.Dir, err)
	}
	if lr := toolchain.BuildOutcome(Compiler+" (HAL)", res, req.BuildTimeout); lr.Status != result.StatusPassed {
		why := lr.Reason
		if lr.Error != nil {
			why = *lr.Error
		}
		return fmt.Errorf("compile the HAL of %s: %s", req.Case.Dir, why)
	}
	want := map[string]bool{}
	for _, s := range srcs {
		want[objectName(s)] = true
	}
	if err := buildcache.Collect(out, dir, func(rel string) bool { return want[rel] }); err != nil {
		return fmt.Errorf("collect the HAL objects of %s: %w", req.Case.Dir, err)
	}
	for name := range want {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			return fmt.Errorf("the HAL build of %s made no %s", req.Case.Dir, name)
		}
	}
	return nil
}

// objectName is the object gcc -c makes of a source in its directory.
func objectName(src string) string {
	base := filepath.Base(src)
	return strings.TrimSuffix(base, filepath.Ext(base)) + ".o"
}

var moduleLine = regexp.MustCompile(`^\s*#\s*define\s+HAL_(?:([A-Z0-9_]+)_)?MODULE_ENABLED\b`)

// EnabledModules reads the HAL modules a configuration header enables
// (HAL_<X>_MODULE_ENABLED, lower-cased; "" for HAL_MODULE_ENABLED itself),
// sorted.
func EnabledModules(conf []byte) []string {
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(conf))
	for sc.Scan() {
		if m := moduleLine.FindStringSubmatch(sc.Text()); m != nil {
			seen[strings.ToLower(m[1])] = true
		}
	}
	out := make([]string, 0, len(seen))
	for m := range seen {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
}

// HALSources lists what the HAL objects are built from: for each module the
// configuration header confHeader enables, stm32f4xx_hal_<x>.c and its
// companions (stm32f4xx_hal_<x>_ex.c, _ramfunc.c, …; no templates), then
// the CMSIS system file and the device's startup file. All paths are
// absolute, under cube.
func HALSources(bd Board, cube, confHeader string) ([]string, error) {
	conf, err := os.ReadFile(confHeader)
	if err != nil {
		return nil, fmt.Errorf("read the HAL configuration: %w", err)
	}
	srcDir := bd.HALSrcDir(cube)
	entries, err := os.ReadDir(srcDir)
	if err != nil {
		return nil, fmt.Errorf("list the HAL sources: %w", err)
	}
	prefix := strings.ToLower(bd.family()) + "_hal"
	var out []string
	for _, m := range EnabledModules(conf) {
		for _, e := range entries {
			n := e.Name()
			if !strings.HasSuffix(n, ".c") || strings.Contains(n, "template") {
				continue
			}
			stem := strings.TrimSuffix(n, ".c")
			ok := stem == prefix && m == ""
			if m != "" {
				ok = stem == prefix+"_"+m || strings.HasPrefix(stem, prefix+"_"+m+"_")
			}
			if ok {
				out = append(out, filepath.Join(srcDir, n))
			}
		}
	}
	sort.Strings(out)
	return append(out, bd.SystemSource(cube), bd.Startup(cube)), nil
}

// HALCompileArgs is the one command line compiling every HAL source, run in
// the workspace's HALDir (gcc -c of several files leaves each object there
// under its base name). The workspace's include directories are absolute:
// the jail mounts the workspace at its own path.
func HALCompileArgs(bd Board, cube, ws string, incDirs, srcs []string) []string {
	args := append([]string{Compiler}, bd.Flags()...)
	for _, d := range incDirs {
		args = append(args, "-I"+filepath.Join(ws, filepath.FromSlash(d)))
	}
	for _, d := range bd.IncludeDirs(cube) {
		args = append(args, "-I"+d)
	}
	args = append(args, commonFlags()...)
	return append(append(args, "-c"), srcs...)
}

// CompileArgs is the command line compiling one workspace-relative source
// file to build/<path with slashes as underscores>.o. incDirs are the
// workspace directories holding headers (slash paths, "." first).
func CompileArgs(bd Board, cube string, incDirs []string, src string) []string {
	args := append([]string{Compiler}, bd.Flags()...)
	for _, d := range incDirs {
		args = append(args, "-I"+d)
	}
	for _, d := range bd.IncludeDirs(cube) {
		args = append(args, "-I"+d)
	}
	args = append(args, commonFlags()...)
	obj := "build/" + strings.TrimSuffix(strings.ReplaceAll(src, "/", "_"), ".c") + ".o"
	return append(args, "-c", src, "-o", obj)
}

// LinkArgs is the link of the workspace objects into Firmware.
func LinkArgs(bd Board, objs []string) []string {
	args := append([]string{Compiler}, bd.MCUFlags()...)
	args = append(args, linkFlags()...)
	args = append(args, "-o", Firmware)
	return append(args, objs...)
}

// LinkerScriptText is our linker script for the board's device: the vector
// table and code in flash, data copied from flash by the CMSIS startup code
// (_sidata, _sdata, _edata), bss zeroed (_sbss, _ebss), the stack at the top
// of RAM (_estack) and the heap after bss (end, for newlib's _sbrk).
func LinkerScriptText(bd Board) string {
	return fmt.Sprintf(`/* %s: generated by embedeval's stm32-hal backend. */
ENTRY(Reset_Handler)

MEMORY
{
  FLASH (rx)  : ORIGIN = 0x08000000, LENGTH = %dK
  RAM   (rwx) : ORIGIN = 0x20000000, LENGTH = %dK
}

_estack = ORIGIN(RAM) + LENGTH(RAM);
_Min_Heap_Size = 0x200;
_Min_Stack_Size = 0x400;

SECTIONS
{
  .isr_vector : { . = ALIGN(4); KEEP(*(.isr_vector)) . = ALIGN(4); } > FLASH
  .text :
  {
    . = ALIGN(4);
    *(.text) *(.text*) *(.glue_7) *(.glue_7t) *(.eh_frame)
    KEEP(*(.init)) KEEP(*(.fini))
    . = ALIGN(4);
    _etext = .;
  } > FLASH
  .rodata : { . = ALIGN(4); *(.rodata) *(.rodata*) . = ALIGN(4); } > FLASH
  .ARM.extab : { *(.ARM.extab* .gnu.linkonce.armextab.*) } > FLASH
  .ARM : { __exidx_start = .; *(.ARM.exidx*) __exidx_end = .; } > FLASH
  .preinit_array : { PROVIDE_HIDDEN(__preinit_array_start = .); KEEP(*(.preinit_array*)) PROVIDE_HIDDEN(__preinit_array_end = .); } > FLASH
  .init_array : { PROVIDE_HIDDEN(__init_array_start = .); KEEP(*(SORT(.init_array.*))) KEEP(*(.init_array*)) PROVIDE_HIDDEN(__init_array_end = .); } > FLASH
  .fini_array : { PROVIDE_HIDDEN(__fini_array_start = .); KEEP(*(SORT(.fini_array.*))) KEEP(*(.fini_array*)) PROVIDE_HIDDEN(__fini_array_end = .); } > FLASH

  _sidata = LOADADDR(.data);
  .data :
  {
    . = ALIGN(4);
    _sdata = .;
    *(.data) *(.data*) *(.RamFunc) *(.RamFunc*)
    . = ALIGN(4);
    _edata = .;
  } > RAM AT> FLASH

  .bss (NOLOAD) :
  {
    . = ALIGN(4);
    _sbss = .;
    __bss_start__ = _sbss;
    *(.bss) *(.bss*) *(COMMON)
    . = ALIGN(4);
    _ebss = .;
    __bss_end__ = _ebss;
  } > RAM

  ._user_heap_stack (NOLOAD) :
  {
    . = ALIGN(8);
    PROVIDE(end = .);
    PROVIDE(_end = .);
    . = . + _Min_Heap_Size;
    . = . + _Min_Stack_Size;
    . = ALIGN(8);
  } > RAM

  .ARM.attributes 0 : { *(.ARM.attributes) }
}
`, bd.Device, bd.FlashKB, bd.RAMKB)
}

// scan lists the workspace's C files (the answer first, then the rest
// sorted) and the directories holding headers ("." always, first).
func scan(root string) (sources, incDirs []string, err error) {
	var other []string
	inc := map[string]bool{}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "build" {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(rel) {
		case ".c":
			if rel != CodePath {
				other = append(other, rel)
			}
		case ".h":
			if dir := filepath.ToSlash(filepath.Dir(rel)); dir != "." {
				inc[dir] = true
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("scan %s: %w", root, err)
	}
	sort.Strings(other)
	incDirs = []string{"."}
	for d := range inc {
		incDirs = append(incDirs, d)
	}
	sort.Strings(incDirs[1:])
	return append([]string{CodePath}, other...), incDirs, nil
}

func boardNames() []string {
	var n []string
	for k := range Boards() {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}
