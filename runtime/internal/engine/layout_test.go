package engine

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// TestTimeLayout checks Decoder.TimeLayout: what time.Parse reads, in UTC when the
// layout has no zone, and a violation that shows the form otherwise.
func TestTimeLayout(t *testing.T) {
	const tutorial = "2006-01-02 15:04:05"
	cases := []struct {
		layout, args string
		want         time.Time
		msg          string // the violation, "" for none
	}{
		{tutorial, `"2024-08-01 00:00:00"`, time.Date(2024, 8, 1, 0, 0, 0, 0, time.UTC), ""},
		{tutorial, `"2024-12-31 23:59:59"`, time.Date(2024, 12, 31, 23, 59, 59, 0, time.UTC), ""},
		{tutorial, `"2024-02-29 12:00:00"`, time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC), ""},
		{tutorial, ` "2024-08-01 00:00:00" `, time.Date(2024, 8, 1, 0, 0, 0, 0, time.UTC), ""},
		{tutorial, `"2024-08-01T00:00:00Z"`, time.Time{}, `must be a date and time written like "2024-08-01 00:00:00" (layout 2006-01-02 15:04:05) (got "2024-08-01T00:00:00Z")`},
		{tutorial, `"2023-02-29 12:00:00"`, time.Time{}, `must be a date and time written like "2024-08-01 00:00:00" (layout 2006-01-02 15:04:05) (got "2023-02-29 12:00:00")`},
		{tutorial, `"2024-13-01 00:00:00"`, time.Time{}, `must be a date and time written like "2024-08-01 00:00:00" (layout 2006-01-02 15:04:05) (got "2024-13-01 00:00:00")`},
		{tutorial, `"2024-08-01 24:00:00"`, time.Time{}, `must be a date and time written like "2024-08-01 00:00:00" (layout 2006-01-02 15:04:05) (got "2024-08-01 24:00:00")`},
		{tutorial, `"2024-08-01"`, time.Time{}, `must be a date and time written like "2024-08-01 00:00:00" (layout 2006-01-02 15:04:05) (got "2024-08-01")`},
		{tutorial, `""`, time.Time{}, `must be a date and time written like "2024-08-01 00:00:00" (layout 2006-01-02 15:04:05) (got "")`},
		{tutorial, `20240801`, time.Time{}, `must be a string written like "2024-08-01 00:00:00" (got 20240801)`},
		{tutorial, `true`, time.Time{}, `must be a string written like "2024-08-01 00:00:00" (got true)`},
		{"2006-01-02", `"1815-12-10"`, time.Date(1815, 12, 10, 0, 0, 0, 0, time.UTC), ""},
		{"02/01/2006", `"31/12/2024"`, time.Date(2024, 12, 31, 0, 0, 0, 0, time.UTC), ""},
		{"02/01/2006", `"12/31/2024"`, time.Time{}, `must be a date written like "01/08/2024" (layout 02/01/2006) (got "12/31/2024")`},
		{"15:04", `"09:30"`, time.Date(0, 1, 1, 9, 30, 0, 0, time.UTC), ""},
		{"15:04", `"9h30"`, time.Time{}, `must be a time written like "00:00" (layout 15:04) (got "9h30")`},
		{"Jan 2, 2006 at 3:04pm (MST)", `"Aug 1, 2024 at 9:30am (UTC)"`, time.Date(2024, 8, 1, 9, 30, 0, 0, time.UTC), ""},
		{time.RFC1123Z, `"Thu, 01 Aug 2024 09:30:00 +0200"`, time.Date(2024, 8, 1, 7, 30, 0, 0, time.UTC), ""},
		{"2006-01-02 15:04:05.000", `"2024-08-01 09:30:00.250"`, time.Date(2024, 8, 1, 9, 30, 0, 250e6, time.UTC), ""},
		{"2006-01-02 15:04:05.000", `"2024-08-01 09:30:00"`, time.Time{}, `must be a date and time written like "2024-08-01 00:00:00.000" (layout 2006-01-02 15:04:05.000) (got "2024-08-01 09:30:00")`},
		// What time.Parse reads but the layout (and the schema's pattern) does not write.
		{tutorial, `"2024-08-01 9:30:00"`, time.Time{}, `must be a date and time written like "2024-08-01 00:00:00" (layout 2006-01-02 15:04:05) (got "2024-08-01 9:30:00")`},
		{tutorial, `"2024-08-01 00:00:00.123"`, time.Time{}, `must be a date and time written like "2024-08-01 00:00:00" (layout 2006-01-02 15:04:05) (got "2024-08-01 00:00:00.123")`},
		{time.RFC1123Z, `"thu, 01 AUG 2024 09:30:00 +0200"`, time.Time{}, `must be a date and time written like "Thu, 01 Aug 2024 00:00:00 +0000" (layout Mon, 02 Jan 2006 15:04:05 -0700) (got "thu, 01 AUG 2024 09:30:00 +0200")`},
	}
	for _, tc := range cases {
		d := NewDecoder([]byte(tc.args), Limits{})
		got, ok := d.TimeLayout(tc.layout)
		d.Finish()
		var msgs []string
		for _, v := range d.Violations() {
			msgs = append(msgs, strings.TrimPrefix(v.String(), "/: "))
		}
		msg := strings.Join(msgs, "; ")
		if msg != tc.msg {
			t.Errorf("TimeLayout(%q) of %s: violations %q, want %q", tc.layout, tc.args, msg, tc.msg)
		}
		if ok != (tc.msg == "") || ok && !got.Equal(tc.want) {
			t.Errorf("TimeLayout(%q) of %s = %v, %v; want %v", tc.layout, tc.args, got, ok, tc.want)
		}
		if ok && got.Location() != time.UTC && tc.layout != time.RFC1123Z {
			t.Errorf("TimeLayout(%q) of %s: location %v, want UTC", tc.layout, tc.args, got.Location())
		}
	}
}

