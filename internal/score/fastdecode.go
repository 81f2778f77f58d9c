package score

import (
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"unicode/utf8"

	"github.com/embedeval/embedeval-go/internal/result"
)

// This file holds the fast path of the result reader: a hand-written decoder
// for one JSON result line that fills only the fields the Scorer reads (see
// ScoredFields) and skips everything else, generated_code included, without
// allocating.
//
// The fast decoder is a filter, not a second source of truth. It accepts a
// line only when it is certain that encoding/json (with unknown fields
// disallowed, as decodeLine uses it) accepts the same line and yields the same
// values for the scored fields; on anything else (any syntax error, unknown or
// repeated key, wrong type, escaped or invalid UTF-8 text in a kept string,
// a number it cannot vouch for) it gives up and the line goes through
// decodeLine, so error messages and edge cases are exactly encoding/json's.

// ScoredFields returns the part of r that the Scorer reads; it is what the
// reader hands out whichever decoder produced the record.
func ScoredFields(r *result.EvalResult) result.EvalResult {
	out := result.EvalResult{
		CaseID:        r.CaseID,
		Model:         r.Model,
		Attempt:       r.Attempt,
		FailedAtLayer: r.FailedAtLayer,
		Passed:        r.Passed,
		Status:        r.Status,
		Scenario:      r.Scenario,
		Mutation:      r.Mutation,
		InfraError:    r.InfraError,
	}
	if r.Layers != nil {
		out.Layers = make([]result.LayerResult, len(r.Layers))
		for i, l := range r.Layers {
			o := &out.Layers[i]
			o.Layer, o.Status = l.Layer, l.Status
			if l.Details != nil {
				o.Details = make([]result.CheckDetail, len(l.Details))
				for j, d := range l.Details {
					o.Details[j] = result.CheckDetail{CheckName: d.CheckName, Passed: d.Passed, CheckType: d.CheckType, Inconclusive: d.Inconclusive}
				}
			}
		}
	}
	return out
}

// slabRows is how many layers or checks one allocation of a decoder's slabs
// holds.
const slabRows = 512

// maxInterned bounds the intern table of one decoder.
const maxInterned = 8192

// lineDecoder is the fast decoder of one worker. Strings that repeat across
// records (model, case id, status, check names) are interned, and layers and
// check details are carved out of shared slabs, so a typical record costs
// no allocation beyond its share of a slab. Not safe for concurrent use.
type lineDecoder struct {
	intern  map[string]string
	layers  []result.LayerResult
	details []result.CheckDetail
	// Scratch state of the line being decoded.
	b []byte
	i int
}

func newLineDecoder() *lineDecoder {
	return &lineDecoder{intern: make(map[string]string)}
}

// decode decodes one trimmed line (no byte order mark, no surrounding space)
// into r, which must be zero. It reports false, leaving r in an unspecified
// state, when the line must go through encoding/json instead.
func (d *lineDecoder) decode(line []byte, r *result.EvalResult) bool {
	d.b, d.i = line, 0
	ok := d.record(r)
	d.b = nil
	return ok
}

// Field bits of a result record, for detecting repeated keys.
const (
	fCaseID = 1 << iota
	fModel
	fAttempt
	fGeneratedCode
	fLayers
	fFailedAtLayer
	fPassed
	fStatus
	fTotalTime
	fScenario
	fMutation
	fFeedbackRounds
	fTurns
	fTokenUsage
	fCostUSD
	fGenerationSeconds
	fInfraError
	fNotes
)

func (d *lineDecoder) record(r *result.EvalResult) bool {
	var seen uint32
	ok := d.object(func(key []byte) bool {
		var bit uint32
		var ok bool
		switch string(key) {
		case "case_id":
			bit, ok = fCaseID, d.keepString(&r.CaseID)
		case "model":
			bit, ok = fModel, d.keepString(&r.Model)
		case "attempt":
			// null would leave attempt missing: encoding/json reports that.
			bit = fAttempt
			r.Attempt, ok = d.int()
		case "generated_code":
			bit, ok = fGeneratedCode, d.skipString(true)
		case "layers":
			bit, ok = fLayers, d.layerList(&r.Layers)
		case "failed_at_layer":
			bit = fFailedAtLayer
			if d.null() {
				ok = true
				break
			}
			var n int
			if n, ok = d.int(); ok {
				r.FailedAtLayer = &n
			}
		case "passed":
			bit, ok = fPassed, d.bool(&r.Passed)
		case "status":
			var s string
			bit, ok = fStatus, d.keepString(&s)
			r.Status = result.Status(s)
		case "total_time_seconds":
			bit, ok = fTotalTime, d.float()
		case "scenario":
			bit, ok = fScenario, d.keepString(&r.Scenario)
		case "mutation":
			bit, ok = fMutation, d.keepString(&r.Mutation)
		case "feedback_rounds":
			bit, ok = fFeedbackRounds, d.skipInt()
		case "turns":
			bit, ok = fTurns, d.skipInt()
		case "token_usage":
			bit, ok = fTokenUsage, d.tokenUsage()
		case "cost_usd":
			bit, ok = fCostUSD, d.float()
		case "generation_seconds":
			bit, ok = fGenerationSeconds, d.float()
		case "infra_error":
			bit, ok = fInfraError, d.keepString(&r.InfraError)
		case "notes":
			bit, ok = fNotes, d.stringList()
		default:
			return false
		}
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		return ok
	})
	if !ok || seen&fAttempt == 0 {
		return false
	}
	d.space()
	return d.i == len(d.b)
}

