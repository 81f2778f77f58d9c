package data

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestForbiddenAPIsYAML(t *testing.T) {
	a := ForbiddenAPIsYAML()
	require.Contains(t, string(a), "platforms:")
	require.Contains(t, string(a), "FreeRTOS:")
	a[0] = '!'
	require.NotEqual(t, byte('!'), ForbiddenAPIsYAML()[0], "callers must get a copy")
}

func TestVocabularyYAMLAreCopies(t *testing.T) {
	for name, get := range map[string]func() []byte{"isr_context": ISRContextYAML, "error_conventions": ErrorConventionsYAML} {
		a := get()
		require.Contains(t, string(a), "source:", name)
		a[0] = '!'
		require.NotEqual(t, byte('!'), get()[0], "%s: callers must get a copy", name)
	}
}
