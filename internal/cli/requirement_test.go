package cli

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestValidateRequireRequirements(t *testing.T) {
	code, out, _ := runCLI(t, "validate", "--cases", badCorpus, "--case", "timer-001", "--layers", "L0,L3", "--json")
	require.Equal(t, ExitOK, code, out)
	require.Contains(t, out, "\"checks_with_requirement\": 0,\n      \"checks_total\": 2,")

	code, out, errOut := runCLI(t, "validate", "--cases", badCorpus, "--case", "timer-001", "--layers", "L0,L3", "--require-requirements")
	require.Equal(t, ExitFindings, code, out)
	require.Contains(t, out, `checks/static.star: check "kernel_header": no requirement; every check must quote the text of prompt.md or context/ it enforces (--require-requirements) [requirement]`)
	require.Equal(t, "embedeval: 1 of 1 cases failed validation\n", errOut)
}
