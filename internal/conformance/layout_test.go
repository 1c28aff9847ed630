package conformance

import "testing"

// TestTimeLayouts calls echo_schedule: a time.Time with layout= takes its layout's form
// (the tutorial's "2024-08-01 00:00:00" among them) and refuses RFC 3339 with the form
// it wants; format=date takes a date, at midnight UTC.
func TestTimeLayouts(t *testing.T) {
	cases := []struct{ args, want string }{
		{`{"at":"2024-08-01 00:00:00"}`, `{"at":"2024-08-01T00:00:00Z"}`},
		{`{"at":"2024-08-01 09:30:15","until":"01 Aug 24 18:00 +0200","day":"2024-02-29","clocks":["9:30AM","12:05PM"]}`,
			`{"at":"2024-08-01T09:30:15Z","until":"2024-08-01T18:00:00+02:00","day":"2024-02-29T00:00:00Z","clocks":["0000-01-01T09:30:00Z","0000-01-01T12:05:00Z"]}`},
		{`{"at":"2024-08-01T00:00:00Z"}`, `invalid arguments for echo_schedule: /at: must be a date and time written like "2024-08-01 00:00:00" (layout 2006-01-02 15:04:05) (got "2024-08-01T00:00:00Z")`},
		{`{"at":"2024-08-01 00:00:00","until":"2024-08-01 18:00","day":"2024-02-30","clocks":["09:30","1:00PM","2:00PM","3:00PM"]}`,
			`invalid arguments for echo_schedule: /until: must be a date and time written like "01 Aug 24 00:00 +0000" (layout 02 Jan 06 15:04 -0700) (got "2024-08-01 18:00"); /day: must be a date (RFC 3339 full-date) such as "2024-01-31" (got "2024-02-30"); /clocks/0: must be a time written like "12:00AM" (layout 3:04PM) (got "09:30"); /clocks: must have at most 3 items (got 4)`},
		{`{"at":20240801,"day":20240801}`, `invalid arguments for echo_schedule: /at: must be a string written like "2024-08-01 00:00:00" (got 20240801); /day: must be a string (got 20240801)`},
		{`{}`, `invalid arguments for echo_schedule: /at: missing required property`},
	}
	for _, tc := range cases {
		if r := call(t, "echo_schedule", tc.args); r.Text() != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.args, r.Text(), tc.want)
		}
	}
}
