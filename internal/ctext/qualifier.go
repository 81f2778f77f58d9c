package ctext

// exprKeyword reports whether an identifier makes a token run an
// expression or statement rather than a declaration.
func exprKeyword(name string) bool {
	switch name {
	case "return", "case", "goto", "if", "else", "while", "do", "switch", "sizeof", "break",
		"continue", "for":
		return true
	}
	return false
}

// declPunct reports whether punctuation may appear in the specifier and
// declarator part of a declaration.
func declPunct(t string) bool {
	switch t {
	case "*", ",", "(", ")", "[", "]", "{", "}", ":", ";":
		return true
	}
	return false
}

// qualTokens tokenizes a qualifier (after stripping) into its token texts.
func qualTokens(q string) []string {
	st := StripAll(q)
	var out []string
	tokenize(st, func(t token) { out = append(out, st[t.start:t.end]) })
	return out
}

// declContext returns the token index range [start, end) of the
// declaration that declares the variable at token i, and ok=false when the
// occurrence is not a declaration.
func (s *Source) declContext(i int) (start int, ok bool) {
	k := i - 1
	for k >= 0 {
		t := s.text(k)
		switch t {
		case ";", "{":
			return k + 1, true
		case ")", "]":
			if s.match[k] < 0 {
				return 0, false
			}
			k = s.match[k] - 1
			continue
		case "}":
			o := s.match[k]
			if o < 0 {
				return k + 1, true
			}
			// A brace group belongs to the declaration when it is a
			// struct/union/enum body or an initializer of an earlier
			// declarator; otherwise it ends the previous statement.
			p := o - 1
			if s.is(p, "=") || s.is(p, "struct") || s.is(p, "union") || s.is(p, "enum") ||
				(s.isIdentTok(p) && (s.is(p-1, "struct") || s.is(p-1, "union") || s.is(p-1, "enum"))) {
				k = o - 1
				continue
			}
			return k + 1, true
		case "(":
			// A declarator group "(*name)" belongs to the declaration; any
			// other open parenthesis starts a parameter, cast or call
			// argument list.
			if s.is(k+1, "*") || s.is(k+1, "^") {
				k--
				continue
			}
			if s.is(k-1, "for") {
				return k + 1, true
			}
			// Parameter list: the declaration starts after the nearest
			// top-level comma.
			for j := i - 1; j > k; j-- {
				if s.is(j, ",") && s.nest[j] == s.nest[k]+1 {
					return j + 1, true
				}
			}
			return k + 1, true
		case "[":
			return 0, false
		}
		k--
	}
	return 0, true
}

// declTokens returns the token texts of the declaration of the variable at
// token i (specifiers, other declarators without initializers, and its own
// declarator up to the initializer), or nil when the occurrence at i is not
// a declaration.
func (s *Source) declTokens(i int) []string {
	next := s.text(i + 1)
	switch next {
	case ";", ",", "=", "[", ")", ":":
	default:
		if !s.isIdentTok(i + 1) {
			return nil
		}
	}
	start, ok := s.declContext(i)
	if !ok || start >= i {
		return nil
	}
	var out []string
	types := 0
	for k := start; k < i; k++ {
		t := s.text(k)
		if t == "=" && s.nest[k] == s.nest[i] {
			// Skip an earlier declarator's initializer up to the next
			// top-level comma; reaching the variable means it is used in
			// an initializer, not declared.
			j := k + 1
			for j < i && !(s.is(j, ",") && s.nest[j] == s.nest[i]) {
				j++
			}
			if j >= i {
				return nil
			}
			k = j
			out = append(out, ",")
			continue
		}
		if s.isIdentTok(k) {
			if exprKeyword(t) {
				return nil
			}
			types++
		} else if s.nest[k] == s.nest[i] && !declPunct(t) && s.toks[k].kind == tokPunct {
			return nil
		}
		out = append(out, t)
	}
	if types == 0 {
		return nil
	}
	// The declarator's own suffix: array bounds and trailing attributes.
	for k := i + 1; k < len(s.toks); k++ {
		t := s.text(k)
		if s.nest[k] == s.nest[i] && (t == "," || t == ";" || t == "=" || t == "{") {
			break
		}
		if (t == ")" || t == "}" || t == "]") && s.match[k] < i {
			break
		}
		out = append(out, t)
	}
	return out
}

// containsSeq reports whether want occurs as a contiguous run of hay.
func containsSeq(hay, want []string) bool {
	if len(want) == 0 {
		return false
	}
outer:
	for i := 0; i+len(want) <= len(hay); i++ {
		for j, w := range want {
			if hay[i+j] != w {
				continue outer
			}
		}
		return true
	}
	return false
}

// QualifierOnVariable reports whether some declaration of variable (file
// scope, local, parameter, struct member or for-loop init) carries
// qualifier among its specifiers or declarator: "static volatile uint32_t
// x = 0;", "uint32_t volatile x;", "volatile bool a, b;" (for b), "uint8_t
// buf[4] __aligned(4);". Any placement counts, so "int *volatile p" (a
// volatile pointer) and "volatile int *p" (a pointer to volatile) both
// qualify p. The qualifier is compared token by token, so "__aligned(4)"
// also matches "__aligned( 4 )". Comments, strings and preprocessor lines
// are ignored; a typedef hiding the qualifier is not followed.
func QualifierOnVariable(code, variable, qualifier string) bool {
	return NewSource(code).QualifierOnVariable(variable, qualifier)
}

// QualifierOnVariable is QualifierOnVariable on this source.
func (s *Source) QualifierOnVariable(variable, qualifier string) bool {
	s.lex()
	want := qualTokens(qualifier)
	if len(want) == 0 {
		return false
	}
	for i := range s.toks {
		if !s.isIdentTok(i) || s.text(i) != variable {
			continue
		}
		if containsSeq(s.declTokens(i), want) {
			return true
		}
	}
	return false
}
