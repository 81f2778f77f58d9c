// Package secret keeps credentials out of error messages and logs: it
// replaces every occurrence of known secret values with a marker. Providers
// pass every error through it before returning it. It holds no state.
package secret

import (
	"errors"
	"strings"
)

// Marker replaces a secret in text.
const Marker = "[REDACTED]"

// minLength is the shortest value treated as a secret; shorter ones (empty,
// placeholders like "x") would mangle ordinary text.
const minLength = 6

// String returns s with every secret replaced by Marker.
func String(s string, secrets ...string) string {
	for _, v := range secrets {
		if len(v) >= minLength {
			s = strings.ReplaceAll(s, v, Marker)
		}
	}
	return s
}

// Error returns err unchanged when its message holds no secret, and
// otherwise an error with the redacted message. The redacted error still
// matches errors.Is and errors.As against err's chain, but unwrapping it
// gives nothing whose message could leak the secret: Unwrap is not offered,
// only Is and As.
func Error(err error, secrets ...string) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	red := String(msg, secrets...)
	if red == msg {
		return err
	}
	return &redacted{msg: red, cause: err}
}

type redacted struct {
	msg   string
	cause error
}

func (e *redacted) Error() string { return e.msg }

// Is matches the targets of the original chain (context.DeadlineExceeded,
// io.ErrUnexpectedEOF, ...).
func (e *redacted) Is(target error) bool { return errors.Is(e.cause, target) }

// As finds typed errors of the original chain (net.Error, ...).
func (e *redacted) As(target any) bool { return errors.As(e.cause, target) }
