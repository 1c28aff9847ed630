package jsonread

// SkipLooseString returns the index after the string whose opening quote is b[i], or
// -1 when it is cut short. It checks nothing but where the string ends.
func SkipLooseString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// SkipLoose returns the index after the value that starts at b[i], or -1 when it may be
// cut short (a scalar ends at what follows it): of text that may be malformed, or too deep for Skip, such as a message whose id
// is to be found before it is refused. It counts brackets instead of recursing, so any
// depth is fine, and checks nothing else; on valid JSON it finds where Skip does.
func SkipLoose(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return SkipLooseString(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				if i = SkipLooseString(b, i); i < 0 {
					return -1
				}
				i--
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return -1
	}
	for ; i < len(b); i++ { // a number, true, false or null: up to what follows it
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
	}
	return -1 // maybe cut short
}

// DepthOver reports whether text that may be malformed nests objects and arrays deeper
// than max, counting the brackets outside strings, as a reader that stops at a depth
// before it checks the rest (the MCP SDK) counts them.
func DepthOver(b []byte, max int) bool {
	depth := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			if i = SkipLooseString(b, i); i < 0 {
				return false
			}
			i--
		case '{', '[':
			if depth++; depth > max {
				return true
			}
		case '}', ']':
			if depth > 0 {
				depth--
			}
		}
	}
	return false
}
