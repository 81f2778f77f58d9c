package freertos

import "log/slog"

// WithPath sets the PATH in which make, the cross compiler and QEMU are
// looked up and which they get (tests put stand-ins first); by default this
// process's PATH.
func WithPath(path string) Option { return func(b *Backend) { b.path = path } }

// WithLogger sets where cache fallbacks are logged (default slog.Default()).
func WithLogger(l *slog.Logger) Option { return func(b *Backend) { b.log = l } }
