package tmpdeps

import (
	_ "github.com/anthropics/anthropic-sdk-go/v2"
	_ "github.com/openai/openai-go/v3"
	_ "golang.org/x/term"
)
