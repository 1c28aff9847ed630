package engine

import (
	"bytes"
	"encoding"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/toolgen/toolgen/runtime/internal/argcheck"
	"github.com/toolgen/toolgen/runtime/invalid"
	prog "github.com/toolgen/toolgen/runtime/invalid/message"
	"github.com/toolgen/toolgen/runtime/jsonread"
)

// String reads a string. Short strings share their storage with others this Decoder
// returned (up to 8 KiB of them): a program that keeps a short string for long while
// dropping the rest of the call's values may copy it with strings.Clone.
func (d *Decoder) String() (string, bool) {
	// A plain string, the usual case, here; anything else through stringAs.
	if !d.broken && d.pos < len(d.data) && d.data[d.pos] == '"' {
		b, start := d.data, d.pos+1
		var end int
		if start+8 <= len(b) {
			if special := jsonread.Special8(binary.LittleEndian.Uint64(b[start:])); special != 0 {
				end = start + bits.TrailingZeros64(special)/8
			} else {
				end = jsonread.PlainEnd(b, start+8)
			}
		} else {
			end = jsonread.PlainEnd(b, start)
		}
		if end < len(b) && b[end] == '"' {
			s := d.keep(b[start:end])
			d.valStart, d.pos = d.pos, end+1
			return s, true
		}
	}
	b, ok := d.stringAs("a string")
	if !ok {
		return "", false
	}
	return d.keep(b), true
}

// Strings up to maxSharedString bytes share chunks of at most maxChunk bytes.
const (
	maxSharedString = 512
	maxChunk        = 8 << 10
)

// keep returns b as a string. A short string is copied into d.chunk, which the short
// strings of this call and of later ones share, so that a call with many strings
// costs a few allocations instead of one per string. The bytes a string was given are
// never written again, so strings stay immutable; a new chunk is made when one is full,
// sized by the text left to read (which bounds the strings still to come) within
// maxChunk. The price: a string a tool keeps keeps its chunk alive, at most maxChunk
// bytes, and never more than the text the strings in it came from.
func (d *Decoder) keep(b []byte) string {
	// The usual case first: a short string, with room left in the chunk.
	c := d.chunk
	off, n := len(c), len(b)
	if uint(n-1) < maxSharedString && n <= cap(c)-off {
		d.chunk = d.chunk[:off+n] // the length alone: no pointer written
		c = c[:off+n]
		copy(c[off:], b)
		return unsafe.String(&c[off], n)
	}
	return d.keepInNewChunk(b)
}

// keepInNewChunk is keep for the empty string, a long one, and one that needs a new
// chunk.
func (d *Decoder) keepInNewChunk(b []byte) string {
	n := len(b)
	switch {
	case n == 0:
		return ""
	case n > maxSharedString:
		return string(b)
	}
	size := max(min(len(d.data)-d.pos, maxChunk), 64, n)
	d.chunk = make([]byte, n, size)
	copy(d.chunk, b)
	return unsafe.String(&d.chunk[0], n)
}

// StringBytes reads a string and returns its contents without copying them; they are
// valid until the next read. Generated code uses it to match enum values without
// allocating.
func (d *Decoder) StringBytes() ([]byte, bool) { return d.stringAs("a string") }

func (d *Decoder) stringAs(want string) ([]byte, bool) {
	if d.broken {
		return nil, false
	}
	if d.peek() != '"' {
		d.mismatch(want)
		return nil, false
	}
	d.valStart = d.pos
	// The common case, a string without escapes or non-ASCII bytes, here; anything
	// else in readString.
	b := d.data
	i := jsonread.PlainEnd(b, d.pos+1)
	if i < len(b) && b[i] == '"' {
		s := b[d.pos+1 : i]
		d.pos = i + 1
		return s, true
	}
	return d.readString()
}

