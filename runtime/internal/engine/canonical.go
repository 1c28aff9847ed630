package engine

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolgen/toolgen/runtime/jsonread"
)

// canonicalArgs returns the canonical form of a call's arguments, which Digest hashes:
// that of canonicalJSON, but with empty arguments (no bytes, or only white space) and
// null written as {}, since the decoder reads all three as an empty object.
func canonicalArgs(args []byte) []byte {
	if t := jsonread.TrimSpace(args); len(t) == 0 || string(t) == "null" {
		return []byte("{}")
	}
	return canonicalJSON(args)
}

// canonicalJSON returns the canonical form of the JSON text b, in which two texts are
// the same exactly when every reader that keeps what toolgen's decoders keep reads
// them as the same value:
//
//   - no white space between tokens;
//   - the members of an object sorted by name (the bytes of the name's canonical
//     string), members of one name kept in their order: a duplicate is not merged into
//     one, since the decoder refuses it and a reader further on may take either;
//   - each number as canonicalNumber writes it: its exact value in one spelling, so
//     1, 1.0 and 10e-1 are one, 0 and -0 are one (as JSON Schema compares numbers),
//     and no number is rounded through a float64 (9007199254740993 is not
//     9007199254740992);
//   - strings with the escapes of RFC 8785 (\" \\ \b \f \n \r \t, \u00xx for the other
//     control characters, every other character as itself), except that a byte of
//     invalid UTF-8 stays that byte and a lone UTF-16 surrogate stays its \uxxxx escape
//     (in lowercase): neither is read as a U+FFFD the text holds.
//
// A text encoding/json does not take as valid (malformed, or nested deeper than it
// reads) is its own canonical form, after a zero byte, which no canonical form of a
// valid text begins with.
func canonicalJSON(b []byte) []byte {
	if !jsonread.Valid(b, jsonread.StdMaxDepth) {
		return append([]byte{0}, b...)
	}
	c := canonicalizer{src: b, buf: make([]byte, 0, len(b))}
	root := c.value()
	return c.write(make([]byte, 0, len(b)), &root)
}

// canonicalizer reads a valid JSON text into a tree of its values, the canonical text
// of each string and number written once into buf, so that writing the tree with
// members sorted copies each byte once whatever the depth.
type canonicalizer struct {
	src []byte
	pos int
	buf []byte
}

// canonNode is one value of the tree: a container, or a scalar whose canonical text
// is buf[start:end].
type canonNode struct {
	open       byte // '{' or '[' for a container, 0 for a scalar
	start, end int
	// name is an object member's canonical name, quoted: buf[name[0]:name[1]].
	name [2]int
	kids []canonNode
}

func (c *canonicalizer) space() {
	c.pos = jsonread.SkipSpace(c.src, c.pos)
}

// value reads the value at c.pos, which jsonread.Valid has checked.
func (c *canonicalizer) value() canonNode {
	c.space()
	switch open := c.src[c.pos]; open {
	case '{', '[':
		c.pos++
		n := canonNode{open: open}
		for {
			c.space()
			if end := c.src[c.pos]; end == '}' || end == ']' {
				c.pos++
				return n
			}
			if c.src[c.pos] == ',' {
				c.pos++
				c.space()
			}
			var name [2]int
			if open == '{' {
				name[0], name[1] = c.scalar()
				c.space()
				c.pos++ // the colon
			}
			kid := c.value()
			kid.name = name
			n.kids = append(n.kids, kid)
		}
	default:
		start, end := c.scalar()
		return canonNode{start: start, end: end}
	}
}

// scalar writes the canonical text of the string, number or literal at c.pos into buf
// and returns where it is.
func (c *canonicalizer) scalar() (start, end int) {
	start = len(c.buf)
	if c.src[c.pos] == '"' {
		c.str()
		return start, len(c.buf)
	}
	i := c.pos
	for i < len(c.src) && !jsonread.IsSpace(c.src[i]) && c.src[i] != ',' && c.src[i] != ']' && c.src[i] != '}' {
		i++
	}
	if t := c.src[c.pos:i]; t[0] == '-' || ('0' <= t[0] && t[0] <= '9') {
		c.buf = appendCanonicalNumber(c.buf, t)
	} else {
		c.buf = append(c.buf, t...) // true, false or null
	}
	c.pos = i
	return start, len(c.buf)
}

// str writes the string at c.pos in its canonical form. Its bytes but escapes are
// copied as they are: JSON holds no raw control character, quote or backslash in a
// string, and invalid UTF-8 stays as it came.
func (c *canonicalizer) str() {
	b := c.src
	i := c.pos + 1
	c.buf = append(c.buf, '"')
	for {
		j := i
		for b[j] != '"' && b[j] != '\\' {
			j++
		}
		c.buf = append(c.buf, b[i:j]...)
		i = j
		if b[i] == '"' {
			c.buf = append(c.buf, '"')
			c.pos = i + 1
			return
		}
		// An escape: \x, or \uxxxx.
		e := b[i+1]
		i += 2
		if e != 'u' {
			if e == '/' {
				c.buf = append(c.buf, '/')
			} else {
				c.buf = append(c.buf, '\\', e)
			}
			continue
		}
		r, _ := jsonread.Hex4(b, i)
		i += 4
		if r >= 0xd800 && r < 0xe000 { // a surrogate
			if r < 0xdc00 && i+6 <= len(b) && b[i] == '\\' && b[i+1] == 'u' {
				if lo, ok := jsonread.Hex4(b, i+2); ok && lo >= 0xdc00 && lo < 0xe000 {
					c.buf = utf8.AppendRune(c.buf, (r-0xd800)<<10|(lo-0xdc00)+0x10000)
					i += 6
					continue
				}
			}
			c.buf = appendEscape(c.buf, r) // a lone surrogate
			continue
		}
		switch r {
		case '"', '\\':
			c.buf = append(c.buf, '\\', byte(r))
		case '\b':
			c.buf = append(c.buf, '\\', 'b')
		case '\f':
			c.buf = append(c.buf, '\\', 'f')
		case '\n':
			c.buf = append(c.buf, '\\', 'n')
		case '\r':
			c.buf = append(c.buf, '\\', 'r')
		case '\t':
			c.buf = append(c.buf, '\\', 't')
		default:
			if r < 0x20 {
				c.buf = appendEscape(c.buf, r)
			} else {
				c.buf = utf8.AppendRune(c.buf, r)
			}
		}
	}
}

