// Package checks runs case check files written in Starlark: checks/static.star
// (L0), checks/behavior.star (L3) and checks/negatives.star (L4). It owns the
// hermetic interpreter set-up (no I/O, no load(); step, wall-clock, value-size
// and memory limits per call, enforced by instrumenting each check file, see
// instrument.go and guards.go), the helper modules predeclared for check
// authors, the
// conversion of returned values into check records with precise errors, and the
// scope audit of check sources. It does not decide layer order or verdicts;
// package eval does.
package checks