// Bool reads a boolean.
func (d *Decoder) Bool() (v, ok bool) {
	if d.broken {
		return false, false
	}
	switch d.peek() {
	case 't':
		d.valStart = d.pos
		return true, d.literal("true")
	case 'f':
		d.valStart = d.pos
		return false, d.literal("false")
	}
	d.mismatch("a boolean")
	return false, false
}

// number reads a number for a reader that wants one, reporting a type violation for
// any other value.
func (d *Decoder) number(want string) ([]byte, bool) {
	if d.broken {
		return nil, false
	}
	if c := d.peek(); c != '-' && (c < '0' || c > '9') {
		d.mismatch(want)
		return nil, false
	}
	d.valStart = d.pos
	return d.readNumber()
}

// integerDigits reads a JSON number as an integer: its sign and magnitude. ok is false
// when the number is not integral (2.5, 1e-1); a number written with a fraction or an
// exponent is an integer when its value is one (2.0, 1e1, 150e-1), as JSON Schema says.
// overflow is true past 2^64-1. It costs one pass over the text, whatever the exponent.
func integerDigits(num []byte) (neg bool, mag uint64, ok, overflow bool) {
	dec, valid := parseDecimal(num)
	if !valid {
		return false, 0, false, false
	}
	neg = dec.neg
	if dec.zero() {
		return neg, 0, true, false
	}
	if dec.exp < 0 {
		// The digits end in a digit other than zero: a fraction remains.
		return neg, 0, false, false
	}
	if int64(dec.len())+dec.exp > 20 {
		return neg, 0, true, true
	}
	for _, part := range [2][]byte{dec.hi, dec.lo} {
		for _, c := range part {
			hi, lo := bits.Mul64(mag, 10)
			lo, carry := bits.Add64(lo, uint64(c-'0'), 0)
			if hi != 0 || carry != 0 {
				return neg, 0, true, true
			}
			mag = lo
		}
	}
	for range dec.exp {
		hi, lo := bits.Mul64(mag, 10)
		if hi != 0 {
			return neg, 0, true, true
		}
		mag = lo
	}
	return neg, mag, true, false
}

// decimal is a JSON number as sign × digits × 10^exp, where digits, the bytes of hi
// then lo, have no leading or trailing zeros ("" for zero). hi and lo are the
// significant parts of the number's integer and fraction digits, in its text.
type decimal struct {
	neg    bool
	hi, lo []byte
	exp    int64
}

func (x decimal) zero() bool { return len(x.hi)+len(x.lo) == 0 }
func (x decimal) len() int   { return len(x.hi) + len(x.lo) }

// maxExponent bounds the exponents parseDecimal keeps: far past any float, and far
// from overflowing an int64 when digit counts are added to it.
const maxExponent = 1 << 40

// parseDecimal splits the text of a JSON number, in one pass, without allocating.
func parseDecimal(num []byte) (x decimal, ok bool) {
	i := 0
	if i < len(num) && num[i] == '-' {
		x.neg = true
		i++
	}
	start := i
	for i < len(num) && '0' <= num[i] && num[i] <= '9' {
		i++
	}
	intPart := num[start:i]
	var frac []byte
	if i < len(num) && num[i] == '.' {
		i++
		start = i
		for i < len(num) && '0' <= num[i] && num[i] <= '9' {
			i++
		}
		frac = num[start:i]
	}
	if len(intPart) == 0 {
		return x, false
	}
	var exp int64
	if i < len(num) && (num[i] == 'e' || num[i] == 'E') {
		i++
		expNeg := false
		if i < len(num) && (num[i] == '+' || num[i] == '-') {
			expNeg = num[i] == '-'
			i++
		}
		if i == len(num) {
			return x, false
		}
		for ; i < len(num); i++ {
			c := num[i]
			if c < '0' || c > '9' {
				return x, false
			}
			if exp < maxExponent {
				exp = exp*10 + int64(c-'0')
			}
		}
		if expNeg {
			exp = -exp
		}
	}
	if i != len(num) {
		return x, false
	}
	// Leading zeros do not count; trailing ones move into the exponent.
	exp -= int64(len(frac))
	for len(intPart) > 0 && intPart[0] == '0' {
		intPart = intPart[1:]
	}
	if len(intPart) == 0 {
		for len(frac) > 0 && frac[0] == '0' {
			frac = frac[1:]
		}
	}
	for len(frac) > 0 && frac[len(frac)-1] == '0' {
		frac = frac[:len(frac)-1]
		exp++
	}
	if len(frac) == 0 {
		for len(intPart) > 0 && intPart[len(intPart)-1] == '0' {
			intPart = intPart[:len(intPart)-1]
			exp++
		}
	}
	x.hi, x.lo, x.exp = intPart, frac, exp
	if x.zero() {
		x.exp = 0
	}
	return x, true
}

