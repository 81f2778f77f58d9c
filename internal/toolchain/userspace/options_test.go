package userspace

// WithPath sets the PATH in which gcc, make and pkg-config are looked up
// and which the build and the program get; empty means this process's PATH.
func WithPath(path string) Option { return func(b *Backend) { b.path = path } }
