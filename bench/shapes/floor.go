package shapes

import (
	"encoding/binary"
	"math/bits"
	"strconv"
	"unicode/utf8"
	"unsafe"
)

// The floor: for each tool, the single-pass decode and validation a careful person
// writes by hand for exactly the contract of the generated decoder (same accepted and
// rejected arguments; a simpler error, the first one found): a small byte scanner, no
// reflection, each string converted once, defaults set for absent (or null) optional
// properties, duplicate and unknown properties refused, the leniencies of
// docs/DESIGN.md kept (empty or null arguments are {}, null for an optional property
// is absent, an object or array that arrives as a JSON string holding it is read from
// it, an integral number is an integer however it is written).
//
// The floor stops at the first violation; the generated decoders go on and report
// every one, with its path.

// maxArgumentBytes is runtime.DefaultMaxArgumentBytes, the largest arguments accepted.
const maxArgumentBytes = 1 << 20

// FloorError is why the floor refused arguments: what was wrong, at which byte of the
// text it was reading (of the inner text, for a double-encoded value).
type FloorError struct {
	Pos int
	Msg string
}

func (e *FloorError) Error() string { return "at byte " + strconv.Itoa(e.Pos) + ": " + e.Msg }

// scanner reads JSON text from b at i.
type scanner struct {
	b   []byte
	i   int
	buf []byte // unescaped strings, reused
}

func (s *scanner) fail(msg string) error { return &FloorError{Pos: s.i, Msg: msg} }

