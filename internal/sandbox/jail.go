package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/embedeval/embedeval-go/internal/bytesize"
)

// Mode names how a Jail confines the processes it runs.
type Mode string

// The jail modes, strongest first.
const (
	// ModeBubblewrap runs every process under bubblewrap: new user, PID,
	// mount, network, IPC and UTS namespaces, a read-only view of the system
	// and toolchain trees, the workspace as the only writable place, a small
	// private /tmp, no network, and (when the evaluator is root) a dedicated
	// unprivileged uid outside the namespace.
	ModeBubblewrap Mode = "bubblewrap"
	// ModeUID runs every process as a dedicated unprivileged uid, for hosts
	// where user namespaces are not allowed (container runtimes) and the
	// evaluator is root: the process cannot read the evaluator's environment
	// or its private files, and every process of that uid is killed after
	// each run; the file system view and the network are not confined.
	ModeUID Mode = "uid"
	// ModeNone confines nothing but the environment, the process group and
	// the limits. Untrusted code runs this way only when the user asked for
	// it explicitly (--allow-unjailed).
	ModeNone Mode = "none"
)

// ErrNoJail is returned (wrapped) by Jail.Run when no jail is available and
// running unconfined was not allowed.
var ErrNoJail = errors.New("no jail for untrusted code")

// Limits bound every jailed process. Zero fields take DefaultLimits' values.
type Limits struct {
	// CPU is each process's CPU time (RLIMIT_CPU).
	CPU time.Duration
	// Memory is each process's address space in bytes (RLIMIT_AS).
	Memory int64
	// Processes is how many processes the run's dedicated uid may have
	// (RLIMIT_NPROC); applied only when the run has a uid of its own (the
	// evaluator is root), since the kernel counts every process of the uid.
	Processes int
	// OpenFiles is each process's open file limit (RLIMIT_NOFILE).
	OpenFiles int
	// FileSize is the largest file a process may write (RLIMIT_FSIZE).
	FileSize int64
	// Disk is the most the workspace may hold, in bytes, counted by a
	// watchdog while the process runs; past it the run is killed.
	Disk int64
	// DiskEntries is the most files and directories the workspace may hold.
	DiskEntries int
	// Tmp is the size of the jail's private /tmp (bubblewrap only).
	Tmp int64
}

// DefaultLimits are generous for a firmware build (a kernel module build
// with kbuild, a Zephyr application) and small enough that two concurrent
// runs cannot exhaust a 2-core, 8 GiB runner.
func DefaultLimits() Limits {
	return Limits{
		CPU:         10 * time.Minute,
		Memory:      4 << 30,
		Processes:   512,
		OpenFiles:   1024,
		FileSize:    256 << 20,
		Disk:        1 << 30,
		DiskEntries: 100_000,
		Tmp:         64 << 20,
	}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.CPU <= 0 {
		l.CPU = d.CPU
	}
	if l.Memory <= 0 {
		l.Memory = d.Memory
	}
	if l.Processes <= 0 {
		l.Processes = d.Processes
	}
	if l.OpenFiles <= 0 {
		l.OpenFiles = d.OpenFiles
	}
	if l.FileSize <= 0 {
		l.FileSize = d.FileSize
	}
	if l.Disk <= 0 {
		l.Disk = d.Disk
	}
	if l.DiskEntries <= 0 {
		l.DiskEntries = d.DiskEntries
	}
	if l.Tmp <= 0 {
		l.Tmp = d.Tmp
	}
	return l
}

// JailConfig chooses how Detect builds a jail.
type JailConfig struct {
	// Mode forces a mode ("bubblewrap", "uid" or "none"); empty or "auto"
	// picks the strongest that works here.
	Mode string
	// AllowUnjailed lets untrusted code run unconfined when no jail works
	// (or when Mode is "none").
	AllowUnjailed bool
	// Limits bound every process; zero fields take the defaults.
	Limits Limits
	// Path is where bwrap and prlimit are looked up; empty means this
	// process's PATH.
	Path string
}

// Jail runs untrusted processes confined. It holds only configuration found
// once by Detect and is safe for concurrent use.
type Jail struct {
	mode    Mode
	usable  bool
	why     string
	limits  Limits
	bwrap   string
	prlimit string
	// dedicatedUID: each run gets a fresh unprivileged uid (the evaluator is
	// root).
	dedicatedUID bool
	// standIn: runs exactly as asked, without limits (Unconfined).
	standIn bool
}

