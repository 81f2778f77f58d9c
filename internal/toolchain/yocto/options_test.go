package yocto

// WithPath sets the base PATH (poky's directories are put before it) in
// which python3 is looked up and which bitbake gets (tests put stand-ins
// first); by default this process's PATH.
func WithPath(path string) Option { return func(b *Backend) { b.path = path } }