// smallInt reads the next value when it is an integer of at most 17 digits, the usual
// case, in one pass; it reports false, reading nothing, for any other value, which
// Int and Uint then read through number.
func (d *Decoder) smallInt() (int64, bool) {
	if d.broken {
		return 0, false
	}
	b, i := d.data, d.pos
	if i < len(b) && b[i] <= ' ' {
		i = jsonread.SkipSpace(b, i)
		d.pos = i
	}
	if i >= len(b) {
		return 0, false
	}
	start := i
	neg := b[i] == '-'
	if neg {
		i++
	}
	first := i
	// Every digit is read: past 17 of them n wraps, harmlessly, since the number is
	// then left to the general path.
	var n int64
	for i < len(b) {
		c := b[i] - '0'
		if c > 9 {
			break
		}
		n = n*10 + int64(c)
		i++
	}
	digits := i - first
	if digits == 0 || digits > 17 || b[first] == '0' && digits > 1 ||
		i < len(b) && (b[i] == '.' || b[i]|0x20 == 'e') {
		return 0, false
	}
	d.valStart, d.pos = start, i
	if neg {
		n = -n
	}
	return n, true
}

// Int reads an integer and checks that it lies in [min, max], the tighter of the Go
// type's range and the schema's inclusive bounds. Any integral number is an integer,
// however it is written (2, 2.0, 1e1), as JSON Schema says; 2.5 is not.
func (d *Decoder) Int(min, max int64) (int64, bool) {
	if n, ok := d.smallInt(); ok {
		if min <= n && n <= max {
			return n, true
		}
		return d.intInRange(n, min, max)
	}
	num, ok := d.number("an integer")
	if !ok {
		return 0, false
	}
	neg, mag, isInt, overflow := integerDigits(num)
	if !isInt {
		d.Fail(invalid.Type, "must be an integer")
		return 0, false
	}
	var n int64
	switch {
	case overflow || !neg && mag > math.MaxInt64 || neg && mag > 1<<63:
		d.Fail(invalid.Range, "is out of range for a 64-bit integer")
		return 0, false
	case neg:
		n = -int64(mag)
	default:
		n = int64(mag)
	}
	return d.intInRange(n, min, max)
}

// intInRange checks that n, just read, lies in [min, max].
func (d *Decoder) intInRange(n, min, max int64) (int64, bool) {
	if n < min {
		if !d.failing() {
			d.Fail(invalid.Minimum, prog.Bound("minimum", strconv.FormatInt(min, 10)))
		}
		return 0, false
	}
	if n > max {
		if !d.failing() {
			d.Fail(invalid.Maximum, prog.Bound("maximum", strconv.FormatInt(max, 10)))
		}
		return 0, false
	}
	return n, true
}

