// Command shard is the planning step of the GitHub Actions pipeline; it is the
// same command as `embedeval shard`.
package main

import (
	"os"

	"github.com/embedeval/embedeval-go/internal/cli"
)

func main() { os.Exit(cli.Main(cli.NewShardCommand(), os.Args[1:])) }
