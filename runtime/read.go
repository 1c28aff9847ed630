package runtime

import (
	"encoding"
	"encoding/base64"
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"time"
	"unicode/utf8"
	"unsafe"
)

// String reads a string.
func (d *Decoder) String() (string, bool) {
	// A plain string, the usual case, here; anything else through stringAs.
	if !d.broken && d.pos < len(d.data) && d.data[d.pos] == '"' {
		b := d.data
		if end := skipPlain(b, d.pos+1); end < len(b) && b[end] == '"' {
			s := string(b[d.pos+1 : end])
			d.valStart, d.pos = d.pos, end+1
			return s, true
		}
	}
	b, ok := d.stringAs("a string")
	if !ok {
		return "", false
	}
	return string(b), true
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
	i := skipPlain(b, d.pos+1)
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

// integerDigits splits an integer literal into its sign and magnitude; ok is false for
// numbers with a fraction or exponent, and overflow true past 2^64-1.
func integerDigits(num []byte) (neg bool, mag uint64, ok, overflow bool) {
	if num[0] == '-' {
		neg, num = true, num[1:]
	}
	for _, c := range num {
		if c < '0' || c > '9' {
			return neg, 0, false, false
		}
		if mag > (math.MaxUint64-9)/10 {
			// Slow check only near the limit.
			if mag > math.MaxUint64/10 || mag*10 > math.MaxUint64-uint64(c-'0') {
				overflow = true
				continue
			}
		}
		mag = mag*10 + uint64(c-'0')
	}
	return neg, mag, true, overflow
}

// Int reads an integer and checks that it lies in [min, max], the tighter of the Go
// type's range and the schema's inclusive bounds. Numbers with a fraction or an
// exponent are not integers (encoding/json refuses them too).
func (d *Decoder) Int(min, max int64) (int64, bool) {
	// Fast path: an integer of at most 17 digits, read and converted in one pass.
	if !d.broken {
		d.skipSpace()
		b, i := d.data, d.pos
		neg := i < len(b) && b[i] == '-'
		if neg {
			i++
		}
		start := i
		var n int64
		end := len(b)
		if end-start > 18 {
			end = start + 18
		}
		for _, c := range b[start:end] {
			if c-'0' > 9 {
				break
			}
			n = n*10 + int64(c-'0')
			i++
		}
		digits := i - start
		if digits > 0 && digits < 18 && (b[start] != '0' || digits == 1) &&
			(i == len(b) || b[i] != '.' && b[i] != 'e' && b[i] != 'E' && b[i]-'0' > 9) {
			d.valStart, d.pos = d.pos, i
			if neg {
				n = -n
			}
			if min <= n && n <= max {
				return n, true
			}
			return d.intInRange(n, min, max)
		}
	}
	num, ok := d.number("an integer")
	if !ok {
		return 0, false
	}
	neg, mag, isInt, overflow := integerDigits(num)
	if !isInt {
		d.Fail(CodeType, "must be an integer")
		return 0, false
	}
	var n int64
	switch {
	case overflow || !neg && mag > math.MaxInt64 || neg && mag > 1<<63:
		d.Fail(CodeRange, "is out of range for a 64-bit integer")
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
		d.Fail(CodeMinimum, "must be at least "+strconv.FormatInt(min, 10))
		return 0, false
	}
	if n > max {
		d.Fail(CodeMaximum, "must be at most "+strconv.FormatInt(max, 10))
		return 0, false
	}
	return n, true
}

// Uint reads a non-negative integer and checks that it lies in [min, max].
func (d *Decoder) Uint(min, max uint64) (uint64, bool) {
	num, ok := d.number("an integer")
	if !ok {
		return 0, false
	}
	neg, mag, isInt, overflow := integerDigits(num)
	switch {
	case !isInt:
		d.Fail(CodeType, "must be an integer")
		return 0, false
	case neg && mag != 0:
		d.Fail(CodeMinimum, "must be at least "+strconv.FormatUint(min, 10))
		return 0, false
	case overflow:
		d.Fail(CodeRange, "is out of range for a 64-bit unsigned integer")
		return 0, false
	case mag < min:
		d.Fail(CodeMinimum, "must be at least "+strconv.FormatUint(min, 10))
		return 0, false
	case mag > max:
		d.Fail(CodeMaximum, "must be at most "+strconv.FormatUint(max, 10))
		return 0, false
	}
	return mag, true
}

// Float reads a number that must fit a float of the given bits (32 or 64).
func (d *Decoder) Float(bits int) (float64, bool) {
	num, ok := d.number("a number")
	if !ok {
		return 0, false
	}
	// The string does not outlive the call: ParseFloat's error, which would keep
	// it, is dropped here.
	f, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(num), len(num)), bits)
	if err != nil {
		d.Fail(CodeRange, "is out of range for a "+strconv.Itoa(bits)+"-bit float")
		return 0, false
	}
	return f, true
}