// Field bits of a layer.
const (
	lLayer = 1 << iota
	lName
	lPassed
	lStatus
	lReason
	lDetails
	lError
	lDuration
	lMutations
)

func (d *lineDecoder) layerList(dst *[]result.LayerResult) bool {
	return decodeList(d, &d.layers, dst, d.layer)
}

func (d *lineDecoder) layer(l *result.LayerResult) bool {
	var seen uint32
	return d.object(func(key []byte) bool {
		var bit uint32
		var ok bool
		switch string(key) {
		case "layer":
			bit = lLayer
			l.Layer, ok = d.intOrNull()
		case "name":
			bit, ok = lName, d.skipString(true)
		case "passed":
			var b bool
			bit, ok = lPassed, d.bool(&b)
		case "status":
			var s string
			bit, ok = lStatus, d.keepString(&s)
			l.Status = result.Status(s)
		case "reason":
			bit, ok = lReason, d.skipString(true)
		case "details":
			bit, ok = lDetails, d.detailList(&l.Details)
		case "error":
			bit, ok = lError, d.skipString(true)
		case "duration_seconds":
			bit, ok = lDuration, d.float()
		case "mutations":
			bit, ok = lMutations, d.mutationList()
		default:
			return false
		}
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		return ok
	})
}

// Field bits of a check detail.
const (
	cCheckName = 1 << iota
	cPassed
	cExpected
	cActual
	cCheckType
	cWeight
	cInconclusive
	cRequirement
)

func (d *lineDecoder) detailList(dst *[]result.CheckDetail) bool {
	return decodeList(d, &d.details, dst, d.detail)
}

func (d *lineDecoder) detail(c *result.CheckDetail) bool {
	var seen uint32
	return d.object(func(key []byte) bool {
		var bit uint32
		var ok bool
		switch string(key) {
		case "check_name":
			bit, ok = cCheckName, d.keepString(&c.CheckName)
		case "passed":
			bit, ok = cPassed, d.bool(&c.Passed)
		case "expected":
			bit, ok = cExpected, d.skipString(true)
		case "actual":
			bit, ok = cActual, d.skipString(true)
		case "check_type":
			bit, ok = cCheckType, d.keepString(&c.CheckType)
		case "weight":
			bit, ok = cWeight, d.float()
		case "inconclusive":
			bit, ok = cInconclusive, d.bool(&c.Inconclusive)
		case "requirement":
			bit, ok = cRequirement, d.skipString(true)
		default:
			return false
		}
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		return ok
	})
}

// mutationList validates and skips a layer's mutations.
func (d *lineDecoder) mutationList() bool {
	return d.list(func() bool {
		var seen uint32
		return d.object(func(key []byte) bool {
			var bit uint32
			var ok bool
			switch string(key) {
			case "name":
				bit, ok = 1, d.skipString(true)
			case "outcome":
				bit, ok = 2, d.skipString(true)
			case "must_fail":
				bit, ok = 4, d.verdictList()
			case "should_fail":
				bit, ok = 8, d.verdictList()
			case "error":
				bit, ok = 16, d.skipString(true)
			default:
				return false
			}
			if seen&bit != 0 {
				return false
			}
			seen |= bit
			return ok
		})
	})
}

func (d *lineDecoder) verdictList() bool {
	return d.list(func() bool {
		var seen uint32
		return d.object(func(key []byte) bool {
			var bit uint32
			var ok bool
			var b bool
			switch string(key) {
			case "check_name":
				bit, ok = 1, d.skipString(true)
			case "caught":
				bit, ok = 2, d.bool(&b)
			case "missing":
				bit, ok = 4, d.bool(&b)
			case "inconclusive":
				bit, ok = 8, d.bool(&b)
			default:
				return false
			}
			if seen&bit != 0 {
				return false
			}
			seen |= bit
			return ok
		})
	})
}

