package argcheck

import (
	"net/netip"
	"net/url"
	"strings"
)

// Format is a JSON Schema string format toolgen checks.
type Format string

// The formats of the tool tag's format= keyword. Their checks follow the JSON Schema
// 2020-12 definitions (RFC 3339 dates and times, ISO 8601 durations, RFC 5321 emails,
// RFC 1123 host names, RFC 3986 URIs, RFC 4122 UUIDs).
const (
	FormatDateTime Format = "date-time"
	FormatDate     Format = "date"
	FormatTime     Format = "time"
	FormatDuration Format = "duration"
	FormatEmail    Format = "email"
	FormatHostname Format = "hostname"
	FormatIPv4     Format = "ipv4"
	FormatIPv6     Format = "ipv6"
	FormatURI      Format = "uri"
	FormatUUID     Format = "uuid"
)

// Valid reports whether s has format f. An unknown format accepts everything, as JSON
// Schema asks.
func (f Format) Valid(s string) bool {
	switch f {
	case FormatDateTime:
		return isDateTime(s)
	case FormatDate:
		return isDate(s)
	case FormatTime:
		return isTime(s)
	case FormatDuration:
		return isISODuration(s)
	case FormatEmail:
		return isEmail(s)
	case FormatHostname:
		return isHostname(s)
	case FormatIPv4:
		return isIPv4(s)
	case FormatIPv6:
		return isIPv6(s)
	case FormatURI:
		return isURI(s)
	case FormatUUID:
		return isUUID(s)
	}
	return true
}

// describe says what a value of the format looks like, for violation messages.
func (f Format) describe() string {
	switch f {
	case FormatDateTime:
		return "a date-time (RFC 3339) such as \"2024-01-31T09:30:00Z\""
	case FormatDate:
		return "a date (RFC 3339 full-date) such as \"2024-01-31\""
	case FormatTime:
		return "a time (RFC 3339 full-time) such as \"09:30:00Z\""
	case FormatDuration:
		return "an ISO 8601 duration such as \"P1DT2H\""
	case FormatEmail:
		return "an email address"
	case FormatHostname:
		return "a host name"
	case FormatIPv4:
		return "an IPv4 address"
	case FormatIPv6:
		return "an IPv6 address"
	case FormatURI:
		return "an absolute URI"
	case FormatUUID:
		return "a UUID such as \"123e4567-e89b-12d3-a456-426614174000\""
	}
	return "of format " + string(f)
}

