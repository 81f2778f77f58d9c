// Package testenv decides what a test does when a real toolchain it needs is
// missing: skip with a message naming the tool, or fail when the environment
// demands the toolchains (EMBEDEVAL_REQUIRE_TOOLCHAINS=1, as .ci/run sets).
package testenv

import (
	"os"
	"os/exec"
	"testing"
)

// RequireEnv is the environment variable that turns missing tools into failures.
const RequireEnv = "EMBEDEVAL_REQUIRE_TOOLCHAINS"

// Tool returns the path of an executable, or skips (fails under RequireEnv)
// the test with a message naming the tool, its Debian package and why the
// test needs it.
func Tool(t testing.TB, name, debianPackage, why string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err == nil {
		return path
	}
	Missing(t, name+" (Debian package "+debianPackage+") is not installed; "+why)
	return ""
}

// Missing skips the test with msg, or fails it when the environment demands
// the toolchains.
func Missing(t testing.TB, msg string) {
	t.Helper()
	if os.Getenv(RequireEnv) == "1" {
		t.Fatalf("%s (required: %s=1)", msg, RequireEnv)
	}
	t.Skip(msg)
}
