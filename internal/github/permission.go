package github

import (
	"errors"
	"net/http"
	"strings"

	gh "github.com/google/go-github/v83/github"
)

// ErrPermission is matched (errors.Is) by every error caused by a token that
// lacks a permission.
var ErrPermission = errors.New("missing token permission")

// ErrBadCredentials is matched (errors.Is) by errors caused by a token
// GitHub does not accept (HTTP 401).
var ErrBadCredentials = errors.New("bad credentials")

// PermissionHint is what a publishing job needs; permission errors say it.
const PermissionHint = "the token cannot write contents/pull-requests: give the publishing job `permissions: contents: write, pull-requests: write`"

// PermissionError is an API refusal caused by the token's permissions.
type PermissionError struct {
	// Hint says what to change.
	Hint string
	// Err is the API error.
	Err error
}

// Error is the hint followed by what GitHub said.
func (e *PermissionError) Error() string { return e.Hint + " (GitHub said: " + e.Err.Error() + ")" }

// Unwrap returns the API error.
func (e *PermissionError) Unwrap() error { return e.Err }

// Is matches ErrPermission, or ErrBadCredentials for a 401.
func (e *PermissionError) Is(target error) bool {
	var er *gh.ErrorResponse
	if errors.As(e.Err, &er) && er.Response != nil && er.Response.StatusCode == http.StatusUnauthorized {
		return target == ErrBadCredentials
	}
	return target == ErrPermission
}

// explain turns API errors caused by the token into a PermissionError that
// says what to change; other errors are returned as they are. GitHub answers
// a GITHUB_TOKEN without a permission with 403 "Resource not accessible by
// integration" (a fine-grained personal token: "... by personal access
// token"), and a missing or expired token with 401 "Bad credentials".
func explain(err error) error {
	var er *gh.ErrorResponse
	if !errors.As(err, &er) || er.Response == nil {
		return err
	}
	switch {
	case er.Response.StatusCode == http.StatusForbidden && strings.Contains(er.Message, "Resource not accessible"):
		return &PermissionError{Hint: PermissionHint, Err: err}
	case er.Response.StatusCode == http.StatusUnauthorized:
		return &PermissionError{Hint: "GitHub does not accept the token: set GITHUB_TOKEN to a valid token (in Actions, `${{ secrets.GITHUB_TOKEN }}`)", Err: err}
	}
	return err
}
