package jsonread

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Problem says what is wrong with a text, or where a reader stopped.
type Problem uint8

// The problems.
const (
	// OK: nothing is wrong.
	OK Problem = iota
	// Unexpected: a byte, or the end of the text, where the grammar does not allow it.
	Unexpected
	// ControlChar: a control character (below U+0020) in a string.
	ControlChar
	// BadUnicodeEscape: a \u escape without four hexadecimal digits.
	BadUnicodeEscape
	// BadEscape: a backslash followed by a byte that does not make an escape.
	BadEscape
	// TooDeep: objects and arrays nested deeper than Limits.MaxDepth.
	TooDeep
	// TooLarge: a text longer than Limits.MaxBytes.
	TooLarge
	// StringTooLong: a string longer than Limits.MaxStringBytes.
	StringTooLong
	// DuplicateKey: an object has a key twice (see KeyMode).
	DuplicateKey
)

// Describe says what p found at offset at of b, in the words of a syntax error
// ("unexpected ',' ", "control character in string"), for the lexical problems.
func Describe(b []byte, at int, p Problem) string {
	switch p {
	case ControlChar:
		return "control character in string"
	case BadUnicodeEscape:
		return `invalid \u escape`
	case BadEscape:
		return "invalid escape"
	case Unexpected:
		if at >= len(b) {
			return "unexpected end of input"
		}
		return "unexpected " + QuoteByte(b[at])
	}
	return "malformed text"
}

// QuoteByte shows a byte of a text in a message: a printable ASCII character quoted,
// any other as "byte 0x..".
func QuoteByte(c byte) string {
	if c < utf8.RuneSelf && strconv.IsPrint(rune(c)) {
		return strconv.QuoteRune(rune(c))
	}
	return "byte 0x" + strconv.FormatUint(uint64(c), 16)
}

// IsSpace reports whether c is JSON white space.
func IsSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// SkipSpace returns the index of the first byte of b at or after i that is not white
// space, or len(b).
func SkipSpace(b []byte, i int) int {
	for i < len(b) {
		// Every byte above the space is not white space: one comparison in the common
		// case, compact JSON.
		if c := b[i]; c > ' ' || !IsSpace(c) {
			return i
		}
		i++
	}
	return i
}

// TrimSpace returns b without the white space around it.
func TrimSpace(b []byte) []byte {
	for len(b) > 0 && IsSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && IsSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// PlainEnd returns the index of the first byte of b at or after i that a string does
// not hold as it is (a quote, a backslash, a control character or a byte outside
// ASCII), or len(b): eight bytes at a time while it can, then one.
func PlainEnd(b []byte, i int) int {
	for i+8 <= len(b) {
		if special := Special8(binary.LittleEndian.Uint64(b[i:])); special != 0 {
			return i + bits.TrailingZeros64(special)/8
		}
		i += 8
	}
	for i < len(b) && plainByte[b[i]] {
		i++
	}
	return i
}

// Special8 marks the bytes of x, eight bytes of a text in little-endian order, that a
// string does not hold as they are: a byte below 0x20, a quote or a backslash (a zero
// byte once xored with one), or a byte at or above 0x80 sets the high bit of its byte.
// Borrows may set bits above the first such byte too, never below it: the lowest bit
// set is the first byte that is not plain. It is small enough to be inlined, for
// readers that look at the first eight bytes of a string where they are.
func Special8(x uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	quote, backslash := x^(ones*'"'), x^(ones*'\\')
	return ((x-ones*0x20)&^x | (quote-ones)&^quote | (backslash-ones)&^backslash | x) & highs
}

// plainByte tells the bytes a string holds as they are: ASCII but for the quote, the
// backslash and control characters.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// escape checks the escape whose backslash is at b[i] and returns the index after it.
// On a problem, at is where it is.
func escape(b []byte, i int) (end int, p Problem) {
	i++
	if i >= len(b) {
		return i, Unexpected
	}
	switch b[i] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return i + 1, OK
	case 'u':
		if _, ok := Hex4(b, i+1); !ok {
			return i, BadUnicodeEscape
		}
		return i + 5, OK
	}
	return i, BadEscape
}

// ScanString checks the JSON string whose opening quote is b[i], as encoding/json
// checks it (escapes and control characters; not UTF-8, which ReadString reads as U+FFFD),
// and returns the index after its closing quote, and whether it is plain: without
// escapes, and only ASCII, so that its bytes are its contents. On a problem, end is
// where it is.
func ScanString(b []byte, i int) (end int, plain bool, p Problem) {
	plain = true
	for i++; i < len(b); {
		i = PlainEnd(b, i)
		if i == len(b) {
			break
		}
		switch c := b[i]; {
		case c == '"':
			return i + 1, plain, OK
		case c == '\\':
			plain = false
			if i, p = escape(b, i); p != OK {
				return i, false, p
			}
		case c < 0x20:
			return i, false, ControlChar
		default:
			plain = false
			i++
		}
	}
	return i, false, Unexpected
}