// Uint reads a non-negative integer and checks that it lies in [min, max].
func (d *Decoder) Uint(min, max uint64) (uint64, bool) {
	if n, ok := d.smallInt(); ok {
		switch u := uint64(n); {
		case n < 0 || u < min:
			if !d.failing() {
				d.Fail(invalid.Minimum, prog.Bound("minimum", strconv.FormatUint(min, 10)))
			}
			return 0, false
		case u > max:
			if !d.failing() {
				d.Fail(invalid.Maximum, prog.Bound("maximum", strconv.FormatUint(max, 10)))
			}
			return 0, false
		default:
			return u, true
		}
	}
	num, ok := d.number("an integer")
	if !ok {
		return 0, false
	}
	neg, mag, isInt, overflow := integerDigits(num)
	switch {
	case !isInt:
		d.Fail(invalid.Type, "must be an integer")
		return 0, false
	case neg && mag != 0:
		if !d.failing() {
			d.Fail(invalid.Minimum, prog.Bound("minimum", strconv.FormatUint(min, 10)))
		}
		return 0, false
	case overflow:
		d.Fail(invalid.Range, "is out of range for a 64-bit unsigned integer")
		return 0, false
	case mag < min:
		if !d.failing() {
			d.Fail(invalid.Minimum, prog.Bound("minimum", strconv.FormatUint(min, 10)))
		}
		return 0, false
	case mag > max:
		if !d.failing() {
			d.Fail(invalid.Maximum, prog.Bound("maximum", strconv.FormatUint(max, 10)))
		}
		return 0, false
	}
	return mag, true
}

// Float reads a number that must fit a float of the given bits (32 or 64).
func (d *Decoder) Float(bits int) (float64, bool) {
	if bits == 64 {
		if f, ok := d.smallFloat(); ok {
			return f, true
		}
	}
	num, ok := d.number("a number")
	if !ok {
		return 0, false
	}
	// The string does not outlive the call: ParseFloat's error, which would keep
	// it, is dropped here.
	f, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(num), len(num)), bits)
	if err != nil {
		if !d.failing() {
			d.Fail(invalid.Range, "is out of range for a "+strconv.Itoa(bits)+"-bit float")
		}
		return 0, false
	}
	return f, true
}

// exactPow10 holds the powers of ten a float64 holds exactly.
var exactPow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// smallFloat reads the next value, in one pass, when it is a number without an
// exponent whose digits make an integer below 2^53 and that has at most 22 digits
// after its point, the usual case (97.5, -3, 0.125): a float64 holds those digits and
// that power of ten exactly, so one division, correctly rounded, gives the float
// nearest to the number, which is what strconv.ParseFloat returns (Clinger's fast
// path). It reports false, reading nothing, for any other value, which Float then
// reads through number and ParseFloat.
func (d *Decoder) smallFloat() (float64, bool) {
	if d.broken {
		return 0, false
	}
	b, i := d.data, d.pos
	if i < len(b) && b[i] <= ' ' {
		i = jsonread.SkipSpace(b, i)
		d.pos = i
	}
	if i >= len(b) {
		return 0, false
	}
	start := i
	neg := b[i] == '-'
	if neg {
		i++
	}
	first := i
	var mant uint64
	for i < len(b) {
		c := b[i] - '0'
		if c > 9 {
			break
		}
		mant = mant*10 + uint64(c)
		i++
	}
	digits := i - first
	if digits == 0 || b[first] == '0' && digits > 1 {
		return 0, false
	}
	frac := 0
	if i < len(b) && b[i] == '.' {
		i++
		fracStart := i
		for i < len(b) {
			c := b[i] - '0'
			if c > 9 {
				break
			}
			mant = mant*10 + uint64(c)
			i++
		}
		frac = i - fracStart
		if frac == 0 {
			return 0, false
		}
		digits += frac
	}
	// Up to 19 digits the integer they make fits a uint64 (mant did not wrap).
	if digits > 19 || mant >= 1<<53 || frac >= len(exactPow10) ||
		i < len(b) && b[i]|0x20 == 'e' {
		return 0, false
	}
	f := float64(mant)
	if frac > 0 {
		f /= exactPow10[frac]
	}
	if neg {
		f = -f
	}
	d.valStart, d.pos = start, i
	return f, true
}

