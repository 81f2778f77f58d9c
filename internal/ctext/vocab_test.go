package ctext

import "github.com/embedeval/embedeval-go/internal/errconv"

// errRules are the embedded error conventions.
func errRules() ErrorRules {
	c, err := errconv.Default()
	if err != nil {
		panic(err)
	}
	return ErrorRules{Conventions: c}
}