// MultipleOf checks that the number just read is a multiple of the JSON number
// divisor, exactly, as JSON Schema's multipleOf asks.
func (d *Decoder) MultipleOf(divisor string) {
	var x, q big.Rat
	if _, ok := x.SetString(string(d.data[d.valStart:d.pos])); !ok {
		return
	}
	if _, ok := q.SetString(divisor); !ok || q.Sign() == 0 {
		return
	}
	if !x.Quo(&x, &q).IsInt() {
		d.Fail(CodeMultipleOf, "must be a multiple of "+divisor)
	}
}

// MinLength checks that s has at least n characters (Unicode code points).
func (d *Decoder) MinLength(s string, n int) {
	// A character takes 1 to 4 bytes: most strings are decided by their length alone.
	if len(s)/4 >= n {
		return
	}
	if len(s) < n || utf8.RuneCountInString(s) < n {
		d.Fail(CodeMinLength, "must be at least "+strconv.Itoa(n)+" "+plural(n, "character", "characters")+" long")
	}
}

// MaxLength checks that s has at most n characters (Unicode code points).
func (d *Decoder) MaxLength(s string, n int) {
	if len(s) <= n {
		return
	}
	if len(s)/4 > n || utf8.RuneCountInString(s) > n {
		d.Fail(CodeMaxLength, "must be at most "+strconv.Itoa(n)+" "+plural(n, "character", "characters")+" long")
	}
}

// MinItems checks that a list read has at least n items.
func (d *Decoder) MinItems(count, n int) {
	if count < n {
		d.failList(CodeMinItems, "must have at least "+strconv.Itoa(n)+" "+plural(n, "item", "items")+" (got "+strconv.Itoa(count)+")")
	}
}

// MaxItems checks that a list read has at most n items.
func (d *Decoder) MaxItems(count, n int) {
	if count > n {
		d.failList(CodeMaxItems, "must have at most "+strconv.Itoa(n)+" "+plural(n, "item", "items")+" (got "+strconv.Itoa(count)+")")
	}
}

// MinProperties checks that a map read has at least n entries.
func (d *Decoder) MinProperties(count, n int) {
	if count < n {
		d.failList(CodeMinProperties, "must have at least "+strconv.Itoa(n)+" "+plural(n, "property", "properties")+" (got "+strconv.Itoa(count)+")")
	}
}

// MaxProperties checks that a map read has at most n entries.
func (d *Decoder) MaxProperties(count, n int) {
	if count > n {
		d.failList(CodeMaxProperties, "must have at most "+strconv.Itoa(n)+" "+plural(n, "property", "properties")+" (got "+strconv.Itoa(count)+")")
	}
}

// failList records a violation of a whole list, whose text is not worth echoing.
func (d *Decoder) failList(code Code, message string) { d.failHere(d.pointer(), code, message) }