func (s *scanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// peek returns the next byte after white space, or 0 at the end.
func (s *scanner) peek() byte {
	if s.i < len(s.b) && s.b[s.i] > ' ' {
		return s.b[s.i]
	}
	s.ws()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// null consumes a null if one comes next.
func (s *scanner) null() bool {
	if s.peek() == 'n' && len(s.b)-s.i >= 4 && string(s.b[s.i:s.i+4]) == "null" {
		s.i += 4
		return true
	}
	return false
}

// start prepares the arguments: too large is refused; empty, white space or null
// alone are {}.
func start(args []byte) (scanner, error) {
	if len(args) > maxArgumentBytes {
		return scanner{}, &FloorError{Msg: "arguments too large"}
	}
	s := scanner{b: args}
	if c := s.peek(); c == 0 || c == 'n' && len(args)-s.i >= 4 && string(args[s.i:s.i+4]) == "null" && onlySpace(args[s.i+4:]) {
		s.b, s.i = []byte("{}"), 0
	}
	return s, nil
}

// end checks that only white space is left.
func (s *scanner) end() error {
	if s.peek() != 0 {
		return s.fail("unexpected text after the arguments")
	}
	return nil
}

func onlySpace(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
	}
	return true
}

// plain tells the bytes a string holds as they are.
var plain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// str reads a string (the next byte must be its quote) and returns its contents:
// in place when it has no escapes and valid UTF-8, else unescaped into s.buf (valid
// until the next str), invalid UTF-8 and lone surrogates made U+FFFD as encoding/json
// does.
func (s *scanner) str() ([]byte, error) {
	if s.peek() != '"' {
		return nil, s.fail("want a string")
	}
	b := s.b
	i := skipPlain(b, s.i+1)
	if i < len(b) && b[i] == '"' {
		v := b[s.i+1 : i]
		s.i = i + 1
		return v, nil
	}
	return s.strSlow()
}

// skipPlain returns the index of the first byte at or after i that is not plain, or
// len(b): eight bytes at a time, then one.
func skipPlain(b []byte, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for i+8 <= len(b) {
		x := binary.LittleEndian.Uint64(b[i:])
		// The high bit of a byte is set here for a byte below 0x20, a quote, a
		// backslash or a byte at or above 0x80 (and maybe for bytes after it).
		q, bs := x^(ones*'"'), x^(ones*'\\')
		if special := ((x-ones*0x20)&^x | (q-ones)&^q | (bs-ones)&^bs | x) & highs; special != 0 {
			return i + bits.TrailingZeros64(special)/8
		}
		i += 8
	}
	for i < len(b) && plain[b[i]] {
		i++
	}
	return i
}

func (s *scanner) strSlow() ([]byte, error) {
	b := s.b
	i := s.i + 1
	// Non-ASCII text without escapes, valid UTF-8, stays in place.
	j := i
	for j < len(b) && (plain[b[j]] || b[j] >= utf8.RuneSelf) {
		j++
	}
	if j < len(b) && b[j] == '"' && utf8.Valid(b[i:j]) {
		s.i = j + 1
		return b[i:j], nil
	}
	out := s.buf[:0]
	for i < len(b) {
		c := b[i]
		switch {
		case c == '"':
			s.i = i + 1
			s.buf = out
			return out, nil
		case c < 0x20:
			s.i = i
			return nil, s.fail("control character in a string")
		case c == '\\':
			if i+1 >= len(b) {
				s.i = i
				return nil, s.fail("unterminated string")
			}
			i++
			switch b[i] {
			case '"', '\\', '/':
				out = append(out, b[i])
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r, ok := hex4(b, i+1)
				if !ok {
					s.i = i
					return nil, s.fail("bad \\u escape")
				}
				i += 4
				if r >= 0xd800 && r < 0xe000 {
					r2, ok := rune(0), false
					if r < 0xdc00 && i+6 < len(b) && b[i+1] == '\\' && b[i+2] == 'u' {
						r2, ok = hex4(b, i+3)
					}
					if ok && r2 >= 0xdc00 && r2 < 0xe000 {
						r = (r-0xd800)<<10 | (r2 - 0xdc00) + 0x10000
						i += 6
					} else {
						r = utf8.RuneError
					}
				}
				out = utf8.AppendRune(out, r)
			default:
				s.i = i
				return nil, s.fail("bad escape")
			}
			i++
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, n := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && n == 1 {
				out = utf8.AppendRune(out, utf8.RuneError)
			} else {
				out = append(out, b[i:i+n]...)
			}
			i += n
		}
	}
	s.i = i
	return nil, s.fail("unterminated string")
}

func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// key reads a property name and its colon.
func (s *scanner) key() ([]byte, error) {
	k, err := s.str()
	if err != nil {
		return nil, err
	}
	if s.peek() != ':' {
		return nil, s.fail("want a colon")
	}
	s.i++
	return k, nil
}

// open consumes the opening byte of an object or array.
func (s *scanner) open(c byte) error {
	if s.peek() != c {
		if c == '{' {
			return s.fail("want an object")
		}
		return s.fail("want an array")
	}
	s.i++
	return nil
}

// empty consumes the closing byte c if it comes next: an empty object or array.
func (s *scanner) empty(c byte) bool {
	if s.peek() == c {
		s.i++
		return true
	}
	return false
}

// more reads what follows a member: a comma (true) or the closing byte c (false).
func (s *scanner) more(c byte) (bool, error) {
	switch s.peek() {
	case ',':
		s.i++
		return true, nil
	case c:
		s.i++
		return false, nil
	}
	return false, s.fail("want a comma or the end")
}

// quoted reads a string holding a whole object or array (open is its first byte),
// the double-encoding leniency, and decodes it with read, which must read all of it.
func (s *scanner) quoted(open byte, read func(*scanner) error) error {
	content, err := s.str()
	if err != nil {
		return err
	}
	in := scanner{b: append([]byte(nil), content...)}
	if in.peek() != open {
		if open == '{' {
			return s.fail("want an object")
		}
		return s.fail("want an array")
	}
	if err := read(&in); err != nil {
		return err
	}
	if err := in.end(); err != nil {
		return err
	}
	return nil
}

// isNumberByte tells the bytes that may continue a number after its integer digits.
func isNumberByte(c byte) bool { return c == '.' || c == 'e' || c == 'E' || c-'0' <= 9 }

// integer reads an integer in [min, max]: plain digits in one pass, anything else
// (a fraction, an exponent, many digits) through integerSlow.
func (s *scanner) integer(min, max int64) (int64, error) {
	s.peek()
	b, i := s.b, s.i
	neg := i < len(b) && b[i] == '-'
	if neg {
		i++
	}
	start := i
	var n int64
	for i < len(b) && i-start < 18 {
		c := b[i] - '0'
		if c > 9 {
			break
		}
		n = n*10 + int64(c)
		i++
	}
	if d := i - start; d > 0 && d < 18 && (b[start] != '0' || d == 1) && (i == len(b) || !isNumberByte(b[i])) {
		if neg {
			n = -n
		}
		if n < min || n > max {
			return 0, s.fail("out of range")
		}
		s.i = i
		return n, nil
	}
	return s.integerSlow(min, max)
}

// number reads a JSON number and returns its text.
func (s *scanner) number() ([]byte, error) {
	s.peek()
	b, i := s.b, s.i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i]-'0' <= 9 {
			i++
		}
	default:
		return nil, s.fail("want a number")
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || b[i]-'0' > 9 {
			return nil, s.fail("bad number")
		}
		for i < len(b) && b[i]-'0' <= 9 {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || b[i]-'0' > 9 {
			return nil, s.fail("bad number")
		}
		for i < len(b) && b[i]-'0' <= 9 {
			i++
		}
	}
	num := b[s.i:i]
	s.i = i
	return num, nil
}

