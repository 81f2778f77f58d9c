// Command merge is the merging step of the GitHub Actions pipeline; it is the
// same command as `embedeval merge`.
package main

import (
	"os"

	"github.com/embedeval/embedeval-go/internal/cli"
)

func main() { os.Exit(cli.Main(cli.NewMergeCommand(), os.Args[1:])) }
