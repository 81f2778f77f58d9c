package kbuild

// WithPath sets the PATH in which make and gcc are looked up and which the
// build gets; empty means the PATH of this process.
func WithPath(path string) Option { return func(b *Backend) { b.path = path } }

// WithKDIR fixes the kernel build directory, before any other source.
func WithKDIR(dir string) Option { return func(b *Backend) { b.kdir = dir } }

// WithJobs sets make's -j (default: the number of CPUs, at most 8).
func WithJobs(n int) Option { return func(b *Backend) { b.jobs = n } }

// WithHeaderSearch replaces where headers are searched for when neither
// WithKDIR nor $KDIR is set: modulesRoot stands for /lib/modules, srcRoot
// for /usr/src, release for `uname -r` and arch for the Debian flavour
// suffix (amd64, arm64). Empty values keep the defaults. For tests.
func WithHeaderSearch(modulesRoot, srcRoot, release, arch string) Option {
	return func(b *Backend) {
		b.search = headerSearch{modulesRoot: modulesRoot, srcRoot: srcRoot, release: release, arch: arch}
	}
}
