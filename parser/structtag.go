package parser

import (
	"fmt"
	"strconv"
	"strings"
)

// tagValue is the value of one key of a struct tag, with the offsets that map it back
// to the tag text.
type tagValue struct {
	Value string
	// offs[i] is the offset in the tag text of the source of Value[i]; offs has one
	// more entry, for the end of Value.
	offs []int
	// Literal reports that the quoted value was not valid Go string syntax and was taken
	// literally, backslashes included.
	Literal bool
}

// Offset maps an offset in Value to an offset in the tag text.
func (v tagValue) Offset(i int) int {
	if i >= len(v.offs) {
		return v.offs[len(v.offs)-1]
	}
	return v.offs[i]
}

// lookupTag finds key in a struct tag the way reflect.StructTag.Lookup does, keeping
// the offsets of the value. A value that is not valid Go string syntax (for example
// tool:"pattern=^\d+$", which reflect would read as empty) is taken literally.
func lookupTag(tag, key string) (tagValue, bool) {
	pos := 0
	for tag != "" {
		// Skip leading space.
		i := 0
		for i < len(tag) && tag[i] == ' ' {
			i++
		}
		tag, pos = tag[i:], pos+i
		if tag == "" {
			break
		}
		// Scan to colon. A space, a quote or a control character is a syntax error.
		i = 0
		for i < len(tag) && tag[i] > ' ' && tag[i] != ':' && tag[i] != '"' && tag[i] != 0x7f {
			i++
		}
		if i == 0 || i+1 >= len(tag) || tag[i] != ':' || tag[i+1] != '"' {
			break
		}
		name := tag[:i]
		tag, pos = tag[i+1:], pos+i+1
		// Scan quoted string to find value.
		i = 1
		for i < len(tag) && tag[i] != '"' {
			if tag[i] == '\\' {
				i++
			}
			i++
		}
		if i >= len(tag) {
			break
		}
		qvalue := tag[:i+1]
		if name == key {
			return unquoteWithOffsets(qvalue, pos), true
		}
		tag, pos = tag[i+1:], pos+i+1
	}
	return tagValue{}, false
}

// unquoteWithOffsets unquotes a double-quoted Go string found at offset base,
// recording where each byte of the result came from. Invalid syntax is taken
// literally.
func unquoteWithOffsets(q string, base int) tagValue {
	var b strings.Builder
	var offs []int
	s := q[1 : len(q)-1]
	at := 1
	for s != "" {
		r, multibyte, tail, err := strconv.UnquoteChar(s, '"')
		if err != nil {
			offs = offs[:0]
			for i := 0; i <= len(q)-2; i++ {
				offs = append(offs, base+1+i)
			}
			return tagValue{Value: q[1 : len(q)-1], offs: offs, Literal: true}
		}
		n := b.Len()
		if r < 0x80 || !multibyte {
			b.WriteByte(byte(r))
		} else {
			b.WriteRune(r)
		}
		for range b.Len() - n {
			offs = append(offs, base+at)
		}
		at += len(s) - len(tail)
		s = tail
	}
	offs = append(offs, base+at)
	return tagValue{Value: b.String(), offs: offs}
}

// checkStructTag reports what stops reflect.StructTag from reading a whole struct tag,
// as go vet's structtag check does: the offset in the tag text of the problem and its
// description, or ok. A tag it rejects is misread by encoding/json and by toolgen
// alike, one key or all of them.
func checkStructTag(tag string) (off int, msg string, ok bool) {
	pos := 0
	for n := 0; tag != ""; n++ {
		if n > 0 && tag[0] != ' ' {
			// Like go vet, and stricter than reflect: `a:"x",b:"y"` reads as a key ",b".
			return pos, `key:"value" pairs not separated by spaces`, false
		}
		i := 0
		for i < len(tag) && tag[i] == ' ' {
			i++
		}
		tag, pos = tag[i:], pos+i
		if tag == "" {
			break
		}
		i = 0
		for i < len(tag) && tag[i] > ' ' && tag[i] != ':' && tag[i] != '"' && tag[i] != 0x7f {
			i++
		}
		switch {
		case i == 0:
			return pos, "bad syntax for struct tag key", false
		case i+1 >= len(tag) || tag[i] != ':':
			return pos, `bad syntax for struct tag pair: want key:"value"`, false
		case tag[i+1] != '"':
			return pos + i + 1, fmt.Sprintf("bad syntax for struct tag value of %s: the value must be in double quotes", tag[:i]), false
		}
		key := tag[:i]
		tag, pos = tag[i+1:], pos+i+1
		i = 1
		for i < len(tag) && tag[i] != '"' {
			if tag[i] == '\\' {
				i++
			}
			i++
		}
		if i >= len(tag) {
			return pos, fmt.Sprintf("bad syntax for struct tag value of %s: missing closing quote", key), false
		}
		q := tag[:i+1]
		if _, err := strconv.Unquote(q); err != nil {
			return pos + badEscape(q), fmt.Sprintf("bad syntax for struct tag value of %s: %s", key, escapeHint(q)), false
		}
		tag, pos = tag[i+1:], pos+i+1
	}
	return 0, "", true
}

// badEscape returns the offset in a quoted string of its first invalid escape, or 0.
func badEscape(q string) int {
	s := q[1 : len(q)-1]
	for i := 0; i < len(s); {
		_, _, tail, err := strconv.UnquoteChar(s[i:], '"')
		if err != nil {
			return 1 + i
		}
		i = len(s) - len(tail)
	}
	return 0
}

// escapeHint explains why a quoted struct tag value is not Go string syntax.
func escapeHint(q string) string {
	off := badEscape(q)
	if off == 0 || q[off] != '\\' || off+1 >= len(q)-1 {
		return "not a valid Go string"
	}
	esc := q[off : off+2]
	return fmt.Sprintf("%s is not a Go string escape; write %s (a tag value is a Go string: its backslashes are doubled)", esc, `\`+esc)
}
