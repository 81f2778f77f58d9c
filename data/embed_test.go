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
