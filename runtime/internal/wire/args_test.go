package wire

import (
	"maps"
	"testing"
)

func TestArgumentsMap(t *testing.T) {
	args := []byte(`{"city": "Paris", "days": 3, "ok": true, "none": null,
		"tags": [ "a", "b" ], "where": {"lat": 48.85, "lng": 2.35}, "quote": "say \"hi\"\n"}`)
	got, err := ArgumentsMap(args)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"city":  "Paris",
		"days":  "3",
		"ok":    "true",
		"none":  "null",
		"tags":  `["a","b"]`,
		"where": `{"lat":48.85,"lng":2.35}`,
		"quote": "say \"hi\"\n",
	}
	if !maps.Equal(got, want) {
		t.Errorf("ArgumentsMap = %q, want %q", got, want)
	}
	if v, ok := Argument(args, "tags"); !ok || v != `["a","b"]` {
		t.Errorf("Argument(tags) = %q, %v", v, ok)
	}
	if v, ok := Argument(args, "missing"); ok || v != "" {
		t.Errorf("Argument(missing) = %q, %v", v, ok)
	}
	for _, blank := range []string{"", "  ", "null", "{}"} {
		if m, err := ArgumentsMap([]byte(blank)); err != nil || len(m) != 0 {
			t.Errorf("ArgumentsMap(%q) = %v, %v; want an empty map", blank, m, err)
		}
	}
	for _, bad := range []string{`[1]`, `"x"`, `{"a":`, `{"a":1}x`} {
		if _, err := ArgumentsMap([]byte(bad)); err == nil {
			t.Errorf("ArgumentsMap(%q) succeeded", bad)
		}
		if _, ok := Argument([]byte(bad), "a"); ok {
			t.Errorf("Argument(%q, a) found it", bad)
		}
	}
}
