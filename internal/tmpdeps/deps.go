// Package tmpdeps pins modules that work in progress will import; it is
// removed when they land.
package tmpdeps

import (
	_ "github.com/google/go-github/v83/github"
	_ "github.com/rhysd/actionlint"
	_ "github.com/sethvargo/go-githubactions"
)