// Unconfined is a jail that confines nothing beyond the environment, the
// process group and the output cap, and applies no resource limits: for
// tests of argv and of scripted stand-in tools, never for model code.
func Unconfined() *Jail {
	return &Jail{mode: ModeNone, usable: true, standIn: true, why: "unconfined (tests of stand-in tools)", limits: DefaultLimits()}
}

// Detect finds the strongest jail this machine allows: bubblewrap when a
// probe sandbox starts, else a dedicated uid when the evaluator is root,
// else none — which runs untrusted code only with AllowUnjailed.
func Detect(ctx context.Context, cfg JailConfig) *Jail {
	j := &Jail{limits: cfg.Limits.withDefaults(), dedicatedUID: os.Geteuid() == 0}
	j.prlimit, _ = lookIn(cfg.Path, "prlimit")
	j.bwrap, _ = lookIn(cfg.Path, "bwrap")
	var notes []string
	want := strings.ToLower(strings.TrimSpace(cfg.Mode))
	if want == "" {
		want = "auto"
	}
	if j.prlimit == "" && want != "none" {
		notes = append(notes, "prlimit is not installed (Debian package util-linux): no resource limits can be set")
	}
	switch want {
	case "auto", string(ModeBubblewrap):
		if j.prlimit != "" {
			if err := j.probeBwrap(ctx); err == nil {
				j.mode, j.usable = ModeBubblewrap, true
				j.why = strings.Join(notes, "; ")
				return j
			} else {
				notes = append(notes, err.Error())
			}
		}
		if want == string(ModeBubblewrap) {
			break
		}
		fallthrough
	case string(ModeUID):
		if j.prlimit == "" {
			break
		}
		if !j.dedicatedUID {
			notes = append(notes, "a dedicated uid needs the evaluator to run as root")
			break
		}
		j.mode, j.usable = ModeUID, true
		if err := j.probe(ctx); err != nil {
			j.mode, j.usable = ModeNone, false
			notes = append(notes, "dedicated uid: "+err.Error())
			break
		}
		j.why = strings.Join(notes, "; ")
		return j
	case string(ModeNone):
	default:
		notes = append(notes, fmt.Sprintf("unknown jail mode %q (want auto, bubblewrap, uid or none)", cfg.Mode))
	}
	j.mode = ModeNone
	j.usable = cfg.AllowUnjailed
	if want == string(ModeNone) {
		notes = append(notes, "jail mode none was asked for")
	}
	j.why = strings.Join(notes, "; ")
	return j
}

// probeBwrap starts `true` in the sandbox Run would use.
func (j *Jail) probeBwrap(ctx context.Context) error {
	if j.bwrap == "" {
		return errors.New("bubblewrap is not installed (Debian package bubblewrap)")
	}
	probe := *j
	probe.mode, probe.usable = ModeBubblewrap, true
	return probe.probe(ctx)
}

// probe runs `true` in a fresh workspace the way Run runs every process of
// j's mode, so that a jail that cannot work here (no user namespaces, a
// $TMPDIR the run's uid cannot traverse) is found now, not mid-run.
func (j *Jail) probe(ctx context.Context) error {
	ws, err := NewWorkspace("jail-probe")
	if err != nil {
		return err
	}
	defer ws.Close()
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	res, err := j.Run(ctx, Spec{Args: []string{"true"}, Dir: ws.Dir, Env: Env(ws.Dir, nil)})
	if err != nil {
		return fmt.Errorf("%s probe: %w", j.mode, err)
	}
	if !res.OK() {
		return fmt.Errorf("%s cannot start a process here (user namespaces not allowed? a $TMPDIR the run's uid cannot traverse?): exit %d: %s", j.mode, res.ExitCode, strings.TrimSpace(string(res.Output)))
	}
	return nil
}

// Mode is the mode in force (none for a nil jail).
func (j *Jail) Mode() Mode {
	if j == nil {
		return ModeNone
	}
	return j.mode
}

// Usable reports whether untrusted code may run, and if not, why.
func (j *Jail) Usable() (bool, string) {
	if j == nil {
		return false, "no jail configured"
	}
	if j.usable {
		return true, ""
	}
	why := "no jail works here"
	if j.why != "" {
		why += " (" + j.why + ")"
	}
	return false, why + "; install bubblewrap, run as root, or pass --allow-unjailed to run untrusted code unconfined"
}

