package cexpr

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Num is a value of a C arithmetic type: an integer (Int) or, when Float is
// set, a floating-point value F of type float (F32) or double.
type Num struct {
	Int   Value
	Float bool
	F     float64
	F32   bool
}

// IntNum is the Num of an integer value.
func IntNum(v Value) Num { return Num{Int: v} }

// FloatNum is the Num of a double (or, with f32, a float) value.
func FloatNum(x float64, f32 bool) Num {
	if f32 {
		x = float64(float32(x))
	}
	return Num{Float: true, F: x, F32: f32}
}

// Float64 is the value as a float64 (integers converted).
func (n Num) Float64() float64 {
	switch {
	case n.Float:
		return n.F
	case n.Int.Unsigned:
		return float64(n.Int.Bits)
	}
	return float64(n.Int.Int64())
}

// truth is the value compared with 0, as by if and !.
func (n Num) truth() bool {
	if n.Float {
		return n.F != 0
	}
	return n.Int.Bits != 0
}

// neg is -n.
func (n Num) neg() Num {
	if n.Float {
		return FloatNum(-n.F, n.F32)
	}
	return Num{Int: mk(-n.Int.Bits, n.Int.Width, n.Int.Unsigned)}
}

// ctype is the type of a cast: an integer of width and signedness, or a
// floating type (float when f32).
type ctype struct {
	width  int
	signed bool
	float  bool
	f32    bool
}

// floatType reads a floating cast's type name: float, double, long double.
func floatType(words []string) (ctype, bool) {
	t := ctype{float: true}
	seen := false
	for _, w := range words {
		switch w {
		case "const", "volatile", "long":
		case "float", "float32_t":
			t.f32, seen = true, true
		case "double", "float64_t":
			seen = true
		default:
			return ctype{}, false
		}
	}
	return t, seen
}

// castNum converts v to t: a float to an integer truncates toward zero and
// fails when the result does not fit the type.
func castNum(v Num, t ctype) (Num, error) {
	switch {
	case !t.float && t.width == 0:
		return v, nil // a type of unknown width: keep the value
	case t.float:
		return FloatNum(v.Float64(), t.f32), nil
	case !v.Float:
		return Num{Int: cast(v.Int, t.width, t.signed)}, nil
	}
	x := math.Trunc(v.F)
	lo, hi := -math.Ldexp(1, t.width-1), math.Ldexp(1, t.width-1)
	if !t.signed {
		lo, hi = 0, math.Ldexp(1, t.width)
	}
	if math.IsNaN(x) || x < lo || x >= hi {
		return Num{}, fmt.Errorf("%g does not fit a %d-bit integer", v.F, t.width)
	}
	if t.signed {
		return Num{Int: cast(mk(uint64(int64(x)), 64, false), t.width, true)}, nil
	}
	return Num{Int: cast(mk(uint64(x), 64, true), t.width, false)}, nil
}

// convertNum applies the usual arithmetic conversions to a pair: when one is
// floating both become the wider floating type.
func convertNum(a, b Num) (Num, Num) {
	if !a.Float && !b.Float {
		x, y := convert(a.Int, b.Int)
		return Num{Int: x}, Num{Int: y}
	}
	f32 := (!a.Float || a.F32) && (!b.Float || b.F32)
	return FloatNum(a.Float64(), f32), FloatNum(b.Float64(), f32)
}

// applyNum applies a binary operator, in floating point when an operand is.
func applyNum(op string, a, b Num) (Num, error) {
	if !a.Float && !b.Float {
		v, err := apply(op, a.Int, b.Int)
		return Num{Int: v}, err
	}
	switch op {
	case "||":
		return Num{Int: b2i(a.truth() || b.truth())}, nil
	case "&&":
		return Num{Int: b2i(a.truth() && b.truth())}, nil
	}
	a, b = convertNum(a, b)
	x, y := a.F, b.F
	switch op {
	case "==":
		return Num{Int: b2i(x == y)}, nil
	case "!=":
		return Num{Int: b2i(x != y)}, nil
	case "<":
		return Num{Int: b2i(x < y)}, nil
	case "<=":
		return Num{Int: b2i(x <= y)}, nil
	case ">":
		return Num{Int: b2i(x > y)}, nil
	case ">=":
		return Num{Int: b2i(x >= y)}, nil
	}
	r, err := floatArith(op, x, y)
	if err != nil {
		return Num{}, err
	}
	return FloatNum(r, a.F32), nil
}

// floatArith is x op y for the arithmetic operators of floating types.
func floatArith(op string, x, y float64) (float64, error) {
	var r float64
	switch op {
	case "+":
		r = x + y
	case "-":
		r = x - y
	case "*":
		r = x * y
	case "/":
		if y == 0 {
			return 0, errors.New("division by zero")
		}
		r = x / y
	default:
		return 0, fmt.Errorf("operator %s on a floating-point value", op)
	}
	if math.IsInf(r, 0) || math.IsNaN(r) {
		return 0, fmt.Errorf("%g %s %g overflows", x, op, y)
	}
	return r, nil
}

// numberEnd is the end of the numeric literal starting at s[i]: letters,
// digits and dots, and with floats an exponent's sign ("1e-3").
func numberEnd(s string, i int, floats bool) int {
	hex := strings.HasPrefix(s[i:], "0x") || strings.HasPrefix(s[i:], "0X")
	j := i
	for j < len(s) {
		c := s[j]
		switch {
		case isIdentByte(c) || c == '.':
			j++
		case floats && !hex && (c == '+' || c == '-') && (s[j-1] == 'e' || s[j-1] == 'E'):
			j++
		default:
			return j
		}
	}
	return j
}

// literal parses a numeric literal: an integer (see number) or, with floats,
// a decimal floating literal with an optional f/F (float) or l/L suffix.
func literal(lit string, floats bool) (Num, error) {
	hex := strings.HasPrefix(lit, "0x") || strings.HasPrefix(lit, "0X")
	isFloat := strings.Contains(lit, ".") || !hex && strings.ContainsAny(lit, "eE")
	if !floats || !isFloat {
		v, err := number(lit)
		return Num{Int: v}, err
	}
	if hex {
		return Num{}, fmt.Errorf("unsupported hexadecimal floating literal %s", lit)
	}
	body := strings.TrimRight(lit, "fFlL")
	suffix := strings.ToLower(lit[len(body):])
	if len(suffix) > 1 {
		return Num{}, fmt.Errorf("bad floating literal %s", lit)
	}
	x, err := strconv.ParseFloat(body, 64)
	if err != nil || math.IsInf(x, 0) {
		return Num{}, fmt.Errorf("bad floating literal %s", lit)
	}
	return FloatNum(x, suffix == "f"), nil
}
