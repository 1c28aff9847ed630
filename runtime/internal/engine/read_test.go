package engine

import (
	"encoding/json"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toolgen/toolgen/runtime/internal/argcheck"
	"github.com/toolgen/toolgen/runtime/invalid"
)

var dateTimeSeeds = []string{
	"2026-01-01T00:00:00Z",
	"2026-03-31T23:59:59+02:00",
	"2026-03-31T23:59:59.123456789-11:30",
	"2024-02-29T12:00:00Z",
	"2023-02-29T12:00:00Z",
	"2100-02-29T12:00:00Z",
	"2000-02-29T12:00:00Z",
	"0000-01-01T00:00:00Z",
	"9999-12-31T23:59:59Z",
	"2026-13-01T00:00:00Z",
	"2026-00-10T00:00:00Z",
	"2026-04-31T00:00:00Z",
	"2026-01-01t00:00:00z",
	"2026-01-01T24:00:00Z",
	"2026-01-01T23:60:00Z",
	"2026-12-31T23:59:60Z",
	"2026-06-30T23:59:60+00:00",
	"2026-01-01T00:00:00+24:00",
	"2026-01-01T00:00:00+23:60",
	"2026-01-01T00:00:00.Z",
	"2026-01-01T00:00:00,5Z",
	"2026-01-01T0:00:00Z",
	"2026-01-01T00:00:00",
	"2026-01-01 00:00:00Z",
	"+026-01-01T00:00:00Z",
	"2026-01-01T00:00:00+0100",
	"2026-01-01T00:00:00+01:00 ",
	"2026-1-01T00:00:00Z",
	"2026-01-01T+1:00:00Z",
	"2026-01-01T00:00:00+-1:00",
	"2026-12-31T23:59:60-00:00",
	"2026-12-31T22:59:60-01:00",
	"2027-01-01T00:59:60+01:00",
	"yesterday",
	"",
}

// referenceDateTime is RFC 3339's date-time written plainly, as the oracle of isDateTime:
// its grammar as a regular expression, the calendar from package time, a leap second
// only at 23:59 UTC.
func referenceDateTime(s string) bool {
	m := dateTimeRE.FindStringSubmatch(s)
	if m == nil {
		return false
	}
	n := func(i int) int { v, _ := strconv.Atoi(m[i]); return v }
	year, month, day, hour, minute, sec := n(1), n(2), n(3), n(4), n(5), n(6)
	if month < 1 || month > 12 || day < 1 || time.Date(year, time.Month(month), day, 0, 0, 0, 0, time.UTC).Day() != day {
		return false
	}
	if hour > 23 || minute > 59 || sec > 60 {
		return false
	}
	offset := 0
	if zone := m[8]; zone != "Z" && zone != "z" {
		zh, _ := strconv.Atoi(zone[1:3])
		zm, _ := strconv.Atoi(zone[4:6])
		if zh > 23 || zm > 59 {
			return false
		}
		offset = zh*60 + zm
		if zone[0] == '-' {
			offset = -offset
		}
	}
	if sec == 60 {
		utc := ((hour*60+minute-offset)%(24*60) + 24*60) % (24 * 60)
		return utc == 23*60+59
	}
	return true
}