// MultipleOf checks that the number just read is a multiple of the JSON number
// divisor, exactly, as JSON Schema's multipleOf asks: 0.07 is a multiple of 0.01. It
// costs one pass over the number's text, whatever its exponent (1e-999999 is decided
// as fast as 0.5).
func (d *Decoder) MultipleOf(divisor string) {
	x, ok := parseDecimal(d.data[d.valStart:d.pos])
	if !ok {
		return
	}
	q, ok := parseDecimal([]byte(divisor))
	if !ok || q.zero() {
		return
	}
	if !isMultiple(x, q) {
		if !d.failing() {
			d.Fail(invalid.MultipleOf, prog.Bound("multipleOf", divisor))
		}
	}
}

// isMultiple reports whether x/q is an integer, for q not zero. With x = D × 10^e and
// q = K × 10^f, where D and K end in a digit other than zero, x/q = D/K × 10^(e-f):
// when e < f it is not an integer, since 10 does not divide D; otherwise it is iff K,
// less the factors of 2 and of 5 that 10^(e-f) supplies, divides D.
func isMultiple(x, q decimal) bool {
	if x.zero() {
		return true
	}
	shift := x.exp - q.exp
	if shift < 0 {
		return false
	}
	if k, ok := q.uint64(); ok {
		for _, p := range [2]uint64{2, 5} {
			for n := int64(0); n < shift && k%p == 0; n++ {
				k /= p
			}
		}
		var r uint64
		for _, part := range [2][]byte{x.hi, x.lo} {
			for _, c := range part {
				hi, lo := bits.Mul64(r, 10)
				lo, carry := bits.Add64(lo, uint64(c-'0'), 0)
				r = bits.Rem64(hi+carry, lo, k)
			}
		}
		return r == 0
	}
	// A divisor of more than 19 digits, which only a schema can hold: the remainder
	// is kept below it, so each digit costs the divisor's size.
	var k, r, quo, rem, digit big.Int
	k.SetString(string(q.hi)+string(q.lo), 10)
	for _, p := range [2]int64{2, 5} {
		bp := big.NewInt(p)
		for n := int64(0); n < shift; n++ {
			if quo.QuoRem(&k, bp, &rem); rem.Sign() != 0 {
				break
			}
			k.Set(&quo)
		}
	}
	ten := big.NewInt(10)
	for _, part := range [2][]byte{x.hi, x.lo} {
		for _, c := range part {
			r.Mul(&r, ten)
			r.Add(&r, digit.SetInt64(int64(c-'0')))
			r.Mod(&r, &k)
		}
	}
	return r.Sign() == 0
}

// uint64 returns the digits of x as an integer, if they fit.
func (x decimal) uint64() (uint64, bool) {
	if x.len() > 19 {
		return 0, false
	}
	var n uint64
	for _, part := range [2][]byte{x.hi, x.lo} {
		for _, c := range part {
			n = n*10 + uint64(c-'0')
		}
	}
	return n, true
}

// MinLength checks that s has at least n characters (Unicode code points).
func (d *Decoder) MinLength(s string, n int) {
	// A character takes 1 to 4 bytes: most strings are decided by their length alone,
	// here, where the call is inlined.
	if len(s)/4 < n {
		d.minLength(s, n)
	}
}

func (d *Decoder) minLength(s string, n int) {
	if len(s) < n || utf8.RuneCountInString(s) < n {
		if !d.failing() {
			d.Fail(invalid.MinLength, prog.Length("minLength", n))
		}
	}
}

// MaxLength checks that s has at most n characters (Unicode code points).
func (d *Decoder) MaxLength(s string, n int) {
	if len(s) > n {
		d.maxLength(s, n)
	}
}

func (d *Decoder) maxLength(s string, n int) {
	if len(s)/4 > n || utf8.RuneCountInString(s) > n {
		if !d.failing() {
			d.Fail(invalid.MaxLength, prog.Length("maxLength", n))
		}
	}
}