// integerSlow reads any JSON number that is an integer in [min, max]: its digits
// without leading or trailing zeros, times ten to the power left.
func (s *scanner) integerSlow(min, max int64) (int64, error) {
	num, err := s.number()
	if err != nil {
		return 0, err
	}
	neg := num[0] == '-'
	if neg {
		num = num[1:]
	}
	mant, exp := num, 0
	for j, c := range num {
		if c == 'e' || c == 'E' {
			mant = num[:j]
			e, eneg := 0, false
			k := j + 1
			if num[k] == '+' || num[k] == '-' {
				eneg = num[k] == '-'
				k++
			}
			for ; k < len(num); k++ {
				if e < 1e6 {
					e = e*10 + int(num[k]-'0')
				}
			}
			if eneg {
				e = -e
			}
			exp = e
			break
		}
	}
	var digits []byte
	for j, c := range mant {
		if c == '.' {
			exp -= len(mant) - j - 1
			continue
		}
		if len(digits) > 0 || c != '0' {
			digits = append(digits, c)
		}
	}
	for len(digits) > 0 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
		exp++
	}
	var mag uint64
	switch {
	case len(digits) == 0:
	case exp < 0:
		return 0, s.fail("not an integer")
	case len(digits)+exp > 19:
		return 0, s.fail("out of range")
	default:
		for _, c := range digits {
			mag = mag*10 + uint64(c-'0')
		}
		for range exp {
			mag *= 10
		}
	}
	if mag > 1<<62 {
		return 0, s.fail("out of range")
	}
	n := int64(mag)
	if neg {
		n = -n
	}
	if n < min || n > max {
		return 0, s.fail("out of range")
	}
	return n, nil
}

// float reads a number in [min, max].
func (s *scanner) float(min, max float64) (float64, error) {
	num, err := s.number()
	if err != nil {
		return 0, err
	}
	f, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(num), len(num)), 64)
	if err != nil || f < min || f > max {
		return 0, s.fail("out of range")
	}
	return f, nil
}

// length checks that v has from min to max characters.
func length(v []byte, min, max int) bool {
	// A character takes 1 to 4 bytes: the byte length decides most strings.
	if len(v) <= max && (len(v)/4 >= min || min <= 1 && len(v) >= min) {
		return true
	}
	n := utf8.RuneCount(v)
	return n >= min && n <= max
}

// The three tools.

// FloorAlarmArgs decodes and validates the arguments of set_alarm.
func FloorAlarmArgs(args []byte, v *AlarmArgs) error {
	s, err := start(args)
	if err != nil {
		return err
	}
	if err := floorAlarmArgs(&s, v); err != nil {
		return err
	}
	return s.end()
}

