package zephyr

// WithPath sets the PATH in which west is looked up and which west and the
// program get (tests put stand-ins first); by default this process's PATH.
func WithPath(path string) Option { return func(b *Backend) { b.path = path } }
