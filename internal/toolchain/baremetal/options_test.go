package baremetal

// WithPath sets the PATH in which the tools are looked up and which the
// build and the run get (tests put stand-ins first); empty means the PATH
// of this process.
func WithPath(path string) Option { return func(b *Backend) { b.path = path } }

// WithCross sets the cross-compiler prefix (make's CROSS variable).
func WithCross(prefix string) Option { return func(b *Backend) { b.cross = prefix } }
