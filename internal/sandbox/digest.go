package sandbox

import (
	"regexp"
	"slices"
	"strings"
)

// errorLine matches the lines of a build log that say what went wrong:
// compiler diagnostics (gcc, clang, arm-none-eabi-gcc, xtensa-esp32-elf-gcc),
// linker errors, make, CMake, kbuild modpost, west and idf.py failures, dtc
// errors and QEMU faults.
var errorLine = regexp.MustCompile(`(?i)(: (fatal )?error:|: undefined reference to|^collect2: error|ld(\.bfd)?: .*(error|cannot find|undefined)|^make(\[\d+\])?: \*\*\*|^CMake Error|^ERROR: |^FATAL ERROR:|^ninja: build stopped|^Error: \S+:\d+\.\d+|: ERROR \(|^qemu-system-\w+: |HardFault|\*\*\*\*\* .*FATAL)`)

// warningLine matches compiler warnings, shown after errors when room is left.
var warningLine = regexp.MustCompile(`: warning: `)

// Digest reduces a build or run log to what a person (or a model in a
// feedback round) needs: the error lines first (each with the line after it,
// which holds the source excerpt in gcc's format), then warnings, then the
// last tail lines of the log, without repeating a line, at most maxLines in
// all.
func Digest(log string, maxLines, tail int) string {
	lines := strings.Split(strings.ReplaceAll(log, "\r\n", "\n"), "\n")
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	used := make([]bool, len(lines))
	var out []string
	take := func(i int) {
		if i < len(lines) && !used[i] && len(out) < maxLines {
			used[i] = true
			out = append(out, lines[i])
		}
	}
	for i, l := range lines {
		if errorLine.MatchString(l) {
			take(i)
			if i+1 < len(lines) && strings.HasPrefix(lines[i+1], " ") {
				take(i + 1)
			}
		}
	}
	for i, l := range lines {
		if warningLine.MatchString(l) {
			take(i)
		}
	}
	start := len(lines) - tail
	if start < 0 {
		start = 0
	}
	if len(out) > 0 && len(out) < maxLines && slices.Contains(used[start:], false) {
		out = append(out, "...")
	}
	for i := start; i < len(lines); i++ {
		take(i)
	}
	return strings.Join(out, "\n")
}
