package checks

// traceBuiltins are the c.* builtins that walk execution traces.
func traceBuiltins() map[string]builtinFunc {
	return map[string]builtinFunc{}
}
