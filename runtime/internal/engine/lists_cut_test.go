package engine

import (
	"strconv"
	"strings"
	"testing"
)

// A list of values or names in a message is whole up to maxListedBytes and cut past
// it, saying how many more there are.
func TestCutListLimit(t *testing.T) {
	// Items of 9 bytes joined by ", ": n items take 11n-2 bytes.
	item := func(i int) string { return strconv.Quote("v" + strings.Repeat("x", 5) + strconv.Itoa(i%10)) }
	var at []string
	for len(strings.Join(at, ", "))+2+len(item(len(at))) <= maxListedBytes {
		at = append(at, item(len(at)))
	}
	if got := cutList(at); got != strings.Join(at, ", ") || len(got) > maxListedBytes {
		t.Errorf("at the limit (%d bytes): cut to %q", len(strings.Join(at, ", ")), got)
	}
	past := append(at, item(len(at)))
	got := cutList(past)
	if want := strings.Join(at, ", ") + ", … (1 more)"; got != want {
		t.Errorf("one past the limit:\n got %q\nwant %q", got, want)
	}
	names := make([]string, 10000)
	for i := range names {
		names[i] = "name" + strconv.Itoa(i)
	}
	if msg := unknownMessage(strings.Repeat("z", 40), names); len(msg) > maxListedBytes+100 || !strings.HasSuffix(msg, "more)") {
		t.Errorf("10,000 names: %d bytes: %.80q…", len(msg), msg)
	}
}

// The search for the nearest name compares names while their work fits maxSuggestWork:
// a typo of a name within it is found, one past it is not looked for.
func TestNearestWorkLimit(t *testing.T) {
	const name = "propertx" // 8 bytes; each known name of 8 bytes costs 8+8+64 = 80
	per := len(name) + len(name) + len(name)*len(name)
	fits := maxSuggestWork / per
	known := make([]string, fits+1)
	for i := range known {
		known[i] = "zzzzzzzz"
	}
	known[fits-1] = "property"
	if got := nearest(name, known); got != "property" {
		t.Errorf("the last name within the work: %q", got)
	}
	known[fits-1], known[fits] = "zzzzzzzz", "property"
	if got := nearest(name, known); got != "" {
		t.Errorf("a name past the work was compared: %q", got)
	}
}
