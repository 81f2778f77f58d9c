package sandbox

import (
	"os"
	"sort"
	"strings"
)

// baseVariables are passed through from the caller's environment when set:
// what compilers, make and the SDKs need to find themselves, and nothing else.
func baseVariables() []string {
	return []string{"PATH", "TZ", "SOURCE_DATE_EPOCH"}
}

// secretMarkers are substrings of variable names that are never passed, even
// when a caller asks for them by name.
func secretMarkers() []string {
	return []string{"TOKEN", "SECRET", "PASSWORD", "PASSWD", "API_KEY", "APIKEY", "PRIVATE_KEY", "CREDENTIAL", "AUTH"}
}

// secretPrefixes are name prefixes that are never passed.
func secretPrefixes() []string {
	return []string{"GITHUB_", "ACTIONS_", "RUNNER_", "AWS_", "AZURE_", "GOOGLE_", "GCP_", "OPENAI_", "ANTHROPIC_", "HF_", "HUGGING", "SSH_", "GPG_", "NPM_", "DOCKER_"}
}

// IsSecretName reports whether a variable name looks like it carries a
// credential; such variables never reach untrusted processes.
func IsSecretName(name string) bool {
	up := strings.ToUpper(name)
	for _, p := range secretPrefixes() {
		if strings.HasPrefix(up, p) {
			return true
		}
	}
	for _, m := range secretMarkers() {
		if strings.Contains(up, m) {
			return true
		}
	}
	return false
}

// Env builds the environment of an untrusted process: the allowlisted base
// variables taken from this process (PATH, time zone), the C locale, HOME and TMPDIR
// pointing into the workspace dir, the names in passThrough copied from this
// process when set (e.g. ZEPHYR_BASE, IDF_PATH), and the explicit set values
// ("KEY=value"). Names that look like credentials are dropped from both, so a
// misconfigured backend cannot leak a token. The result is sorted.
func Env(workspace string, passThrough []string, set ...string) []string {
	vars := map[string]string{}
	for _, name := range append(baseVariables(), passThrough...) {
		if IsSecretName(name) {
			continue
		}
		if v, ok := os.LookupEnv(name); ok {
			vars[name] = v
		}
	}
	if vars["PATH"] == "" {
		vars["PATH"] = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
	}
	// One locale everywhere: compiler messages (quotes, translations) read the
	// same on every machine, so logs and feedback prompts are reproducible.
	vars["LANG"], vars["LC_ALL"] = "C", "C"
	vars["HOME"] = workspace
	vars["TMPDIR"] = workspace
	vars["TERM"] = "dumb"
	for _, kv := range set {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || IsSecretName(k) {
			continue
		}
		vars[k] = v
	}
	out := make([]string, 0, len(vars))
	for k, v := range vars {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}
