package jsonread

import "strings"

// EscapeToken escapes s as a reference token of a JSON Pointer (RFC 6901): "~" as "~0"
// and "/" as "~1".
func EscapeToken(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return string(AppendToken(make([]byte, 0, len(s)+4), s))
}

// AppendToken appends s to dst escaped as EscapeToken escapes it.
func AppendToken[S string | []byte](dst []byte, s S) []byte {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '~':
			dst = append(dst, '~', '0')
		case '/':
			dst = append(dst, '~', '1')
		default:
			dst = append(dst, s[i])
		}
	}
	return dst
}

// UnescapeToken undoes EscapeToken: "~1" is "/" and "~0" is "~", in one pass, so that
// "~01" is "~1".
func UnescapeToken(s string) string {
	if !strings.Contains(s, "~") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '~' && i+1 < len(s) {
			switch s[i+1] {
			case '0':
				b.WriteByte('~')
				i++
				continue
			case '1':
				b.WriteByte('/')
				i++
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// SplitPointer returns the reference tokens of the JSON Pointer p, unescaped: none for
// "", the whole document. ok is false when p is neither "" nor starts with "/", or has
// a "~" that is not "~0" or "~1".
func SplitPointer(p string) (tokens []string, ok bool) {
	if p == "" {
		return nil, true
	}
	if p[0] != '/' {
		return nil, false
	}
	tokens = strings.Split(p[1:], "/")
	for i, t := range tokens {
		for j := 0; j < len(t); j++ {
			if t[j] == '~' {
				if j+1 == len(t) || t[j+1] != '0' && t[j+1] != '1' {
					return nil, false
				}
				j++
			}
		}
		tokens[i] = UnescapeToken(t)
	}
	return tokens, true
}