func floorAlarmArgs(s *scanner, v *AlarmArgs) error {
	if s.peek() == '"' {
		return s.quoted('{', func(in *scanner) error { return floorAlarmArgs(in, v) })
	}
	if err := s.open('{'); err != nil {
		return err
	}
	var seen, null uint8
	for more := !s.empty('}'); more; {
		k, err := s.key()
		if err != nil {
			return err
		}
		var bit uint8
		switch string(k) {
		case "hour":
			bit = 1
			if seen&bit == 0 {
				n, err := s.integer(0, 23)
				if err != nil {
					return err
				}
				v.Hour = int(n)
			}
		case "minute":
			bit = 2
			if seen&bit == 0 {
				n, err := s.integer(0, 59)
				if err != nil {
					return err
				}
				v.Minute = int32(n)
			}
		case "volume":
			bit = 4
			if seen&bit == 0 {
				if s.null() {
					null |= bit
					break
				}
				n, err := s.integer(1, 10)
				if err != nil {
					return err
				}
				v.Volume = uint8(n)
			}
		case "tone":
			bit = 8
			if seen&bit == 0 {
				t, err := s.str()
				if err != nil {
					return err
				}
				switch string(t) {
				case "chime":
					v.Tone = Chime
				case "birdsong":
					v.Tone = Birdsong
				case "radio":
					v.Tone = Radio
				case "buzzer":
					v.Tone = Buzzer
				default:
					return s.fail("tone: not a tone")
				}
			}
		default:
			return s.fail("unknown property")
		}
		if seen&bit != 0 {
			return s.fail("duplicate property")
		}
		seen |= bit
		if more, err = s.more('}'); err != nil {
			return err
		}
	}
	if seen&1 == 0 || seen&2 == 0 || seen&8 == 0 {
		return s.fail("missing hour, minute or tone")
	}
	if seen&^null&4 == 0 {
		v.Volume = 5
	}
	return nil
}

// FloorLogQuery decodes and validates the arguments of search_logs.
func FloorLogQuery(args []byte, v *LogQuery) error {
	s, err := start(args)
	if err != nil {
		return err
	}
	if err := floorLogQuery(&s, v); err != nil {
		return err
	}
	return s.end()
}

func floorLogQuery(s *scanner, v *LogQuery) error {
	if s.peek() == '"' {
		return s.quoted('{', func(in *scanner) error { return floorLogQuery(in, v) })
	}
	if err := s.open('{'); err != nil {
		return err
	}
	var seen, null uint8
	for more := !s.empty('}'); more; {
		k, err := s.key()
		if err != nil {
			return err
		}
		var bit uint8
		switch string(k) {
		case "service":
			bit = 1
			if seen&bit == 0 {
				t, err := s.str()
				if err != nil {
					return err
				}
				if !isServiceName(t) {
					return s.fail("service: must match ^[a-z][a-z0-9-]*[a-z0-9]$")
				}
				v.Service = string(t)
			}
		case "since":
			bit = 2
			if seen&bit == 0 {
				t, err := s.str()
				if err != nil {
					return err
				}
				if !isDateTime(t) {
					return s.fail("since: not a date-time")
				}
				v.Since = string(t)
			}
		case "until":
			bit = 4
			if seen&bit == 0 {
				if s.null() {
					null |= bit
					break
				}
				t, err := s.str()
				if err != nil {
					return err
				}
				if !isDateTime(t) {
					return s.fail("until: not a date-time")
				}
				v.Until = string(t)
			}
		case "level":
			bit = 8
			if seen&bit == 0 {
				t, err := s.str()
				if err != nil {
					return err
				}
				switch string(t) {
				case "debug":
					v.Level = Debug
				case "info":
					v.Level = Info
				case "warn":
					v.Level = Warn
				case "error":
					v.Level = Error
				case "fatal":
					v.Level = Fatal
				default:
					return s.fail("level: not a level")
				}
			}
		case "order":
			bit = 16
			if seen&bit == 0 {
				if s.null() {
					null |= bit
					break
				}
				t, err := s.str()
				if err != nil {
					return err
				}
				switch string(t) {
				case "asc":
					v.Order = Asc
				case "desc":
					v.Order = Desc
				default:
					return s.fail("order: not an order")
				}
			}
		case "filter":
			bit = 32
			if seen&bit == 0 {
				if s.null() {
					null |= bit
					break
				}
				v.Filter = new(LogFilter)
				if err := floorLogFilter(s, v.Filter); err != nil {
					return err
				}
			}
		case "tags":
			bit = 64
			if seen&bit == 0 {
				if s.null() {
					null |= bit
					break
				}
				if err := floorTags(s, &v.Tags); err != nil {
					return err
				}
			}
		case "limit":
			bit = 128
			if seen&bit == 0 {
				if s.null() {
					null |= bit
					break
				}
				n, err := s.integer(1, 1000)
				if err != nil {
					return err
				}
				v.Limit = int(n)
			}
		default:
			return s.fail("unknown property")
		}
		if seen&bit != 0 {
			return s.fail("duplicate property")
		}
		seen |= bit
		if more, err = s.more('}'); err != nil {
			return err
		}
	}
	if seen&1 == 0 || seen&2 == 0 || seen&8 == 0 {
		return s.fail("missing service, since or level")
	}
	if seen&^null&16 == 0 {
		v.Order = Desc
	}
	if seen&^null&128 == 0 {
		v.Limit = 100
	}
	return nil
}

