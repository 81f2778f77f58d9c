package llm

import (
	"path"
	"regexp"
	"strings"
)

// Block is one fenced code block of a reply.
type Block struct {
	// Info is the fence's info string (the text after the opening fence),
	// trimmed.
	Info string
	// Code is the block's content: every line between the fences, each with
	// its newline. An unterminated block runs to the end of the reply.
	Code string
	// Closed is false when the reply ended before the closing fence.
	Closed bool
}

// Blocks returns the fenced code blocks of a reply in order. Fences are lines
// that start (after any indentation) with three or more backticks or tildes;
// a block is closed by a line holding only a fence of the same character at
// least as long as the opening one. CRLF line ends are read as LF; every
// Code is a substring of the reply with CRLF replaced by LF.
func Blocks(reply string) []Block {
	text := strings.ReplaceAll(reply, "\r\n", "\n")
	var blocks []Block
	pos := 0
	var open *Block
	var fenceChar byte
	fenceLen, bodyStart := 0, 0
	for pos < len(text) {
		end := strings.IndexByte(text[pos:], '\n')
		next := len(text)
		line := text[pos:]
		if end >= 0 {
			line = text[pos : pos+end]
			next = pos + end + 1
		}
		ch, n, rest := fenceOf(line)
		switch {
		case open == nil && n > 0:
			if ch == '`' && strings.Contains(rest, "`") {
				break // not a fence: a backtick fence's info has no backtick
			}
			open = &Block{Info: strings.TrimSpace(rest)}
			fenceChar, fenceLen, bodyStart = ch, n, next
		case open != nil && n >= fenceLen && ch == fenceChar && strings.TrimSpace(rest) == "":
			open.Code = text[bodyStart:pos]
			open.Closed = true
			blocks = append(blocks, *open)
			open = nil
		}
		pos = next
	}
	if open != nil {
		open.Code = text[min(bodyStart, len(text)):]
		blocks = append(blocks, *open)
	}
	return blocks
}

// fenceOf returns the fence character and length that start a line (after
// spaces and tabs), and what follows the fence; n is 0 when the line does not
// start with a fence.
func fenceOf(line string) (byte, int, string) {
	s := strings.TrimLeft(line, " \t")
	if len(s) < 3 || s[0] != '`' && s[0] != '~' {
		return 0, 0, ""
	}
	ch := s[0]
	n := 0
	for n < len(s) && s[n] == ch {
		n++
	}
	if n < 3 {
		return 0, 0, ""
	}
	return ch, n, s[n:]
}

// kindLanguages are the info-string words that mark a block as holding each
// output kind (platform.OutputKind).
func kindLanguages() map[string][]string {
	return map[string][]string{
		"c":          {"c", "h", "cpp", "c++", "cc", "cxx", "hpp", "objc"},
		"kconfig":    {"kconfig", "conf", "config", "ini", "properties", "cfg", "prj.conf"},
		"devicetree": {"dts", "dtsi", "devicetree", "device-tree", "overlay", "dt"},
		"udev":       {"udev", "rules", "udev-rules"},
		"bitbake":    {"bitbake", "bb", "bbappend", "bbclass", "recipe"},
	}
}

var (
	kconfigLine    = regexp.MustCompile(`^\s*(#\s*)?CONFIG_[A-Za-z0-9_]+\s*=`)
	dtsRoot        = regexp.MustCompile(`(?m)^\s*(/|&[A-Za-z_][A-Za-z0-9_,.+-]*)\s*\{`)
	cInclude       = regexp.MustCompile(`(?m)^\s*#\s*include\s*[<"]`)
	udevMatch      = regexp.MustCompile(`(?m)^\s*(ACTION|SUBSYSTEMS?|KERNELS?|ATTRS?\{[^}]*\})\s*==`)
	bitbakeKeyword = regexp.MustCompile(`(?m)^\s*(SRC_URI|LICENSE|LIC_FILES_CHKSUM|inherit|DEPENDS|do_install)\b`)
)

// looksLike reports whether a block's content looks like the kind, for blocks
// whose info string says nothing.
func looksLike(kind, code string) bool {
	switch kind {
	case "c":
		return cInclude.MatchString(code)
	case "kconfig":
		total, cfg := 0, 0
		for _, l := range strings.Split(code, "\n") {
			t := strings.TrimSpace(l)
			if t == "" || strings.HasPrefix(t, "#") && !kconfigLine.MatchString(t) {
				continue
			}
			total++
			if kconfigLine.MatchString(t) {
				cfg++
			}
		}
		return total > 0 && cfg == total
	case "devicetree":
		return dtsRoot.MatchString(code)
	case "udev":
		return udevMatch.MatchString(code)
	case "bitbake":
		return bitbakeKeyword.MatchString(code)
	}
	return false
}

// infoKind returns the output kind an info string names, or "". The first
// word counts, and so does the extension of a file name ("main.c",
// "prj.conf", "app.overlay").
func infoKind(info string) string {
	word := strings.ToLower(strings.TrimSpace(info))
	if i := strings.IndexAny(word, " \t{"); i >= 0 {
		word = word[:i]
	}
	word = strings.TrimPrefix(word, ".")
	if word == "" {
		return ""
	}
	candidates := []string{word}
	if ext := path.Ext(word); ext != "" && ext != word {
		candidates = append(candidates, strings.TrimPrefix(ext, "."))
	}
	langs := kindLanguages()
	for _, cand := range candidates {
		for _, kind := range []string{"c", "kconfig", "devicetree", "udev", "bitbake"} {
			for _, l := range langs[kind] {
				if cand == l {
					return kind
				}
			}
		}
	}
	return ""
}

// ExtractFor returns the code of a reply for an output kind ("c", "kconfig",
// "devicetree", "udev", "bitbake"; see platform.OutputKind). Among the fenced
// blocks it prefers, in order: the longest block whose info string names the
// kind; the longest block whose content looks like the kind (an #include for
// C, only CONFIG_ lines for Kconfig, a "/ {" or "&label {" node for
// devicetree, match keys for udev, recipe variables for BitBake); the longest
// block not marked as another kind; the longest block. A reply without fences
// is returned whole. CRLF line ends become LF, so the result is always a
// substring of the reply with CRLF replaced by LF.
func ExtractFor(reply, kind string) string {
	blocks := Blocks(reply)
	if len(blocks) == 0 {
		return strings.ReplaceAll(reply, "\r\n", "\n")
	}
	pick := func(ok func(Block) bool) (string, bool) {
		best, found := "", false
		for _, b := range blocks {
			if ok(b) && (!found || len(b.Code) > len(best)) {
				best, found = b.Code, true
			}
		}
		return best, found
	}
	if code, ok := pick(func(b Block) bool { return infoKind(b.Info) == kind }); ok {
		return code
	}
	if code, ok := pick(func(b Block) bool { return infoKind(b.Info) == "" && looksLike(kind, b.Code) }); ok {
		return code
	}
	if code, ok := pick(func(b Block) bool { k := infoKind(b.Info); return k == "" || k == kind }); ok {
		return code
	}
	code, _ := pick(func(Block) bool { return true })
	return code
}