var dateTimeRE = regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$`)

// TestDateTime checks isDateTime, on text and on bytes, against referenceDateTime.
func TestDateTime(t *testing.T) {
	for _, s := range dateTimeSeeds {
		if got, want := argcheck.IsDateTime(s), referenceDateTime(s); got != want || argcheck.IsDateTime([]byte(s)) != want {
			t.Errorf("isDateTime(%q) = %v, want %v", s, got, want)
		}
	}
	for _, s := range dateTimeSeeds[:9] {
		if want := s != "2023-02-29T12:00:00Z" && s != "2100-02-29T12:00:00Z"; argcheck.IsDateTime(s) != want {
			t.Errorf("isDateTime(%q) = %v, want %v", s, !want, want)
		}
	}
}

// TestDateTimeAllocs checks that a date-time check allocates nothing.
func TestDateTimeAllocs(t *testing.T) {
	s := "2026-12-01T10:30:00.123+01:00"
	if n := testing.AllocsPerRun(100, func() { argcheck.IsDateTime(s) }); n != 0 {
		t.Errorf("isDateTime allocates %v times", n)
	}
}

// FuzzTime checks that Decoder.Time reads a date-time exactly when isDateTime and
// time.Time.UnmarshalText both accept it, to the same instant and offset.
func FuzzTime(f *testing.F) {
	for _, s := range dateTimeSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := argcheck.IsDateTime(s), referenceDateTime(s); got != want || argcheck.IsDateTime([]byte(s)) != want {
			t.Fatalf("isDateTime(%q) = %v, want %v", s, got, want)
		}
		// time.Time parses only an uppercase "T" and "Z"; RFC 3339 allows both cases.
		var want time.Time
		upper := []byte(s)
		if len(upper) > 10 && upper[10] == 't' {
			upper[10] = 'T'
		}
		if n := len(upper); n > 0 && upper[n-1] == 'z' {
			upper[n-1] = 'Z'
		}
		wantOK := argcheck.IsDateTime(s) && want.UnmarshalText(upper) == nil
		d := NewDecoder([]byte(strconv.Quote(s)), Limits{})
		got, gotOK := d.Time()
		if gotOK != wantOK {
			t.Fatalf("Time(%q) ok = %v, want %v", s, gotOK, wantOK)
		}
		_, gotOff := got.Zone()
		_, wantOff := want.Zone()
		if gotOK && (!got.Equal(want) || gotOff != wantOff) {
			t.Fatalf("Time(%q) = %v, want %v", s, got, want)
		}
	})
}

// TestLengthShortcuts checks MinLength and MaxLength, whose lengths in bytes decide
// most strings, against a count of characters.
func TestLengthShortcuts(t *testing.T) {
	for _, s := range []string{"", "a", "ab", "abcd", "é", "éé", "日本", "𝄞𝄞", "a𝄞", "abcdefgh", "𝄞𝄞𝄞𝄞"} {
		runes := len([]rune(s))
		for n := 0; n <= 9; n++ {
			d := NewDecoder(nil, Limits{})
			d.MinLength(s, n)
			if got, want := d.Failed(), runes < n; got != want {
				t.Errorf("MinLength(%q, %d) failed = %v, want %v", s, n, got, want)
			}
			d = NewDecoder(nil, Limits{})
			d.MaxLength(s, n)
			if got, want := d.Failed(), runes > n; got != want {
				t.Errorf("MaxLength(%q, %d) failed = %v, want %v", s, n, got, want)
			}
		}
	}
}

// pair is decoded by decodePair, written as the generator writes decoders, with
// Property, whose path points at the key in the text when it can.
type pair struct {
	A    int64
	Next *pair
}

func decodePair(d *Decoder, v *pair) {
	if !d.BeginObject() {
		return
	}
	var seen [2]argcheck.Presence
	for d.NextField() {
		switch string(d.FieldName()) {
		case "a/b":
			if d.Property(&seen[0], "a/b", argcheck.Required) {
				if n, ok := d.Int(0, 5); ok {
					v.A = n
				}
				d.Leave()
			}
		case "next":
			if d.Property(&seen[1], "next", argcheck.Optional) {
				v.Next = new(pair)
				decodePair(d, v.Next)
				d.Leave()
			}
		default:
			d.Unknown("a/b", "next")
		}
	}
	if seen[0] == argcheck.Absent {
		d.Missing("a/b")
	}
}

// TestPropertyPaths checks the paths of violations below properties, whose keys are
// escaped or not, inside objects that arrive as JSON strings or not, with one Decoder
// reused for every case.
func TestPropertyPaths(t *testing.T) {
	d := NewDecoder(nil, Limits{})
	for _, c := range []struct {
		args  string
		paths []string
	}{
		{`{"a/b":9}`, []string{"/a~1b"}},
		{`{"a\/b":9}`, []string{"/a~1b"}},
		{`{"a/b":1,"next":"{\"a/b\":9}"}`, []string{"/next/a~1b"}},
		{`{"a/b":1,"next":"{\"a/b\":1,\"next\":{\"a/b\":7}}","zz":1}`, []string{"/next/next/a~1b", "/zz"}},
		{`{"next":{"a/b":1,"next":"{\"a\\u002fb\":8,\"n\\u00e9\":1}"}}`, []string{"/next/next/a~1b", "/next/next/né", "/a~1b"}},
		{`{"n\u0065xt":{"a/b":6},"a/b":-1}`, []string{"/next/a~1b", "/a~1b"}},
		{`{"a/b":1,"next":{"a/b":1,"next":{"a/b":1,"x":2}}}`, []string{"/next/next/x"}},
		{" { \"a/b\" : 9 ,\n\t\"next\" :\r{ \"a/b\"\t: 7 } } ", []string{"/a~1b", "/next/a~1b"}},
	} {
		d.Reset([]byte(c.args), Limits{})
		var v pair
		decodePair(d, &v)
		d.Finish()
		var got []string
		for _, viol := range d.Violations() {
			got = append(got, viol.Path)
		}
		if strings.Join(got, " ") != strings.Join(c.paths, " ") {
			t.Errorf("%s: violations at %q, want %q (%v)", c.args, got, c.paths, d.Violations())
		}
	}
}

var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`)

