package workflows

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file reads GitHub expressions (${{ ... }}) far enough to find which
// contexts they reach, whatever the syntax: secrets.X, secrets['X'],
// SECRETS [ "X" ], toJSON(secrets), secrets.*, github[format(...)]. It is
// deliberately over-inclusive: a context name that is not a property
// (not preceded by ".") counts as a use of that context, and a use whose
// property is not a literal counts as a use of the whole context.

// exprRef is one use of a context in an expression.
type exprRef struct {
	// ctx is the context name, folded (secrets, github, inputs, matrix, ...).
	ctx string
	// prop is the first property, folded; "" when the context is used whole:
	// alone, as a function argument, through "*", or indexed by a computed
	// value.
	prop string
}

// whole reports whether the reference may reach every property of its
// context.
func (r exprRef) whole() bool { return r.prop == "" }

// isSecret reports a use of the secrets context.
func (r exprRef) isSecret() bool { return r.ctx == "secrets" }

// isToken reports a use that may yield the GitHub token: github.token,
// secrets.GITHUB_TOKEN, or either context whole.
func (r exprRef) isToken() bool {
	switch r.ctx {
	case "github":
		return r.prop == "token" || r.whole()
	case "secrets":
		return r.prop == "github_token" || r.whole()
	}
	return false
}

// fold normalises a name as GitHub compares context and property names,
// without regard to case. Upper-casing first maps the letters .NET folds to
// ASCII (ſ → S, ı → I) before lower-casing.
func fold(s string) string { return strings.ToLower(strings.ToUpper(s)) }

// exprRefs returns the context uses of every ${{ }} expression in s. When
// implicit (the value of an if: key, which GitHub evaluates as an expression
// without ${{ }}) and s holds no ${{, the whole of s is read as one
// expression.
func exprRefs(s string, implicit bool) []exprRef {
	if implicit && !strings.Contains(s, "${{") {
		toks, _ := lexExpr(s, false)
		return refsOf(toks)
	}
	var out []exprRef
	for {
		i := strings.Index(s, "${{")
		if i < 0 {
			return out
		}
		toks, n := lexExpr(s[i+3:], true)
		out = append(out, refsOf(toks)...)
		s = s[i+3+n:]
	}
}

// token is one lexical token of an expression.
type token struct {
	// kind is 'i' for a name, 's' for a string literal, 'n' for a number
	// and 'p' for anything else (one character).
	kind byte
	// text is the name, the string's value, or the character.
	text string
}

func (t token) is(p string) bool { return t.kind == 'p' && t.text == p }

// lexExpr splits an expression into tokens. In a template (after "${{") it
// stops after the first "}}" outside a string literal and returns how many
// bytes it read; otherwise it reads all of s. String literals may be quoted
// with ' (GitHub's syntax, where a doubled quote stands for one) or "
// (not GitHub's, read anyway).
func lexExpr(s string, template bool) ([]token, int) {
	var toks []token
	i := 0
	for i < len(s) {
		if template && strings.HasPrefix(s[i:], "}}") {
			return toks, i + 2
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case unicode.IsSpace(r):
			i += size
		case r == '\'' || r == '"':
			var b strings.Builder
			j := i + 1
			for j < len(s) {
				if s[j] == s[i] {
					if s[i] == '\'' && j+1 < len(s) && s[j+1] == '\'' {
						b.WriteByte('\'')
						j += 2
						continue
					}
					break
				}
				b.WriteByte(s[j])
				j++
			}
			toks = append(toks, token{kind: 's', text: b.String()})
			i = j + 1
		case unicode.IsLetter(r) || r == '_':
			j := i + size
			for j < len(s) {
				r, n := utf8.DecodeRuneInString(s[j:])
				if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-' {
					break
				}
				j += n
			}
			toks = append(toks, token{kind: 'i', text: s[i:j]})
			i = j
		case r >= '0' && r <= '9':
			j := i + 1
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			toks = append(toks, token{kind: 'n', text: s[i:j]})
			i = j
		default:
			toks = append(toks, token{kind: 'p', text: s[i : i+size]})
			i += size
		}
	}
	return toks, len(s)
}

// refsOf returns the context uses in a token list: every name that is not a
// property (not after "."), with its first property when that is a literal
// (.name or ['name']).
func refsOf(toks []token) []exprRef {
	var out []exprRef
	for i, t := range toks {
		if t.kind != 'i' || (i > 0 && toks[i-1].is(".")) {
			continue
		}
		r := exprRef{ctx: fold(t.text)}
		rest := toks[i+1:]
		switch {
		case len(rest) >= 2 && rest[0].is(".") && rest[1].kind == 'i':
			r.prop = fold(rest[1].text)
		case len(rest) >= 3 && rest[0].is("[") && rest[1].kind == 's' && rest[2].is("]"):
			r.prop = fold(rest[1].text)
		}
		out = append(out, r)
	}
	return out
}

// soleRef returns the one context property s consists of, as in
// "${{ matrix.image }}": a single expression, nothing around it, holding
// exactly ctx.prop or ctx['prop'].
func soleRef(s string) (exprRef, bool) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "${{") {
		return exprRef{}, false
	}
	toks, n := lexExpr(s[3:], true)
	if 3+n != len(s) || !strings.HasSuffix(s, "}}") {
		return exprRef{}, false
	}
	switch {
	case len(toks) == 3 && toks[0].kind == 'i' && toks[1].is(".") && toks[2].kind == 'i':
		return exprRef{ctx: fold(toks[0].text), prop: fold(toks[2].text)}, true
	case len(toks) == 4 && toks[0].kind == 'i' && toks[1].is("[") && toks[2].kind == 's' && toks[3].is("]"):
		return exprRef{ctx: fold(toks[0].text), prop: fold(toks[2].text)}, true
	}
	return exprRef{}, false
}

// jobOutputMatrix returns the job whose output a matrix is, when s is
// exactly "${{ fromJSON(needs.<job>.outputs.<name>) }}".
func jobOutputMatrix(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "${{") {
		return "", false
	}
	toks, n := lexExpr(s[3:], true)
	if 3+n != len(s) || !strings.HasSuffix(s, "}}") || len(toks) != 10 {
		return "", false
	}
	want := []token{{'i', "fromjson"}, {'p', "("}, {'i', "needs"}, {'p', "."}, {'i', ""}, {'p', "."}, {'i', "outputs"}, {'p', "."}, {'i', ""}, {'p', ")"}}
	for i, w := range want {
		if toks[i].kind != w.kind || (w.text != "" && fold(toks[i].text) != w.text) {
			return "", false
		}
	}
	return toks[4].text, true
}