// TestDate checks Decoder.Date: an RFC 3339 full-date at midnight UTC, and the
// violations of a string with format date.
func TestDate(t *testing.T) {
	const bad = `must be a date (RFC 3339 full-date) such as "2024-01-31"`
	cases := []struct {
		args string
		want time.Time
		msg  string
	}{
		{`"2024-08-01"`, time.Date(2024, 8, 1, 0, 0, 0, 0, time.UTC), ""},
		{`"2024-02-29"`, time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC), ""},
		{`"0000-01-01"`, time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC), ""},
		{`"9999-12-31"`, time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC), ""},
		{`"2023-02-29"`, time.Time{}, bad + ` (got "2023-02-29")`},
		{`"2024-8-1"`, time.Time{}, bad + ` (got "2024-8-1")`},
		{`"2024-08-01T00:00:00Z"`, time.Time{}, bad + ` (got "2024-08-01T00:00:00Z")`},
		{`"2024-00-10"`, time.Time{}, bad + ` (got "2024-00-10")`},
		{`"2024-04-31"`, time.Time{}, bad + ` (got "2024-04-31")`},
		{`20240801`, time.Time{}, `must be a string (got 20240801)`},
	}
	for _, tc := range cases {
		d := NewDecoder([]byte(tc.args), Limits{})
		got, ok := d.Date()
		d.Finish()
		var msgs []string
		for _, v := range d.Violations() {
			msgs = append(msgs, strings.TrimPrefix(v.String(), "/: "))
		}
		if msg := strings.Join(msgs, "; "); msg != tc.msg {
			t.Errorf("Date() of %s: violations %q, want %q", tc.args, msg, tc.msg)
		}
		if ok != (tc.msg == "") || ok && (!got.Equal(tc.want) || got.Location() != time.UTC) {
			t.Errorf("Date() of %s = %v, %v; want %v", tc.args, got, ok, tc.want)
		}
	}
}

// TestTimeLayoutAllocs checks that reading a date in a layout, or a date, costs no
// allocation of its own.
func TestTimeLayoutAllocs(t *testing.T) {
	args := []byte(`"2024-08-01 09:30:00"`)
	var d *Decoder
	layout := testing.AllocsPerRun(100, func() {
		d = NewDecoder(args, Limits{})
		if _, ok := d.TimeLayout("2006-01-02 15:04:05"); !ok {
			t.Fatal(d.Violations())
		}
	})
	date := []byte(`"2024-08-01"`)
	day := testing.AllocsPerRun(100, func() {
		d = NewDecoder(date, Limits{})
		if _, ok := d.Date(); !ok {
			t.Fatal(d.Violations())
		}
	})
	base := testing.AllocsPerRun(100, func() {
		d = NewDecoder(args, Limits{})
		d.String()
	})
	if layout > base || day > base {
		t.Errorf("TimeLayout allocates %v times, Date %v, String %v", layout, day, base)
	}
}