func floorTags(s *scanner, tags *[]string) error {
	if s.peek() == '"' {
		return s.quoted('[', func(in *scanner) error { return floorTags(in, tags) })
	}
	if err := s.open('['); err != nil {
		return err
	}
	list := []string{}
	for more := !s.empty(']'); more; {
		t, err := s.str()
		if err != nil {
			return err
		}
		switch len(list) {
		case 0:
			list = make([]string, 0, 5) // maxItems
		case 5:
			return s.fail("tags: more than 5")
		}
		list = append(list, string(t))
		if more, err = s.more(']'); err != nil {
			return err
		}
	}
	*tags = list
	return nil
}

func floorLogFilter(s *scanner, v *LogFilter) error {
	if s.peek() == '"' {
		return s.quoted('{', func(in *scanner) error { return floorLogFilter(in, v) })
	}
	if err := s.open('{'); err != nil {
		return err
	}
	var seen uint8
	for more := !s.empty('}'); more; {
		k, err := s.key()
		if err != nil {
			return err
		}
		var bit uint8
		switch string(k) {
		case "host":
			bit = 1
			if seen&bit == 0 {
				t, err := s.str()
				if err != nil {
					return err
				}
				if !length(t, 1, 64) {
					return s.fail("filter/host: must be 1 to 64 characters long")
				}
				v.Host = string(t)
			}
		case "status":
			bit = 2
			if seen&bit == 0 && !s.null() {
				n, err := s.integer(100, 599)
				if err != nil {
					return err
				}
				v.Status = int(n)
			}
		case "minLatencyMs":
			bit = 4
			if seen&bit == 0 && !s.null() {
				n, err := s.integer(0, 60000)
				if err != nil {
					return err
				}
				v.MinLatencyMs = int(n)
			}
		default:
			return s.fail("unknown property")
		}
		if seen&bit != 0 {
			return s.fail("duplicate property")
		}
		seen |= bit
		if more, err = s.more('}'); err != nil {
			return err
		}
	}
	if seen&1 == 0 {
		return s.fail("filter: missing host")
	}
	return nil
}

// isServiceName matches ^[a-z][a-z0-9-]*[a-z0-9]$.
func isServiceName(t []byte) bool {
	if len(t) < 2 || t[0]-'a' > 'z'-'a' {
		return false
	}
	for _, c := range t[1 : len(t)-1] {
		if c-'a' > 'z'-'a' && c-'0' > 9 && c != '-' {
			return false
		}
	}
	c := t[len(t)-1]
	return c-'a' <= 'z'-'a' || c-'0' <= 9
}

// isDateTime checks an RFC 3339 date-time: 2006-01-02T15:04:05[.frac](Z|±hh:mm), "t"
// and "z" in either case, every field in range, a leap second only at 23:59 UTC.
func isDateTime(t []byte) bool {
	if len(t) < 20 || t[4] != '-' || t[7] != '-' || t[10] != 'T' && t[10] != 't' || t[13] != ':' || t[16] != ':' {
		return false
	}
	year, ok1 := digits(t, 0, 4)
	month, ok2 := digits(t, 5, 2)
	day, ok3 := digits(t, 8, 2)
	h, ok4 := digits(t, 11, 2)
	m, ok5 := digits(t, 14, 2)
	sec, ok6 := digits(t, 17, 2)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !ok6 || month < 1 || month > 12 || day < 1 || day > daysIn(month, year) || h > 23 || m > 59 || sec > 60 {
		return false
	}
	rest := t[19:]
	if rest[0] == '.' {
		j := 1
		for j < len(rest) && rest[j]-'0' <= 9 {
			j++
		}
		if j == 1 {
			return false
		}
		rest = rest[j:]
	}
	if len(rest) == 1 && (rest[0] == 'Z' || rest[0] == 'z') {
		return sec < 60 || h == 23 && m == 59
	}
	if len(rest) != 6 || rest[0] != '+' && rest[0] != '-' || rest[3] != ':' {
		return false
	}
	zh, ok1 := digits(rest, 1, 2)
	zm, ok2 := digits(rest, 4, 2)
	if !ok1 || !ok2 || zh > 23 || zm > 59 {
		return false
	}
	if sec < 60 {
		return true
	}
	// A leap second: 23:59:60 in UTC.
	hm := h*60 + m
	if rest[0] == '+' {
		hm -= zh*60 + zm
	} else {
		hm += zh*60 + zm
	}
	hm = (hm%(24*60) + 24*60) % (24 * 60)
	return hm == 23*60+59
}

