package checks

// valueBuiltins are the c.* builtins that compute values through code.
func valueBuiltins() map[string]builtinFunc {
	return map[string]builtinFunc{}
}
