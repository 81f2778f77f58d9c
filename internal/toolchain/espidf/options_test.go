package espidf

// WithPath sets the PATH in which idf.py is looked up and which it gets
// (tests put stand-ins first); by default this process's PATH.
func WithPath(path string) Option { return func(b *Backend) { b.path = path } }
