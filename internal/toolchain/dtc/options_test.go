package dtc

// WithPath sets the PATH in which cpp and dtc are looked up and which they
// get; empty means the PATH of this process.
func WithPath(path string) Option { return func(b *Backend) { b.path = path } }