// Confined reports whether processes run in a jail (bubblewrap or a
// dedicated uid), as opposed to unconfined.
func (j *Jail) Confined() bool { return j != nil && j.usable && j.mode != ModeNone }

// MayRunSemihosting reports whether QEMU with semihosting may run: only in a
// jail that confines, or for scripted stand-ins (Unconfined) that run
// nothing untrusted.
func (j *Jail) MayRunSemihosting() bool { return j.Confined() || (j != nil && j.standIn) }

// Limits are the limits in force.
func (j *Jail) Limits() Limits { return j.limits }

// Describe is one line for doctor and run records: the mode, whether it may
// run untrusted code, and why a stronger mode is not in force.
func (j *Jail) Describe() string {
	if j == nil {
		return "none (no jail configured)"
	}
	var b strings.Builder
	b.WriteString(string(j.mode))
	switch {
	case j.mode == ModeBubblewrap && j.dedicatedUID:
		b.WriteString(" (namespaces, read-only system, dedicated uid per run)")
	case j.mode == ModeBubblewrap:
		b.WriteString(" (namespaces, read-only system)")
	case j.mode == ModeUID:
		b.WriteString(" (dedicated uid per run; file system and network not confined)")
	case j.usable:
		b.WriteString(" (UNCONFINED: allowed explicitly)")
	default:
		b.WriteString(" (untrusted code will not run)")
	}
	if j.why != "" {
		b.WriteString(": " + j.why)
	}
	return b.String()
}

// Run starts spec's process in the jail and waits for it, as the
// package-level run does, with the jail's limits and confinement. The
// workspace (spec.Workspace, else spec.Dir) is the only place it may write.
func (j *Jail) Run(ctx context.Context, spec Spec) (Result, error) {
	if ok, why := j.Usable(); !ok {
		return Result{}, fmt.Errorf("sandbox: %w: %s", ErrNoJail, why)
	}
	if len(spec.Args) == 0 {
		return Result{}, errors.New("sandbox: empty command line")
	}
	if j.standIn {
		// Stand-in tests: argv as given, no limits.
		return run(ctx, spec, runOptions{})
	}
	if _, err := lookPath(spec.Args[0], spec.Dir, spec.Env); err != nil {
		return Result{}, err
	}
	ws := spec.Workspace
	if ws == "" {
		ws = spec.Dir
	}
	if ws == "" {
		return Result{}, errors.New("sandbox: a jailed run needs a workspace directory")
	}
	ws, err := filepath.Abs(ws)
	if err != nil {
		return Result{}, fmt.Errorf("sandbox: workspace: %w", err)
	}
	if j.mode == ModeNone {
		// Unconfined, a process of this user reads this process's
		// environment through /proc: no credential may be in it.
		if names := credentialVariables(); len(names) > 0 {
			return Result{}, fmt.Errorf("sandbox: %w: running unconfined (--allow-unjailed) while credential variables are set (%s): an unconfined process could read them from /proc; unset them or use a jail", ErrNoJail, strings.Join(names, ", "))
		}
	}
	opts := runOptions{workspace: ws, limits: j.limits}
	inner := spec.Args
	if j.prlimit != "" {
		inner = append(j.prlimitArgs(), spec.Args...)
	}
	uid := -1
	if j.dedicatedUID && j.mode != ModeNone {
		uid = freshUID()
		if err := chownTree(ws, uid); err != nil {
			return Result{}, fmt.Errorf("sandbox: hand the workspace to uid %d: %w", uid, err)
		}
		opts.uid = uid
	}
	jailed := spec
	if j.mode != ModeBubblewrap {
		jailed.Args = inner
		res, err := run(ctx, jailed, opts)
		if uid >= 0 {
			killUID(uid)
		}
		return res, err
	}
	args, err := j.bwrapArgs(spec, ws)
	if err != nil {
		return Result{}, err
	}
	// bubblewrap reports on fd 3 once the sandbox is up ("child-pid"): a
	// run without that report failed to set up, which is ours to fix, not
	// the code's.
	statusR, statusW, err := os.Pipe()
	if err != nil {
		return Result{}, fmt.Errorf("sandbox: status pipe: %w", err)
	}
	defer statusR.Close()
	opts.extraFiles = []*os.File{statusW}
	jailed.Args = append(append(args, "--json-status-fd", "3", "--"), inner...)
	res, err := run(ctx, jailed, opts)
	statusW.Close()
	if uid >= 0 {
		killUID(uid)
	}
	if err != nil {
		return res, err
	}
	status, _ := io.ReadAll(io.LimitReader(statusR, 64<<10))
	if !bytes.Contains(status, []byte(`"child-pid"`)) && !res.TimedOut && !res.Cancelled {
		return res, fmt.Errorf("sandbox: bubblewrap could not set up the jail (exit %d): %s", res.ExitCode, strings.TrimSpace(string(res.Output)))
	}
	// bubblewrap's init reports a child killed by signal N as exit status
	// 128+N, as a shell does; read it back as the signal.
	if res.Signal == "" && res.ExitCode > 128 && res.ExitCode < 128+32 {
		res.Signal = syscall.Signal(res.ExitCode - 128).String()
		res.ExitCode = -1
	}
	return res, nil
}