// FuzzTimeLayout checks that Decoder.TimeLayout reads a string exactly when time.Parse
// does and the layout writes that time back as the same string, to the same instant,
// and reports one violation otherwise.
func FuzzTimeLayout(f *testing.F) {
	f.Add("2006-01-02 15:04:05", "2024-08-01 00:00:00")
	f.Add("2006-01-02 15:04:05", "2024-08-01 9:00:00")
	f.Add("2006-01-02 15:04:05", "2024-08-01 00:00:00.5")
	f.Add("Jan _2 15:04:05.000 MST", "Aug  1 00:00:00.000 CEST")
	f.Add("02/01/06 3PM -0700", "31/12/99 11PM +0530")
	f.Fuzz(func(t *testing.T, layout, s string) {
		if !utf8.ValidString(s) {
			return // JSON text holds UTF-8 only
		}
		want, err := time.Parse(layout, s)
		canonical := err == nil && want.Format(layout) == s
		arg, _ := json.Marshal(s)
		d := NewDecoder(arg, Limits{})
		got, ok := d.TimeLayout(layout)
		if ok != canonical || ok && !got.Equal(want) {
			t.Fatalf("TimeLayout(%q) of %q = %v, %v; time.Parse: %v, %v", layout, s, got, ok, want, err)
		}
		if n := len(d.Violations()); ok && n != 0 || !ok && n != 1 {
			t.Fatalf("TimeLayout(%q) of %q: violations %v", layout, s, d.Violations())
		}
	})
}

// TestTimeLayoutZone checks the zone Decoder.TimeLayout reads a value in, as the
// schema tells the model (model.LayoutZone, whose test pins the sentences): the offset it writes, or else UTC, a
// zone name (layout MST) changing nothing, on a server whose local zone is not UTC
// too. It runs itself again with TZ=America/New_York, where time.Parse would read
// "EDT" at -04:00.
func TestTimeLayoutZone(t *testing.T) {
	if os.Getenv("TOOLGEN_ZONE_CHILD") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestTimeLayoutZone$", "-test.v")
		cmd.Env = append(os.Environ(), "TOOLGEN_ZONE_CHILD=1", "TZ=America/New_York")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("in TZ=America/New_York: %v\n%s", err, out)
		}
		if !strings.Contains(string(out), "local zone EDT") {
			t.Fatalf("the child did not run in New York's zone:\n%s", out)
		}
	} else {
		// Not an error: the parent checks that the child ran where it should.
		name, _ := time.Date(2024, 8, 1, 12, 0, 0, 0, time.Local).Zone()
		t.Logf("local zone %s", name)
	}
	cases := []struct {
		layout, value string
		want          time.Time
		offset        int // of the time read, in seconds
	}{
		{"2006-01-02 15:04", `"2024-08-01 09:30"`, time.Date(2024, 8, 1, 9, 30, 0, 0, time.UTC), 0},
		{"2006-01-02 15:04 MST", `"2024-08-01 09:30 EDT"`, time.Date(2024, 8, 1, 9, 30, 0, 0, time.UTC), 0},
		{"2006-01-02 15:04 MST", `"2024-08-01 09:30 UTC"`, time.Date(2024, 8, 1, 9, 30, 0, 0, time.UTC), 0},
		{"2006-01-02 15:04 -07:00", `"2024-08-01 09:30 -04:00"`, time.Date(2024, 8, 1, 13, 30, 0, 0, time.UTC), -4 * 3600},
		{"2006-01-02 15:04 -0700 MST", `"2024-08-01 09:30 -0400 EDT"`, time.Date(2024, 8, 1, 13, 30, 0, 0, time.UTC), -4 * 3600},
		{time.RFC3339, `"2024-08-01T09:30:00Z"`, time.Date(2024, 8, 1, 9, 30, 0, 0, time.UTC), 0},
		{time.RFC3339, `"2024-08-01T09:30:00+02:00"`, time.Date(2024, 8, 1, 7, 30, 0, 0, time.UTC), 2 * 3600},
	}
	for _, tc := range cases {
		d := NewDecoder([]byte(tc.value), Limits{})
		got, ok := d.TimeLayout(tc.layout)
		d.Finish()
		if !ok || len(d.Violations()) > 0 {
			t.Errorf("TimeLayout(%q) of %s: %v", tc.layout, tc.value, d.Violations())
			continue
		}
		if _, off := got.Zone(); !got.Equal(tc.want) || off != tc.offset {
			t.Errorf("TimeLayout(%q) of %s = %v (offset %d), want %v (offset %d)", tc.layout, tc.value, got, off, tc.want, tc.offset)
		}
	}
}
