package runtime

import (
	"strconv"
	"testing"
	"time"
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
	"yesterday",
	"",
}

// TestStrictDateTime checks that strictDateTime, Time's fast path, accepts nothing that
// isDateTime refuses, and accepts the usual shapes.
func TestStrictDateTime(t *testing.T) {
	for _, s := range dateTimeSeeds {
		if strictDateTime([]byte(s)) && !isDateTime(s) {
			t.Errorf("strictDateTime(%q) = true, isDateTime false", s)
		}
	}
	for _, s := range dateTimeSeeds[:9] {
		if s == "2023-02-29T12:00:00Z" || s == "2100-02-29T12:00:00Z" {
			if strictDateTime([]byte(s)) {
				t.Errorf("strictDateTime(%q) = true for a day that does not exist", s)
			}
			continue
		}
		if !strictDateTime([]byte(s)) {
			t.Errorf("strictDateTime(%q) = false", s)
		}
	}
}

// FuzzTime checks that Decoder.Time reads a date-time exactly when isDateTime and
// time.Time.UnmarshalText both accept it, to the same instant and offset.
func FuzzTime(f *testing.F) {
	for _, s := range dateTimeSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strictDateTime([]byte(s)) && !isDateTime(s) {
			t.Fatalf("strictDateTime(%q) = true, isDateTime false", s)
		}
		var want time.Time
		wantOK := isDateTime(s) && want.UnmarshalText([]byte(s)) == nil
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