// credentialVariables names the non-empty variables of this process's
// environment that look like credentials (IsSecretName).
func credentialVariables() []string {
	var out []string
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		if v != "" && IsSecretName(k) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// Wrap returns the command line that starts spec.Args confined, for a
// long-lived process the caller starts and talks to itself (a check worker
// on pipes). Under bubblewrap it runs as the caller's own user mapped into
// a new user namespace, with every capability dropped: a worker reads the
// caller's interpreter and packages, which may lie where a dedicated uid
// cannot reach. The limits apply except the process count (it would count
// the caller's own processes) and the CPU time (the process lives as long
// as its caller; its calls are bounded in wall time by the caller). spec.Workspace (or spec.Dir) is the only
// writable place; spec.ReadOnly and the paths named in spec.Env and
// spec.Args are visible read-only. In uid mode and in none mode (when
// allowed) the process is not confined beyond the limits: the caller
// decides whether that is acceptable, and Confined tells it.
func (j *Jail) Wrap(spec Spec) ([]string, error) {
	if ok, why := j.Usable(); !ok {
		return nil, fmt.Errorf("sandbox: %w: %s", ErrNoJail, why)
	}
	if len(spec.Args) == 0 {
		return nil, errors.New("sandbox: empty command line")
	}
	if j.standIn {
		return spec.Args, nil
	}
	ws := spec.Workspace
	if ws == "" {
		ws = spec.Dir
	}
	if ws == "" {
		return nil, errors.New("sandbox: a jailed process needs a workspace directory")
	}
	ws, err := filepath.Abs(ws)
	if err != nil {
		return nil, fmt.Errorf("sandbox: workspace: %w", err)
	}
	if j.mode == ModeNone {
		if names := credentialVariables(); len(names) > 0 {
			return nil, fmt.Errorf("sandbox: %w: running unconfined (--allow-unjailed) while credential variables are set (%s): an unconfined process could read them from /proc; unset them or use a jail", ErrNoJail, strings.Join(names, ", "))
		}
	}
	same := *j
	same.dedicatedUID = false
	// A long-lived process bounds its own calls in wall time; a CPU limit
	// over its whole life would kill it in the middle of a long run.
	same.limits.CPU = 0
	inner := spec.Args
	if same.prlimit != "" {
		inner = append(same.prlimitArgs(), spec.Args...)
	}
	if j.mode != ModeBubblewrap {
		return inner, nil
	}
	args, err := same.bwrapArgs(spec, ws)
	if err != nil {
		return nil, err
	}
	return append(append(args, "--"), inner...), nil
}

// prlimitArgs sets the limits and execs the command.
func (j *Jail) prlimitArgs() []string {
	l := j.limits
	args := []string{j.prlimit,
		"--as=" + strconv.FormatInt(l.Memory, 10),
		"--nofile=" + strconv.Itoa(l.OpenFiles),
		"--fsize=" + strconv.FormatInt(l.FileSize, 10),
		"--core=0",
	}
	if l.CPU > 0 {
		args = append(args, "--cpu="+strconv.FormatInt(int64(l.CPU/time.Second), 10))
	}
	if j.dedicatedUID {
		args = append(args, "--nproc="+strconv.Itoa(l.Processes))
	}
	return append(args, "--")
}

// systemTrees are bound read-only into every bubblewrap jail when they
// exist: the system's programs and libraries, and the few files in /etc
// that dynamic linking and Debian's alternatives need. Nothing else of the
// host is visible.
func systemTrees() []string {
	return []string{"/usr", "/opt", "/etc/alternatives", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime"}
}

// rootLinks are top-level directories that merged-/usr systems make
// symlinks into /usr and older ones keep as directories.
func rootLinks() []string {
	return []string{"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}
}

// bwrapArgs is bwrap's command line up to the "--" before the command.
func (j *Jail) bwrapArgs(spec Spec, ws string) ([]string, error) {
	args := []string{j.bwrap,
		"--unshare-all", "--unshare-user", "--die-with-parent", "--new-session",
		"--uid", "1000", "--gid", "1000", "--cap-drop", "ALL",
		"--hostname", "jail",
	}
	bound := map[string]bool{}
	bind := func(p string) {
		if bound[p] {
			return
		}
		bound[p] = true
		args = append(args, "--ro-bind", p, p)
	}
	for _, p := range systemTrees() {
		if _, err := os.Lstat(p); err == nil {
			bind(p)
		}
	}
	for _, p := range rootLinks() {
		st, err := os.Lstat(p)
		switch {
		case err != nil:
		case st.Mode()&os.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err == nil {
				args = append(args, "--symlink", target, p)
			}
		case st.IsDir():
			bind(p)
		}
	}
	args = append(args, "--proc", "/proc", "--dev", "/dev",
		"--size", strconv.FormatInt(j.limits.Tmp, 10), "--tmpfs", "/tmp")
	paths, aliases := readOnlyPathsAndAliases(spec, ws)
	for _, p := range paths {
		// A dedicated uid could not read a path closed to others, and
		// bubblewrap (running as that uid) cannot bind it: leave it out.
		if !underAny(p, bound) && (!j.dedicatedUID || othersCanReach(p)) {
			bind(p)
		}
	}
	names := make([]string, 0, len(aliases))
	for given := range aliases {
		names = append(names, given)
	}
	sort.Strings(names)
	for _, given := range names {
		real := aliases[given]
		if !underAny(given, bound) && underAny(real, bound) {
			bound[given] = true
			args = append(args, "--ro-bind", real, given)
		}
	}
	args = append(args, "--bind", ws, ws)
	dir := spec.Dir
	if dir == "" {
		dir = ws
	}
	args = append(args, "--remount-ro", "/", "--chdir", dir)
	return args, nil
}

// readOnlyPathsAndAliases returns the host paths a process needs besides the
// system trees: spec.ReadOnly, and every existing absolute path named in its
// PATH, in the values of its environment and in its arguments (an SDK tree
// passed as ZEPHYR_BASE=/opt/zephyr or make -C /lib/modules/6.1/build), each
// resolved through symlinks. Paths inside the workspace are left to its own
// bind. For every named path that reaches its target through a symlink, it
// also maps that path to its target: the jail binds the target there too, so
// the name the process was given works.
func readOnlyPathsAndAliases(spec Spec, ws string) ([]string, map[string]string) {
	seen := map[string]bool{}
	aliases := map[string]string{}
	var out []string
	add := func(p string) {
		if !filepath.IsAbs(p) {
			return
		}
		p = filepath.Clean(p)
		given := p
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		} else {
			return
		}
		if given != p && given != "/" && !within(given, ws) {
			aliases[given] = p
		}
		if p == "/" || within(p, ws) || seen[p] {
			return
		}
		seen[p] = true
		out = append(out, p)
	}
	for _, p := range spec.ReadOnly {
		add(p)
	}
	for _, kv := range spec.Env {
		_, v, _ := strings.Cut(kv, "=")
		for _, part := range filepath.SplitList(v) {
			add(part)
		}
	}
	for _, a := range spec.Args {
		if _, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(v, "/") {
			add(v)
		}
		if strings.HasPrefix(a, "/") {
			add(a)
		}
	}
	sort.Strings(out)
	// Drop paths under another path of the list: one bind covers them.
	var kept []string
	for _, p := range out {
		if len(kept) > 0 && within(p, kept[len(kept)-1]) {
			continue
		}
		kept = append(kept, p)
	}
	return kept, aliases
}

// within reports whether p is dir or inside it.
func within(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

func underAny(p string, dirs map[string]bool) bool {
	for d := range dirs {
		if within(p, d) {
			return true
		}
	}
	return false
}

// othersCanReach reports whether a user with no rights of owner or group
// can reach p: every directory on the way is searchable by others and p is
// readable by others.
func othersCanReach(p string) bool {
	st, err := os.Stat(p)
	if err != nil || st.Mode().Perm()&0o004 == 0 {
		return false
	}
	for dir := filepath.Dir(p); ; dir = filepath.Dir(dir) {
		st, err := os.Stat(dir)
		if err != nil || st.Mode().Perm()&0o001 == 0 {
			return false
		}
		if dir == "/" {
			return true
		}
	}
}

// lookIn resolves a command in path (this process's PATH when empty).
func lookIn(path, name string) (string, error) {
	if path == "" {
		path = os.Getenv("PATH")
	}
	return lookPath(name, "", []string{"PATH=" + path})
}

// uidBase and uidSpan bound the dedicated uids: a range no distribution
// gives to users or to subordinate id maps (those start at 100000 and grow
// by 65536 per user).
const (
	uidBase = 1_700_000_000
	uidSpan = 100_000_000
)

// freshUID picks a dedicated uid for one run. Runs of concurrent
// evaluators pick independently; a collision would only merge two runs'
// process counts.
func freshUID() int { return uidBase + rand.IntN(uidSpan) }

// chownTree gives every entry of dir to uid (and the same gid), without
// following symlinks.
func chownTree(dir string, uid int) error {
	return filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, uid, uid)
	})
}