// Unique checks that no two items of a list read are equal.
func Unique[T comparable](d *Decoder, items []T) {
	seen := make(map[T]int, len(items))
	for i, v := range items {
		if j, dup := seen[v]; dup {
			d.failList(CodeUniqueItems, "must not hold equal items (items "+strconv.Itoa(j)+" and "+strconv.Itoa(i)+" are equal)")
			return
		}
		seen[v] = i
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Match checks s against a pattern.
func (d *Decoder) Match(s string, p *Pattern) {
	if !p.MatchString(s) {
		d.Fail(CodePattern, "must match the pattern "+p.String())
	}
}

// Format checks that s has the given format.
func (d *Decoder) Format(s string, f Format) {
	if !f.Valid(s) {
		d.Fail(CodeFormat, "must be "+f.describe())
	}
}

// Time reads an RFC 3339 date-time.
func (d *Decoder) Time() (time.Time, bool) {
	b, ok := d.stringAs("a date-time string (RFC 3339)")
	if !ok {
		return time.Time{}, false
	}
	// time.Time alone accepts some text that is not RFC 3339 (a one-digit hour, an
	// offset of +24:00): check the format first, as JSON Schema's date-time does. The
	// usual shape is checked here without allocating; isDateTime decides the others.
	var t time.Time
	if !strictDateTime(b) && !isDateTime(string(b)) || t.UnmarshalText(b) != nil {
		d.Fail(CodeFormat, "must be "+FormatDateTime.describe())
		return time.Time{}, false
	}
	return t, true
}

// strictDateTime reports whether b is an RFC 3339 date-time in its most common shape,
// "2006-01-02T15:04:05[.999999999](Z|+07:00)", with every field in range (seconds
// up to 59): a sufficient condition for isDateTime, checked without allocating.
func strictDateTime(b []byte) bool {
	if len(b) < len("2006-01-02T15:04:05Z") || b[4] != '-' || b[7] != '-' || b[10] != 'T' || b[13] != ':' || b[16] != ':' {
		return false
	}
	year, ok1 := digits4(b[0:4])
	month, ok2 := digits2(b[5:7])
	day, ok3 := digits2(b[8:10])
	hour, ok4 := digits2(b[11:13])
	minute, ok5 := digits2(b[14:16])
	sec, ok6 := digits2(b[17:19])
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || month < 1 || month > 12 || day < 1 ||
		day > daysIn(month, year) || hour > 23 || minute > 59 || sec > 59 {
		return false
	}
	rest := b[19:]
	if rest[0] == '.' {
		n := 1
		for n < len(rest) && '0' <= rest[n] && rest[n] <= '9' {
			n++
		}
		if n == 1 {
			return false
		}
		rest = rest[n:]
	}
	if len(rest) == 1 {
		return rest[0] == 'Z'
	}
	if len(rest) != len("+07:00") || rest[0] != '+' && rest[0] != '-' || rest[3] != ':' {
		return false
	}
	zh, ok1 := digits2(rest[1:3])
	zm, ok2 := digits2(rest[4:6])
	return ok1 && ok2 && zh <= 23 && zm <= 59
}

func digits2(b []byte) (int, bool) {
	if b[0] < '0' || b[0] > '9' || b[1] < '0' || b[1] > '9' {
		return 0, false
	}
	return int(b[0]-'0')*10 + int(b[1]-'0'), true
}

func digits4(b []byte) (int, bool) {
	hi, ok1 := digits2(b[0:2])
	lo, ok2 := digits2(b[2:4])
	return hi*100 + lo, ok1 && ok2
}

// daysIn returns the number of days of a month of the proleptic Gregorian calendar.
func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// Duration reads a Go duration written as a string, such as "1h30m".
func (d *Decoder) Duration() (time.Duration, bool) {
	b, ok := d.stringAs(`a duration string such as "1h30m"`)
	if !ok {
		return 0, false
	}
	v, err := time.ParseDuration(string(b))
	if err != nil {
		d.Fail(CodeFormat, `must be a duration such as "1h30m", "90s" or "250ms"`)
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
		d.Fail(CodeFormat, "must be base64 text (standard encoding, padded)")
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
		d.Fail(CodeFormat, "is not valid: "+err.Error())
		return false
	}
	return true
}

// SetText has v parse s, the text of the value just read, reporting a violation if it
// cannot.
func (d *Decoder) SetText(v encoding.TextUnmarshaler, s string) {
	if err := v.UnmarshalText([]byte(s)); err != nil {
		d.Fail(CodeFormat, "is not valid: "+err.Error())
	}
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
func (d *Decoder) Any() (any, bool) {
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
			v, ok := d.Any()
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
			v, _ := d.Any()
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
	f, ok := d.Float(64)
	return f, ok
}
