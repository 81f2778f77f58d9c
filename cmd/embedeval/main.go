// Command embedeval is the benchmark's command-line tool: validate, list and
// count cases (and, in later releases, run models, score and report).
package main

import (
	"os"

	"github.com/embedeval/embedeval-go/internal/cli"
)

func main() { os.Exit(cli.Run()) }