// killUID kills every process of uid, repeatedly until none is left (a fork
// bomb forks while it is being killed). It runs `kill -9 -1` as uid: the
// kernel then signals exactly the processes that uid owns.
func killUID(uid int) {
	for range 20 {
		if len(processesOf(uid)) == 0 {
			return
		}
		cmd := exec.Command("/bin/sh", "-c", "kill -9 -1")
		cmd.Env = []string{"PATH=/usr/bin:/bin"}
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid), Groups: []uint32{}}}
		_ = cmd.Run()
		time.Sleep(20 * time.Millisecond)
	}
}

// processesOf lists the live pids whose /proc entry belongs to uid. Zombies
// are left out: they are dead, and their parent (often the host's init, once
// a jail's monitor has exited) reaps them in its own time.
func processesOf(uid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		if st, ok := info.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != uid {
			continue
		}
		if stat, err := os.ReadFile("/proc/" + e.Name() + "/stat"); err == nil {
			// The state follows the command name in parentheses, which
			// may itself contain ") ".
			if i := bytes.LastIndex(stat, []byte(") ")); i >= 0 && i+2 < len(stat) && (stat[i+2] == 'Z' || stat[i+2] == 'X') {
				continue
			}
		}
		out = append(out, pid)
	}
	return out
}