func isUUID(s string) bool {
	groups := strings.Split(s, "-")
	sizes := [...]int{8, 4, 4, 4, 12}
	if len(groups) != len(sizes) {
		return false
	}
	for i, g := range groups {
		if len(g) != sizes[i] {
			return false
		}
		for _, c := range g {
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
	}
	return true
}

func isISODuration(s string) bool {
	s, ok := strings.CutPrefix(s, "P")
	if !ok || s == "" {
		return false
	}
	if w, ok := strings.CutSuffix(s, "W"); ok {
		if w == "" {
			return false
		}
		for _, c := range w {
			if c < '0' || c > '9' {
				return false
			}
		}
		return true
	}
	allUnits := [...]string{"YMD", "HMS"}
	for i, part := range strings.Split(s, "T") {
		if i >= len(allUnits) || i != 0 && part == "" {
			return false
		}
		units := allUnits[i]
		for part != "" {
			digits := 0
			for digits < len(part) && part[digits] >= '0' && part[digits] <= '9' {
				digits++
			}
			if digits == 0 || digits == len(part) {
				return false
			}
			j := strings.IndexByte(units, part[digits])
			if j < 0 {
				return false
			}
			units = units[j+1:]
			part = part[digits+1:]
		}
	}
	return true
}

func isIPv4(s string) bool {
	groups := strings.Split(s, ".")
	if len(groups) != 4 {
		return false
	}
	for _, g := range groups {
		// RFC 2673's dotted-quad: one to three decimal digits, no sign (strconv.Atoi
		// would take "+1"), no leading zero, at most 255.
		if len(g) == 0 || len(g) > 3 || len(g) > 1 && g[0] == '0' {
			return false
		}
		n := 0
		for _, c := range []byte(g) {
			if c < '0' || c > '9' {
				return false
			}
			n = n*10 + int(c-'0')
		}
		if n > 255 {
			return false
		}
	}
	return true
}

func isIPv6(s string) bool {
	if !strings.Contains(s, ":") {
		return false
	}
	addr, err := netip.ParseAddr(s)
	return err == nil && addr.Zone() == ""
}

func isHostname(s string) bool {
	s = strings.TrimSuffix(s, ".")
	if len(s) > 253 {
		return false
	}
	for _, label := range strings.Split(s, ".") {
		if len(label) < 1 || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, c := range label {
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}

func isEmail(s string) bool {
	if len(s) > 254 {
		return false
	}
	at := strings.LastIndexByte(s, '@')
	if at < 0 {
		return false
	}
	local, domain := s[:at], s[at+1:]
	// RFC 5321's Local-part is a Dot-string (one atom at least) or a Quoted-string.
	if local == "" || len(local) > 64 {
		return false
	}
	if len(local) > 1 && strings.HasPrefix(local, `"`) && strings.HasSuffix(local, `"`) {
		if strings.ContainsAny(local[1:len(local)-1], `\"`) {
			return false
		}
	} else {
		if strings.HasPrefix(local, ".") || strings.HasSuffix(local, ".") || strings.Contains(local, "..") {
			return false
		}
		for _, c := range local {
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.ContainsRune(".!#$%&'*+-/=?^_`{|}~", c)) {
				return false
			}
		}
	}
	if strings.HasPrefix(domain, "[") && strings.HasSuffix(domain, "]") {
		domain = domain[1 : len(domain)-1]
		if ip6, ok := strings.CutPrefix(domain, "IPv6:"); ok {
			return isIPv6(ip6)
		}
		return isIPv4(domain)
	}
	return isHostname(domain)
}

// text is the text the format checks read: a string, or the bytes of one.
type text interface{ ~string | ~[]byte }

// isDateTime checks an RFC 3339 date-time ("t" and "z" may be lowercase). The checks
// of dates and times read bytes only: they allocate nothing.
func isDateTime[T text](s T) bool {
	if len(s) < 20 || s[10] != 't' && s[10] != 'T' {
		return false
	}
	return isDate(s[:10]) && isTime(s[11:])
}

// isDate checks an RFC 3339 full-date: four digits of year, two of month and two of
// day, a day the month has.
func isDate[T text](s T) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	y1, ok1 := digits2(s, 0)
	y2, ok2 := digits2(s, 2)
	m, ok3 := digits2(s, 5)
	d, ok4 := digits2(s, 8)
	if !ok1 || !ok2 || !ok3 || !ok4 || m < 1 || m > 12 || d < 1 {
		return false
	}
	return d <= daysIn(m, y1*100+y2)
}

// isTime checks an RFC 3339 full-time, leap seconds included: a second 60 only at
// 23:59 UTC.
func isTime[T text](str T) bool {
	if len(str) < 9 || str[2] != ':' || str[5] != ':' {
		return false
	}
	h, ok1 := digits2(str, 0)
	m, ok2 := digits2(str, 3)
	s, ok3 := digits2(str, 6)
	if !ok1 || !ok2 || !ok3 || h > 23 || m > 59 || s > 60 {
		return false
	}
	str = str[8:]
	if len(str) > 0 && str[0] == '.' {
		n := 1
		for n < len(str) && '0' <= str[n] && str[n] <= '9' {
			n++
		}
		if n == 1 {
			return false
		}
		str = str[n:]
	}
	if len(str) == 1 && (str[0] == 'z' || str[0] == 'Z') {
		return s < 60 || h == 23 && m == 59
	}
	if len(str) != len("+07:00") || str[3] != ':' {
		return false
	}
	sign := 0
	switch str[0] {
	case '+':
		sign = -1
	case '-':
		sign = 1
	default:
		return false
	}
	zh, ok1 := digits2(str, 1)
	zm, ok2 := digits2(str, 4)
	if !ok1 || !ok2 || zh > 23 || zm > 59 {
		return false
	}
	if s < 60 {
		return true
	}
	// A leap second: the time in UTC must be 23:59.
	hm := h*60 + m + sign*(zh*60+zm)
	if hm < 0 {
		hm += 24 * 60
	}
	return hm == 23*60+59
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

// digits2 reads the two decimal digits at s[i:i+2].
func digits2[T text](s T, i int) (int, bool) {
	a, b := s[i]-'0', s[i+1]-'0'
	if a > 9 || b > 9 {
		return 0, false
	}
	return int(a)*10 + int(b), true
}

// isURI checks an absolute URI (RFC 3986): url.Parse takes more than the RFC's
// characters (a space, a quote, a backslash), so each byte is checked first to be
// unreserved, reserved or part of a percent-encoding.
func isURI(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("-._~:/?#[]@!$&'()*+,;=", c) >= 0:
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return false
			}
			i += 2
		default:
			return false
		}
	}
	u, err := url.Parse(s)
	if err != nil {
		return false
	}
	if host := u.Hostname(); strings.Contains(host, ":") {
		if !strings.Contains(u.Host, "[") || !strings.Contains(u.Host, "]") || !isIPv6(host) {
			return false
		}
	}
	return u.IsAbs()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