// MinItems checks that a list read has at least n items.
func (d *Decoder) MinItems(count, n int) {
	if count < n {
		if !d.failing() {
			d.failList(invalid.MinItems, "must have at least "+strconv.Itoa(n)+" "+plural(n, "item", "items")+" (got "+strconv.Itoa(count)+")")
		}
	}
}

// MaxItems checks that a list read has at most n items.
func (d *Decoder) MaxItems(count, n int) {
	if count > n {
		if !d.failing() {
			d.failList(invalid.MaxItems, "must have at most "+strconv.Itoa(n)+" "+plural(n, "item", "items")+" (got "+strconv.Itoa(count)+")")
		}
	}
}

// MinProperties checks that a map read has at least n entries.
func (d *Decoder) MinProperties(count, n int) {
	if count < n {
		if !d.failing() {
			d.failList(invalid.MinProperties, "must have at least "+strconv.Itoa(n)+" "+plural(n, "property", "properties")+" (got "+strconv.Itoa(count)+")")
		}
	}
}

// MaxProperties checks that a map read has at most n entries.
func (d *Decoder) MaxProperties(count, n int) {
	if count > n {
		if !d.failing() {
			d.failList(invalid.MaxProperties, "must have at most "+strconv.Itoa(n)+" "+plural(n, "property", "properties")+" (got "+strconv.Itoa(count)+")")
		}
	}
}

// failList records a violation of a whole list, whose text is not worth echoing.
func (d *Decoder) failList(code invalid.Code, message string) { d.failHere("", code, message) }

// NotUnique records that items i and j of the list just read are equal, which its
// uniqueItems keyword forbids.
func (d *Decoder) NotUnique(i, j int) {
	if !d.failing() {
		d.failList(invalid.UniqueItems, "must not hold equal items (items "+strconv.Itoa(i)+" and "+strconv.Itoa(j)+" are equal)")
	}
}

