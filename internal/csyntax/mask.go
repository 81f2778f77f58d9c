package csyntax

import "strings"

// decorator describes a macro that is masked out before parsing.
type decorator struct {
	// needsArgs means the macro is only masked when followed by a
	// parenthesized argument list, which is masked with it.
	needsArgs bool
	// replacement is written in place of the macro name, padded with spaces;
	// "" means the name is blanked.
	replacement string
	// qualifiers are type qualifiers the macro stands for (CMSIS __IO etc.).
	qualifiers []string
	// attribute means the macro is reported as an attribute.
	attribute bool
}

// lookupDecorator returns the decorator table entry for name.
func lookupDecorator(name string) (decorator, bool) {
	switch name {
	// Linux kernel.
	case "__init", "__exit", "__initdata", "__exitdata", "__initconst",
		"__devinit", "__devexit", "__maybe_unused", "__always_unused",
		"__used", "__unused", "__weak", "__packed", "__cold", "__hot",
		"__pure", "__noreturn", "noinline", "__noinline", "__must_check",
		"__iomem", "__user", "__kernel", "__rcu", "__force", "__percpu",
		"__ro_after_init", "__read_mostly", "__deprecated", "__visible",
		"asmlinkage", "notrace", "__naked":
		return decorator{attribute: true}, true
	// Zephyr.
	case "__isr", "__noinit", "__ramfunc", "__syscall", "__subsystem",
		"__nocache", "__no_optimization", "FUNC_NORETURN", "__deprecated_api":
		return decorator{attribute: true}, true
	// ESP-IDF.
	case "IRAM_ATTR", "DRAM_ATTR", "RTC_IRAM_ATTR", "RTC_DATA_ATTR",
		"RTC_NOINIT_ATTR", "RTC_RODATA_ATTR", "RTC_FAST_ATTR", "RTC_SLOW_ATTR",
		"EXT_RAM_ATTR", "EXT_RAM_BSS_ATTR", "NOINIT_ATTR", "WORD_ALIGNED_ATTR",
		"IRAM_DATA_ATTR", "DRAM_DATA_ATTR":
		return decorator{attribute: true}, true
	// CMSIS / STM32 HAL.
	case "__WEAK", "__NO_RETURN", "__USED", "__PACKED", "__NOINLINE":
		return decorator{attribute: true}, true
	// FreeRTOS.
	case "PRIVILEGED_FUNCTION", "PRIVILEGED_DATA", "FREERTOS_SYSTEM_CALL":
		return decorator{attribute: true}, true
	// Function-like decorators.
	case "__aligned", "__section", "__printf", "__scanf", "__alias",
		"__ALIGNED", "Z_GENERIC_SECTION", "__in_section", "__attribute":
		return decorator{needsArgs: true, attribute: true}, true
	// Decorators that carry inline/static meaning.
	case "__always_inline", "ALWAYS_INLINE", "__forceinline":
		return decorator{replacement: "inline", attribute: true}, true
	case "__STATIC_INLINE", "__STATIC_FORCEINLINE":
		return decorator{replacement: "static inline"}, true
	case "__INLINE":
		return decorator{replacement: "inline"}, true
	// CMSIS register qualifiers.
	case "__IO", "__O", "__OM", "__IOM":
		return decorator{qualifiers: []string{"volatile"}}, true
	case "__I", "__IM":
		return decorator{qualifiers: []string{"volatile", "const"}}, true
	}
	return decorator{}, false
}

// mask is one decorator occurrence that was masked before parsing.
type mask struct {
	start, end int // byte range in the source, end exclusive
	text       string
	dec        decorator
}