// diskPollInterval is how often the workspace's size is measured.
const diskPollInterval = 200 * time.Millisecond

// watchDisk measures the workspace until ctx ends and sends, once, a
// description of the first limit it finds exceeded.
func watchDisk(ctx context.Context, dir string, l Limits) <-chan string {
	out := make(chan string, 1)
	go func() {
		t := time.NewTicker(diskPollInterval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			if msg := diskOver(dir, l); msg != "" {
				out <- msg
				return
			}
		}
	}()
	return out
}

// diskOver walks dir and says which of the disk limits it exceeds, if any.
// The walk stops as soon as one is exceeded.
func diskOver(dir string, l Limits) string {
	var bytes int64
	entries := 0
	msg := ""
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		entries++
		if info, err := d.Info(); err == nil {
			if st, ok := info.Sys().(*syscall.Stat_t); ok {
				bytes += st.Blocks * 512
			} else {
				bytes += info.Size()
			}
		}
		switch {
		case l.Disk > 0 && bytes > l.Disk:
			msg = fmt.Sprintf("workspace disk use exceeded the limit of %s", bytesize.Format(l.Disk))
		case l.DiskEntries > 0 && entries > l.DiskEntries:
			msg = fmt.Sprintf("workspace exceeded the limit of %d files", l.DiskEntries)
		default:
			return nil
		}
		return filepath.SkipAll
	})
	return msg
}