// FuzzInt checks Decoder.Int, fast path and slow, against strconv.ParseInt on the
// number encoding/json sees, for integers in and out of bounds.
func FuzzInt(f *testing.F) {
	for _, s := range []string{"0", "-0", "7", "-7", "15", "01", "-", "1.5", "1e3", "1E3", "-1.0", "1.5e1", "150e-1", "-0.0e5", "1e-1",
		"1e99999", "1e-99999", "9.223372036854775807e18", "9.223372036854775808e18", "0.000e-3",
		"99999999999999999", "999999999999999999", "9223372036854775807", "9223372036854775808",
		"-9223372036854775808", "-9223372036854775809", "12345678901234567890", `"3"`, "true", "null", " 5 ", "5,", "5}"} {
		f.Add(s, int64(-10), int64(14))
	}
	f.Fuzz(func(t *testing.T, s string, min, max int64) {
		d := NewDecoder([]byte(s), Limits{})
		got, ok := d.Int(min, max)
		var viol invalid.Code
		if vs := d.Violations(); len(vs) > 0 {
			viol = vs[0].Code
		}
		// The reference: the JSON number the text starts with, if any.
		trimmed := strings.TrimLeft(s, " \t\r\n")
		num := jsonNumber.FindString(trimmed)
		rest := trimmed[len(num):]
		switch {
		case num == "" || rest != "" && (rest[0] == '.' && !strings.ContainsAny(num, ".eE") || (rest[0] == 'e' || rest[0] == 'E') && !strings.ContainsAny(num, "eE")):
			// No number, or a malformed one: Int must fail.
			if ok {
				t.Fatalf("Int(%q) = %d, ok for text that is no number", s, got)
			}
			return
		case strings.ContainsAny(num, ".eE"):
			// An integer written with a fraction or an exponent: its value decides.
			if i := strings.IndexAny(num, "eE"); i >= 0 && len(strings.TrimLeft(num[i+1:], "+-0")) > 4 {
				return // an exponent too large for big.Rat to be a quick reference
			}
			var r big.Rat
			r.SetString(num)
			if !r.IsInt() {
				if ok || viol != invalid.Type {
					t.Fatalf("Int(%q) = %d, %v (%s), want a type violation", s, got, ok, viol)
				}
				return
			}
			num = r.Num().String()
		}
		n, err := strconv.ParseInt(num, 10, 64)
		switch {
		case err != nil:
			if ok || viol != invalid.Range {
				t.Fatalf("Int(%q) = %d, %v (%s), want a range violation", s, got, ok, viol)
			}
		case n < min:
			if ok || viol != invalid.Minimum {
				t.Fatalf("Int(%q, %d, %d) = %d, %v (%s), want a minimum violation", s, min, max, got, ok, viol)
			}
		case n > max:
			if ok || viol != invalid.Maximum {
				t.Fatalf("Int(%q, %d, %d) = %d, %v (%s), want a maximum violation", s, min, max, got, ok, viol)
			}
		default:
			if !ok || got != n {
				t.Fatalf("Int(%q, %d, %d) = %d, %v (%s), want %d", s, min, max, got, ok, viol, n)
			}
		}
	})
}

