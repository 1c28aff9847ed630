package argcheck

// The helpers of formats and patterns that package runtime uses too.

// Text is a string or the bytes of one.
type Text = text

// IsDate reports whether s is an RFC 3339 full-date.
func IsDate[T Text](s T) bool { return isDate(s) }

// IsDateTime reports whether s is an RFC 3339 date-time.
func IsDateTime[T Text](s T) bool { return isDateTime(s) }

// IsTime reports whether s is an RFC 3339 full-time.
func IsTime[T Text](s T) bool { return isTime(s) }

// Digits2 reads the two decimal digits of s at i.
func Digits2[T Text](s T, i int) (int, bool) { return digits2(s, i) }

// Describe says what a value of format f looks like, for a violation's message.
func (f Format) Describe() string { return f.describe() }