// NotUniqueValues records that the properties a and b of the map just read have equal
// values, which validate's unique forbids (JSON Schema has no keyword for it).
func (d *Decoder) NotUniqueValues(a, b string) {
	if !d.failing() {
		d.failList(invalid.UniqueItems, "must not hold equal values (properties "+strconv.Quote(a)+" and "+strconv.Quote(b)+" are equal)")
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Format checks that s has the given format.
func (d *Decoder) Format(s string, f argcheck.Format) {
	if !f.Valid(s) {
		if !d.failing() {
			d.Fail(invalid.Format, "must be "+f.Describe())
		}
	}
}

// Time reads an RFC 3339 date-time.
func (d *Decoder) Time() (time.Time, bool) {
	b, ok := d.stringAs("a date-time string (RFC 3339)")
	if !ok {
		return time.Time{}, false
	}
	// time.Time alone accepts some text that is not RFC 3339 (a one-digit hour, an
	// offset of +24:00): check the format first, as JSON Schema's date-time does.
	var t time.Time
	if !argcheck.IsDateTime(b) || t.UnmarshalText(upperDateTime(b)) != nil {
		if !d.failing() {
			d.Fail(invalid.Format, "must be "+argcheck.FormatDateTime.Describe())
		}
		return time.Time{}, false
	}
	return t, true
}

// TimeLayout reads a date-time written in a Go time layout (tool:"layout=2006-01-02
// 15:04:05" on a time.Time), as the layout writes it: time.ParseInLocation must read it
// in UTC, and the layout must write the time read back as the same text (so "9:30:00"
// is refused under 15:04:05, as the schema's pattern refuses it). A value whose layout
// has a UTC offset (-07:00, Z07:00) is at that offset; any other is in UTC, whatever
// zone name (layout MST) it writes, which the time keeps with an offset of 0, on every
// server (time.Parse would read the abbreviation of the server's local zone at its
// offset). The schema's description says so (model.LayoutZone). A value that does not
// parse is reported with an example of the form, the layout writing 1 August 2024 at
// midnight UTC.
func (d *Decoder) TimeLayout(layout string) (time.Time, bool) {
	if d.broken {
		return time.Time{}, false
	}
	if d.peek() != '"' {
		d.valStart = d.pos
		if d.skipValue() && !d.failing() {
			d.Fail(invalid.Type, "must be a string written like "+strconv.Quote(layoutExample.Format(layout)))
		}
		return time.Time{}, false
	}
	b, ok := d.StringBytes()
	if !ok {
		return time.Time{}, false
	}
	// time.ParseInLocation keeps a zone name it reads (layout MST) in the time it
	// returns: give it a string of its own, which keep makes without an allocation of
	// its own. In UTC, not time.Local: the zone does not depend on the server's.
	t, err := time.ParseInLocation(layout, d.keep(b), time.UTC)
	// time.Parse reads more than the layout writes (a one-digit hour under 15, a
	// fraction after 05, a month's name in lower case), while the schema's pattern, which
	// strict providers enforce, is what the layout writes: so is what the decoder takes.
	var buf [64]byte
	if err != nil || !bytes.Equal(t.AppendFormat(buf[:0], layout), b) {
		if !d.failing() {
			d.Fail(invalid.Format, layoutMessage(layout))
		}
		return time.Time{}, false
	}
	return t, true
}

// layoutExample is the instant the examples of a layout write.
var layoutExample = time.Date(2024, time.August, 1, 0, 0, 0, 0, time.UTC)

// layoutMessage is the violation message of a value that does not parse in a Go time
// layout: what the value must be, with the example and the layout, such as `must be a
// date and time written like "2024-08-01 00:00:00" (layout 2006-01-02 15:04:05)`.
func layoutMessage(layout string) string {
	ex := layoutExample.Format(layout)
	date := layoutExample.AddDate(1, 1, 1).Format(layout) != ex
	clock := layoutExample.Add(time.Hour+time.Minute+time.Second).Format(layout) != ex
	what := "a date and time"
	switch {
	case date && !clock:
		what = "a date"
	case clock && !date:
		what = "a time"
	}
	return "must be " + what + " written like " + strconv.Quote(ex) + " (layout " + layout + ")"
}

// Date reads a date, an RFC 3339 full-date such as "2024-01-31" (tool:"format=date" on
// a time.Time), as midnight UTC of that day. It reports what a string with format date
// reports.
func (d *Decoder) Date() (time.Time, bool) {
	b, ok := d.StringBytes()
	if !ok {
		return time.Time{}, false
	}
	if !argcheck.IsDate(b) {
		if !d.failing() {
			d.Fail(invalid.Format, "must be "+argcheck.FormatDate.Describe())
		}
		return time.Time{}, false
	}
	y1, _ := argcheck.Digits2(b, 0)
	y2, _ := argcheck.Digits2(b, 2)
	m, _ := argcheck.Digits2(b, 5)
	day, _ := argcheck.Digits2(b, 8)
	return time.Date(y1*100+y2, time.Month(m), day, 0, 0, 0, 0, time.UTC), true
}

// upperDateTime returns an RFC 3339 date-time with the lowercase "t" and "z" that
// section 5.6 allows made uppercase, as time.Time parses it. The common text, already
// uppercase, is returned as it is.
func upperDateTime(b []byte) []byte {
	if b[10] != 't' && b[len(b)-1] != 'z' {
		return b
	}
	b = append([]byte(nil), b...)
	if b[10] == 't' {
		b[10] = 'T'
	}
	if b[len(b)-1] == 'z' {
		b[len(b)-1] = 'Z'
	}
	return b
}

// Duration reads a Go duration written as a string, such as "1h30m".
func (d *Decoder) Duration() (time.Duration, bool) {
	b, ok := d.stringAs(`a duration string such as "1h30m"`)
	if !ok {
		return 0, false
	}
	v, err := time.ParseDuration(string(b))
	if err != nil {
		d.Fail(invalid.Format, `must be a duration such as "1h30m", "90s" or "250ms"`)
		return 0, false
	}
	return v, true
}

// Bytes reads base64 text (standard encoding, padded), as encoding/json does.
func (d *Decoder) Bytes() ([]byte, bool) {
	b, ok := d.stringAs("a base64 string")
	if !ok {
		return nil, false
	}
	out := make([]byte, base64.StdEncoding.DecodedLen(len(b)))
	n, err := base64.StdEncoding.Decode(out, b)
	if err != nil {
		d.Fail(invalid.Format, "must be base64 text (standard encoding, padded)")
		return nil, false
	}
	return out[:n], true
}

// Text reads a string into a value that parses itself from text.
func (d *Decoder) Text(v encoding.TextUnmarshaler) bool {
	b, ok := d.StringBytes()
	if !ok {
		return false
	}
	if err := v.UnmarshalText(b); err != nil {
		d.failText(err)
		return false
	}
	return true
}

// SetText has v parse s, the text of the value just read, reporting a violation if it
// cannot.
func (d *Decoder) SetText(v encoding.TextUnmarshaler, s string) {
	if err := v.UnmarshalText([]byte(s)); err != nil {
		d.failText(err)
	}
}

// maxTextErrorBytes bounds how much of a value's own parse error a violation quotes.
const maxTextErrorBytes = 200

// failText reports that the value just read did not parse. The parse error is the
// value's own text, which often quotes the input: it is left out for sensitive values,
// and cut when long.
func (d *Decoder) failText(err error) {
	if d.broken || d.sensitive() {
		d.Fail(invalid.Format, "is not valid")
		return
	}
	if d.full() {
		return
	}
	msg := err.Error()
	if len(msg) > maxTextErrorBytes {
		msg = cutText(msg, maxTextErrorBytes) + "…"
	}
	d.add(invalid.Violation{Path: d.pointer(), Code: invalid.Format, Message: "is not valid: " + msg, Got: d.got()})
}

// Raw reads any JSON value and returns a copy of its text.
func (d *Decoder) Raw() (json.RawMessage, bool) {
	if d.broken {
		return nil, false
	}
	d.skipSpace()
	start := d.pos
	if !d.skipValue() {
		return nil, false
	}
	return append(json.RawMessage(nil), d.data[start:d.pos]...), true
}

// Any reads any JSON value as encoding/json would into an interface value: objects as
// map[string]any, arrays as []any, numbers as float64.
func (d *Decoder) Any() (any, bool) { return d.anyValue(false) }

// anyValue reads any JSON value as Any does, or, when exact, with each number as its
// text (json.Number), whatever its size: json.Marshal writes it again as it came, where
// a float64 would round 9007199254740993 to 9007199254740992 and refuse 1e400.
func (d *Decoder) anyValue(exact bool) (any, bool) {
	if d.broken {
		return nil, false
	}
	switch d.peek() {
	case '{':
		if !d.begin(false) {
			return nil, false
		}
		m := map[string]any{}
		for d.NextField() {
			name := string(d.FieldName())
			if _, dup := m[name]; dup {
				d.Duplicate()
				continue
			}
			d.Enter(name)
			v, ok := d.anyValue(exact)
			d.Leave()
			if ok {
				m[name] = v
			}
		}
		return m, !d.broken
	case '[':
		if !d.begin(true) {
			return nil, false
		}
		s := []any{}
		for d.NextItem() {
			v, _ := d.anyValue(exact)
			s = append(s, v)
		}
		return s, !d.broken
	case '"':
		return d.String()
	case 't', 'f':
		return d.Bool()
	case 'n':
		d.valStart = d.pos
		return nil, d.literal("null")
	}
	if exact {
		num, ok := d.number("a number")
		return json.Number(num), ok
	}
	f, ok := d.Float(64)
	return f, ok
}
