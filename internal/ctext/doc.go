// Package ctext provides fast, syntax-tree-free helpers over C source text:
// a lexer that knows comments, string and character literals and
// preprocessor lines, and the word-, call- and scope-aware predicates that
// check files use.
//
// Every helper works on arbitrary bytes (invalid UTF-8, NUL bytes,
// unterminated comments or literals) without panicking, and the lexer runs in
// linear time. The strip functions preserve the length of their input and
// every newline, so byte offsets and line numbers computed on stripped text
// are valid for the original text.
//
// SDK vocabulary is not kept here: it lives in data/*.yaml. Questions
// about structure and control flow (error paths, which functions run in
// interrupt context and what they call, how a variable is declared, in
// which order a body releases resources) are answered on syntax trees by
// package csyntax.
//
// The package owns only text analysis. It does not parse C into a syntax
// tree, does not run the preprocessor and must not depend on the Starlark
// runtime that exposes these helpers to check authors.
package ctext
