// Package testenv decides what a test does when a real toolchain it needs is
// missing: skip with a message naming the tool, or fail when the environment
// demands the toolchains (EMBEDEVAL_REQUIRE_TOOLCHAINS=1, as .ci/run sets).
package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
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

// CIEnv is the variable CI services set to "true" (GitHub Actions does).
const CIEnv = "CI"

// SDK returns the SDK tree named by the environment variable env (such as
// FREERTOS_KERNEL), checked by the presence of marker, a slash path inside
// it. When the variable is unset or the tree lacks marker the test is
// skipped with a message naming the variable, the folder and why the test
// needs it; it fails instead when both RequireEnv=1 and CI=true, because CI
// provides the trees (scripts/test.sh and .ci/run point the variables at
// ../shared/sdk, the workflow checks the same releases out).
func SDK(t testing.TB, env, marker, why string) string {
	t.Helper()
	dir := os.Getenv(env)
	var msg string
	switch {
	case dir == "":
		msg = env + " is not set (the SDK tree; scripts/test.sh sets it from ../shared/sdk when that folder exists); " + why
	default:
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(marker))); err != nil {
			msg = env + "=" + dir + " is not the SDK tree (" + marker + " is missing); " + why
		}
	}
	if msg == "" {
		return dir
	}
	if os.Getenv(RequireEnv) == "1" && os.Getenv(CIEnv) == "true" {
		t.Fatalf("%s (required: %s=1 and %s=true)", msg, RequireEnv, CIEnv)
	}
	t.Skip(msg)
	return ""
}

// PkgConfig skips (fails under RequireEnv) the test when pkg-config does not
// know the package pkg, naming its Debian package and why the test needs it.
func PkgConfig(t testing.TB, pkg, debianPackage, why string) {
	t.Helper()
	pc := Tool(t, "pkg-config", "pkg-config", why)
	if err := exec.Command(pc, "--exists", "--", pkg).Run(); err != nil {
		Missing(t, "pkg-config package "+pkg+" is not installed (Debian package "+debianPackage+"); "+why)
	}
}
