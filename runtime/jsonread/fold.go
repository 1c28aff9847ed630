package jsonread

import (
	"unicode"
	"unicode/utf8"
)

// Fold replaces key, valid UTF-8, with its case folding, in place, and returns it:
// each character becomes the smallest of those equal to it under Unicode simple case
// folding (which is what bytes.EqualFold and encoding/json compare), so an ASCII letter
// its upper case, and U+212A (Kelvin sign) and U+017F (long s) "K" and "S". Two keys
// are equal under bytes.EqualFold when their foldings are the same.
func Fold(key []byte) []byte {
	w := 0
	for i := 0; i < len(key); {
		c := key[i]
		if c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			key[w] = c
			w++
			i++
			continue
		}
		r, n := utf8.DecodeRune(key[i:])
		if n == 1 { // invalid UTF-8, which a decoded key never has: kept as it is
			key[w] = c
			w++
			i++
			continue
		}
		// The folding, a smaller character, is no longer: w stays at most i.
		w += utf8.EncodeRune(key[w:], foldRune(r))
		i += n
	}
	return key[:w]
}

// foldRune returns the smallest character equal to r under simple case folding.
func foldRune(r rune) rune {
	for {
		r2 := unicode.SimpleFold(r)
		if r2 <= r {
			return r2
		}
		r = r2
	}
}