// ReadString reads the JSON string whose opening quote is b[i] and returns its contents,
// decoded as encoding/json decodes them: escapes undone, a surrogate pair joined, a
// lone surrogate and each byte of invalid UTF-8 read as U+FFFD. Contents without
// escapes and valid UTF-8 are b's own bytes; others are written into *buf, whose
// storage is reused, and valid until its next use. end is the index after the closing
// quote, or, on a problem, where the problem is.
func ReadString(b []byte, i int, buf *[]byte) (s []byte, end int, p Problem) {
	start := i + 1
	// valid: b[start:i] is valid UTF-8. Each byte outside ASCII begins a character,
	// decoded here, or is a byte of invalid UTF-8 on its own, as utf8.Valid sees them.
	valid := true
	for i = start; i < len(b); {
		i = PlainEnd(b, i)
		if i == len(b) {
			break
		}
		c := b[i]
		switch {
		case c == '"':
			s := b[start:i]
			if !valid {
				return fixUTF8(buf, s), i + 1, OK
			}
			return s, i + 1, OK
		case c == '\\':
			return unescape(b, start, i, valid, buf)
		case c < 0x20:
			return nil, i, ControlChar
		case 0xc2 <= c && c < 0xe0 && i+1 < len(b) && b[i+1]&0xc0 == 0x80:
			i += 2 // a character of two bytes, the usual case outside ASCII
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			valid = false
		}
		i += n
	}
	return nil, i, Unexpected
}

// fixUTF8 writes s into *buf with each byte of invalid UTF-8 replaced by U+FFFD,
// growing *buf once to the size it takes.
func fixUTF8(buf *[]byte, s []byte) []byte {
	size := len(s)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRune(s[i:])
		if r == utf8.RuneError && n == 1 {
			size += 2 // U+FFFD takes three bytes
		}
		i += n
	}
	*buf = appendValid(slices.Grow((*buf)[:0], size), s)
	return *buf
}

// appendValid appends s to dst with each byte of invalid UTF-8 replaced by U+FFFD.
func appendValid(dst, s []byte) []byte {
	for len(s) > 0 {
		r, n := utf8.DecodeRune(s)
		if r == utf8.RuneError && n == 1 {
			dst = utf8.AppendRune(dst, utf8.RuneError)
		} else {
			dst = append(dst, s[:n]...)
		}
		s = s[n:]
	}
	return dst
}

// unescape reads the rest of a string that holds an escape at b[i], from its first
// content byte b[start], into *buf; valid says b[start:i] is valid UTF-8.
func unescape(b []byte, start, i int, valid bool, buf *[]byte) ([]byte, int, Problem) {
	out := (*buf)[:0]
	if valid {
		out = append(out, b[start:i]...)
	} else {
		out = appendValid(out, b[start:i])
	}
	for i < len(b) {
		if j := PlainEnd(b, i); j > i { // a run of plain bytes, copied at once
			out = append(out, b[i:j]...)
			if i = j; i == len(b) {
				break
			}
		}
		c := b[i]
		switch {
		case c == '"':
			*buf = out
			return out, i + 1, OK
		case c == '\\':
			i++
			if i >= len(b) {
				*buf = out
				return nil, i, Unexpected
			}
			switch e := b[i]; e {
			case '"', '\\', '/':
				out = append(out, e)
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
				r, ok := Hex4(b, i+1)
				if !ok {
					*buf = out
					return nil, i, BadUnicodeEscape
				}
				i += 4
				if r >= 0xd800 && r < 0xe000 {
					// A high surrogate followed by a low one makes one rune;
					// anything else is U+FFFD, as encoding/json does.
					r2, ok := rune(0), false
					if r < 0xdc00 && i+6 < len(b) && b[i+1] == '\\' && b[i+2] == 'u' {
						r2, ok = Hex4(b, i+3)
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
				*buf = out
				return nil, i, BadEscape
			}
			i++
		case c < 0x20:
			*buf = out
			return nil, i, ControlChar
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
	*buf = out
	return nil, i, Unexpected
}

// Unquote returns the contents of the JSON string quoted, quotes included, which is
// well formed (ScanString found no problem), decoded as ReadString decodes them, as a new
// string.
func Unquote(quoted []byte) string {
	var buf []byte
	s, _, _ := ReadString(quoted, 0, &buf)
	return string(s)
}

// Hex4 reads the four hexadecimal digits of a \u escape at b[i].
func Hex4(b []byte, i int) (rune, bool) {
	if i < 0 || i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// ScanNumber reads the JSON number at b[i] and returns the index after it; when it is
// malformed, ok is false and end is where the problem is (an Unexpected byte, or the
// end of b).
func ScanNumber(b []byte, i int) (end int, ok bool) {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digits(b, i+1)
	default:
		return i, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return i, false
		}
		i = digits(b, i)
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return i, false
		}
		i = digits(b, i)
	}
	return i, true
}

func digits(b []byte, i int) int {
	for i < len(b) && b[i]-'0' <= 9 {
		i++
	}
	return i
}

// Literal reads word (true, false or null), which must start at b[i], and returns the
// index after it; when b does not hold it, ok is false and end is the first byte that
// differs.
func Literal(b []byte, i int, word string) (end int, ok bool) {
	if len(b)-i >= len(word) && string(b[i:i+len(word)]) == word {
		return i + len(word), true
	}
	for k := 0; k < len(word); k++ {
		if i >= len(b) || b[i] != word[k] {
			return i, false
		}
		i++
	}
	return i, true
}

// IsNull reports whether b holds null at i.
func IsNull(b []byte, i int) bool {
	return len(b)-i >= 4 && b[i] == 'n' && b[i+1] == 'u' && b[i+2] == 'l' && b[i+3] == 'l'
}
