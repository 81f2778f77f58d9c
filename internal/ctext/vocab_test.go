package ctext

import (
	"github.com/embedeval/embedeval-go/internal/errconv"
	"github.com/embedeval/embedeval-go/internal/isrctx"
)

// isrVocab is the embedded interrupt context vocabulary.
func isrVocab() *isrctx.Vocabulary {
	v, err := isrctx.Default()
	if err != nil {
		panic(err)
	}
	return v
}

// errRules are the embedded error conventions.
func errRules() ErrorRules {
	c, err := errconv.Default()
	if err != nil {
		panic(err)
	}
	return ErrorRules{Conventions: c}
}