// appendEscape writes r as \uxxxx, in lowercase.
func appendEscape(b []byte, r rune) []byte {
	return append(b, '\\', 'u', hexDigits[r>>12&0xf], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf])
}

// write appends n's canonical text to out.
func (c *canonicalizer) write(out []byte, n *canonNode) []byte {
	switch n.open {
	case 0:
		return append(out, c.buf[n.start:n.end]...)
	case '[':
		out = append(out, '[')
		for i := range n.kids {
			if i > 0 {
				out = append(out, ',')
			}
			out = c.write(out, &n.kids[i])
		}
		return append(out, ']')
	}
	// The members by name, those of one name in their order: by index, so that the
	// sort moves small values and needs no stable algorithm.
	order := make([]int, len(n.kids))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(i, j int) int {
		x, y := &n.kids[i], &n.kids[j]
		// The names without their quotes, so that "a" comes before "a!".
		if c := bytes.Compare(c.buf[x.name[0]+1:x.name[1]-1], c.buf[y.name[0]+1:y.name[1]-1]); c != 0 {
			return c
		}
		return i - j
	})
	out = append(out, '{')
	for i, k := range order {
		if i > 0 {
			out = append(out, ',')
		}
		kid := &n.kids[k]
		out = append(out, c.buf[kid.name[0]:kid.name[1]]...)
		out = append(out, ':')
		out = c.write(out, kid)
	}
	return append(out, '}')
}

// maxExponentDigits is how many digits (leading zeros aside) the exponent of a number
// may have for canonicalNumber to write its value: past it, a number other than zero
// is kept as written, in lowercase, so that its value needs no arithmetic past int64.
// Such a number has that one spelling's digest, which is no other value's.
const maxExponentDigits = 18

// appendCanonicalNumber appends the canonical text of the JSON number n.
func appendCanonicalNumber(b, n []byte) []byte {
	return append(b, canonicalNumber(string(n))...)
}

// canonicalNumber returns the canonical text of a JSON number (one json.Valid
// accepts): its exact value, written as json.Marshal writes a float64 whose shortest
// digits those are: the digits without leading or trailing zeros, as a plain decimal
// when 1e-7 < |n| < 1e21, else as d.ddde±x; 0 for any zero. So 1, 1.0, 10e-1 and
// 0.1e1 are all 1, -0 is 0, and 9007199254740993 stays itself where a float64 reads
// 9007199254740992. A number whose exponent has more than maxExponentDigits digits is
// written as it came, in lowercase.
func canonicalNumber(n string) string {
	sign, abs := "", n
	if strings.HasPrefix(n, "-") {
		sign, abs = "-", n[1:]
	}
	mant, exp, _ := strings.Cut(strings.ToLower(abs), "e")
	whole, frac, _ := strings.Cut(mant, ".")
	digits := strings.TrimLeft(whole+frac, "0")
	if digits == "" {
		return "0"
	}
	expSign, expDigits := "", strings.TrimPrefix(exp, "+")
	if strings.HasPrefix(expDigits, "-") {
		expSign, expDigits = "-", expDigits[1:]
	}
	if expDigits = strings.TrimLeft(expDigits, "0"); len(expDigits) > maxExponentDigits {
		return strings.ToLower(n)
	}
	var e int64 // the value is digits × 10^e
	if expDigits != "" {
		e, _ = strconv.ParseInt(expSign+expDigits, 10, 64)
	}
	trimmed := strings.TrimRight(digits, "0")
	e += int64(len(digits) - len(trimmed) - len(frac))
	digits = trimmed
	// sci is the exponent of the first digit: the value is d.ddd × 10^sci.
	sci := e + int64(len(digits)-1)
	if -7 < sci && sci < 21 {
		point := int64(len(digits)) + e // where the decimal point goes
		switch {
		case point <= 0:
			return sign + "0." + strings.Repeat("0", int(-point)) + digits
		case point >= int64(len(digits)):
			return sign + digits + strings.Repeat("0", int(point)-len(digits))
		default:
			return sign + digits[:point] + "." + digits[point:]
		}
	}
	out := sign + digits[:1]
	if len(digits) > 1 {
		out += "." + digits[1:]
	}
	if sci >= 0 {
		return out + "e+" + strconv.FormatInt(sci, 10)
	}
	return out + "e" + strconv.FormatInt(sci, 10)
}