func digits(t []byte, at, n int) (int, bool) {
	v := 0
	for _, c := range t[at : at+n] {
		if c-'0' > 9 {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}

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

// FloorContactList decodes and validates the arguments of import_contacts.
func FloorContactList(args []byte, v *ContactList) error {
	s, err := start(args)
	if err != nil {
		return err
	}
	if err := floorContactList(&s, v); err != nil {
		return err
	}
	return s.end()
}

func floorContactList(s *scanner, v *ContactList) error {
	if s.peek() == '"' {
		return s.quoted('{', func(in *scanner) error { return floorContactList(in, v) })
	}
	if err := s.open('{'); err != nil {
		return err
	}
	var seen uint8
	for more := !s.empty('}'); more; {
		k, err := s.key()
		if err != nil {
			return err
		}
		switch string(k) {
		case "contacts":
			if seen != 0 {
				return s.fail("duplicate property")
			}
			seen = 1
			if err := floorContacts(s, &v.Contacts); err != nil {
				return err
			}
		default:
			return s.fail("unknown property")
		}
		if more, err = s.more('}'); err != nil {
			return err
		}
	}
	if seen == 0 {
		return s.fail("missing contacts")
	}
	return nil
}

// floorContacts reads the list of contacts. Room is made for four at first, then,
// when the list is full, for as many as the rest of the text could hold at the size
// the contacts read so far took: one or two allocations for the list, not eight.
func floorContacts(s *scanner, cs *[]Contact) error {
	if s.peek() == '"' {
		return s.quoted('[', func(in *scanner) error { return floorContacts(in, cs) })
	}
	if err := s.open('['); err != nil {
		return err
	}
	list := make([]Contact, 0, 4)
	begin := s.i
	for more := !s.empty(']'); more; {
		if len(list) == cap(list) {
			n := len(list)
			grown := make([]Contact, n, n+(len(s.b)-s.i)*n/(s.i-begin)+1)
			copy(grown, list)
			list = grown
		}
		list = list[:len(list)+1]
		if err := floorContact(s, &list[len(list)-1]); err != nil {
			return err
		}
		var err error
		if more, err = s.more(']'); err != nil {
			return err
		}
	}
	if len(list) < 1 {
		return s.fail("contacts: empty")
	}
	*cs = list
	return nil
}

func floorContact(s *scanner, v *Contact) error {
	if s.peek() == '"' {
		return s.quoted('{', func(in *scanner) error { return floorContact(in, v) })
	}
	if err := s.open('{'); err != nil {
		return err
	}
	var seen uint8
	for more := !s.empty('}'); more; {
		k, err := s.key()
		if err != nil {
			return err
		}
		var bit uint8
		switch string(k) {
		case "name":
			bit = 1
			if seen&bit == 0 {
				t, err := s.str()
				if err != nil {
					return err
				}
				if !length(t, 1, 100) {
					return s.fail("name: must be 1 to 100 characters long")
				}
				v.Name = string(t)
			}
		case "city":
			bit = 2
			if seen&bit == 0 {
				t, err := s.str()
				if err != nil {
					return err
				}
				if !length(t, 0, 60) {
					return s.fail("city: must be at most 60 characters long")
				}
				v.City = string(t)
			}
		case "age":
			bit = 4
			if seen&bit == 0 {
				n, err := s.integer(0, 150)
				if err != nil {
					return err
				}
				v.Age = int(n)
			}
		case "score":
			bit = 8
			if seen&bit == 0 {
				f, err := s.float(0, 100)
				if err != nil {
					return err
				}
				v.Score = f
			}
		default:
			return s.fail("unknown property")
		}
		if seen&bit != 0 {
			return s.fail("duplicate property")
		}
		seen |= bit
		if more, err = s.more('}'); err != nil {
			return err
		}
	}
	if seen != 15 {
		return s.fail("missing name, city, age or score")
	}
	return nil
}
