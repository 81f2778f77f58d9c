package bytesize

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestFormat(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0 bytes", 1000: "1000 bytes", 1024: "1 KiB", 1536: "1.5 KiB",
		4 << 20: "4 MiB", 300 << 20: "300 MiB", 1 << 30: "1 GiB", 3<<30 + 1<<29: "3.5 GiB",
	} {
		require.Equal(t, want, Format(n), "%d", n)
	}
}