func (d *lineDecoder) tokenUsage() bool {
	if d.null() {
		return true
	}
	var seen uint32
	return d.object(func(key []byte) bool {
		var bit uint32
		switch string(key) {
		case "input_tokens":
			bit = 1
		case "output_tokens":
			bit = 2
		default:
			return false
		}
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		return d.skipInt()
	})
}

// stringList validates and skips an array of strings (or null). A null
// element is left to encoding/json.
func (d *lineDecoder) stringList() bool {
	return d.list(func() bool { return d.skipString(false) })
}

// list validates an array whose elements elem consumes, or null.
func (d *lineDecoder) list(elem func() bool) bool {
	if d.null() {
		return true
	}
	if !d.consume('[') {
		return false
	}
	d.space()
	if d.consume(']') {
		return true
	}
	for {
		if !elem() {
			return false
		}
		d.space()
		if d.consume(']') {
			return true
		}
		if !d.consume(',') {
			return false
		}
		d.space()
	}
}

// object parses an object (not null), calling field for every key with the
// position on the value; field must consume the value.
func (d *lineDecoder) object(field func(key []byte) bool) bool {
	if !d.consume('{') {
		return false
	}
	d.space()
	if d.consume('}') {
		return true
	}
	for {
		// Keys are matched exactly; an escaped key, or one that only
		// matches a field case-insensitively, goes to encoding/json.
		if !d.consume('"') {
			return false
		}
		start := d.i
		for d.i < len(d.b) && d.b[d.i] != '"' && d.b[d.i] != '\\' && d.b[d.i] >= 0x20 {
			d.i++
		}
		if !d.consume('"') {
			return false
		}
		key := d.b[start : d.i-1]
		d.space()
		if !d.consume(':') {
			return false
		}
		d.space()
		if !field(key) {
			return false
		}
		d.space()
		if d.consume('}') {
			return true
		}
		if !d.consume(',') {
			return false
		}
		d.space()
	}
}

func (d *lineDecoder) consume(c byte) bool {
	if d.i < len(d.b) && d.b[d.i] == c {
		d.i++
		return true
	}
	return false
}

// space skips JSON white space.
func (d *lineDecoder) space() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *lineDecoder) literal(s string) bool {
	if len(d.b)-d.i >= len(s) && string(d.b[d.i:d.i+len(s)]) == s {
		d.i += len(s)
		return true
	}
	return false
}

// null consumes a null literal if there is one.
func (d *lineDecoder) null() bool { return d.literal("null") }

// bool decodes true, false or null (which leaves *v as it is).
func (d *lineDecoder) bool(v *bool) bool {
	switch {
	case d.literal("true"):
		*v = true
	case d.literal("false"):
		*v = false
	case d.null():
	default:
		return false
	}
	return true
}

// int decodes a JSON integer of at most 9 digits (so it fits an int on every
// platform); anything else, a fraction or exponent included, is left to
// encoding/json.
func (d *lineDecoder) int() (int, bool) {
	neg := d.consume('-')
	start := d.i
	n := 0
	for d.i < len(d.b) && d.b[d.i] >= '0' && d.b[d.i] <= '9' {
		n = n*10 + int(d.b[d.i]-'0')
		d.i++
	}
	digits := d.i - start
	if digits == 0 || digits > 9 || (digits > 1 && d.b[start] == '0') {
		return 0, false
	}
	if d.i < len(d.b) {
		switch d.b[d.i] {
		case '.', 'e', 'E':
			return 0, false
		}
	}
	if neg {
		n = -n
	}
	return n, true
}

// intOrNull is int, with null meaning zero.
func (d *lineDecoder) intOrNull() (int, bool) {
	if d.null() {
		return 0, true
	}
	return d.int()
}

// skipInt validates an int field the scorer does not read (null allowed).
func (d *lineDecoder) skipInt() bool {
	_, ok := d.intOrNull()
	return ok
}

// float validates a float64 field the scorer does not read: a JSON number
// (or null) that is certainly within float64 range.
func (d *lineDecoder) float() bool {
	if d.null() {
		return true
	}
	d.consume('-')
	start := d.i
	for d.i < len(d.b) && d.b[d.i] >= '0' && d.b[d.i] <= '9' {
		d.i++
	}
	intDigits := d.i - start
	if intDigits == 0 || (intDigits > 1 && d.b[start] == '0') {
		return false
	}
	if d.consume('.') {
		fs := d.i
		for d.i < len(d.b) && d.b[d.i] >= '0' && d.b[d.i] <= '9' {
			d.i++
		}
		if d.i == fs {
			return false
		}
	}
	exp := 0
	if d.i < len(d.b) && (d.b[d.i] == 'e' || d.b[d.i] == 'E') {
		d.i++
		negExp := false
		if d.i < len(d.b) && (d.b[d.i] == '+' || d.b[d.i] == '-') {
			negExp = d.b[d.i] == '-'
			d.i++
		}
		es := d.i
		for d.i < len(d.b) && d.b[d.i] >= '0' && d.b[d.i] <= '9' {
			exp = exp*10 + int(d.b[d.i]-'0')
			d.i++
		}
		if d.i == es || d.i-es > 4 {
			return false
		}
		if negExp {
			exp = -exp
		}
	}
	// Below 10^300 there is no overflow; underflow rounds to zero without
	// an error in encoding/json too.
	return intDigits+exp <= 300
}

