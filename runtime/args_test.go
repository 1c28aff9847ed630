package runtime

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

func TestCheckResults(t *testing.T) {
	calls := []ToolCall{{ID: "a", Name: "echo"}, {ID: "b", Name: "list"}}
	answer := func(cs ...ToolCall) []CallResult {
		out := make([]CallResult, len(cs))
		for i, c := range cs {
			out[i] = CallResult{Call: c, Result: TextResult("ok")}
		}
		return out
	}
	if err := CheckResults(calls, answer(calls...)); err != nil {
		t.Errorf("CheckResults of matching results: %v", err)
	}
	if err := CheckResults(nil, nil); err != nil {
		t.Errorf("CheckResults of no calls: %v", err)
	}
	for _, bad := range [][]CallResult{
		answer(calls[0]),
		answer(calls[1], calls[0]),
		answer(calls[0], calls[1], calls[1]),
		answer(calls[0], ToolCall{ID: "b", Name: "echo"}),
	} {
		if err := CheckResults(calls, bad); err == nil {
			t.Errorf("CheckResults accepted %d mismatched results", len(bad))
		}
	}
}