// FuzzFloat checks Decoder.Float, its one-pass path for short decimals and the path
// through strconv, against strconv.ParseFloat on the number the text starts with: the
// same bits (-0 included), the same numbers refused, and the same place to go on from.
func FuzzFloat(f *testing.F) {
	for _, s := range []string{"0", "-0", "97.5", "-3", "0.125", "1.0", "01", "-", "1.", ".5", "1e3", "1E-3", "-0.0", "0.1", "0.3",
		"9007199254740991", "9007199254740992", "9007199254740993", "900719925474099.3", "1.7976931348623157e308",
		"0.0000000000000000000001", "0.00000000000000000000001", "1234567890123456789", "12345678901234567890",
		"123456789012345678.9", "4.35", "2.2250738585072014e-308", "1e400", `"3"`, "true", "null", " 5.5 ", "5.5,", "7.25}", "-12.5e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, bits := range []int{64, 32} {
			d := NewDecoder([]byte(s), Limits{})
			got, ok := d.Float(bits)
			trimmed := strings.TrimLeft(s, " \t\r\n")
			num := jsonNumber.FindString(trimmed)
			rest := trimmed[len(num):]
			want, err := strconv.ParseFloat(num, bits)
			switch {
			case num == "" || rest != "" && (rest[0] == '.' && !strings.ContainsAny(num, ".eE") || (rest[0] == 'e' || rest[0] == 'E') && !strings.ContainsAny(num, "eE")):
				// No number, or a malformed one.
				if ok {
					t.Fatalf("Float(%q, %d) = %v, ok for text that is no number", s, bits, got)
				}
			case err != nil:
				if ok {
					t.Fatalf("Float(%q, %d) = %v, ok; ParseFloat: %v", s, bits, got, err)
				}
			case !ok || math.Float64bits(got) != math.Float64bits(want):
				t.Fatalf("Float(%q, %d) = %v (%x), %v, want %v (%x)", s, bits, got, math.Float64bits(got), ok, want, math.Float64bits(want))
			case d.pos != len(s)-len(trimmed)+len(num):
				t.Fatalf("Float(%q, %d) stopped at %d, want %d", s, bits, d.pos, len(s)-len(trimmed)+len(num))
			}
		}
	})
}

// FuzzString checks Decoder.String against encoding/json on the same JSON string:
// the same contents, invalid UTF-8 replaced, and the same strings refused.
func FuzzString(f *testing.F) {
	for _, s := range []string{"", "abc", `a\"b`, `\u00e9\n`, "é", "\xff", "a\x01", `\ud83d\ude00`, `\ud83d`, `\x`, "日本語", `\\`, `\/`,
		"a long plain string of words", "sixteen bytes ok then a quote\" inside", "0123456789abcdef\\n tail", "0123456789abcdéf", "0123456\x1f89abcdef"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		text := `"` + s + `"`
		d := NewDecoder([]byte(text), Limits{})
		got, ok := d.String()
		ok = ok && d.Finish()
		var want string
		wantOK := json.Unmarshal([]byte(text), &want) == nil
		if ok != wantOK || ok && got != want {
			t.Fatalf("String(%q) = %q, %v; encoding/json: %q, %v", text, got, ok, want, wantOK)
		}
	})
}

// TestRoom checks the room Room makes: four items first, then, within max, as many as
// the rest of the text could hold, and never more than max.
func TestRoom(t *testing.T) {
	list := func(n int, tail string) string {
		var b strings.Builder
		b.WriteString("[")
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(strconv.Itoa(100 + i))
		}
		return b.String() + "]" + tail
	}
	for _, c := range []struct {
		args      string
		max       int
		maxGrowth int // how many times s may be reallocated
		maxCap    int // allocation size classes may round it up
	}{
		{list(100, ""), 100, 2, 112},
		{list(100, ""), 0, 3, 112},                      // without max: within 8n at each step
		{list(4, strings.Repeat(" ", 10000)), 0, 2, 32}, // text left that is not the array: at most 8n
		{list(3, ""), 100, 1, 4},
		{list(3, ""), 2, 2, 4},                            // more items than max: it still grows
		{list(10, strings.Repeat(" ", 10000)), 50, 2, 56}, // 50, rounded up to a size class
		{list(1, ""), 100, 1, 4},
	} {
		d := NewDecoder([]byte(c.args), Limits{})
		var s []int64
		growths := 0
		if d.BeginArray() {
			for d.NextItem() {
				if len(s) == cap(s) {
					grown := make([]int64, len(s), d.Room(len(s), c.max, 8))
					copy(grown, s)
					s = grown
					growths++
				}
				n, _ := d.Int(0, 1000)
				s = append(s, n)
			}
		}
		if !d.Finish() {
			t.Fatalf("%.30s: %v", c.args, d.Violations())
		}
		if growths > c.maxGrowth || cap(s) > c.maxCap {
			t.Errorf("%.30s… (max %d): %d growths to cap %d, want at most %d growths, cap %d", c.args, c.max, growths, cap(s), c.maxGrowth, c.maxCap)
		}
		for i, v := range s {
			if v != int64(100+i) {
				t.Fatalf("%.30s: item %d = %d", c.args, i, v)
			}
		}
	}
}