// keepString decodes a string (or null, which leaves *dst as it is) into
// *dst, interning short ones.
func (d *lineDecoder) keepString(dst *string) bool {
	if d.null() {
		return true
	}
	start := d.i
	plain, esc, ok := d.scanString()
	if !ok {
		return false
	}
	raw := d.b[start+1 : d.i-1]
	if esc || !plain && !utf8.Valid(raw) {
		// Escapes and invalid UTF-8 (replaced by U+FFFD) are rare: let
		// encoding/json give the exact value.
		var s string
		if json.Unmarshal(d.b[start:d.i], &s) != nil {
			return false
		}
		*dst = s
		return true
	}
	if s, ok := d.intern[string(raw)]; ok {
		*dst = s
		return true
	}
	s := string(raw)
	if len(raw) <= 128 && len(d.intern) < maxInterned {
		d.intern[s] = s
	}
	*dst = s
	return true
}

// skipString validates and skips a string, or null when nullOK.
func (d *lineDecoder) skipString(nullOK bool) bool {
	if nullOK && d.null() {
		return true
	}
	_, _, ok := d.scanString()
	return ok
}

// SWAR constants: one in every byte, and the top bit of every byte.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// scanString moves past the string at the position, checking it as
// encoding/json's scanner does (no control characters, only valid escapes;
// invalid UTF-8 is allowed). plain reports that the raw bytes are pure
// ASCII (it may be false for an ASCII string near non-ASCII bytes), esc
// that they hold an escape.
func (d *lineDecoder) scanString() (plain, esc, ok bool) {
	if !d.consume('"') {
		return false, false, false
	}
	b, i := d.b, d.i
	var high uint64
	for {
		// Eight bytes at a time while none is a quote, a backslash or a
		// control character.
		for i+8 <= len(b) {
			w := binary.LittleEndian.Uint64(b[i:])
			q := w ^ ('"' * ones)
			s := w ^ ('\\' * ones)
			high |= w
			if m := ((w-0x20*ones)&^w | (q-ones)&^q | (s-ones)&^s) & highs; m != 0 {
				// The lowest flagged byte is exact (borrows only
				// run upwards): jump to it.
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i >= len(b) {
			return false, false, false
		}
		c := b[i]
		switch {
		case c == '"':
			d.i = i + 1
			return high&highs == 0, esc, true
		case c == '\\':
			esc = true
			if i+1 >= len(b) {
				return false, false, false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) || !isHex(b[i+5]) {
					return false, false, false
				}
				i += 6
			default:
				return false, false, false
			}
		case c < 0x20:
			return false, false, false
		default:
			high |= uint64(c)
			i++
		}
	}
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// decodeList decodes a JSON array (or null) of objects into rows appended
// to *slab, pointing *dst at them; item decodes one row in place. Rows of
// one array stay contiguous: when the slab is full, growSlab moves them.
func decodeList[T any](d *lineDecoder, slab *[]T, dst *[]T, item func(*T) bool) bool {
	if d.null() {
		return true
	}
	if !d.consume('[') {
		return false
	}
	if len(*slab) == cap(*slab) {
		// A fresh slab also makes [] non-nil, as encoding/json has it.
		*slab = growSlab(*slab, len(*slab))
	}
	start := len(*slab)
	d.space()
	if d.consume(']') {
		*dst = (*slab)[start:start:start]
		return true
	}
	for {
		if len(*slab) == cap(*slab) {
			*slab = growSlab(*slab, start)
			start = 0
		}
		*slab = (*slab)[:len(*slab)+1]
		row := &(*slab)[len(*slab)-1]
		var zero T
		*row = zero
		if !item(row) {
			return false
		}
		d.space()
		if d.consume(']') {
			break
		}
		if !d.consume(',') {
			return false
		}
		d.space()
	}
	end := len(*slab)
	*dst = (*slab)[start:end:end]
	return true
}

// growSlab starts a new slab for a record whose rows so far are s[start:],
// moving those rows to it.
func growSlab[T any](s []T, start int) []T {
	n := len(s) - start
	fresh := make([]T, n, max(slabRows, 2*n))
	copy(fresh, s[start:])
	return fresh
}
