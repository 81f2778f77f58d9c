// Package eval evaluates one piece of code for one case through the five layers
// — L0 static, L1 compile, L2 runtime, L3 heuristic, L4 mutation — with the
// seeds' halting rule: the first layer that fails stops the rest, which are
// marked skipped with the reason. L1 and L2 come from a pluggable Toolchain;
// L4 never changes the verdict. It does not load models or score results.
package eval
