package jsonread

// StdMaxDepth is the deepest nesting of objects and arrays that encoding/json reads (its
// scanner's limit): Valid with it agrees with json.Valid.
const StdMaxDepth = 10000

// Skip skips the white space at b[i] and the one value after it, checking it as Valid
// does, nested at most depth levels (an object or an array at b[i] is one level), and
// returns the index after the value. On a problem, end is where it is (the bracket
// past the depth, for TooDeep). It does not recurse, so any depth costs the same stack,
// and allocates only past 256 levels.
func Skip(b []byte, i, depth int) (end int, p Problem) {
	var small [4]uint64 // the kinds of the open containers, a bit each: 1 for an object
	kinds := small[:]
	n := 0 // containers open
	for {
		// A value at i.
		i = SkipSpace(b, i)
		if i >= len(b) {
			return i, Unexpected
		}
		var ok bool
		switch c := b[i]; c {
		case '{', '[':
			if n >= depth {
				return i, TooDeep
			}
			if n/64 == len(kinds) {
				kinds = append(kinds, 0)
			}
			if c == '{' {
				kinds[n/64] |= 1 << (n % 64)
			} else {
				kinds[n/64] &^= 1 << (n % 64)
			}
			n++
			if i = SkipSpace(b, i+1); i < len(b) && b[i] == c+2 { // '}' is '{'+2, ']' is '['+2
				i++
				n--
				break
			}
			if c == '{' {
				if i, p = skipKey(b, i); p != OK {
					return i, p
				}
			}
			continue
		case '"':
			if i, _, p = ScanString(b, i); p != OK {
				return i, p
			}
		case 't':
			if i, ok = Literal(b, i, "true"); !ok {
				return i, Unexpected
			}
		case 'f':
			if i, ok = Literal(b, i, "false"); !ok {
				return i, Unexpected
			}
		case 'n':
			if i, ok = Literal(b, i, "null"); !ok {
				return i, Unexpected
			}
		default:
			if i, ok = ScanNumber(b, i); !ok {
				return i, Unexpected
			}
		}
		// After a value: close what ends here, up to the next value.
		for {
			if n == 0 {
				return i, OK
			}
			if i = SkipSpace(b, i); i >= len(b) {
				return i, Unexpected
			}
			object := kinds[(n-1)/64]>>((n-1)%64)&1 == 1
			c := b[i]
			if c == ',' {
				i++
				if object {
					if i, p = skipKey(b, SkipSpace(b, i)); p != OK {
						return i, p
					}
				}
				break
			}
			if object && c != '}' || !object && c != ']' {
				return i, Unexpected
			}
			i++
			n--
		}
	}
}

// skipKey reads an object's key at b[i] and the colon after it.
func skipKey(b []byte, i int) (int, Problem) {
	if i >= len(b) || b[i] != '"' {
		return i, Unexpected
	}
	i, _, p := ScanString(b, i)
	if p != OK {
		return i, p
	}
	if i = SkipSpace(b, i); i >= len(b) || b[i] != ':' {
		return i, Unexpected
	}
	return i + 1, OK
}

// Valid reports whether b is exactly one JSON value with white space around it, nested
// at most depth levels, as json.Valid does with StdMaxDepth.
func Valid(b []byte, depth int) bool {
	end, p := Skip(b, 0, depth)
	return p == OK && SkipSpace(b, end) == len(b)
}