// maskDecorators returns a copy of src in which known decorator macros are
// blanked (or replaced), keeping every byte offset and newline in place, and
// the list of masked occurrences in source order. It returns src itself when
// nothing was masked.
func maskDecorators(src []byte) ([]byte, []mask) {
	var out []byte
	var masks []mask
	n := len(src)
	lineStart := true
	for i := 0; i < n; {
		c := src[i]
		switch {
		case c == '\n':
			lineStart = true
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '#' && lineStart:
			// Preprocessor directive: skip to the end of the logical line.
			for i < n && src[i] != '\n' {
				if src[i] == '\\' && i+1 < n && src[i+1] == '\n' {
					i += 2
					continue
				}
				if src[i] == '/' && i+1 < n && src[i+1] == '*' {
					i = skipBlockComment(src, i)
					continue
				}
				i++
			}
		case c == '/' && i+1 < n && src[i+1] == '/':
			for i < n && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < n && src[i+1] == '*':
			i = skipBlockComment(src, i)
			lineStart = false
		case c == '"' || c == '\'':
			i = skipQuoted(src, i)
			lineStart = false
		case isIdentStart(c):
			lineStart = false
			j := i + 1
			for j < n && isIdentPart(src[j]) {
				j++
			}
			word := string(src[i:j])
			if word == "__attribute__" || word == "__declspec" {
				// GCC/MSVC attribute syntax tree-sitter understands: leave it,
				// and do not mask names inside it.
				k := j
				for k < n && (src[k] == ' ' || src[k] == '\t') {
					k++
				}
				if k < n && src[k] == '(' {
					if end := matchParen(src, k); end > 0 {
						i = end
						continue
					}
				}
				i = j
				continue
			}
			if word == "static" && staticMacroFollows(src, j) {
				// "static K_THREAD_STACK_DEFINE(stack, 1024);": tree-sitter
				// reads "static MACRO(...)" as a broken declaration that
				// swallows the next statement; without "static" it is a call.
				if out == nil {
					out = append([]byte(nil), src...)
				}
				copy(out[i:j], "      ")
				masks = append(masks, mask{start: i, end: j, text: word})
				i = j
				continue
			}
			if typeArgMacro(word) {
				// container_of(ptr, struct foo, member): a type where an
				// expression is expected breaks the parse (an ERROR node
				// around the whole statement); blank the struct/union/enum
				// keywords so the type name reads as an identifier.
				k := j
				for k < n && (src[k] == ' ' || src[k] == '\t') {
					k++
				}
				if k < n && src[k] == '(' {
					if end := matchParen(src, k); end > 0 {
						out = blankTypeKeywords(src, out, k, end)
					}
				}
				i = j
				continue
			}
			dec, ok := lookupDecorator(word)
			if !ok {
				i = j
				continue
			}
			end := j
			if dec.needsArgs {
				k := j
				for k < n && (src[k] == ' ' || src[k] == '\t') {
					k++
				}
				if k >= n || src[k] != '(' {
					i = j
					continue
				}
				end = matchParen(src, k)
				if end < 0 {
					i = j
					continue
				}
			}
			if out == nil {
				out = append([]byte(nil), src...)
			}
			for k := i; k < end; k++ {
				if out[k] != '\n' {
					out[k] = ' '
				}
			}
			if dec.replacement != "" && len(dec.replacement) <= j-i {
				copy(out[i:], dec.replacement)
			}
			masks = append(masks, mask{start: i, end: end, text: string(src[i:end]), dec: dec})
			i = end
		default:
			lineStart = false
			i++
		}
	}
	if out == nil {
		return src, nil
	}
	return out, masks
}

// staticMacroFollows reports whether the text after "static" at j is an
// all-capitals macro whose name contains _DEFINE or _DECLARE followed by '(',
// the Zephyr "static K_SEM_DEFINE(...)" idiom.
func staticMacroFollows(src []byte, j int) bool {
	for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
		j++
	}
	k := j
	for k < len(src) && (src[k] == '_' || (src[k] >= 'A' && src[k] <= 'Z') || (src[k] >= '0' && src[k] <= '9')) {
		k++
	}
	if k == j || k >= len(src) || isIdentPart(src[k]) {
		return false
	}
	name := string(src[j:k])
	if !strings.Contains(name, "_DEFINE") && !strings.Contains(name, "_DECLARE") {
		return false
	}
	for k < len(src) && (src[k] == ' ' || src[k] == '\t') {
		k++
	}
	return k < len(src) && src[k] == '('
}

// skipBlockComment returns the index after the block comment starting at i.
func skipBlockComment(src []byte, i int) int {
	for j := i + 2; j+1 < len(src); j++ {
		if src[j] == '*' && src[j+1] == '/' {
			return j + 2
		}
	}
	return len(src)
}

// skipQuoted returns the index after the string or character literal starting
// at i; an unterminated literal ends at the end of its line.
func skipQuoted[T ~string | ~[]byte](src T, i int) int {
	q := src[i]
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case q:
			return j + 1
		case '\n':
			return j
		}
	}
	return len(src)
}

// maxParenScan bounds how far matchParen looks: decorator and macro
// arguments are short, and an unbounded scan from every '(' would take time
// quadratic in the source.
const maxParenScan = 4 << 10

// matchParen returns the index after the ')' matching the '(' at i, or -1.
func matchParen(src []byte, i int) int {
	depth := 0
	for j := i; j < len(src) && j < i+maxParenScan; j++ {
		switch src[j] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return j + 1
			}
		case '"', '\'':
			j = skipQuoted(src, j) - 1
		case ';', '{', '}':
			return -1
		}
	}
	return -1
}

func isIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isIdentPart(c byte) bool {
	return isIdentStart(c) || (c >= '0' && c <= '9')
}

// typeArgMacro reports whether a macro takes a type name among its arguments
// (Linux container_of and list helpers, Zephyr CONTAINER_OF).
func typeArgMacro(name string) bool {
	switch name {
	case "container_of", "container_of_const", "list_entry", "list_first_entry",
		"list_last_entry", "list_first_entry_or_null", "hlist_entry", "rb_entry",
		"CONTAINER_OF", "SYS_SLIST_CONTAINER", "SYS_DLIST_CONTAINER":
		return true
	}
	return false
}

// blankTypeKeywords replaces the words struct, union and enum in src[from:to]
// by spaces in out (a copy of src made on first change), keeping offsets.
func blankTypeKeywords(src, out []byte, from, to int) []byte {
	for k := from; k < to; {
		if !isIdentStart(src[k]) {
			k++
			continue
		}
		e := k + 1
		for e < to && isIdentPart(src[e]) {
			e++
		}
		if w := string(src[k:e]); (w == "struct" || w == "union" || w == "enum") && (k == 0 || !isIdentPart(src[k-1])) {
			if out == nil {
				out = append([]byte(nil), src...)
			}
			copy(out[k:e], "      "[:e-k])
		}
		k = e
	}
	return out
}
