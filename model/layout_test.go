package model

import (
	"regexp"
	"testing"
	"time"
)

// TestLayoutPattern checks the expressions of layouts, and that each matches what its
// layout writes, at the example instant and at others.
func TestLayoutPattern(t *testing.T) {
	cases := []struct{ layout, pattern, inexact string }{
		{"2006-01-02 15:04:05", `^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$`, ""},
		{time.DateOnly, `^\d{4}-\d{2}-\d{2}$`, ""},
		{time.RFC3339, `^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})$`, ""},
		{time.RFC3339Nano, `^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$`, ""},
		{time.RFC1123, `^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} [A-Z]{3,4}$`, ""},
		{time.RFC1123Z, `^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} [+-]\d{4}$`, ""},
		{time.Kitchen, `^\d{1,2}:\d{2}(AM|PM)$`, ""},
		{time.ANSIC, `^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$`, ""},
		{"Monday, January 2, 2006 3:04pm", `^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}, \d{4} \d{1,2}:\d{2}(am|pm)$`, ""},
		{"02/01/06 15h04", `^\d{2}/\d{2}/\d{2} \d{2}h\d{2}$`, ""},
		{"2006-01-02 15:04:05.000", `^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$`, ""},
		{"15:04:05,000000 Z0700 -07", `^\d{2}:\d{2}:\d{2},\d{6} (Z|[+-]\d{4}) [+-]\d{2}$`, ""},
		{"_2006 (x+y)*", `^_\d{4} \(x\+y\)\*$`, ""},
		{"2006.0001", `^\d{4}\.00\d{2}$`, ""}, // "01" is the month, as time reads it
		{"2006 __2", "", "__2"},
		{"2006-002", `^\d{4}-\d{3}$`, ""},
	}
	instants := []time.Time{LayoutExample, time.Date(1999, 12, 31, 23, 59, 59, 123456789, time.FixedZone("", -5*3600-30*60)), time.Date(2024, 2, 9, 13, 5, 7, 5e8, time.FixedZone("CEST", 7200))}
	for _, tc := range cases {
		p, inexact := LayoutPattern(tc.layout)
		if p != tc.pattern || inexact != tc.inexact {
			t.Errorf("LayoutPattern(%q) = %q, %q; want %q, %q", tc.layout, p, inexact, tc.pattern, tc.inexact)
			continue
		}
		if p == "" {
			continue
		}
		re := regexp.MustCompile(p)
		for _, at := range instants {
			if s := at.Format(tc.layout); !re.MatchString(s) && !(tc.layout == time.RFC1123 && at.Location().String() == "") {
				t.Errorf("%q writes %q, which %s does not match", tc.layout, s, p)
			}
		}
	}
}

// TestLayoutZone pins what a schema tells the model of the zone a layout's value is
// read in: the offset it writes where the layout has one, UTC otherwise (a zone name
// alone changes nothing), as runtime's TestTimeLayoutZone finds the decoder reads it.
func TestLayoutZone(t *testing.T) {
	const (
		utc    = "It is read in UTC."
		named  = "It is read in UTC: the zone name written in it does not change the time."
		offset = "It is read at the UTC offset it is written with."
	)
	cases := map[string]string{
		"2006-01-02 15:04":            utc,
		"15:04":                       utc,
		"2006-01-02":                  utc,
		"Jan 2 15:04 MST":             named,
		"2006-01-02 15:04 -07:00":     offset,
		"2006-01-02 15:04 -0700 MST":  offset,
		"2006-01-02T15:04:05Z07:00":   offset,
		"Mon, 02 Jan 2006 15:04 -07":  offset,
		"2006-01-02 15:04 Z0700":      offset,
		"2006-01-02 15:04:05 MSTtext": named,
	}
	for layout, want := range cases {
		if got := LayoutZone(layout); got != want {
			t.Errorf("LayoutZone(%q) = %q, want %q", layout, got, want)
		}
	}
}
